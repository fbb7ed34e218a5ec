package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
)

// config is what the commands read from flags and the environment. A flag
// wins over its environment variable, which wins over the default.
type config struct {
	addr        string // BURRACO_ADDR
	databaseURL string // DATABASE_URL
	logLevel    string // LOG_LEVEL
}

// flags registers the common flags on fs, with defaults from the environment.
func (c *config) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.databaseURL, "database", envOr("DATABASE_URL", "burraco.db"),
		"database: a SQLite file path or a postgres:// URL (env DATABASE_URL)")
	fs.StringVar(&c.logLevel, "log-level", envOr("LOG_LEVEL", "info"),
		"log level: debug, info, warn or error (env LOG_LEVEL)")
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// parseFlags parses args, printing errors and usage to stderr; ok is false
// when the command should stop with exit code 2 (or 0 after -h).
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	fs.SetOutput(stderr)
	switch err := fs.Parse(args); {
	case err == flag.ErrHelp:
		return 0, false
	case err != nil:
		return 2, false
	}
	return 0, true
}

// newLogger returns a text logger on w at the named level.
func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		return nil, fmt.Errorf("bad log level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}
