package api_test

import (
	cryptorand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/engine"
)

// scriptedRandom is the services' random source with a queue of bytes a
// test sets: what it queued is read first, then crypto/rand. The tables
// read it for the first dealer, then each deal's seed (and each bot move).
type scriptedRandom struct {
	mu   sync.Mutex
	next []byte
}

func (r *scriptedRandom) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := copy(p, r.next)
	r.next = r.next[n:]
	if n < len(p) {
		if _, err := io.ReadFull(cryptorand.Reader, p[n:]); err != nil {
			return n, err
		}
	}
	return len(p), nil
}

// queue makes the next reads of 8 bytes (randomUint64) answer vs in order.
func (r *scriptedRandom) queue(vs ...uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range vs {
		r.next = binary.LittleEndian.AppendUint64(r.next, v)
	}
}

func (r *scriptedRandom) left() int { r.mu.Lock(); defer r.mu.Unlock(); return len(r.next) }

// newScriptedEnv is newEnv with random as the services' random source.
func newScriptedEnv(t testing.TB, db *store.DB, random io.Reader) *env {
	t.Helper()
	return newEnvServices(t, db, domain.Config{Random: random})
}

// scriptedTries is what a scripted player tries on its turn, in order,
// decided only from its own view (its hand and its legal summary): take
// (draw, else pick up outside fechado), then discard the cards of its hand
// in the order shown until one is accepted. It never melds.
func scriptedTries(v api.DealView) []map[string]any {
	if v.Phase == "take" {
		switch {
		case v.Legal.CanDraw:
			return []map[string]any{{"move": "draw"}}
		case v.Legal.CanPickup && v.Rules != "fechado":
			return []map[string]any{{"move": "pickup"}}
		}
		return nil
	}
	var out []map[string]any
	seen := map[string]bool{}
	for _, c := range v.Hand {
		if !seen[c] {
			seen[c] = true
			out = append(out, map[string]any{"move": "discard", "card": c})
		}
	}
	return out
}

// withVersion is a move's body with the version the client saw.
func withVersion(m map[string]any, version int64) map[string]any {
	out := map[string]any{"version": version}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// checkSeatBody checks a response seen by seat against the server's game
// (checkNoLeak). Once the match is over the last move may be a closing
// discard, which goes nowhere public: it is left out of the card check.
func checkSeatBody(t *testing.T, db *store.DB, id int64, body []byte, seat int) {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		t.Fatal(err)
	}
	var tb struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(obj["table"], &tb)
	if tb.Status == "finished" {
		delete(obj, "last_move")
		body, _ = json.Marshal(obj)
	}
	g, _ := serverGame(t, db, id)
	checkNoLeak(t, body, g, seat)
}

// playScripted plays the turns of scripted seats (tokens: seat → token)
// until the match ends; every state and move response is checked to show
// the seat its own hand and nothing hidden. It returns the final state and
// the number of moves the scripted seats played. Under the race detector
// the answers are not checked: the checks were most of its cost there, and
// CI runs the tests that play this whole without it (racesample_test.go).
func playScripted(t *testing.T, e *env, db *store.DB, id int64, tokens map[int]string) (api.TableState, int) {
	t.Helper()
	check := func(body []byte, seat int) {
		t.Helper()
		if !raceEnabled {
			checkSeatBody(t, db, id, body, seat)
		}
	}
	var any0 string
	for _, tok := range tokens {
		any0 = tok
		break
	}
	moves := 0
	for range 5000 {
		st, res := e.state(any0, id)
		check(res.Body, st.Seat)
		if st.Table.Status == "finished" {
			return st, moves
		}
		seat := st.View.Turn
		tok, ok := tokens[seat]
		if !ok {
			t.Fatalf("seat %d (a bot) is on turn after a response: bots play at once", seat)
		}
		st, res = e.state(tok, id)
		check(res.Body, seat)
		tries := scriptedTries(*st.View)
		if len(tries) == 0 {
			t.Fatalf("seat %d has nothing to try: %+v", seat, st.View)
		}
		played := false
		for _, m := range tries {
			r := e.do(req{Method: "POST", Path: tablePath(id, "moves"), Token: tok, Body: withVersion(m, st.Version)})
			if r.Status == http.StatusUnprocessableEntity {
				continue
			}
			if r.Status != http.StatusOK {
				t.Fatalf("move %v: status %d: %s", m, r.Status, r.Body)
			}
			check(r.Body, seat)
			played, moves = true, moves+1
			break
		}
		if !played {
			t.Fatalf("seat %d: every try refused: %v", seat, tries)
		}
	}
	t.Fatal("the match did not end")
	return api.TableState{}, 0
}

