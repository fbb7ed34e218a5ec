package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTableRefereeTimeOut: the referee of a club table calls the time-out;
// the state shows the last round, the deal ends after it, and the deal's
// record (with timeout_at) replays to the stored score. Only the club's
// referees and admins may call it, once per deal, and only while playing.
func TestTableRefereeTimeOut(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, owner := e.user("olga@example.com", "Olga")
		_, sara := e.user("sara@example.com", "Sara")
		rita, ritaTok := e.user("rita@example.com", "Rita")
		var club api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: owner.AccessToken, Body: api.ClubCreateRequest{Name: "Circolo", City: "Roma"}}, &club)
		members := fmt.Sprintf("/api/v1/clubs/%d/members", club.ID)
		e.must(201, req{Method: "POST", Path: members, Token: owner.AccessToken, Body: map[string]any{"user_id": rita.ID, "role": "referee"}}, nil)
		e.must(201, req{Method: "POST", Path: members, Token: owner.AccessToken, Body: map[string]any{"email": "sara@example.com", "role": "member"}}, nil)
		tb := e.newTable(sara.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, ClubID: &club.ID,
			Match: &api.MatchFormat{Deals: 1}, AutoStart: true})
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: sara.AccessToken}, nil)
		timeout := tablePath(tb.ID, "timeout")

		// One turn of the player before the call.
		c := chooser{rand.New(rand.NewPCG(5, 6))}
		for {
			st, _ := e.state(sara.AccessToken, tb.ID)
			g, _ := serverGame(t, db, tb.ID)
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: sara.AccessToken, Body: moveBody(t, c.choose(g, 0), st.Version)}, nil)
			if g, _ = serverGame(t, db, tb.ID); g.Turn() == 0 && g.Phase().String() == "take" || g.Over() {
				break
			}
		}
		before, _ := e.state(sara.AccessToken, tb.ID)
		if before.Table.Status != "playing" {
			t.Skip("the deal ended in the first turn")
		}
		problemOf(t, e.must(403, req{Method: "POST", Path: timeout, Token: sara.AccessToken}, nil), "forbidden") // a member, not a referee
		problemOf(t, e.must(401, req{Method: "POST", Path: timeout}, nil), "unauthenticated")
		var called api.TableState
		res := e.must(200, req{Method: "POST", Path: timeout, Token: ritaTok.AccessToken}, &called)
		if called.Version != before.Version+1 || called.Seat != -1 || res.Header.Get("ETag") == "" {
			t.Fatalf("after the time-out: version %d (was %d), seat %d", called.Version, before.Version, called.Seat)
		}
		if lr := called.View.LastRound; lr == nil || lr.Until != 1 || lr.TurnsLeft != 2 {
			t.Fatalf("the referee's view: last_round %+v, want until 1 with 2 turns left (a full round from the player due to take)", lr)
		}
		st, _ := e.state(sara.AccessToken, tb.ID)
		if st.View.LastRound == nil || st.View.LastRound.TurnsLeft != 2 {
			t.Fatalf("the player's view: last_round %+v", st.View.LastRound)
		}
		problemOf(t, e.must(422, req{Method: "POST", Path: timeout, Token: ritaTok.AccessToken}, nil), "not_allowed")

		final, moves := playHuman(t, e, db, tb.ID, sara.AccessToken, 0, c, "")
		if moves > 8 {
			t.Errorf("%d moves of the player after the time-out: the last round is one turn", moves)
		}
		if final.Table.Status != "finished" || final.View == nil || final.View.End == "" {
			t.Fatalf("final: %+v", final.Table)
		}
		if final.View.End != "timeout" && final.View.End != "closed" {
			t.Errorf("the deal ended by %q after the time-out", final.View.End)
		}
		var rec api.DealRecord
		e.must(200, req{Method: "GET", Path: tablePath(tb.ID, "deals", "1", "record"), Token: sara.AccessToken}, &rec)
		stored := storedMoves(t, db, tb.ID, 1)
		if rec.TimeoutAt == nil || *rec.TimeoutAt <= 0 || *rec.TimeoutAt >= len(stored) {
			t.Fatalf("record timeout_at %v of %d moves", rec.TimeoutAt, len(stored))
		}
		checkRecords(t, e, sara.AccessToken, tb.ID, final.Deals)
		problemOf(t, e.must(409, req{Method: "POST", Path: timeout, Token: ritaTok.AccessToken}, nil), "conflict")
	})
}

