package engine

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestViewHidesSecrets marshals every seat's view (and a spectator's) in
// thousands of positions of simulated deals of every rule set and checks
// that no card hidden from the seat (others' hands, the stock, the untaken
// pots, in fechado the pile under its top card) can be read from it: the
// cards named anywhere in the JSON, counted, must be among the public cards
// (melds, rows, the visible pile) and the seat's own hand.
func TestViewHidesSecrets(t *testing.T) {
	deals := 10
	if testing.Short() {
		deals = 2
	}
	positions := 0
	for _, c := range simConfigs() {
		r := c.rules(t)
		for d := range deals {
			seed := uint64(d)*104_729 + uint64(r.Players)
			g, err := Deal(r, d%r.Players, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			b := &bot{rng: NewRand(seed), hesitant: d%3 == 1}
			for !g.Over() {
				positions++
				for seat := -1; seat < r.Players; seat++ {
					checkViewSecrets(t, g, seat)
				}
				m, ok := b.choose(g)
				if !ok {
					break
				}
				mustApply(t, g, g.Turn(), m)
			}
			for seat := -1; seat < r.Players; seat++ {
				checkViewSecrets(t, g, seat)
			}
		}
	}
	t.Logf("%d positions", positions)
}

// checkViewSecrets checks seat's view (-1: a spectator's) as JSON.
func checkViewSecrets(t *testing.T, g *Game, seat int) {
	t.Helper()
	v := g.View(seat)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var shown, may [Joker + 1]int
	countJSONCards(doc, &shown)
	see := func(cs []Card) {
		for _, c := range cs {
			may[c]++
		}
	}
	if seat >= 0 {
		see(g.hands[seat])
	}
	for _, ms := range g.melds {
		for _, m := range ms {
			see(m.Cards)
		}
	}
	for _, row := range g.rows {
		see(row)
	}
	switch {
	case len(g.pile) == 0:
	case g.rules.ID == Fechado:
		see(g.pile[len(g.pile)-1:])
	default:
		see(g.pile)
	}
	for c, n := range shown {
		if n > may[c] {
			t.Fatalf("seat %d's view shows %s %d times, %d of them public or its own:\n%s\n%s",
				seat, Card(c), n, may[c], b, posJSON(t, g))
		}
	}
	if seat >= 0 && !slices.Equal(v.Hand, g.hands[seat]) {
		t.Fatalf("seat %d's view hand differs", seat)
	}
	if seat < 0 && (v.Hand != nil || v.Legal != (Summary{})) {
		t.Fatalf("a spectator's view shows a hand or legal moves: %s", b)
	}
}

// countJSONCards counts the strings anywhere in a decoded JSON document that
// are cards in notation.
func countJSONCards(doc any, n *[Joker + 1]int) {
	switch x := doc.(type) {
	case string:
		if c, err := ParseCard(x); err == nil && c.String() == x {
			n[c]++
		}
	case []any:
		for _, e := range x {
			countJSONCards(e, n)
		}
	case map[string]any:
		for k, e := range x {
			countJSONCards(k, n)
			countJSONCards(e, n)
		}
	}
}

func TestViewPile(t *testing.T) {
	pos := `{"turn":0,"hands":[["4C"],["3D"],["6D"],["JD"]],"stock":["8C","7S","TS"],"discard":["QS","9D"]}`
	open := loadPos(t, Aberto, 4, "", pos).View(1)
	if len(open.Pile) != 2 || open.PileTop != nil {
		t.Errorf("aberto pile %v top %v", open.Pile, open.PileTop)
	}
	closed := loadPos(t, Fechado, 4, "", pos).View(1)
	if closed.Pile != nil || closed.PileTop == nil || *closed.PileTop != MustParseCard("9D") || closed.PileSize != 2 {
		t.Errorf("fechado pile %v top %v size %d", closed.Pile, closed.PileTop, closed.PileSize)
	}
	if !open.Legal.CanDraw && open.Seat == 0 {
		t.Error("seat 0 cannot draw")
	}
	v0 := loadPos(t, Fibur, 4, "", pos).View(0)
	if !v0.Legal.CanDraw || !v0.Legal.CanPickup || v0.Legal.CanDiscard {
		t.Errorf("summary %+v", v0.Legal)
	}
}