// checkMatchDeals checks a finished match's deals against its format,
// without the engine's MatchFormat: the deal passes clockwise, the totals
// are the sums of the deals' scores, the match ended at the first deal
// that decided it (a tie that must be broken decides nothing), a deal is a
// tie-break deal exactly when the deals before it ended tied where the
// format would have decided, and the winner leads.
func checkMatchDeals(t *testing.T, final api.TableState, players int, f api.MatchFormat) {
	t.Helper()
	deals := final.Deals
	if len(deals) == 0 || final.Table.DealNumber != len(deals) {
		t.Fatalf("%d deals, deal_number %d", len(deals), final.Table.DealNumber)
	}
	decides := func(n int, totals []int) (decided, tied bool) {
		tied = totals[0] == totals[1]
		if f.Deals > 0 {
			return n >= f.Deals && (!tied || !f.RequireWinner), tied
		}
		return (totals[0] >= f.Target || totals[1] >= f.Target) && !tied, tied
	}
	totals := []int{0, 0}
	for i, d := range deals {
		if d.Number != i+1 || d.EndedAt == nil || len(d.Score) != 2 {
			t.Fatalf("deal %d: %+v", i+1, d)
		}
		if i > 0 && d.Dealer != (deals[i-1].Dealer+1)%players {
			t.Errorf("deal %d dealt by seat %d after seat %d: the deal passes clockwise", d.Number, d.Dealer, deals[i-1].Dealer)
		}
		reached := f.Deals > 0 && i >= f.Deals || f.Deals == 0 && (totals[0] >= f.Target || totals[1] >= f.Target)
		if want := i > 0 && reached && totals[0] == totals[1]; d.TieBreak != want {
			t.Errorf("deal %d: tie_break %v after totals %v", d.Number, d.TieBreak, totals)
		}
		totals[0] += d.Score[0].Total
		totals[1] += d.Score[1].Total
		decided, _ := decides(i+1, totals)
		if decided != (i == len(deals)-1) {
			t.Errorf("format %+v: after deal %d (totals %v) decided=%v, but %d deals were played", f, d.Number, totals, decided, len(deals))
		}
	}
	if !cmp.Equal(final.MatchTotals, totals) {
		t.Errorf("totals %v, the deals sum to %v", final.MatchTotals, totals)
	}
	ft := final.Table
	if ft.Status != "finished" || ft.Result != "played" {
		t.Errorf("status %s result %s", ft.Status, ft.Result)
	}
	switch {
	case totals[0] == totals[1]:
		if !ft.Draw || ft.Winner != nil {
			t.Errorf("tied %v: draw %v, winner %v", totals, ft.Draw, ft.Winner)
		}
	case ft.Winner == nil || ft.Draw || totals[*ft.Winner] < totals[1-*ft.Winner]:
		t.Errorf("totals %v: winner %v, draw %v", totals, ft.Winner, ft.Draw)
	}
}

