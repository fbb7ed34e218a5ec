package api_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/engine"
)

// standInTable starts a 2-player fibur match of two humans, Anna (seat 0,
// the creator, who does not referee the match she plays) and Bruno (seat
// 1), with the given settings, and returns it with their tokens.
func standInTable(e *env, body api.TableCreateRequest) (api.Table, [2]string) {
	e.t.Helper()
	_, a := e.user("anna@example.com", "Anna")
	_, b := e.user("bruno@example.com", "Bruno")
	body.Rules, body.Players = "fibur", 2
	tb := e.newTable(a.AccessToken, body)
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: b.AccessToken}, nil)
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: a.AccessToken}, &tb)
	return tb, [2]string{a.AccessToken, b.AccessToken}
}

// playTurn plays seat's whole turn (take, lays, discard) with moves chosen
// from its legal moves, and returns the state after it (and after the
// bots' turns it let play) as seat sees it. The seat must be on turn.
func playTurn(t *testing.T, e *env, db *store.DB, id int64, token string, seat int, c chooser) api.TableState {
	t.Helper()
	for range 200 {
		st, _ := e.state(token, id)
		if st.Table.Status != "playing" || st.View.Turn != seat {
			t.Fatalf("seat %d is not on turn: status %s, turn %d", seat, st.Table.Status, st.View.Turn)
		}
		g, _ := serverGame(t, db, id)
		m := c.choose(g, seat)
		e.must(200, req{Method: "POST", Path: tablePath(id, "moves"), Token: token, Body: moveBody(t, m, st.Version)}, nil)
		if m.Kind == engine.Discard {
			st, _ = e.state(token, id)
			return st
		}
	}
	t.Fatal("the turn did not end")
	return api.TableState{}
}

// feedBy returns who chose each move of the current deal's feed from
// since on, per seat.
func feedBy(e *env, token string, id, since int64) map[int][]string {
	e.t.Helper()
	var feed api.TableMoves
	e.must(200, req{Method: "GET", Path: tablePath(id, "moves") + fmt.Sprintf("?since=%d", since), Token: token}, &feed)
	out := map[int][]string{}
	for _, m := range feed.Items {
		out[m.Seat] = append(out[m.Seat], m.By)
	}
	return out
}

// onlyBy reports whether bys is not empty and every one is by.
func onlyBy(bys []string, by string) bool {
	for _, b := range bys {
		if b != by {
			return false
		}
	}
	return len(bys) > 0
}

