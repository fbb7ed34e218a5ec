package domain_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTableMovesAnswerWhatIsStored: moves sent in turn through two
// services on one database (two processes, each keeping the games it
// played in memory) are each played on the stored position, never on a
// game the other service has since moved on from, and each answer is the
// state a fresh read of the rows gives: by a new service, which holds no
// game in memory and reads the stored position and the moves logged after
// it, and by the first service.
func TestTableMovesAnswerWhatIsStored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		owner := f.user("owner@example.org")
		other := domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
		tb := f.botTable(owner)
		services := []domain.Services{f.svc, f.svc, other, f.svc, other, other}
		st, err := f.svc.Tables.State(ctx, owner, tb.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 120 && st.Table.Status == domain.TablePlaying; i++ {
			move := []byte(`{"move":"draw"}`)
			if st.View.Phase != "take" {
				card, _ := json.Marshal(st.View.Hand[0])
				move = []byte(`{"move":"discard","card":` + string(card) + `}`)
			}
			f.clock.Advance(1234567) // not a whole microsecond
			got, err := services[i%len(services)].Tables.Move(ctx, owner, tb.ID,
				domain.MoveInput{Move: move, Version: st.Table.Version})
			if err != nil {
				t.Fatalf("move %d (%s) at version %d: %v", i, move, st.Table.Version, err)
			}
			cold := domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
			want, err := cold.Tables.State(ctx, owner, tb.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			warm, err := f.svc.Tables.State(ctx, owner, tb.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			// Presence is each process's memory of its polls, not stored: a
			// new service has seen nobody.
			warm.Presence, want.Presence = nil, nil
			if !reflect.DeepEqual(warm, want) {
				t.Fatalf("move %d: the state read by a service that played moves differs from a new service's:\n got %+v\nwant %+v", i, warm, want)
			}
			if got.Table.Version <= st.Table.Version { // one version per move, the bot's after it too
				t.Fatalf("move %d: version %d after %d", i, got.Table.Version, st.Table.Version)
			}
			for _, c := range []struct {
				what      string
				got, want any
			}{
				{"view", got.View, want.View}, {"last move", got.LastMove, want.LastMove}, {"deal", got.Deal, want.Deal},
				{"deals", got.Deals, want.Deals}, {"totals", got.Totals, want.Totals}, {"version", got.Table.Version, want.Table.Version},
			} {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Fatalf("move %d: the answer's %s differs from the stored state:\n got %+v\nwant %+v", i, c.what, c.got, c.want)
				}
			}
			st = want
		}
	})
}

// TestTheCachedGameHoldsNoStoredPosition: the running deal a process keeps
// in memory is the parsed game, not the stored position it came from (a
// few kilobytes of JSON a table, issue 30's memory), whether it was read
// from the rows, moved on, or moved on by the move that stored a new
// position.
func TestTheCachedGameHoldsNoStoredPosition(t *testing.T) {
	for _, c := range []struct {
		name  string
		moves int
	}{
		{"ReadFromTheRows", 0},
		{"AfterAMove", 1},
		{"AfterTheMoveThatStoredAPosition", domain.PositionEvery},
	} {
		t.Run(c.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				f := newFixture(t, db)
				anna, bruno := f.user("anna@example.org"), f.user("bruno@example.org")
				tb := startedTwoSeats(t, f.svc, anna, bruno)
				seats := [2]domain.Actor{anna, bruno}
				st, err := f.svc.Tables.State(t.Context(), anna, tb.ID, "")
				if err != nil {
					t.Fatal(err)
				}
				for i := range c.moves {
					if st, err = benchMove(f.svc, seats[st.View.Turn], tb.ID, st); err != nil {
						t.Fatalf("move %d: %v", i, err)
					}
				}
				svc := f.svc.Tables
				if c.moves == 0 { // a process with nothing in memory reads the rows
					svc = domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams}).Tables
					if _, err := svc.State(t.Context(), anna, tb.ID, ""); err != nil {
						t.Fatal(err)
					}
				}
				held, n := domain.CachedPosition(svc, tb.ID)
				if !held {
					t.Fatal("the running deal is not in memory")
				}
				if n != 0 {
					t.Errorf("the cached game keeps %d bytes of stored position", n)
				}
			})
		})
	}
}