// TestTableMatchEveryRuleSet plays a complete match of every rule set and
// number of players through the router, one scripted player (draw, then
// discard from its own view) against bots, half to 2 fixed deals and half
// to a target: the match ends after the deals its format says, the deal
// passes clockwise, the totals add up, every deal's record replays to its
// stored score, and the player is never shown a card it may not see.
// Under the race detector each store plays the first two (raceSample).
func TestTableMatchEveryRuleSet(t *testing.T) {
	cases := []struct {
		rules   string
		players int
		match   api.MatchFormat
	}{
		{"fibur", 4, api.MatchFormat{Deals: 2}},
		{"fibur", 2, api.MatchFormat{Target: 500}},
		{"fibur-row", 2, api.MatchFormat{Deals: 2}},
		{"reale", 4, api.MatchFormat{Target: 500}},
		{"reale", 2, api.MatchFormat{Deals: 2}},
		{"aberto", 4, api.MatchFormat{Deals: 2}},
		{"aberto", 2, api.MatchFormat{Target: 500}},
		{"fechado", 4, api.MatchFormat{Target: 500}},
		{"fechado", 2, api.MatchFormat{Deals: 2}},
	}
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		for i, c := range raceSample(cases, 0, 1) {
			name := fmt.Sprintf("%s-%dp-%ddeals", c.rules, c.players, c.match.Deals)
			if c.match.Target > 0 {
				name = fmt.Sprintf("%s-%dp-to%d", c.rules, c.players, c.match.Target)
			}
			// Each match on a server and account of its own (one
			// database), so that they run in parallel: one match plays
			// for as long as the whole test may take.
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				e := newEnv(t, db)
				_, tok := e.user(fmt.Sprintf("sara%d@example.com", i), "Sara")
				seat := i % c.players
				tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: c.rules, Players: c.players, Match: &c.match,
					Seat: ptr(seat), AutoStart: true, GraceSeconds: ptr(0)})
				for range c.players - 1 {
					e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, &tb)
				}
				if tb.Status != "playing" {
					t.Fatalf("not started: %+v", tb)
				}
				final, moves := playScripted(t, e, db, tb.ID, map[int]string{seat: tok.AccessToken})
				if moves == 0 {
					t.Fatal("the scripted player never moved")
				}
				checkMatchDeals(t, final, c.players, c.match)
				if c.match.Deals > 0 && len(final.Deals) != c.match.Deals {
					t.Errorf("%d deals played, the format says %d", len(final.Deals), c.match.Deals)
				}
				checkRecords(t, e, tok.AccessToken, tb.ID, final.Deals)
				w := -1 // a draw
				if final.Table.Winner != nil {
					w = *final.Table.Winner
				}
				t.Logf("%d deals, totals %v, winner %d, %d scripted moves", len(final.Deals), final.MatchTotals, w, moves)
			})
		}
	})
}

// scriptedDeal plays a whole deal with the engine as two scripted players
// play it through the API (scriptedTries on each seat's own view), and
// returns its score.
func scriptedDeal(r engine.Rules, dealer int, seed uint64, totals []int) ([]engine.Score, error) {
	g, err := engine.Deal(r, dealer, seed, totals)
	if err != nil {
		return nil, err
	}
	for n := 0; !g.Over(); n++ {
		if n > 1000 {
			return nil, fmt.Errorf("seed %d: the deal does not end", seed)
		}
		seat := g.Turn()
		var v api.DealView
		b, _ := json.Marshal(g.View(seat))
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, err
		}
		played := false
		for _, try := range scriptedTries(v) {
			var m engine.Move
			b, _ := json.Marshal(try)
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, err
			}
			if g.Apply(seat, m) == nil {
				played = true
				break
			}
		}
		if !played {
			return nil, fmt.Errorf("seed %d: seat %d has no move", seed, seat)
		}
	}
	return g.Score(), nil
}

// findSeed returns the first seed from start whose scripted deal's team
// totals are tied (tied) or not, and the deal's score.
func findSeed(t *testing.T, r engine.Rules, dealer int, totals []int, start uint64, tied bool) (uint64, []engine.Score) {
	t.Helper()
	for seed := start; seed < start+5000; seed++ {
		s, err := scriptedDeal(r, dealer, seed, totals)
		if err != nil {
			t.Fatal(err)
		}
		if (s[0].Total == s[1].Total) == tied {
			return seed, s
		}
	}
	t.Fatalf("no seed from %d gives tied=%v", start, tied)
	return 0, nil
}

