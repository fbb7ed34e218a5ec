package api_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// presenceTable is a 2-player table of Sara (seat 0) and Tom (seat 1),
// started when Tom sat, with the claim policy given ("": the default).
type presenceTable struct {
	e         *env
	id        int64
	sara, tom string
	start     time.Time
}

func newPresenceTable(t *testing.T, e *env, tag, policy string, reconnect *int) presenceTable {
	t.Helper()
	_, sara := e.user("sara"+tag+"@example.com", "Sara")
	_, tom := e.user("tom"+tag+"@example.com", "Tom")
	tb := e.newTable(sara.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, AutoStart: true,
		Match: &api.MatchFormat{Deals: 1}, ClaimPolicy: policy, ReconnectSeconds: reconnect})
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: tom.AccessToken}, nil)
	return presenceTable{e: e, id: tb.ID, sara: sara.AccessToken, tom: tom.AccessToken, start: e.clock.Now()}
}

// poll is one state poll of token: a sign of presence.
func (p presenceTable) poll(token string) api.TableState {
	st, _ := p.e.state(token, p.id)
	return st
}

func presenceOf(t *testing.T, st api.TableState, seat int) api.SeatPresence {
	t.Helper()
	for _, p := range st.Presence {
		if p.Seat == seat {
			return p
		}
	}
	t.Fatalf("no presence of seat %d in %+v", seat, st.Presence)
	return api.SeatPresence{}
}

// TestGoneSeatIsShownWithItsWindow: a seat whose player stopped polling is
// present for the grace of a few seconds, then shown gone since they were
// last seen, with the end of the table's reconnect window; it is present
// again from its next poll. Both the cached state (a player's) and the
// uncached (a logged-in spectator's) carry it.
func TestGoneSeatIsShownWithItsWindow(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		window := 90
		p := newPresenceTable(t, e, "", "", &window)
		p.poll(p.tom)
		st := p.poll(p.sara)
		if st.Table.Status != "playing" || st.Table.ReconnectSeconds != 90 || st.Table.ClaimPolicy != "win" {
			t.Fatalf("table: status %s, reconnect %d, claim %q", st.Table.Status, st.Table.ReconnectSeconds, st.Table.ClaimPolicy)
		}
		if tom := presenceOf(t, st, 1); tom.State != "present" || tom.WindowEnds != nil || !tom.Since.Equal(p.start) {
			t.Fatalf("Tom just polled: %+v", tom)
		}

		e.clock.Add(5 * time.Second) // within the grace: still present
		if tom := presenceOf(t, p.poll(p.sara), 1); tom.State != "present" {
			t.Fatalf("5 s after his poll Tom is %+v", tom)
		}
		e.clock.Add(10 * time.Second)
		st = p.poll(p.sara)
		tom := presenceOf(t, st, 1)
		wantEnd := p.start.Add(90 * time.Second)
		if tom.State != "gone" || !tom.Since.Equal(p.start) || tom.WindowEnds == nil || !tom.WindowEnds.Equal(wantEnd) {
			t.Fatalf("15 s after his poll Tom is %+v; want gone since %s, window ending %s", tom, p.start, wantEnd)
		}
		if sara := presenceOf(t, st, 0); sara.State != "present" {
			t.Fatalf("Sara, polling, is %+v", sara)
		}
		// A spectator's state is read uncached: the same presence.
		_, watcher := e.user("walt@example.com", "Walt")
		var seen api.TableState
		e.must(200, req{Method: "GET", Path: tablePath(p.id, "state"), Token: watcher.AccessToken}, &seen)
		if got := presenceOf(t, seen, 1); got.State != "gone" || !got.WindowEnds.Equal(wantEnd) {
			t.Fatalf("the spectator sees Tom %+v", got)
		}

		e.clock.Add(time.Minute)
		back := p.clockNow()
		p.poll(p.tom)
		if tom := presenceOf(t, p.poll(p.sara), 1); tom.State != "present" || !tom.Since.Equal(back) {
			t.Fatalf("Tom polled again: %+v, want present since %s", tom, back)
		}
	})
}

func (p presenceTable) clockNow() time.Time { return p.e.clock.Now() }

