package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// load builds a game from a position in JSON; rules and players are given
// apart, as in the conformance cases.
func loadPos(t testing.TB, rules RuleSet, players int, options, js string) *Game {
	t.Helper()
	var p Position
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatalf("position JSON: %v", err)
	}
	p.Rules, p.Players = rules, players
	if options != "" {
		p.Options = json.RawMessage(options)
	}
	g, err := LoadPosition(p)
	if err != nil {
		t.Fatalf("load position: %v", err)
	}
	return g
}

// cards parses a space-separated card list.
func tcards(s string) []Card {
	var out []Card
	for _, f := range splitFields(s) {
		out = append(out, MustParseCard(f))
	}
	return out
}

func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if r == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(r)
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

func posJSON(t testing.TB, g *Game) string {
	t.Helper()
	b, err := json.Marshal(g.Position())
	if err != nil {
		t.Fatalf("marshal position: %v", err)
	}
	return string(b)
}

// mustApply applies a move and fails the test when it is rejected.
func mustApply(t testing.TB, g *Game, seat int, m Move) {
	t.Helper()
	if err := g.Apply(seat, m); err != nil {
		t.Fatalf("seat %d %s: %v", seat, m, err)
	}
}

// wantReject applies a move that must be rejected with code, and checks the
// position did not change.
func wantReject(t testing.TB, g *Game, seat int, m Move, code Code) {
	t.Helper()
	before := posJSON(t, g)
	err := g.Apply(seat, m)
	if err == nil {
		t.Fatalf("seat %d %s: accepted, want %s", seat, m, code)
	}
	if got := ErrorCode(err); got != code {
		t.Fatalf("seat %d %s: %v, want code %s", seat, m, err, code)
	}
	if after := posJSON(t, g); after != before {
		t.Fatalf("rejected move changed the position:\nbefore %s\nafter  %s", before, after)
	}
}

// countCards returns the multiset of every card in the deal.
func countCards(g *Game) [256]int {
	var n [256]int
	for c, k := range g.CardCount() {
		n[c] = k
	}
	return n
}

// checkInvariants checks what must hold after any accepted move.
func checkInvariants(t testing.TB, g *Game, deck [256]int) {
	t.Helper()
	if got := countCards(g); got != deck {
		t.Fatalf("cards not conserved:\n%s", posJSON(t, g))
	}
	for team := range g.rules.Teams() {
		for i, m := range g.melds[team] {
			wilds, at := 0, -1
			for k, c := range m.Cards {
				if actsAsWild(m, k, c) {
					wilds, at = wilds+1, k
				}
			}
			if wilds > 1 || m.Wild != at {
				t.Fatalf("team %d meld %d %v: %d wilds (last at %d), Wild %d: at most one, and Wild its index\n%s",
					team, i, FormatCards(m.Cards), wilds, at, m.Wild, posJSON(t, g))
			}
			if _, err := LoadMeld(g.mr, m.Cards); err != nil {
				t.Fatalf("team %d meld %d %v does not load: %v\n%s", team, i, FormatCards(m.Cards), err, posJSON(t, g))
			}
			if m.Wild >= len(m.Cards) {
				t.Fatalf("team %d meld %d: wild index %d out of range", team, i, m.Wild)
			}
		}
	}
	for seat, h := range g.hands {
		if len(h) == 0 && g.phase != PhaseOver && !(seat == g.turn && g.phase == PhasePlay) {
			t.Fatalf("seat %d has an empty hand outside its turn\n%s", seat, posJSON(t, g))
		}
	}
	for _, s := range g.Score() {
		want := s.Cards + s.Bonus + s.Closing + s.Hand + s.Pot
		if g.rules.Options.RoundUp10 {
			// Rounded up, towards +∞, to a multiple of 10 (-25 → -20).
			if r := (want%10 + 10) % 10; r != 0 {
				want += 10 - r
			}
		}
		if s.Total != want {
			t.Fatalf("score parts do not add up (round_up_10 %v): %+v, want total %d", g.rules.Options.RoundUp10, s, want)
		}
	}
}

// actsAsWild reports whether c, the card at index k of m, stands in for
// another card: a joker, or a 2 other than a natural 2 (in a fechado set
// of 2s, or in its suit's sequence at the 2 position).
func actsAsWild(m Meld, k int, c Card) bool {
	switch {
	case c == Joker:
		return true
	case !c.IsTwo():
		return false
	case m.Kind == Set:
		return m.SetRank != Two
	}
	return c.Suit() != m.Suit || m.Low+Rank(k) != Two
}

func describe(g *Game) string {
	return fmt.Sprintf("%s %dp turn %d %s", g.rules.ID, g.rules.Players, g.turn, g.phase)
}

var _ = slices.Clone[[]Card]

// fatalRecorder is a testing.TB whose Fatalf records the failure and stops
// the check that called it (recovered by catchFatal).
type fatalRecorder struct {
	testing.TB
	msg string
}

type fatalStop struct{}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(fatalStop{})
}

func (f *fatalRecorder) Helper() {}

// catchFatal runs check with a recorder and returns what it failed with.
func catchFatal(t *testing.T, check func(testing.TB)) (msg string) {
	t.Helper()
	f := &fatalRecorder{TB: t}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(fatalStop); !ok {
				panic(r)
			}
			msg = f.msg
		}
	}()
	check(f)
	return ""
}

// TestInvariantsCatchWilds checks that checkInvariants refuses a meld whose
// Wild index does not name its one wild, which LoadMeld (it reads only the
// cards) cannot see.
func TestInvariantsCatchWilds(t *testing.T) {
	g := loadPos(t, Fibur, 2, "", `{"turn":0,"phase":"take","hands":[["4C","KH"],["3D"]],
		"stock":["8S","9S","TS"],"discard":["QD"],"pots":[["4S"],["5S"]],"melds":[[["5S","JK","7S"]],[]]}`)
	deck := countCards(g)
	if msg := catchFatal(t, func(tb testing.TB) { checkInvariants(tb, g, deck) }); msg != "" {
		t.Fatalf("a sound position refused: %s", msg)
	}
	g.melds[0][0].Wild = -1
	if msg := catchFatal(t, func(tb testing.TB) { checkInvariants(tb, g, deck) }); !strings.Contains(msg, "wilds") {
		t.Fatalf("a meld whose Wild index is wrong passed (%q)", msg)
	}
	// A joker, or a 2 out of its natural place, acts as a wild.
	for k, c := range map[int]Card{0: NewCard(Two, Spades), 1: Joker, 2: NewCard(Two, Hearts)} {
		m := Meld{Kind: Sequence, Suit: Spades, Low: Ace, Cards: tcards("AS 2S 3S")}
		m.Cards[k] = c
		if !actsAsWild(m, k, c) {
			t.Errorf("actsAsWild(%v, %d) = false", FormatCards(m.Cards), k)
		}
	}
	natural := Meld{Kind: Sequence, Suit: Spades, Low: Ace, Cards: tcards("AS 2S 3S")}
	if actsAsWild(natural, 1, natural.Cards[1]) {
		t.Error("2S at the 2 position of a spade sequence is natural")
	}
	twos := Meld{Kind: Set, SetRank: Two, Cards: tcards("2S 2H 2D JK")}
	if actsAsWild(twos, 0, twos.Cards[0]) || !actsAsWild(twos, 3, Joker) {
		t.Error("in a set of 2s the 2s are natural and the joker wild")
	}
}
