package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// plainTurn plays seat's turn: draw, then discard the card drawn.
func plainTurn(t *testing.T, g *Game) {
	t.Helper()
	seat := g.Turn()
	if g.Phase() == PhaseTake {
		mustApply(t, g, seat, DrawMove())
	}
	h := g.Hand(seat)
	mustApply(t, g, seat, DiscardMove(h[len(h)-1]))
}

// timeoutPos is a fibur position with a long stock and no way to close:
// every seat holds two cards, nobody has a burraco.
func timeoutPos(players, turn int) string {
	hands := []string{`["3S","8D"]`, `["3H","8H"]`, `["3D","8S"]`, `["3C","8C"]`}[:players]
	return fmt.Sprintf(`{"turn":%d,"hands":[%s],"stock":["4C","5C","6C","7C","9C","TC","JC","QC","KC","4H","5H","6H"],
	  "discard":["QD"],"pots":[["AS"],["AD"]]}`, turn, strings.Join(hands, ","))
}

func TestTimeOutLastRound(t *testing.T) {
	tests := []struct {
		name      string
		players   int
		options   string
		turn      int
		taken     bool  // the player on turn has taken when the time-out is called
		wantUntil int   // the seat whose discard ends the deal
		wantTurns []int // the seats that play after the call, in order
	}{
		// 4 players, seat 1 has drawn: the player due to take is seat 2,
		// its partner seat 0 (who played just before seat 1) starts the
		// round in progress, 0-1-2-3: seats 1, 2, 3 finish it.
		{"4p/after the take", 4, "", 1, true, 3, []int{1, 2, 3}},
		// Before seat 1 has taken: a full round 1-2-3-0.
		{"4p/before the take", 4, "", 1, false, 0, []int{1, 2, 3, 0}},
		// Anticlockwise (seat i → i−1), seat 2 has drawn: due to take is
		// seat 1, its partner seat 3 starts the round 3-2-1-0 in progress.
		{"4p/anticlockwise after the take", 4, `{"direction":"anticlockwise"}`, 2, true, 0, []int{2, 1, 0}},
		{"4p/anticlockwise before the take", 4, `{"direction":"anticlockwise"}`, 2, false, 3, []int{2, 1, 0, 3}},
		// 2 players: the player due to take (seat 1) is alone in its team;
		// the round that starts with it (1-0) is in progress: seat 0 ends it.
		{"2p/after the take", 2, "", 0, true, 0, []int{0}},
		{"2p/before the take", 2, "", 0, false, 1, []int{0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := loadPos(t, Fibur, tc.players, tc.options, timeoutPos(tc.players, tc.turn))
			if tc.taken {
				mustApply(t, g, tc.turn, DrawMove())
			}
			if err := g.CallTimeOut(); err != nil {
				t.Fatal(err)
			}
			var played []int
			for i := 0; !g.Over(); i++ {
				lr, ok := g.LastRound()
				want := LastRound{Until: tc.wantUntil, TurnsLeft: len(tc.wantTurns) - i}
				if !ok || lr != want {
					t.Fatalf("before turn %d: last round %+v %v, want %+v", i, lr, ok, want)
				}
				if v := g.View(-1); v.LastRound == nil || *v.LastRound != want {
					t.Fatalf("view last round %+v, want %+v", v.LastRound, want)
				}
				roundTrip(t, g)
				played = append(played, g.Turn())
				plainTurn(t, g)
			}
			if fmt.Sprint(played) != fmt.Sprint(tc.wantTurns) {
				t.Fatalf("seats played %v, want %v", played, tc.wantTurns)
			}
			if g.EndReason() != TimedOut || g.Closer() != -1 {
				t.Fatalf("ended %v, closer %d", g.EndReason(), g.Closer())
			}
			for _, s := range g.Score() {
				if s.Closing != 0 {
					t.Fatalf("closing bonus after a time-out without a closing: %+v", g.Score())
				}
			}
			if _, ok := g.LastRound(); ok || g.View(0).LastRound != nil || g.Position().LastRound != nil {
				t.Fatal("last round still shown after the deal ended")
			}
			if g.Position().End != "timeout" || g.View(0).End != "timeout" {
				t.Fatalf("end %q", g.Position().End)
			}
		})
	}
}