// TestClaimAfterTheWindowEndsTheMatch: once Tom has been gone past the
// reconnect window Sara claims what the table's policy gives; before the
// window ends, or against a present opponent, or beyond the policy, the
// claim is refused with its own code.
func TestClaimAfterTheWindowEndsTheMatch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, policy, claim string
		status              int
		code                string // a refusal's
		check               func(t *testing.T, tb api.Table)
	}{
		{name: "WinMakesTheGoneSeatsTeamLose", policy: "win", claim: "win", status: 200, check: func(t *testing.T, tb api.Table) {
			if tb.Status != "finished" || tb.Result != "claimed" || tb.Winner == nil || *tb.Winner != 0 || tb.Draw ||
				tb.AbandonedBy == nil || *tb.AbandonedBy != 1 {
				t.Fatalf("after the claim: %+v", tb)
			}
		}},
		{name: "PolicyWinAllowsADraw", policy: "", claim: "draw", status: 200, check: func(t *testing.T, tb api.Table) {
			if tb.Status != "finished" || tb.Result != "claimed" || tb.Winner != nil || !tb.Draw {
				t.Fatalf("after the claim: %+v", tb)
			}
		}},
		{name: "PolicyDrawGivesADraw", policy: "draw", claim: "", status: 200, check: func(t *testing.T, tb api.Table) {
			if tb.Result != "claimed" || !tb.Draw {
				t.Fatalf("after the claim: %+v", tb)
			}
		}},
		{name: "PolicyBotPutsABotInTheGoneSeat", policy: "bot", claim: "", status: 200, check: func(t *testing.T, tb api.Table) {
			if tb.Result != "" || tb.Seats[1].StandIn != "absent" {
				t.Fatalf("after the claim: result %q, seat 1 %+v", tb.Result, tb.Seats[1])
			}
		}},
		{name: "PolicyDrawRefusesAWin", policy: "draw", claim: "win", status: 409, code: "claim_not_allowed"},
		{name: "PolicyNoneRefusesEveryClaim", policy: "none", claim: "", status: 409, code: "claim_not_allowed"},
		{name: "AnUnknownClaimIsInvalid", policy: "win", claim: "forfeit", status: 422, code: "invalid_input"},
	}
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e := newEnv(t, db)
				p := newPresenceTable(t, e, "."+c.name, c.policy, nil)
				claim := req{Method: "POST", Path: tablePath(p.id, "claim"), Token: p.sara, Body: map[string]any{"result": c.claim}}
				if c.claim == "" {
					claim.Body = nil
				}
				p.poll(p.tom)
				p.poll(p.sara)
				if c.status == 200 { // the refusals of a claim the policy gives
					// Tom, present, cannot be claimed against; nor Sara by Tom.
					problemOf(t, e.must(409, claim, nil), "opponent_present")
					problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(p.id, "claim"), Token: p.tom}, nil), "opponent_present")
					e.clock.Add(30 * time.Second)
					p.poll(p.sara)
					// Gone, within the window: refused, saying when it ends.
					pr := problemOf(t, e.must(409, claim, nil), "window_not_over")
					want := p.start.Add(120 * time.Second).Format(time.RFC3339)
					if len(pr.Errors) != 1 || pr.Errors[0].Field != "window_ends" || pr.Errors[0].Message != want {
						t.Fatalf("window_not_over: %+v, want window_ends %s", pr.Errors, want)
					}
				} else {
					e.clock.Add(30 * time.Second)
				}

				e.clock.Add(91 * time.Second) // past the window: 121 s after Tom's last poll
				p.poll(p.sara)
				if c.status != 200 {
					problemOf(t, e.must(c.status, claim, nil), c.code)
					return
				}
				var tb api.Table
				e.must(200, claim, &tb)
				c.check(t, tb)
				if st := p.poll(p.sara); st.Table.Version != tb.Version {
					t.Errorf("the state after the claim is at version %d, the claim's table at %d", st.Table.Version, tb.Version)
				}
			})
		}
	})
}

