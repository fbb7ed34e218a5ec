package engine

import (
	"encoding/json"
	"fmt"
	"slices"
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
			wilds := 0
			for _, c := range m.Cards {
				if c.IsWildCard() {
					wilds++
				}
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
		if s.Total != s.Sum() && !g.rules.Options.RoundUp10 {
			t.Fatalf("score parts do not add up: %+v", s)
		}
	}
}

func describe(g *Game) string {
	return fmt.Sprintf("%s %dp turn %d %s", g.rules.ID, g.rules.Players, g.turn, g.phase)
}

var _ = slices.Clone[[]Card]