// TestTimeOutClosingScoresTheBonus: a legal closing during the last round
// scores its 100 and ends the deal at once.
func TestTimeOutClosingScoresTheBonus(t *testing.T) {
	g := loadPos(t, Fibur, 4, "", `{"turn":1,"phase":"take","hands":[["3S"],["9D","KS"],["8D"],["4H"]],
	  "stock":["KH","5C","6C","7C"],"discard":["QD"],"pots":[],"pot_taken":[true,true],
	  "melds":[[],[["4C","5C","6C","7C","8C","9C","TC"],["KD","KC","KC"]]]}`)
	if err := g.CallTimeOut(); err != nil {
		t.Fatal(err)
	}
	if lr, _ := g.LastRound(); lr != (LastRound{Until: 0, TurnsLeft: 4}) {
		t.Fatalf("last round %+v", lr)
	}
	mustApply(t, g, 1, DrawMove())
	mustApply(t, g, 1, AttachMove(1, MustParseCard("KS"), MustParseCard("KH")))
	mustApply(t, g, 1, DiscardMove(MustParseCard("9D")))
	if g.EndReason() != Closed || g.Score()[1].Closing != 100 {
		t.Fatalf("ended %v, score %+v", g.EndReason(), g.Score()[1])
	}
}

// TestTimeOutStockRunsOutFirst: the stock-exhaustion rule still ends the
// deal when it comes before the end of the last round.
func TestTimeOutStockRunsOutFirst(t *testing.T) {
	g := loadPos(t, Fibur, 4, "", `{"turn":0,"hands":[["3S"],["9D"],["8D"],["4H"]],
	  "stock":["KH","5C","6C"],"discard":["QD"],"pots":[["AS"],["AD"]]}`)
	if err := g.CallTimeOut(); err != nil {
		t.Fatal(err)
	}
	plainTurn(t, g)
	if g.EndReason() != StockOut {
		t.Fatalf("ended %v, want stock", g.EndReason())
	}
}

func TestTimeOutErrors(t *testing.T) {
	g := loadPos(t, Fibur, 4, "", timeoutPos(4, 0))
	if err := g.CallTimeOut(); err != nil {
		t.Fatal(err)
	}
	before := posJSON(t, g)
	if err := g.CallTimeOut(); ErrorCode(err) != ErrNotAllowed {
		t.Fatalf("second call: %v, want not_allowed", err)
	}
	if posJSON(t, g) != before {
		t.Fatal("a refused time-out changed the position")
	}
	if err := g.EndByReferee(); err != nil {
		t.Fatal(err)
	}
	if err := g.CallTimeOut(); ErrorCode(err) != ErrDealOver {
		t.Fatalf("after the end: %v, want deal_over", err)
	}
	if err := new(Game).CallTimeOut(); ErrorCode(err) != ErrBadPosition {
		t.Fatalf("zero game: %v", err)
	}
}

