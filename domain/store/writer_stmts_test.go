package store_test

import (
	"testing"
	"time"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestAWriteStatementRunTwiceIsPreparedOnceAndRunsAsBefore: on a SQLite
// file a statement run in two write transactions is prepared on the write
// connection between transactions, and from then on runs prepared with the
// same effect: its rows changed, its constraint failures reported.
func TestAWriteStatementRunTwiceIsPreparedOnceAndRunsAsBefore(t *testing.T) {
	db := storetest.SQLite(t)
	ctx := t.Context()
	now := time.Now().UTC()
	insert := `INSERT INTO settings (name, value, created_at, updated_at) VALUES (?, ?, ?, ?)`
	update := `UPDATE settings SET value = ? WHERE name LIKE 'prep-%'`
	for i, name := range []string{"prep-1", "prep-2", "prep-3"} {
		if _, err := store.ExecInWriteTx(ctx, db, insert, name, "v", now, now); err != nil {
			t.Fatalf("insert %d: %v", i+1, err)
		}
		n, err := store.ExecInWriteTx(ctx, db, update, name)
		if err != nil {
			t.Fatalf("update %d: %v", i+1, err)
		}
		if n != int64(i+1) {
			t.Errorf("update %d changed %d rows, want %d", i+1, n, i+1)
		}
	}
	for _, q := range []string{insert, update} {
		if !store.WriterStatementPrepared(db, q) {
			t.Errorf("run three times, not prepared on the write connection: %s", q)
		}
	}
	if _, err := store.ExecInWriteTx(ctx, db, insert, "prep-1", "v", now, now); err == nil {
		t.Error("a prepared insert of a name taken: no error")
	}
	var value string
	if err := db.SQL().QueryRowContext(ctx, `SELECT value FROM settings WHERE name = 'prep-3'`).Scan(&value); err != nil || value != "prep-3" {
		t.Errorf("after the prepared update: %q, %v; want prep-3", value, err)
	}
}
