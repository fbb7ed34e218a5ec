package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/engine"
)

// storedMoves returns a deal's move log as stored.
func storedMoves(t *testing.T, db *store.DB, id int64, deal int) []domain.TableMove {
	t.Helper()
	var ms []domain.TableMove
	err := db.View(context.Background(), func(tx domain.Tx) error {
		var err error
		ms, err = tx.Tables().Moves(id, deal)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// TestTableMoveIdempotency: a move retried with its Idempotency-Key
// answers the first result and is played once; the key is the user's, is
// refused for another request, and is forgotten after 24 hours.
func TestTableMoveIdempotency(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := twoHumans(e)
		st, _ := e.state(tokens[0], tb.ID)
		mover, waiter := tokens[st.View.Turn], tokens[1-st.View.Turn]
		moves := tablePath(tb.ID, "moves")
		draw := fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)
		key := map[string]string{"Idempotency-Key": "move-1"}
		first := e.must(200, req{Method: "POST", Path: moves, Token: mover, Body: draw, Header: key}, nil)
		again := e.must(200, req{Method: "POST", Path: moves, Token: mover, Body: draw, Header: key}, nil)
		if string(first.Body) != string(again.Body) || first.Header.Get("ETag") != again.Header.Get("ETag") {
			t.Errorf("the retry answered differently:\n%s\n%s", first.Body, again.Body)
		}
		if n := len(storedMoves(t, db, tb.ID, 1)); n != 1 {
			t.Fatalf("%d moves stored after a retried draw", n)
		}
		now, _ := e.state(tokens[0], tb.ID)
		if now.Version != st.Version+1 {
			t.Errorf("version %d after one draw from %d", now.Version, st.Version)
		}
		problemOf(t, e.must(422, req{Method: "POST", Path: moves, Token: mover, Header: key,
			Body: fmt.Sprintf(`{"move":"draw","version":%d}`, now.Version)}, nil), "idempotency_key_reused")
		// Keys are per user: the other player's "move-1" is their own.
		problemOf(t, e.must(409, req{Method: "POST", Path: moves, Token: waiter, Body: draw, Header: key}, nil), "version_conflict")
		problemOf(t, e.must(422, req{Method: "POST", Path: moves, Token: mover, Body: draw,
			Header: map[string]string{"Idempotency-Key": strings.Repeat("k", 201)}}, nil), "invalid_input")
		// After 24 hours the key is forgotten: the old request is stale.
		e.clock.Add(domain.IdempotencyTTL + time.Minute)
		if _, err := e.svc.Tables.Tick(context.Background(), e.clock.Now()); err != nil {
			t.Fatal(err)
		}
		mover = e.login([]string{"anna@example.com", "bruno@example.com"}[st.View.Turn], "password-123").AccessToken
		problemOf(t, e.must(409, req{Method: "POST", Path: moves, Token: mover, Body: draw, Header: key}, nil), "version_conflict")
	})
}

// clockTable starts a 2-player table of a human (seat 0) against a bot
// with the given clocks; the human is on turn.
func clockTable(e *env, turnSeconds, matchSeconds int) (api.Table, string) {
	e.t.Helper()
	_, tok := e.user("sara@example.com", "Sara")
	tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Match: &api.MatchFormat{Deals: 1},
		TurnSeconds: turnSeconds, MatchSeconds: matchSeconds, AutoStart: true})
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, &tb)
	return tb, tok.AccessToken
}

func (e *env) tick(want int) {
	e.t.Helper()
	n, err := e.svc.Tables.Tick(context.Background(), e.clock.Now())
	if err != nil || n != want {
		e.t.Fatalf("tick: %d tables changed, want %d; err %v", n, want, err)
	}
}