// TestTableAbsentPlayerStoodInByBotUntilBackAtNextTurn: with absent policy
// bot, a player on turn who makes no move for the grace period gets a bot
// standing in (its moves marked by bot, the seat marked absent) instead of
// forfeiting; the bot goes on playing the seat's turns; the player's first
// poll marks them returning, and they take the seat back at their next
// turn, their moves marked by player.
func TestTableAbsentPlayerStoodInByBotUntilBackAtNextTurn(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := standInTable(e, api.TableCreateRequest{Match: &api.MatchFormat{Deals: 2}, GraceSeconds: ptr(60),
			AbsentPolicy: "bot"})
		if tb.AbsentPolicy != "bot" {
			t.Fatalf("absent_policy %q", tb.AbsentPolicy)
		}
		c := chooser{rand.New(rand.NewPCG(17, 4))}
		st, _ := e.state(tokens[0], tb.ID)
		away := st.View.Turn
		here := 1 - away
		e.tick(0) // the process watches from now
		e.clock.Add(59 * time.Second)
		e.tick(0)
		e.clock.Add(time.Second)
		e.tick(1)
		after, _ := e.state(tokens[here], tb.ID)
		if s := after.Table.Seats[away]; after.Table.Status != "playing" || s.StandIn != "absent" || s.Returning {
			t.Fatalf("after the grace period: status %s, seat %+v", after.Table.Status, s)
		}
		if by := feedBy(e, tokens[here], tb.ID, st.Version)[away]; !onlyBy(by, "bot") {
			t.Fatalf("the absent seat's moves: by %v, want bot", by)
		}
		if after.View.Turn != here || after.LastMove == nil || after.LastMove.By != "bot" || !after.LastMove.Auto {
			t.Fatalf("after the stand-in's turn: turn %d, last move %+v", after.View.Turn, after.LastMove)
		}

		// The bot plays the absent seat's next turn too.
		before := after.Version
		after = playTurn(t, e, db, tb.ID, tokens[here], here, c)
		if by := feedBy(e, tokens[here], tb.ID, before); !onlyBy(by[here], "player") || !onlyBy(by[away], "bot") || after.View.Turn != here {
			t.Fatalf("a turn later: by %v, turn %d", by, after.View.Turn)
		}

		// The absent player polls: they are back, and take the seat at
		// their next turn, not before.
		back, _ := e.state(tokens[away], tb.ID)
		if s := back.Table.Seats[away]; s.StandIn != "absent" || !s.Returning || back.Version != after.Version+1 {
			t.Fatalf("after the player's poll: seat %+v, version %d (was %d)", s, back.Version, after.Version)
		}
		mine := playTurn(t, e, db, tb.ID, tokens[here], here, c)
		if s := mine.Table.Seats[away]; s.StandIn != "" || s.Returning || mine.View.Turn != away || mine.LastMove.By != "player" {
			t.Fatalf("at the player's next turn: seat %+v, turn %d, last move %+v", s, mine.View.Turn, mine.LastMove)
		}
		before = mine.Version
		playTurn(t, e, db, tb.ID, tokens[away], away, c)
		if by := feedBy(e, tokens[away], tb.ID, before)[away]; !onlyBy(by, "player") {
			t.Fatalf("the player's own turn: by %v", by)
		}
		moves := storedMoves(t, db, tb.ID, 1)
		bots := 0
		for _, m := range moves {
			if m.Seat == away && m.By == domain.ByBot {
				bots++
			}
		}
		if bots == 0 {
			t.Fatal("the stand-in's moves are not marked in the move log")
		}
	})
}

// TestTableAbsentPlayerMoveAttemptMarksThemBack: a player a bot stands in
// for who tries a move (never on turn: the bot plays at once) is refused,
// and marked returning by the attempt.
func TestTableAbsentPlayerMoveAttemptMarksThemBack(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := standInTable(e, api.TableCreateRequest{Match: &api.MatchFormat{Deals: 2}, GraceSeconds: ptr(60),
			AbsentPolicy: "bot"})
		st, _ := e.state(tokens[0], tb.ID)
		away := st.View.Turn
		e.tick(0)
		e.clock.Add(time.Minute)
		e.tick(1)
		var seen api.Table
		e.must(200, req{Method: "GET", Path: tablePath(tb.ID)}, &seen) // not a request of the player's
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[away],
			Body: fmt.Sprintf(`{"move":"draw","version":%d}`, seen.Version)}, nil), "not_your_turn")
		var after api.Table
		e.must(200, req{Method: "GET", Path: tablePath(tb.ID)}, &after)
		if s := after.Seats[away]; seen.Seats[away].Returning || s.StandIn != "absent" || !s.Returning {
			t.Fatalf("before the attempt %+v, after it %+v", seen.Seats[away], s)
		}
	})
}

// TestTableForfeitPolicyStillForfeits: absent policy forfeit (the
// default) keeps forfeiting; an unknown policy is refused.
func TestTableForfeitPolicyStillForfeits(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := standInTable(e, api.TableCreateRequest{GraceSeconds: ptr(60)})
		if tb.AbsentPolicy != "forfeit" {
			t.Fatalf("default absent_policy %q", tb.AbsentPolicy)
		}
		e.tick(0)
		e.clock.Add(time.Minute)
		e.tick(1)
		st, _ := e.state(tokens[0], tb.ID)
		if st.Table.Result != "abandoned" {
			t.Fatalf("result %q", st.Table.Result)
		}
		p := problemOf(t, e.must(422, req{Method: "POST", Path: "/api/v1/tables", Token: tokens[0],
			Body: `{"rules":"fibur","players":2,"absent_policy":"sleep"}`}, nil), "invalid_input")
		if len(p.Errors) != 1 || p.Errors[0].Field != "absent_policy" {
			t.Errorf("errors %+v", p.Errors)
		}
	})
}

