package api_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// playTurn plays token's turn at table id: a draw, then the first card of
// the hand the rules let it discard.
func playQuickTurn(t *testing.T, e *env, token string, id int64) {
	t.Helper()
	st, _ := e.state(token, id)
	e.must(200, req{Method: "POST", Path: tablePath(id, "moves"), Token: token,
		Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, &st)
	for _, card := range st.View.Hand {
		if e.do(req{Method: "POST", Path: tablePath(id, "moves"), Token: token,
			Body: fmt.Sprintf(`{"move":"discard","card":%q,"version":%d}`, card, st.Version)}).Status == 200 {
			return
		}
	}
	t.Fatalf("no card of %v could be discarded", st.View.Hand)
}

// TestTimeBankCapsAtItsStart: with a turn clock of 10 s and a bank of 20 s,
// a turn of 25 s leaves 5 s in the bank; a fast turn puts its unused
// seconds back, but never above the 20 s it started with; and a turn that
// outlasts the turn clock and the bank is played by the clock, emptying
// the bank.
func TestTimeBankCapsAtItsStart(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, sara := e.user("sara@example.com", "Sara")
		_, tom := e.user("tom@example.com", "Tom")
		tb := e.newTable(sara.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, AutoStart: true,
			TurnSeconds: 10, BankSeconds: 20, Match: &api.MatchFormat{Deals: 1}})
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: tom.AccessToken}, nil)
		tokens := [2]string{sara.AccessToken, tom.AccessToken}
		// A bank without a turn clock has nothing to add to.
		pr := problemOf(t, e.must(422, req{Method: "POST", Path: "/api/v1/tables", Token: sara.AccessToken,
			Body: api.TableCreateRequest{Rules: "fibur", Players: 2, BankSeconds: 20}}, nil), "invalid_input")
		if len(pr.Errors) != 1 || pr.Errors[0].Field != "bank_seconds" {
			t.Fatalf("a bank without a turn clock: %+v", pr.Errors)
		}
		st, _ := e.state(tokens[0], tb.ID)
		if st.Table.BankSeconds != 20 || len(st.BankSecondsLeft) != 2 || st.BankSecondsLeft[0] != 20 || st.BankSecondsLeft[1] != 20 {
			t.Fatalf("at the start: bank_seconds %d, left %v", st.Table.BankSeconds, st.BankSecondsLeft)
		}
		first := st.View.Turn
		second := 1 - first
		banks := func(want [2]float64) {
			t.Helper()
			st, _ := e.state(tokens[0], tb.ID)
			for seat, w := range want {
				if len(st.BankSecondsLeft) != 2 || math.Abs(st.BankSecondsLeft[seat]-w) > 0.001 {
					t.Fatalf("banks %v, want seat %d at %v", st.BankSecondsLeft, seat, w)
				}
			}
		}
		var want [2]float64
		e.clock.Add(25 * time.Second) // 15 s over the turn clock
		want[first], want[second] = 5, 20
		banks(want) // the overrun shows while the turn runs
		playQuickTurn(t, e, tokens[first], tb.ID)
		banks(want)

		e.clock.Add(2 * time.Second) // 8 s unused: the bank is full already
		playQuickTurn(t, e, tokens[second], tb.ID)
		banks(want)

		e.clock.Add(3 * time.Second) // 7 s unused go back in
		playQuickTurn(t, e, tokens[first], tb.ID)
		want[first] = 12
		banks(want)

		e.clock.Add(2 * time.Second)
		playQuickTurn(t, e, tokens[second], tb.ID)
		e.clock.Add(21 * time.Second) // within 10 s and the 12 s of the bank
		if n, err := e.svc.Tables.Tick(t.Context(), e.clock.Now()); err != nil || n != 0 {
			t.Fatalf("tick within the bank: %d tables changed, %v", n, err)
		}
		e.clock.Add(time.Second) // 22 s: the turn clock and the bank are spent
		if n, err := e.svc.Tables.Tick(t.Context(), e.clock.Now()); err != nil || n != 1 {
			t.Fatalf("tick past the bank: %d tables changed, %v", n, err)
		}
		st, _ = e.state(tokens[0], tb.ID)
		if st.LastMove == nil || st.LastMove.By != "clock" || st.View.Turn != second {
			t.Fatalf("after the time-out: last move %+v, turn %d", st.LastMove, st.View.Turn)
		}
		want[first] = 0
		banks(want)
	})
}
