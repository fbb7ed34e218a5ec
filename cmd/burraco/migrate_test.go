package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMigrateFlagsAnywhere: the flags of migrate may come before or after
// the action and its step count.
func TestMigrateFlagsAnywhere(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "m.db")
	other := filepath.Join(t.TempDir(), "not-this-one.db")
	t.Setenv("DATABASE_URL", other) // the default, which -database overrides
	migrate := func(args ...string) (int, string, string) {
		t.Helper()
		var out, errOut bytes.Buffer
		code := run(ctx, append([]string{"migrate"}, args...), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	ok := func(want string, args ...string) {
		t.Helper()
		code, out, errOut := migrate(args...)
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("migrate %v: exit %d, want output with %q\n%s%s", args, code, want, out, errOut)
		}
	}
	ok("applied 0001", "up", "-database", db)
	ok("nothing applied", "-database", db, "up")
	ok("reverted 0001", "down", "99", "-database", db, "-log-level", "warn") // every migration, however many
	ok("applied", "-log-level=warn", "up", "--database="+db)
	ok("reverted", "down", "-database", db)
	ok("0001", "status", "-database", db)
	ok("0001", "-database", db, "status", "-log-level", "warn")

	for _, args := range [][]string{
		{"status", "-database"},                  // flag without its value
		{"status", "-bogus", "-database", db},    // unknown flag
		{"up", "-database", db, "down"},          // two actions
		{"down", "-database", db, "2", "3"},      // two counts
		{"status", "-database", db, "1"},         // a count for status
		{"-database", db},                        // no action
		{"-database", db, "--", "-database", db}, // after --, nothing is a flag
	} {
		if code, out, errOut := migrate(args...); code != 2 {
			t.Errorf("migrate %v: exit %d, want 2\n%s%s", args, code, out, errOut)
		}
	}
	code, _, errOut := migrate("down", "0", "-database", db)
	if code != 2 || !strings.Contains(errOut, `bad step count "0"`) {
		t.Errorf("down 0: exit %d: %s", code, errOut)
	}
	code, _, errOut = migrate("up", "-h")
	if code != 0 || !strings.Contains(errOut, "usage: burraco migrate") {
		t.Errorf("up -h: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(other); err == nil {
		t.Errorf("a -database after the action was ignored: %s was opened", other)
	}
}