// TestTableRefereeReplacesPlayerByBot: the table's referee replaces a
// player by a bot with a reason: the bot plays the seat's turns (at once
// when on turn), the seat shows why; the player takes it back at their
// next turn after a request of theirs. Only the referee, with a reason,
// for a human seat of a running match, once.
func TestTableRefereeReplacesPlayerByBot(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := standInTable(e, api.TableCreateRequest{Match: &api.MatchFormat{Deals: 2}, GraceSeconds: ptr(0)})
		c := chooser{rand.New(rand.NewPCG(3, 9))}
		st, _ := e.state(tokens[0], tb.ID)
		if st.View.Turn == 0 { // Bruno (seat 1) on turn when replaced
			st = playTurn(t, e, db, tb.ID, tokens[0], 0, c)
			if st.View.Turn != 1 {
				t.Fatalf("turn %d after Anna's", st.View.Turn)
			}
		}
		standIns := tablePath(tb.ID, "stand-ins")
		body := func(seat int, reason string) map[string]any { return map[string]any{"seat": seat, "reason": reason} }
		ref := e.siteAdmin().AccessToken // Anna, the creator, plays: she does not referee
		problemOf(t, e.must(401, req{Method: "POST", Path: standIns, Body: body(1, "lost connection")}, nil), "unauthenticated")
		problemOf(t, e.must(403, req{Method: "POST", Path: standIns, Token: tokens[1], Body: body(0, "lost connection")}, nil), "forbidden")
		problemOf(t, e.must(403, req{Method: "POST", Path: standIns, Token: tokens[0], Body: body(1, "lost connection")}, nil), "own_table")
		for _, bad := range []struct {
			body  any
			field string
		}{{body(2, "lost connection"), "seat"}, {map[string]any{"reason": "lost connection"}, "seat"}, {body(1, " "), "reason"},
			{body(1, strings.Repeat("è", 501)), "reason"}} {
			if p := problemOf(t, e.must(422, req{Method: "POST", Path: standIns, Token: ref, Body: bad.body}, nil), "invalid_input"); len(p.Errors) != 1 || p.Errors[0].Field != bad.field {
				t.Errorf("%v: errors %+v", bad.body, p.Errors)
			}
		}
		// 500 characters, as openapi.yaml counts them: more than 500 bytes.
		reason := "lost connection " + strings.Repeat("è", 484)
		var replaced api.TableState
		e.must(200, req{Method: "POST", Path: standIns, Token: ref, Body: body(1, reason)}, &replaced)
		if s := replaced.Table.Seats[1]; s.StandIn != "referee" || s.StandInReason != reason || replaced.Seat != -1 {
			t.Fatalf("after the replacement: seat %+v, turn %d", s, replaced.View.Turn)
		}
		if by := feedBy(e, tokens[0], tb.ID, st.Version)[1]; !onlyBy(by, "bot") {
			t.Fatalf("the replaced seat's turn: by %v", by)
		}
		if turn, _ := e.state(tokens[0], tb.ID); turn.View.Turn != 0 {
			t.Fatalf("after the replacement: turn %d, want Anna's", turn.View.Turn)
		}
		problemOf(t, e.must(409, req{Method: "POST", Path: standIns, Token: ref, Body: body(1, "again")}, nil), "conflict")

		// The bot plays Bruno's turns until he is back, then he takes his
		// seat at his next turn.
		before := replaced.Version
		after := playTurn(t, e, db, tb.ID, tokens[0], 0, c)
		if by := feedBy(e, tokens[0], tb.ID, before)[1]; !onlyBy(by, "bot") || after.Table.Seats[1].StandIn != "referee" {
			t.Fatalf("a turn later: by %v, seat %+v", by, after.Table.Seats[1])
		}
		if back, _ := e.state(tokens[1], tb.ID); !back.Table.Seats[1].Returning {
			t.Fatalf("after Bruno's poll: %+v", back.Table.Seats[1])
		}
		mine := playTurn(t, e, db, tb.ID, tokens[0], 0, c)
		if s := mine.Table.Seats[1]; s.StandIn != "" || s.StandInReason != "" || mine.View.Turn != 1 {
			t.Fatalf("at Bruno's next turn: seat %+v, turn %d", s, mine.View.Turn)
		}

		// A bot's own seat is not replaced; nor any seat once over.
		_, sara := e.user("sara@example.com", "Sara")
		bt := e.newTable(sara.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, AutoStart: true, GraceSeconds: ptr(0)})
		e.must(200, req{Method: "POST", Path: tablePath(bt.ID, "bots"), Token: sara.AccessToken}, nil)
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(bt.ID, "stand-ins"), Token: ref, Body: body(1, "x")}, nil), "conflict")
		e.must(200, req{Method: "POST", Path: tablePath(bt.ID, "leave"), Token: sara.AccessToken}, nil)
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(bt.ID, "stand-ins"), Token: ref, Body: body(0, "x")}, nil), "conflict")
	})
}

