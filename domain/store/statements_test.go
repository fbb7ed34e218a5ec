package store_test

import (
	"strings"
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// countOf is the count of statements of op on table in c.
func countOf(c store.DBCounts, op, table string) uint64 {
	for _, s := range c.Statements {
		if s.Op == op && s.Table == table {
			return s.Count
		}
	}
	return 0
}

func TestPostgresStatementsAreCountedByKind(t *testing.T) {
	db := storetest.Postgres(t)
	before, ok := db.DBCounts()
	if !ok {
		t.Fatal("no counts on PostgreSQL")
	}
	if before.Connects == 0 {
		t.Error("no connection counted, yet the store answered")
	}
	gen := func() ([]byte, error) { return []byte("s3cret"), nil }
	if _, _, err := db.Secret(t.Context(), "pgwhy", gen); err != nil { // a transaction: begin, a read, an insert, commit
		t.Fatal(err)
	}
	after, _ := db.DBCounts()
	for _, k := range []struct{ op, table string }{{"begin", ""}, {"select", "settings"}, {"insert", "settings"}, {"commit", ""}} {
		if n := countOf(after, k.op, k.table) - countOf(before, k.op, k.table); n != 1 {
			t.Errorf("%s %s: counted %d, want 1", k.op, k.table, n)
		}
	}
	found := false
	for _, s := range db.StatementTexts() {
		found = found || s.Count > 0 && strings.HasPrefix(s.SQL, `INSERT INTO "settings"`)
	}
	if !found {
		t.Errorf("the settings' insert is not among the texts listed: %+v", db.StatementTexts())
	}
}

func TestPostgresPreparesAStatementOncePerConnection(t *testing.T) {
	db := storetest.Postgres(t)
	db.SQL().SetMaxOpenConns(1) // one connection: the second run finds the statement prepared
	before, _ := db.DBCounts()
	for range 3 {
		var n int
		if err := db.SQL().QueryRowContext(t.Context(), "SELECT count(*) FROM settings WHERE name = $1", "pgwhy").Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := db.DBCounts()
	if n := after.Prepared - before.Prepared; n != 1 {
		t.Errorf("prepared %d times, want once", n)
	}
	if n := countOf(after, "select", "settings") - countOf(before, "select", "settings"); n != 3 {
		t.Errorf("counted %d statements, want 3", n)
	}
}

func TestSQLiteHasNoPostgresCounts(t *testing.T) {
	if _, ok := storetest.SQLite(t).DBCounts(); ok {
		t.Error("SQLite reports PostgreSQL's counts")
	}
}