// TestTableTurnClock: a turn that runs out is played by the server (draw,
// then the highest-value discard allowed, marked auto), from the take or
// after the player's own take; the bot then plays and the turn comes back.
func TestTableTurnClock(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tok := clockTable(e, 30, 0)
		st, _ := e.state(tok, tb.ID)
		if st.TurnSecondsLeft == nil || *st.TurnSecondsLeft != 30 || st.MatchSecondsLeft != nil {
			t.Fatalf("clocks at the start: turn %v, match %v", st.TurnSecondsLeft, st.MatchSecondsLeft)
		}
		e.clock.Add(10 * time.Second)
		e.tick(0)
		if st, _ = e.state(tok, tb.ID); *st.TurnSecondsLeft != 20 {
			t.Fatalf("turn left %v after 10 s", *st.TurnSecondsLeft)
		}
		g, _ := serverGame(t, db, tb.ID)
		hand := append(g.Hand(0), g.Position().Stock[0]) // after the draw
		e.clock.Add(21 * time.Second)
		e.tick(1)
		after, _ := e.state(tok, tb.ID)
		ms := storedMoves(t, db, tb.ID, 1)
		played := int64(0) // the time-out's moves and the bot's, a version each
		for _, m := range ms {
			if m.Version > st.Version {
				played++
			}
		}
		if played == 0 || after.Version != st.Version+played || after.View.Turn != 0 || *after.TurnSecondsLeft != 30 {
			t.Fatalf("after the time-out: version %d (was %d, %d moves since), turn %d, left %v", after.Version, st.Version,
				played, after.View.Turn, *after.TurnSecondsLeft)
		}
		var human []domain.TableMove
		for _, m := range ms {
			if m.Seat == 0 {
				human = append(human, m)
			}
		}
		if len(human) != 2 || string(human[0].Move) != `{"move":"draw"}` || !human[0].Auto || !human[1].Auto {
			t.Fatalf("the time-out moves: %+v", human)
		}
		var discard engine.Move
		if err := discard.UnmarshalJSON(human[1].Move); err != nil || discard.Kind != engine.Discard {
			t.Fatalf("second time-out move %s", human[1].Move)
		}
		r := g.Rules()
		for _, c := range hand {
			if r.CardPoints(c) > r.CardPoints(discard.Card) {
				t.Errorf("discarded %s (%d points) while holding %s (%d)", discard.Card, r.CardPoints(discard.Card), c, r.CardPoints(c))
				break
			}
		}

		// Taken in time, then out of time: only the discard is the server's.
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tok, Body: fmt.Sprintf(`{"move":"draw","version":%d}`, after.Version)}, nil)
		e.clock.Add(31 * time.Second)
		e.tick(1)
		ms = storedMoves(t, db, tb.ID, 1)
		n := len(human)
		human = human[:0]
		for _, m := range ms {
			if m.Seat == 0 {
				human = append(human, m)
			}
		}
		if len(human) != n+2 || human[n].Auto || !human[n+1].Auto {
			t.Fatalf("own draw then a time-out discard: %+v", human[n:])
		}
	})
}

// TestTableMatchClock: the time of each turn is charged to the player on
// turn; when a player's match clock runs out the deal is ended by referee
// (its record readable and replayable) and the match is lost.
func TestTableMatchClock(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tok := clockTable(e, 0, 60)
		st, _ := e.state(tok, tb.ID)
		if st.TurnSecondsLeft != nil || !cmp.Equal(st.MatchSecondsLeft, []float64{60, 60}) {
			t.Fatalf("clocks at the start: turn %v, match %v", st.TurnSecondsLeft, st.MatchSecondsLeft)
		}
		e.clock.Add(20 * time.Second)
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tok, Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, &st)
		g, _ := serverGame(t, db, tb.ID)
		var discard engine.Move
		for _, m := range g.LegalMoves(0) {
			if m.Kind == engine.Discard {
				discard = m
				break
			}
		}
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tok, Body: moveBody(t, discard, st.Version)}, &st)
		if st.Table.Status != "playing" {
			t.Skip("the first discard ended the deal")
		}
		if !cmp.Equal(st.MatchSecondsLeft, []float64{40, 60}) {
			t.Fatalf("match clocks after a 20 s turn: %v", st.MatchSecondsLeft)
		}
		e.clock.Add(39 * time.Second)
		e.tick(0)
		e.clock.Add(time.Second)
		e.tick(1)
		var final api.TableState
		e.must(200, req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: tok}, &final)
		ft := final.Table
		if ft.Status != "finished" || ft.LostOnTime == nil || *ft.LostOnTime != 0 || ft.Winner == nil || *ft.Winner != 1 || ft.Draw {
			t.Fatalf("lost on time: %+v", ft)
		}
		if len(final.Deals) != 1 || final.View == nil || final.View.End != "referee" {
			t.Fatalf("the deal was not ended by referee: %+v", final.Deals)
		}
		checkRecords(t, e, tok, tb.ID, final.Deals)
		var rec api.DealRecord
		e.must(200, req{Method: "GET", Path: tablePath(tb.ID, "deals", "1", "record"), Token: tok}, &rec)
		if !rec.EndedByReferee {
			t.Errorf("the record does not say the referee ended it")
		}
		e.tick(0) // a finished table is left alone
		// A long poll of a finished table (from a fresh process, which does
		// not keep finished tables) waits its time: no client spins.
		restarted := newEnv(t, db)
		t0 := time.Now()
		restarted.must(304, req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=1", tablePath(tb.ID, "state"), final.Version), Token: tok}, nil)
		if took := time.Since(t0); took < time.Second {
			t.Errorf("a poll of a finished table answered after %v", took)
		}
	})
}