func TestTimeOutPositionNotation(t *testing.T) {
	g := loadPos(t, Fibur, 4, "", timeoutPos(4, 1))
	mustApply(t, g, 1, DrawMove())
	if err := g.CallTimeOut(); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(g.Position())
	if !strings.Contains(string(b), `"last_round":{"until":3,"turns_left":3}`) {
		t.Fatalf("position %s", b)
	}
	// turns_left may be left out; until alone is the state.
	js := strings.Replace(string(b), `,"turns_left":3`, "", 1)
	h, err := ParsePosition([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if posJSON(t, h) != string(b) {
		t.Fatalf("loaded without turns_left:\n%s\nwant\n%s", posJSON(t, h), b)
	}
	for name, bad := range map[string]string{
		"until out of range":       strings.Replace(string(b), `"until":3`, `"until":4`, 1),
		"turns_left disagrees":     strings.Replace(string(b), `"turns_left":3`, `"turns_left":2`, 1),
		"last round after the end": `{"rules":"fibur","phase":"over","end":"stock","hands":[[],[]],"last_round":{"until":0}}`,
	} {
		if _, err := ParsePosition([]byte(bad)); ErrorCode(err) != ErrBadPosition {
			t.Errorf("%s: %v, want bad_position", name, err)
		}
	}
}

// TestRecordTimeOut: a record holds the time-out as the number of moves
// played when it was called, and its replay ends the same way.
func TestRecordTimeOut(t *testing.T) {
	r, _ := NewRules(Fibur, 4)
	g, err := Deal(r, 2, 11, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord(r, 2, 11, nil)
	play := func() {
		seat := g.Turn()
		m := g.LegalMoves(seat)[0]
		mustApply(t, g, seat, m)
		rec.Moves = append(rec.Moves, SeatMove{seat, m})
	}
	for range 9 { // draws and discards: mid-turn after the 9th move
		play()
	}
	at := len(rec.Moves)
	rec.TimeOutAt = &at
	if err := g.CallTimeOut(); err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		play()
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), fmt.Sprintf(`"timeout_at":%d`, at)) {
		t.Fatalf("record %s", b)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	h, err := back.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if h.EndReason() != TimedOut || posJSON(t, h) != posJSON(t, g) {
		t.Fatalf("replay ended %v:\n%s\nwant\n%s", h.EndReason(), posJSON(t, h), posJSON(t, g))
	}
	// Without the time-out the same moves do not end the deal.
	back.TimeOutAt = nil
	if h, err := back.Replay(); err != nil || h.Over() {
		t.Fatalf("replay without the time-out: over %v, %v", h.Over(), err)
	}
	for _, bad := range []int{-1, len(rec.Moves) + 1} {
		back.TimeOutAt = &bad
		if _, err := back.Replay(); ErrorCode(err) != ErrBadNotation {
			t.Errorf("timeout_at %d: %v, want bad_notation", bad, err)
		}
	}
}

// TestTimeOutRandomPlay calls the time-out at a random moment of random
// deals of every rule set and player count, and checks that the deal ends
// within the turns the last round announced: with the last discard by its
// Until seat (end timeout), or sooner by a closing or the stock.
func TestTimeOutRandomPlay(t *testing.T) {
	deals := 40
	if testing.Short() {
		deals = 8
	}
	for _, c := range simConfigs() {
		r := c.rules(t)
		t.Run(fmt.Sprintf("%s/%d", r.ID, r.Players), func(t *testing.T) {
			for seed := uint64(1); seed <= uint64(deals); seed++ {
				rng := NewRand(seed)
				g, err := Deal(r, int(seed%uint64(r.Players)), seed, nil)
				if err != nil {
					t.Fatal(err)
				}
				random := func() {
					moves := g.LegalMoves(g.Turn())
					mustApply(t, g, g.Turn(), moves[rng.IntN(len(moves))])
				}
				for n := rng.IntN(60); n > 0 && !g.Over(); n-- {
					random()
				}
				if g.Over() {
					continue
				}
				if err := g.CallTimeOut(); err != nil {
					t.Fatal(err)
				}
				first, _ := g.LastRound()
				turns, last := 1, g.Turn()
				for !g.Over() {
					lr, ok := g.LastRound()
					if !ok || lr.Until != first.Until || lr.TurnsLeft != first.TurnsLeft-turns+1 {
						t.Fatalf("seed %d: after %d turns last round %+v, first %+v", seed, turns, lr, first)
					}
					roundTrip(t, g)
					last = g.Turn()
					random()
					if !g.Over() && g.Turn() != last {
						turns++
					}
				}
				switch g.EndReason() {
				case TimedOut:
					if last != first.Until || turns != first.TurnsLeft {
						t.Fatalf("seed %d: ended by seat %d after %d turns, want seat %d after %d", seed, last, turns, first.Until, first.TurnsLeft)
					}
				case Closed, StockOut:
					if turns > first.TurnsLeft {
						t.Fatalf("seed %d: %d turns, more than the %d announced", seed, turns, first.TurnsLeft)
					}
				default:
					t.Fatalf("seed %d: ended %v", seed, g.EndReason())
				}
				for team, s := range g.Score() {
					if s.Closing != 0 && (g.EndReason() != Closed || r.Team(g.Closer()) != team) {
						t.Fatalf("seed %d: closing bonus without a closing: %+v", seed, g.Score())
					}
				}
			}
		})
	}
}