// TestTableTieBreakDeals forces ties: a 2-player fibur match of one deal
// with require_winner, between two scripted players, whose first dealer
// and seeds are injected through domain.Config.Random. The seeds are found
// here by playing the deals with the engine as the players will: the first
// deal ends tied, so a tie-break deal follows (marked), which ends tied
// too, so another follows; the third decides the match for the team the
// engine predicts. Under the race detector it plays on SQLite only
// (eachStoreRaceSample).
func TestTableTieBreakDeals(t *testing.T) {
	t.Parallel()
	r, err := engine.NewRules(engine.Fibur, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Options, err = engine.ParseOptions(engine.Fibur, nil); err != nil {
		t.Fatal(err)
	}
	const dealer = 1
	dealers := []int{dealer, engine.NextDealer(dealer, 2), engine.NextDealer(engine.NextDealer(dealer, 2), 2)}
	var seeds []uint64
	var scores [][]engine.Score
	var totals []int
	for i, tied := range []bool{true, true, false} {
		seed, s := findSeed(t, r, dealers[i], totals, uint64(1000*(i+1)), tied)
		seeds, scores = append(seeds, seed), append(scores, s)
		totals = engine.AddScores(totals, s)
	}
	winner := 0
	if totals[1] > totals[0] {
		winner = 1
	}
	t.Logf("seeds %v, deal totals %v, %v, %v", seeds, scores[0][0].Total, scores[1][0].Total, scores[2])

	eachStoreRaceSample(t, func(t *testing.T, db *store.DB) {
		rnd := &scriptedRandom{}
		e := newScriptedEnv(t, db, rnd)
		_, a := e.user("anna@example.com", "Anna")
		_, b := e.user("bruno@example.com", "Bruno")
		format := api.MatchFormat{Deals: 1, RequireWinner: true}
		tb := e.newTable(a.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Match: &format, GraceSeconds: ptr(0)})
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: b.AccessToken}, nil)
		// Start draws the first dealer then the first deal's seed; the
		// next deals' seeds are drawn when the deal before ends (no bot
		// draws in between).
		rnd.queue(uint64(dealer), seeds[0], seeds[1], seeds[2])
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: a.AccessToken}, &tb)
		if tb.Status != "playing" || tb.DealNumber != 1 {
			t.Fatalf("started: %+v", tb)
		}
		final, _ := playScripted(t, e, db, tb.ID, map[int]string{0: a.AccessToken, 1: b.AccessToken})
		if rnd.left() != 0 {
			t.Fatalf("%d queued random bytes not read: the service drew its seeds otherwise", rnd.left())
		}
		if len(final.Deals) != 3 || final.Table.DealNumber != 3 {
			t.Fatalf("%d deals (format: 1 with require_winner): %+v", len(final.Deals), final.Deals)
		}
		for i, d := range final.Deals {
			if d.Dealer != dealers[i] || d.TieBreak != (i > 0) {
				t.Errorf("deal %d: dealer %d (want %d), tie_break %v", d.Number, d.Dealer, dealers[i], d.TieBreak)
			}
			if diff := cmp.Diff(convertScores(scores[i]), d.Score); diff != "" {
				t.Errorf("deal %d's score is not the predicted one (-predicted +stored):\n%s", d.Number, diff)
			}
		}
		if d := final.Deals; d[0].Score[0].Total != d[0].Score[1].Total || d[1].Score[0].Total != d[1].Score[1].Total {
			t.Errorf("deals 1 and 2 should be tied: %+v", d)
		}
		if w := final.Table.Winner; w == nil || *w != winner || final.Table.Draw || !cmp.Equal(final.MatchTotals, totals) {
			t.Errorf("final: winner %v (want %d), draw %v, totals %v (want %v)", w, winner, final.Table.Draw, final.MatchTotals, totals)
		}
		checkMatchDeals(t, final, 2, format)
		checkRecords(t, e, a.AccessToken, tb.ID, final.Deals)
		for i, seed := range seeds {
			var rec api.DealRecord
			e.must(200, req{Method: "GET", Path: tablePath(tb.ID, "deals", strconv.Itoa(i+1), "record"), Token: b.AccessToken}, &rec)
			if rec.Seed != strconv.FormatUint(seed, 10) {
				t.Errorf("deal %d was dealt with seed %s, not the injected %d", i+1, rec.Seed, seed)
			}
		}
	})
}
