package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

const migrateUsage = `usage: burraco migrate [flags] up|down [N]|status [flags]

  up        apply every pending migration
  down [N]  revert the last N applied migrations (default 1)
  status    list the migrations and whether each is applied

flags:
`

// runMigrate applies, reverts or lists the database migrations.
func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(stderr, migrateUsage); fs.PrintDefaults() }
	c.flags(fs)
	rest, code, ok := parseInterspersed(fs, args, stderr)
	if !ok {
		return code
	}
	if len(rest) == 0 || !validAction(rest[0]) || (rest[0] != "down" && len(rest) > 1) || len(rest) > 2 {
		fs.Usage()
		return 2
	}
	steps := 1
	if rest[0] == "down" && len(rest) == 2 {
		n, err := strconv.Atoi(rest[1])
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "burraco migrate: bad step count %q\n", rest[1])
			return 2
		}
		steps = n
	}
	db, err := store.Open(ctx, c.databaseURL)
	if err != nil {
		fmt.Fprintln(stderr, "burraco migrate:", err)
		return 1
	}
	defer db.Close()
	if err := migrate(ctx, db, rest[0], steps, stdout); err != nil {
		fmt.Fprintln(stderr, "burraco migrate:", err)
		return 1
	}
	return 0
}

func migrate(ctx context.Context, db *store.DB, action string, steps int, stdout io.Writer) error {
	switch action {
	case "up":
		vs, err := migrations.Up(ctx, db.SQL(), db.Dialect())
		report(stdout, "applied", vs)
		return err
	case "down":
		vs, err := migrations.Down(ctx, db.SQL(), db.Dialect(), steps)
		report(stdout, "reverted", vs)
		return err
	case "status":
		st, err := migrations.Status(ctx, db.SQL(), db.Dialect())
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "VERSION\tNAME\tAPPLIED")
		for _, m := range st {
			applied := "no"
			if m.AppliedAt != nil {
				applied = m.AppliedAt.Local().Format(time.DateTime)
			}
			fmt.Fprintf(tw, "%04d\t%s\t%s\n", m.Version, m.Name, applied)
		}
		return tw.Flush()
	}
	return fmt.Errorf("unknown action %q: want up, down or status", action)
}

// parseInterspersed parses args like parseFlags but lets flags come after
// the positional arguments too (migrate status -database x), returning the
// positional ones in order. Everything after "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string, stderr io.Writer) (positional []string, code int, ok bool) {
	for {
		if code, ok := parseFlags(fs, args, stderr); !ok {
			return nil, code, false
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), 0, true
		}
		if len(rest) == 0 {
			return positional, 0, true
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

func validAction(a string) bool { return a == "up" || a == "down" || a == "status" }

func report(w io.Writer, verb string, versions []int) {
	if len(versions) == 0 {
		fmt.Fprintf(w, "nothing %s\n", verb)
		return
	}
	for _, v := range versions {
		fmt.Fprintf(w, "%s %04d\n", verb, v)
	}
}
