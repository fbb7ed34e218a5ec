package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

func openTestPool(t *testing.T) *stmtPool {
	t.Helper()
	path, params, err := sqliteParams(filepath.Join(t.TempDir(), "pool.db"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", path+"?"+params.Encode())
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // as the write pool: a transaction holds the only connection
	p := newStmtPool(db)
	t.Cleanup(func() { p.close(); db.Close() })
	if _, err := db.Exec("CREATE TABLE t (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStmtPoolInTransactions: a statement first met inside a transaction
// that holds the only connection runs (it does not wait for a connection to
// prepare it on), is prepared in the background, and later transactions use
// the prepared statement.
func TestStmtPoolInTransactions(t *testing.T) {
	p := openTestPool(t)
	ctx := context.Background()
	const insert = "INSERT INTO t (x) VALUES (?)"
	inTx := func() {
		t.Helper()
		c, err := p.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		tx := c.(*stmtTx)
		if _, err := tx.ExecContext(ctx, insert, 1); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n == 0 {
			t.Fatalf("count %d, %v", n, err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	go func() { inTx(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a transaction waited for a connection to prepare a statement on")
	}
	deadline := time.Now().Add(10 * time.Second)
	for p.cached(insert) == nil {
		if time.Now().After(deadline) {
			t.Fatal("the statement was not prepared in the background")
		}
		time.Sleep(time.Millisecond)
	}
	s := p.cached(insert)
	inTx()
	if p.cached(insert) != s {
		t.Error("the cached statement was replaced")
	}
}

// TestStmtPoolIsBounded: past stmtCacheSize distinct statements the cache
// starts afresh, and every statement still runs.
func TestStmtPoolIsBounded(t *testing.T) {
	p := openTestPool(t)
	ctx := context.Background()
	for i := range stmtCacheSize + 10 {
		var x int
		if err := p.QueryRowContext(ctx, fmt.Sprintf("SELECT %d", i)).Scan(&x); err != nil || x != i {
			t.Fatalf("SELECT %d: %d, %v", i, x, err)
		}
	}
	p.mu.RLock()
	n := len(p.stmts)
	p.mu.RUnlock()
	if n > stmtCacheSize {
		t.Errorf("%d statements cached, want at most %d", n, stmtCacheSize)
	}
}