// TestTableAbandon: a player who leaves a running match forfeits it: the
// deal is ended by the server (its record replays), the match is lost by
// that team, the table is finished with result abandoned and who left.
func TestTableAbandon(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := twoHumans(e)
		st, _ := e.state(tokens[0], tb.ID)
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[st.View.Turn],
			Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, &st)
		var left api.Table
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "leave"), Token: tokens[0]}, &left)
		if left.Status != "finished" || left.Result != "abandoned" || left.AbandonedBy == nil || *left.AbandonedBy != 0 ||
			left.Winner == nil || *left.Winner != 1 || left.Version != st.Version+1 || left.FinishedAt == nil {
			t.Fatalf("after leaving: %+v", left)
		}
		var final api.TableState
		e.must(200, req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: tokens[1]}, &final)
		if final.View == nil || final.View.End != "referee" || len(final.Deals) != 1 {
			t.Fatalf("the deal was not ended by the server: %+v", final.View)
		}
		checkRecords(t, e, tokens[1], tb.ID, final.Deals)
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(tb.ID, "leave"), Token: tokens[1]}, nil), "conflict")
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[1],
			Body: fmt.Sprintf(`{"move":"draw","version":%d}`, final.Version)}, nil), "conflict")
	})
}

// TestTableGraceForfeit: a player on turn who makes no move for the
// table's grace period forfeits at the next tick; 0 turns it off; a
// shorter turn clock plays the turn instead; the setting is validated.
func TestTableGraceForfeit(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user("sara@example.com", "Sara")
		newGrace := func(grace *int, turn int) api.Table {
			tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, AutoStart: true,
				GraceSeconds: grace, TurnSeconds: turn})
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, &tb)
			return tb
		}
		if tb := newGrace(nil, 0); tb.GraceSeconds != domain.DefaultGraceSeconds {
			t.Fatalf("default grace %d", tb.GraceSeconds)
		}
		e.must(200, req{Method: "POST", Path: tablePath(1, "leave"), Token: tok.AccessToken}, nil) // out of the way
		away := newGrace(ptr(60), 0)
		off := newGrace(ptr(0), 0)
		clocked := newGrace(ptr(60), 30)
		e.tick(0) // the process watches from now
		e.clock.Add(30 * time.Second)
		e.tick(1) // the turn clock of clocked
		e.clock.Add(29 * time.Second)
		e.tick(0)
		e.clock.Add(time.Second)
		e.tick(2) // away, and clocked's turn clock again
		var st api.TableState
		e.must(200, req{Method: "GET", Path: tablePath(away.ID, "state"), Token: tok.AccessToken}, &st)
		if tt := st.Table; tt.Status != "finished" || tt.Result != "abandoned" || tt.AbandonedBy == nil || *tt.AbandonedBy != 0 || *tt.Winner != 1 {
			t.Fatalf("after the grace period: %+v", tt)
		}
		e.clock.Add(24 * time.Hour)
		if n, err := e.svc.Tables.Tick(context.Background(), e.clock.Now()); err != nil || n != 1 { // clocked's turn clock again; off never
			t.Fatalf("tick: %d, %v", n, err)
		}
		for _, id := range []int64{off.ID, clocked.ID} {
			e.must(200, req{Method: "GET", Path: tablePath(id, "state")}, &st) // public: the day-old token has expired
			if st.Table.Status != "playing" {
				t.Errorf("table %d (grace %d, turn clock %d): %s", id, st.Table.GraceSeconds, st.Table.TurnSeconds, st.Table.Status)
			}
		}
		tok = e.login("sara@example.com", "password-123")

		// A server that was down forfeits nobody for it: absence counts
		// from its first tick after the restart.
		away = newGrace(ptr(60), 0)
		restarted := newEnv(t, db)
		restarted.clock.Add(e.clock.Now().Sub(restarted.clock.Now()) + 10*time.Minute)
		restarted.tick(1) // clocked's turn clock only
		restarted.clock.Add(59 * time.Second)
		restarted.tick(1) // clocked's turn clock again (30 s)
		restarted.must(200, req{Method: "GET", Path: tablePath(away.ID, "state")}, &st)
		if st.Table.Status != "playing" {
			t.Fatalf("forfeited for the server's downtime: %+v", st.Table)
		}
		restarted.clock.Add(time.Second)
		restarted.tick(1) // away, a minute after the restart
		restarted.must(200, req{Method: "GET", Path: tablePath(away.ID, "state")}, &st)
		if st.Table.Result != "abandoned" {
			t.Fatalf("not forfeited a grace period after the restart: %+v", st.Table)
		}
		p := problemOf(t, e.must(422, req{Method: "POST", Path: "/api/v1/tables", Token: tok.AccessToken,
			Body: `{"rules":"fibur","players":2,"grace_seconds":10}`}, nil), "invalid_input")
		if len(p.Errors) != 1 || p.Errors[0].Field != "grace_seconds" {
			t.Errorf("errors %+v", p.Errors)
		}
	})
}
