package domain_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

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

// TestAStateReadCatchingUpACachedDealShowsTheMovesPlayedSince: a state
// read that finds the table's running deal in memory a move behind (here
// a move played through another service on the same database, as by
// another process; in one process, a read that put back the deal it read
// while a move was being committed) plays the moves logged since on it,
// and answers, and keeps, the state a fresh read of the rows gives. On
// SQLite the catch-up read another table's deal (its placeholders bound
// out of order): table A's deal 1, with no moves, where B's moves from
// index 1 were asked for, so the read answered B's new version with the
// game before its last move, and every later read of that version too
// (the stuck table of 2026-11-28: a seat never told its turn). A is the
// database's first table (id 1) and B's deal is number 1, as in that run.
func TestAStateReadCatchingUpACachedDealShowsTheMovesPlayedSince(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		anna, bruno := f.user("anna@example.org"), f.user("bruno@example.org")
		startedTwoSeats(t, f.svc, anna, bruno) // A: its deal 1 has no moves
		b := startedTwoSeats(t, f.svc, anna, bruno)
		seats := []domain.Actor{anna, bruno}
		other := domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
		st, err := f.svc.Tables.State(ctx, anna, b.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		mover := seats[st.View.Turn]
		if st, err = f.svc.Tables.State(ctx, mover, b.ID, ""); err != nil {
			t.Fatal(err)
		}
		// The draw through f.svc, which keeps the deal in memory after it
		// (one move: the catch-up reads from index 1); the discard through
		// other, which f.svc hears of as of another process.
		drawn, err := f.svc.Tables.Move(ctx, mover, b.ID, domain.MoveInput{Move: []byte(`{"move":"draw"}`), Version: st.Table.Version})
		if err != nil {
			t.Fatal(err)
		}
		card, _ := json.Marshal(drawn.View.Hand[0])
		discarded, err := other.Tables.Move(ctx, mover, b.ID, domain.MoveInput{
			Move: []byte(`{"move":"discard","card":` + string(card) + `}`), Version: drawn.Table.Version})
		if err != nil {
			t.Fatal(err)
		}
		domain.AnnounceTableChange(f.svc.Tables, b.ID, discarded.Table.Version)
		for _, seat := range seats {
			got, err := f.svc.Tables.State(ctx, seat, b.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			cold := domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
			want, err := cold.Tables.State(ctx, seat, b.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			if got.Table.Version != want.Table.Version || got.View.Turn != want.View.Turn || got.View.Phase != want.View.Phase ||
				!reflect.DeepEqual(got.View, want.View) || !reflect.DeepEqual(got.Deal, want.Deal) || !reflect.DeepEqual(got.LastMove, want.LastMove) {
				t.Errorf("seat %d reads version %d turn %d phase %s (last move %s), the rows say version %d turn %d phase %s (last move %s)",
					got.Seat, got.Table.Version, got.View.Turn, got.View.Phase, lastMoveOf(got),
					want.Table.Version, want.View.Turn, want.View.Phase, lastMoveOf(want))
			}
		}
	})
}

func lastMoveOf(st domain.TableState) string {
	if st.LastMove == nil {
		return "none"
	}
	return string(st.LastMove.Move)
}

// TestARetryAnsweredItsFirstAnswerWakesThePollsOfTheVersionBefore: a keyed
// move committed through another process (or by this one while its
// request ended: issue 30's failover run), retried here under its key, is
// answered its stored answer; the polls this process holds on the version
// before it learn the new version then, instead of waiting on a version
// nothing moves again.
func TestARetryAnsweredItsFirstAnswerWakesThePollsOfTheVersionBefore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		anna, bruno := f.user("anna@example.org"), f.user("bruno@example.org")
		b := startedTwoSeats(t, f.svc, anna, bruno)
		seats := []domain.Actor{anna, bruno}
		st, err := f.svc.Tables.State(ctx, anna, b.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		mover, waiter := seats[st.View.Turn], seats[1-st.View.Turn]
		before := st.Table.Version
		if v, _, err := f.svc.Tables.Watch(ctx, waiter, b.ID, "", before-1); err != nil || v != before {
			t.Fatalf("the table's version here: %d, %v; want %d", v, err, before)
		}
		draw := domain.MoveInput{Move: []byte(`{"move":"draw"}`), Version: before, IdempotencyKey: "draw-1"}
		other := domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
		first, err := other.Tables.Move(ctx, mover, b.ID, draw) // this process is not told
		if err != nil {
			t.Fatal(err)
		}
		again, err := f.svc.Tables.Move(ctx, mover, b.ID, draw)
		if err != nil || again.Table.Version != first.Table.Version {
			t.Fatalf("the retry: version %d, %v; want the first answer's %d", again.Table.Version, err, first.Table.Version)
		}
		wait, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		start := time.Now()
		v, _, err := f.svc.Tables.Watch(wait, waiter, b.ID, "", before)
		if err != nil || v != first.Table.Version {
			t.Errorf("a poll since %d after the retry: version %d, %v after %v; want %d at once", before, v, err, time.Since(start).Round(time.Millisecond), first.Table.Version)
		}
	})
}

