// Command burraco is the one binary of the project: the HTTP server and the
// operator's tools.
//
//	burraco serve            start the HTTP API (SQLite file by default)
//	burraco migrate up|down|status
//	burraco seed-demo        a demo club, its users, players and a tournament to click through
//	burraco conformance DIR  run the rules conformance cases under DIR
//	burraco replay FILE      replay or check a deal record
//	burraco admin reset-password -email EMAIL   set a password, end the sessions
//	burraco admin load-accounts -count N        a load test's accounts, with a refresh token each
//	burraco backup FILE      a consistent copy of the SQLite database, while serving
//	burraco restore FILE     put a backup in place, with the servers stopped
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand: it gets its own arguments and returns the
// process exit code.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() map[string]command {
	return map[string]command{
		"serve":       {"start the HTTP API server", runServe},
		"migrate":     {"apply or inspect database migrations (up, down, status)", runMigrate},
		"seed-demo":   {"create a demo club with its users, players and a tournament", runSeedDemo},
		"conformance": {"run the rules conformance cases in a directory", runConformance},
		"replay":      {"replay and check a deal record", runReplay},
		"admin":       {"operator's account tools: admin reset-password -email EMAIL; admin load-accounts -count N", runAdmin},
		"backup":      {"copy the SQLite database into a new file, while the server runs", runBackup},
		"restore":     {"replace the SQLite database with a backup, the server stopped", runRestore},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout, cmds)
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "burraco: unknown command %q\n\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: burraco <command> [flags]\n\ncommands:")
	for _, name := range []string{"serve", "migrate", "seed-demo", "conformance", "replay", "admin", "backup", "restore"} {
		fmt.Fprintf(w, "  %-12s %s\n", name, cmds[name].summary)
	}
}
