package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/internal/servertest"
)

// TestTablesNeverStallUnderLoad plays a small evening through the load
// generator, on SQLite and on PostgreSQL with two serve processes: every
// table finishes, no long poll misses a wake-up, no answer is older than an
// acknowledged move, and every acknowledged move is in its deal's record.
// (The figures of 100 tables come from running the command; see its doc.)
func TestTablesNeverStallUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and plays tables over HTTP")
	}
	for _, c := range []struct {
		name string
		args func(t *testing.T) []string
	}{
		{"sqlite", func(*testing.T) []string { return nil }},
		{"postgres-two-processes", func(t *testing.T) []string {
			// The sqlite run builds the binary itself; this one takes
			// servertest's (the one .ci/test.sh built for every package).
			return []string{"-db", "postgres", "-processes", "2", "-postgres", storetest.PostgresURL(t), "-binary", servertest.Binary(t)}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"-tables", "12", "-stuck", "20s"}, c.args(t)...)
			var out bytes.Buffer
			if code := run(t.Context(), args, &out, &out); code != 0 || !strings.Contains(out.String(), ": clean") {
				t.Fatalf("loadtables %s: exit %d\n%s", strings.Join(args, " "), code, out.String())
			}
			t.Log(out.String())
		})
	}
}