// TestAStartedTablesGameIsInMemoryAndIsWhatIsStored: the change that
// starts a match (the creator's start, the last seat taken at a table that
// starts by itself, a bot added last) leaves the dealt game in the
// process's memory, so that the seats' first states and the first move do
// not read and replay it; what it shows is what a process that reads the
// stored deal shows, to each seat.
func TestAStartedTablesGameIsInMemoryAndIsWhatIsStored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		owner := f.user("owner@example.org")
		guest := f.user("guest@example.org")
		starts := map[string]func() domain.Table{
			"ByTheCreator": func() domain.Table { return f.botTable(owner) },
			"ByTheLastSeatTaken": func() domain.Table {
				tb, err := f.svc.Tables.Create(ctx, owner, domain.TableInput{Rules: "fibur", Players: 2, AutoStart: true})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.svc.Tables.Join(ctx, guest, tb.ID, nil, ""); err != nil {
					t.Fatal(err)
				}
				return tb
			},
			"ByABotAddedLast": func() domain.Table {
				tb, err := f.svc.Tables.Create(ctx, guest, domain.TableInput{Rules: "fibur", Players: 4, AutoStart: true})
				if err != nil {
					t.Fatal(err)
				}
				for range 3 {
					if _, err := f.svc.Tables.AddBot(ctx, guest, tb.ID, nil); err != nil {
						t.Fatal(err)
					}
				}
				return tb
			},
		}
		for name, start := range starts {
			t.Run(name, func(t *testing.T) {
				tb := start()
				if held, _ := domain.CachedPosition(f.svc.Tables, tb.ID); !held {
					t.Fatal("the started match's game is not in memory")
				}
				cold := domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
				for _, who := range []domain.Actor{owner, guest} {
					warm, err := f.svc.Tables.State(ctx, who, tb.ID, "")
					if err != nil {
						t.Fatal(err)
					}
					want, err := cold.Tables.State(ctx, who, tb.ID, "")
					if err != nil {
						t.Fatal(err)
					}
					warm.Presence, want.Presence = nil, nil
					if warm.Table.Status != domain.TablePlaying || !reflect.DeepEqual(warm, want) {
						t.Fatalf("the state from memory differs from the stored deal's:\n got %+v\nwant %+v", warm, want)
					}
				}
			})
		}
	})
}

// TestAFinishedMatchsStateIsMadeInMemory: the move that ends a match
// keeps the finished table's last deal in memory, and so does the first
// state read of a finished table a process does not hold (here a process
// with nothing in memory); every seat's read is made from it (each read
// from the rows was a transaction and the deal's replay, four seats'
// polls a table woken at once when a hundred matches end within a
// second), and answers what the rows say.
func TestAFinishedMatchsStateIsMadeInMemory(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		anna, bruno := f.user("anna@example.org"), f.user("bruno@example.org")
		tb, err := f.svc.Tables.Create(ctx, anna, domain.TableInput{Rules: "fibur", Players: 2, Match: domain.MatchFormat{Deals: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Tables.Join(ctx, bruno, tb.ID, nil, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Tables.Start(ctx, anna, tb.ID); err != nil {
			t.Fatal(err)
		}
		seats := [2]domain.Actor{anna, bruno}
		st, err := f.svc.Tables.State(ctx, anna, tb.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; st.Table.Status == domain.TablePlaying; i++ {
			if i == 500 {
				t.Fatal("the one-deal match did not end in 500 moves")
			}
			if st, err = benchMove(f.svc, seats[st.View.Turn], tb.ID, st); err != nil {
				t.Fatalf("move %d: %v", i, err)
			}
		}
		if st.Table.Status != domain.TableFinished {
			t.Fatalf("the table is %s after its one deal, want finished", st.Table.Status)
		}
		if held, _ := domain.CachedPosition(f.svc.Tables, tb.ID); !held {
			t.Fatal("the move that ended the match did not keep the finished table's last deal in memory")
		}
		cold := domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
		fresh := func(seat domain.Actor) domain.TableState { // the rows', by a process holding nothing
			t.Helper()
			st, err := domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams}).Tables.State(ctx, seat, tb.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			st.Presence = nil
			return st
		}
		for i, seat := range []domain.Actor{anna, bruno, anna, bruno} {
			want := fresh(seat)
			for _, svc := range []domain.Services{f.svc, cold} {
				got, err := svc.Tables.State(ctx, seat, tb.ID, "")
				if err != nil {
					t.Fatal(err)
				}
				if held, _ := domain.CachedPosition(svc.Tables, tb.ID); !held {
					t.Fatalf("read %d: the finished table's last deal is not in memory after a state read", i)
				}
				got.Presence = nil
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("read %d: the finished table's state from memory differs from the rows':\n got %+v\nwant %+v", i, got, want)
				}
			}
		}
	})
}