// TestTableDeadlineCallsTimeOutAndEndsMatchWithThatDeal: once the clock
// passes a table's deadline, the tick calls the RULES §10 time-out (the
// state says so), the deal's last round is played, and the match ends
// with that deal although its format asks for more; the record keeps the
// time-out. A deadline not in the future is refused.
func TestTableDeadlineCallsTimeOutAndEndsMatchWithThatDeal(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user("sara@example.com", "Sara")
		deadline := e.clock.Now().Add(30 * time.Minute)
		tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Match: &api.MatchFormat{Deals: 3},
			AutoStart: true, GraceSeconds: ptr(0), Deadline: &deadline})
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, &tb)
		if tb.Deadline == nil || !tb.Deadline.Equal(deadline) || tb.DeadlinePassed {
			t.Fatalf("deadline %v, passed %v", tb.Deadline, tb.DeadlinePassed)
		}
		c := chooser{rand.New(rand.NewPCG(8, 1))}
		playTurn(t, e, db, tb.ID, tok.AccessToken, 0, c)
		e.clock.Add(30*time.Minute - time.Second)
		e.tick(0)
		e.clock.Add(time.Second)
		e.tick(1)
		e.tick(0)                                         // called once
		tok = e.login("sara@example.com", "password-123") // the half-hour-old token has expired
		st, _ := e.state(tok.AccessToken, tb.ID)
		if !st.Table.DeadlinePassed || st.View.LastRound == nil || st.Table.Status != "playing" || st.Table.DealNumber != 1 {
			t.Fatalf("after the deadline: passed %v, last round %+v, status %s, deal %d", st.Table.DeadlinePassed,
				st.View.LastRound, st.Table.Status, st.Table.DealNumber)
		}
		final, _ := playHuman(t, e, db, tb.ID, tok.AccessToken, 0, c, "")
		if final.Table.Status != "finished" || len(final.Deals) != 1 || final.Table.Result != "played" {
			t.Fatalf("final: status %s, %d deals, result %s", final.Table.Status, len(final.Deals), final.Table.Result)
		}
		totals := final.MatchTotals
		switch {
		case totals[0] > totals[1] && (final.Table.Winner == nil || *final.Table.Winner != 0),
			totals[1] > totals[0] && (final.Table.Winner == nil || *final.Table.Winner != 1),
			totals[0] == totals[1] && !final.Table.Draw:
			t.Fatalf("totals %v: winner %v, draw %v", totals, final.Table.Winner, final.Table.Draw)
		}
		var rec api.DealRecord
		e.must(200, req{Method: "GET", Path: tablePath(tb.ID, "deals", "1", "record"), Token: tok.AccessToken}, &rec)
		if rec.TimeoutAt == nil {
			t.Fatal("the record does not keep the time-out")
		}
		checkRecords(t, e, tok.AccessToken, tb.ID, final.Deals)

		past := e.clock.Now()
		p := problemOf(t, e.must(422, req{Method: "POST", Path: "/api/v1/tables", Token: tok.AccessToken,
			Body: api.TableCreateRequest{Rules: "fibur", Players: 2, Deadline: &past}}, nil), "invalid_input")
		if len(p.Errors) != 1 || p.Errors[0].Field != "deadline" {
			t.Errorf("errors %+v", p.Errors)
		}
	})
}

