package store_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
)

// TestAnOwnersKeyedMoveOnPostgresIsOneStatement: a move sent with an
// Idempotency-Key, its game in memory, is one statement as one without
// (the key's answer stored by an upsert in the move's statement,
// owned_move.go: the key is not looked up first), with no notice; the
// move sent again under its key is answered its first answer, the key
// looked up once the version check refused it.
func TestAnOwnersKeyedMoveOnPostgresIsOneStatement(t *testing.T) {
	o := newOwnedTable(t)
	actor, st := o.state(t)
	if _, err := o.move(o.ctx, actor, st, st.Table.Version); err != nil { // the game is now in memory
		t.Fatal(err)
	}
	actor, st = o.state(t)
	in := domain.MoveInput{Move: json.RawMessage(`{"move":"draw"}`), Version: st.Table.Version, IdempotencyKey: "k"}
	if st.View.Phase != "take" {
		in.Move = json.RawMessage(`{"move":"discard","card":"` + st.View.Hand[0].String() + `"}`)
	}
	count := store.CountStatements(o.db)
	first, err := o.svc.Tables.Move(o.ctx, actor, o.id, in)
	if err != nil {
		t.Fatal(err)
	}
	got := count()
	if len(got) != 1 || !strings.Contains(got[0], "INSERT INTO idempotency_keys") {
		t.Errorf("%d statements, want 1 (the fence, the key's upsert, the move, the table's update):\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, q := range got {
		if strings.Contains(q, "pg_notify") || strings.HasPrefix(q, "DELETE") {
			t.Errorf("a keyed move sent %s", q)
		}
	}
	again, err := o.svc.Tables.Move(o.ctx, actor, o.id, in)
	if err != nil {
		t.Fatalf("the move sent again under its key: %v", err)
	}
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Errorf("the move sent again answered\n%s\nthe first time\n%s", b, a)
	}
	if _, now := o.state(t); now.Table.Version != first.Table.Version {
		t.Errorf("version %d after the move sent again, want %d", now.Table.Version, first.Table.Version)
	}
}
