package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"strings"

	"github.com/burraco/burraco/api"
)

// config is what the commands read from flags and the environment. A flag
// wins over its environment variable, which wins over the default.
type config struct {
	addr           string         // BURRACO_ADDR
	databaseURL    string         // DATABASE_URL
	logLevel       string         // LOG_LEVEL
	trustedProxies []netip.Prefix // BURRACO_TRUSTED_PROXIES
}

// flags registers the common flags on fs, with defaults from the environment.
func (c *config) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.databaseURL, "database", envOr("DATABASE_URL", "burraco.db"),
		"database: a SQLite file path or a postgres:// URL (env DATABASE_URL)")
	fs.StringVar(&c.logLevel, "log-level", envOr("LOG_LEVEL", "info"),
		"log level: debug, info, warn or error (env LOG_LEVEL)")
}

// parseTrustedProxies reads a comma-separated list of CIDRs; a bare
// address stands for itself alone (a /32 or /128).
func parseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range splitList(list) {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil || a.Zone() != "" {
				return nil, fmt.Errorf("trusted proxies: %q is not a CIDR such as 10.0.0.0/8 or fd00::/8, nor an address", s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		if p.Addr().Is4In6() && p.Bits() >= 96 { // clients' addresses are unmapped too
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, nil
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

// newLogger returns a text logger on w at the named level: slog's text
// handler, in the form whose request lines the API writes without slog.
func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		return nil, fmt.Errorf("bad log level %q: want debug, info, warn or error", level)
	}
	return slog.New(api.NewLogHandler(w, api.LogText, l)), nil
}