// TestTableDeadlineAfterRefereeTimeOutKeepsTheCall: a deadline passing
// after the referee's own time-out gives no more turns (the call stands)
// and still ends the match with that deal.
func TestTableDeadlineAfterRefereeTimeOutKeepsTheCall(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user("sara@example.com", "Sara")
		deadline := e.clock.Now().Add(time.Hour)
		tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Match: &api.MatchFormat{Deals: 3},
			AutoStart: true, GraceSeconds: ptr(0), Deadline: &deadline})
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, nil)
		var called api.TableState // by a site admin: Sara plays, she does not referee
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "timeout"), Token: e.siteAdmin().AccessToken}, &called)
		e.clock.Add(time.Hour)
		e.tick(1)
		tok = e.login("sara@example.com", "password-123") // the hour-old token has expired
		st, _ := e.state(tok.AccessToken, tb.ID)
		if !st.Table.DeadlinePassed || *st.View.LastRound != *called.View.LastRound {
			t.Fatalf("last round %+v after the deadline, %+v after the call", st.View.LastRound, called.View.LastRound)
		}
		c := chooser{rand.New(rand.NewPCG(2, 2))}
		if final, _ := playHuman(t, e, db, tb.ID, tok.AccessToken, 0, c, ""); len(final.Deals) != 1 {
			t.Fatalf("%d deals played", len(final.Deals))
		}
	})
}

// TestTableAbsentPlayerLongPollMarksThemBack: a long poll of a player a
// bot stands in for, at the version they last saw, marks them returning
// and answers at once with that change, rather than waiting.
func TestTableAbsentPlayerLongPollMarksThemBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := standInTable(e, api.TableCreateRequest{Match: &api.MatchFormat{Deals: 2}, GraceSeconds: ptr(60),
			AbsentPolicy: "bot"})
		st, _ := e.state(tokens[0], tb.ID)
		away := st.View.Turn
		e.tick(0)
		e.clock.Add(time.Minute)
		e.tick(1)
		var seen api.Table
		e.must(200, req{Method: "GET", Path: tablePath(tb.ID)}, &seen)
		var back api.TableState
		e.must(200, req{Method: "GET", Path: tablePath(tb.ID, "state") + fmt.Sprintf("?since=%d&wait=30", seen.Version),
			Token: tokens[away], Timeout: 10 * time.Second}, &back)
		if s := back.Table.Seats[away]; !s.Returning || back.Version != seen.Version+1 {
			t.Fatalf("the long poll answered version %d (seen %d), seat %+v", back.Version, seen.Version, s)
		}
	})
}

// TestTableAbsentPlayerReadingTheTableMarksThemBack: reading the table or
// its moves is a request of the player's too.
func TestTableAbsentPlayerReadingTheTableMarksThemBack(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := standInTable(e, api.TableCreateRequest{Match: &api.MatchFormat{Deals: 2}, GraceSeconds: ptr(60),
			AbsentPolicy: "bot"})
		st, _ := e.state(tokens[0], tb.ID)
		away := st.View.Turn
		e.tick(0)
		e.clock.Add(time.Minute)
		e.tick(1)
		for _, path := range []string{tablePath(tb.ID), tablePath(tb.ID, "moves")} {
			var seen api.Table
			e.must(200, req{Method: "GET", Path: tablePath(tb.ID)}, &seen)
			if s := seen.Seats[away]; s.StandIn != "absent" || s.Returning {
				t.Fatalf("before GET %s: %+v", path, s)
			}
			e.must(200, req{Method: "GET", Path: path, Token: tokens[away]}, nil)
			e.must(200, req{Method: "GET", Path: tablePath(tb.ID)}, &seen)
			if s := seen.Seats[away]; !s.Returning {
				t.Fatalf("after GET %s: %+v", path, s)
			}
			// The bot stands in again: the player's turn came and went.
			if tb := playTurn(t, e, db, tb.ID, tokens[1-away], 1-away, chooser{rand.New(rand.NewPCG(1, 1))}); tb.View.Turn != away {
				t.Fatalf("turn %d", tb.View.Turn)
			}
			e.clock.Add(time.Minute)
			e.tick(1)
		}
	})
}
