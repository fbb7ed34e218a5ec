package store_test

import (
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestMovesWrittenTogetherCommitOnceOrFailAlone, on PostgreSQL: a batch of
// the owners' moves is one transaction (one commit); a statement that
// fails rolls its batch back, and the others are then written alone, each
// once; a statement whose condition holds no row changes nothing and is
// no error.
func TestMovesWrittenTogetherCommitOnceOrFailAlone(t *testing.T) {
	db := storetest.Postgres(t)
	ctx := t.Context()
	if _, err := db.SQL().ExecContext(ctx, `CREATE TABLE probe (id integer PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	commits := func() uint64 {
		c, _ := db.DBCounts()
		return c.Commits.Count
	}
	rows := func() (ids []int) {
		r, err := db.SQL().QueryContext(ctx, `SELECT id FROM probe ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for r.Next() {
			var id int
			if err := r.Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		return ids
	}

	before := commits()
	ns, errs := store.WriteMovesTogether(ctx, db, stmt(`INSERT INTO probe VALUES (1)`), stmt(`INSERT INTO probe VALUES (2)`),
		stmt(`UPDATE probe SET id = 9 WHERE id = 99`))
	for i, err := range errs {
		if err != nil {
			t.Fatalf("statement %d: %v", i, err)
		}
	}
	if ns[0] != 1 || ns[1] != 1 || ns[2] != 0 {
		t.Errorf("rows changed %v; want [1 1 0]", ns)
	}
	if got := commits() - before; got != 1 {
		t.Errorf("a batch of three statements committed %d times; want once", got)
	}
	if s, ok := db.MoveBatches(); !ok || s.Batches != 1 || s.Moves != 3 || s.BySize[3] != 1 {
		t.Errorf("the batches' figures: %+v, %v; want one batch of 3", s, ok)
	}

	_, errs = store.WriteMovesTogether(ctx, db, stmt(`INSERT INTO probe VALUES (3)`), stmt(`INSERT INTO probe VALUES (1)`),
		stmt(`INSERT INTO probe VALUES (4)`))
	if errs[0] != nil || errs[2] != nil || errs[1] == nil {
		t.Errorf("errors %v; want only the second statement's (a key already stored)", errs)
	}
	if got, want := rows(), []int{1, 2, 3, 4}; len(got) != len(want) || got[2] != 3 || got[3] != 4 {
		t.Errorf("rows %v; want %v (each written once)", got, want)
	}
}

func stmt(q string) store.MoveStatement { return store.MoveStatement{SQL: q} }
