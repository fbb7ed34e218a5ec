package store_test

import (
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// commitsOf is how many commits db has timed, and whether it times them.
func commitsOf(db *store.DB) uint64 {
	if c, ok := db.DBCounts(); ok {
		return c.Commits.Count
	}
	if s, ok := db.GroupCommits(); ok {
		return s.Commits.Count
	}
	return 0
}

// TestEachCommitIsTimed: a write transaction's commit is counted in the
// commit histogram on both dialects, once; on PostgreSQL a write sent
// outside a transaction (it commits by itself) is too, a statement inside
// a transaction is not (its COMMIT is), and a read is not.
func TestEachCommitIsTimed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		before := commitsOf(db)
		gen := func() ([]byte, error) { return []byte("s3cret"), nil }
		if _, _, err := db.Secret(t.Context(), "committed", gen); err != nil { // a write transaction
			t.Fatal(err)
		}
		if n := commitsOf(db) - before; n != 1 {
			t.Errorf("a write transaction: %d commits timed, want 1", n)
		}
		var s store.CommitTimes
		if c, ok := db.DBCounts(); ok {
			s = c.Commits
		} else if g, ok := db.GroupCommits(); ok {
			s = g.Commits
		}
		if last := s.Within[len(s.Within)-1]; last > s.Count || s.Sum <= 0 {
			t.Errorf("histogram %+v: the buckets must be cumulative up to the count, and the time positive", s)
		}
		if db.Dialect() != store.Postgres {
			return
		}
		ctx, sqlDB := t.Context(), db.SQL()
		before = commitsOf(db)
		if _, err := sqlDB.ExecContext(ctx, "UPDATE settings SET value = value WHERE name = $1", "committed"); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := sqlDB.QueryRowContext(ctx, "SELECT count(*) FROM settings").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n := commitsOf(db) - before; n != 1 {
			t.Errorf("a write outside a transaction and a read: %d commits timed, want 1", n)
		}
		before = commitsOf(db)
		tx, err := sqlDB.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE settings SET value = value WHERE name = $1", "committed"); err != nil {
			t.Fatal(err)
		}
		if n := commitsOf(db) - before; n != 0 {
			t.Errorf("a write inside a transaction: %d commits timed before its COMMIT, want 0", n)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if n := commitsOf(db) - before; n != 1 {
			t.Errorf("a transaction's COMMIT: %d commits timed, want 1", n)
		}
	})
}
