package domain_test

import (
	"encoding/json"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// TestIdempotencyKeyOneStoreForTablesAndTournaments: a table move and a
// tournament command sent with an Idempotency-Key share one store. The same
// key with the same request answers the first answer, also from services
// started anew over the same database (stored, not in memory); the same
// key with another request, also one to the other kind of resource, is
// refused with the one code.
func TestIdempotencyKeyOneStoreForTablesAndTournaments(t *testing.T) {
	draw := json.RawMessage(`{"move":"draw"}`)
	cases := []struct {
		name string
		// first and retry send a request under the key "k" of a user to a
		// started bot table or a tournament open for entries.
		first, retry func(svc domain.Services, w idemWorld) (any, error)
		want         domain.Code
		replayed     bool
	}{
		{name: "same move after a restart replays the first state", first: move(draw, 0), retry: move(draw, 0), replayed: true},
		{name: "another move under the key is refused", first: move(draw, 0), retry: move(draw, 1), want: domain.EIdempotencyKeyReused},
		{name: "same command after a restart replays the first event", first: enter("POST a"), retry: enter("POST a"), replayed: true},
		{name: "another command under the key is refused", first: enter("POST a"), retry: enter("POST b"), want: domain.EIdempotencyKeyReused},
		{name: "a tournament command under a move's key is refused", first: move(draw, 0), retry: enter("POST a"), want: domain.EIdempotencyKeyReused},
		{name: "a move under a tournament command's key is refused", first: enter("POST a"), retry: move(draw, 0), want: domain.EIdempotencyKeyReused},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			each(t, func(t *testing.T, f *fixture) {
				pf := newPlayField(f, 1)
				act(f, f.svc.Play, pf.owner, pf.t.ID, tourney.OpenRegistration{})
				w := idemWorld{f: f, pf: pf, table: f.botTable(pf.players[0])}
				st, err := f.svc.Tables.State(t.Context(), pf.players[0], w.table.ID, "")
				wantCode(t, err, "")
				w.version = st.Table.Version
				first, err := c.first(f.svc, w)
				wantCode(t, err, "")
				restarted := domain.NewServices(f.db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
				again, err := c.retry(restarted, w)
				wantCode(t, err, c.want)
				if !c.replayed {
					return
				}
				a, _ := json.Marshal(first)
				b, _ := json.Marshal(again)
				if string(a) != string(b) {
					t.Errorf("the retry answered\n%s\nthe first request\n%s", b, a)
				}
			})
		})
	}
}

// idemWorld is what the requests of an idempotency case go to.
type idemWorld struct {
	f       *fixture
	pf      playField
	table   domain.Table
	version int64 // the table's version before the first request
}

// move sends m to the table at its version before the first request plus
// ahead, and answers the state it got.
func move(m json.RawMessage, ahead int64) func(domain.Services, idemWorld) (any, error) {
	return func(svc domain.Services, w idemWorld) (any, error) {
		in := domain.MoveInput{Move: m, Version: w.version + ahead, IdempotencyKey: "k"}
		return svc.Tables.Move(w.f.t.Context(), w.pf.players[0], w.table.ID, in)
	}
}

// enter enters the table's user and another player as a pair, the API's
// request hash being hash, and answers the event.
func enter(hash string) func(domain.Services, idemWorld) (any, error) {
	return func(svc domain.Services, w idemWorld) (any, error) {
		a, b := w.pf.players[0], w.pf.players[1]
		cmd := domain.TournamentCommand{Command: tourney.AddEntry{Players: []int64{playerID(w.f, a), playerID(w.f, b)}},
			IdempotencyKey: "k", RequestHash: hash}
		out, err := svc.Play.Act(w.f.t.Context(), a, w.pf.t.ID, cmd)
		return out.Event, err
	}
}

// TestAMovePlayableUnderAnotherMovesLiveKeyIsRefusedAndNotPlayed: a move
// is played before its key is looked up (the key is stored in one
// statement after the play); one that can be played, sent under the key
// of the mover's earlier move, is refused with idempotency_key_reused and
// what it played is rolled back: the same move under a key of its own then
// plays at the same version.
func TestAMovePlayableUnderAnotherMovesLiveKeyIsRefusedAndNotPlayed(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		owner := f.user("anna@example.org")
		tb := f.botTable(owner)
		st, err := f.svc.Tables.State(ctx, owner, tb.ID, "")
		wantCode(t, err, "")
		drawn, err := f.svc.Tables.Move(ctx, owner, tb.ID, domain.MoveInput{Move: json.RawMessage(`{"move":"draw"}`),
			Version: st.Table.Version, IdempotencyKey: "k"})
		wantCode(t, err, "")
		for _, c := range drawn.View.Hand {
			in := domain.MoveInput{Move: json.RawMessage(`{"move":"discard","card":"` + c.String() + `"}`),
				Version: drawn.Table.Version, IdempotencyKey: "k"}
			_, err := f.svc.Tables.Move(ctx, owner, tb.ID, in)
			wantCode(t, err, domain.EIdempotencyKeyReused)
			now, err := f.svc.Tables.State(ctx, owner, tb.ID, "")
			wantCode(t, err, "")
			if now.Table.Version != drawn.Table.Version {
				t.Fatalf("version %d after a refused discard of %s, want %d: it was played", now.Table.Version, c, drawn.Table.Version)
			}
			in.IdempotencyKey = "k2"
			if _, err = f.svc.Tables.Move(ctx, owner, tb.ID, in); domain.ErrorKind(err) == domain.KindRule {
				continue // a discard the rules refuse: the next card
			}
			wantCode(t, err, "") // the discard refused under "k" was playable
			return
		}
		t.Fatalf("no card of %v could be discarded", drawn.View.Hand)
	})
}