// TestAbortBeforeFirstMoveLeavesNoResult: a seated player aborts a match
// nobody has moved in once the other is gone: finished, result aborted,
// no winner and no draw. Refused while the other is present, after a
// player's move, and to someone not seated.
func TestAbortBeforeFirstMoveLeavesNoResult(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		p := newPresenceTable(t, e, "", "", nil)
		abort := func(token string) req { return req{Method: "POST", Path: tablePath(p.id, "abort"), Token: token} }
		p.poll(p.tom)
		p.poll(p.sara)
		problemOf(t, e.must(409, abort(p.sara), nil), "opponent_present")
		_, walt := e.user("walt@example.com", "Walt")
		problemOf(t, e.must(403, abort(walt.AccessToken), nil), "forbidden")

		e.clock.Add(11 * time.Second) // Tom is gone (no window to wait for an abort)
		p.poll(p.sara)
		var tb api.Table
		e.must(200, abort(p.sara), &tb)
		if tb.Status != "finished" || tb.Result != "aborted" || tb.Winner != nil || tb.Draw || tb.AbandonedBy != nil {
			t.Fatalf("after the abort: %+v", tb)
		}
		st := p.poll(p.sara)
		if st.Table.Result != "aborted" || st.Presence != nil {
			t.Fatalf("the state after the abort: result %q, presence %+v", st.Table.Result, st.Presence)
		}
		problemOf(t, e.must(409, abort(p.sara), nil), "conflict") // over

		// Another table, where the player on turn has moved: too late.
		e2 := newEnv(t, db)
		q := newPresenceTable(t, e2, ".2", "", nil)
		st = q.poll(q.sara)
		onTurn := q.sara
		if st.View.Turn == 1 {
			onTurn = q.tom
		}
		var moved api.TableState
		e2.must(200, req{Method: "POST", Path: tablePath(q.id, "moves"), Token: onTurn,
			Body: json.RawMessage(`{"move":"draw","version":` + strconv.FormatInt(st.Version, 10) + `}`)}, &moved)
		e2.clock.Add(11 * time.Second)
		q.poll(q.sara)
		problemOf(t, e2.must(409, req{Method: "POST", Path: tablePath(q.id, "abort"), Token: q.sara}, nil), "already_started")
	})
}

// TestClaimedWinAtATournamentTableIsTheGoneSidesForfeitOnTheSheet: at an
// online tournament's table whose settings say claim win, a player whose
// opponent has been gone past the window claims: the sheet rules the gone
// side's abandonment. A draw is not claimed there (a sheet takes none),
// and the table is not aborted (a no-show is the tournament's matter).
func TestClaimedWinAtATournamentTableIsTheGoneSidesForfeitOnTheSheet(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		var pairs [][2]int64
		for _, name := range []string{"Lea", "Max", "Nina", "Olaf"} {
			pairs = append(pairs, [2]int64{te.player(name, true), te.player(name+"'s partner", false)})
		}
		id, entries := te.onlineTournament(3, domain.SetupInput{Online: &domain.OnlineSettings{Claim: domain.ClaimWin}}, 0, pairs...)
		te.draw(id)
		lea := te.tokenOf[pairs[0][0]]
		table := te.myOnlineTable(id, lea, 1)
		var st api.TableState
		te.must(200, req{Method: "GET", Path: tablePath(table, "state"), Token: lea}, &st)
		if st.Table.ClaimPolicy != "win" || st.Table.ReconnectSeconds != 120 {
			t.Fatalf("the tournament's table: claim_policy %q, reconnect_seconds %d", st.Table.ClaimPolicy, st.Table.ReconnectSeconds)
		}
		te.clock.Add(121 * time.Second) // the opponent never came
		te.must(200, req{Method: "GET", Path: tablePath(table, "state"), Token: lea}, &st)
		claim := func(result string) req {
			return req{Method: "POST", Path: tablePath(table, "claim"), Token: lea, Body: map[string]any{"result": result}}
		}
		problemOf(t, te.must(409, claim("draw"), nil), "claim_not_allowed")
		problemOf(t, te.must(409, req{Method: "POST", Path: tablePath(table, "abort"), Token: lea}, nil), "abort_not_allowed")
		var tb api.Table
		te.must(200, claim("win"), &tb)
		if tb.Status != "finished" || tb.Result != "claimed" || tb.AbandonedBy == nil || tb.Winner == nil || *tb.Winner != st.Seat%2 {
			t.Fatalf("after the claim: %+v (Lea at seat %d)", tb, st.Seat)
		}
		for _, rt := range te.round(id, 1).Tables {
			if rt.OnlineTable != table {
				continue
			}
			if left := rt.Result.Left; rt.Result.DecidedBy != "abandonment" || left == nil || left.ID == entries[0].ID {
				t.Fatalf("the table claimed: %s", jsonOf(rt))
			}
		}
		te.auditHas(id, "ruling", fmt.Sprintf("online table %d: seat %d's side forfeited (claimed)", table, *tb.AbandonedBy))
	})
}
