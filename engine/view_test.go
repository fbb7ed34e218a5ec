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
	t.Parallel() // it and the simulation are most of the engine's time
	// CI plays 3 deals of each configuration (about 5,000 positions, 5 s
	// of CPU); it played 10 until make test had to fit in 4 minutes.
	deals := propertyDeals(t, 3, 2)
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

// TestViewFechadoPileHidden is the reproduction of the can_pickup leak: the
// same hand and the same visible top card over a pile whose hidden card
// would (5C) or would not (8S) complete a set of 5s must give seat 0 the
// same view.
func TestViewFechadoPileHidden(t *testing.T) {
	pos := func(pile string) string {
		return `{"turn":0,"hands":[["5H","9C","KD","7S"],["3D","4D","6C","JH"]],"stock":["8C","7H","TS"],
			"discard":[` + pile + `,"5D"],"pots":[["4S"],["6S"]]}`
	}
	var views [2]string
	for i, pile := range []string{`"5C"`, `"8S"`} {
		g := loadPos(t, Fechado, 2, "", pos(pile))
		b, err := json.Marshal(g.View(0))
		if err != nil {
			t.Fatal(err)
		}
		views[i] = string(b)
	}
	if views[0] != views[1] {
		t.Fatalf("seat 0's view depends on the hidden pile card:\n%s\n%s", views[0], views[1])
	}
	// The pickup with the hidden 5C is legal all the same.
	g := loadPos(t, Fechado, 2, "", pos(`"5C"`))
	if err := g.Check(0, PickupMeldMove(tcards("5H 5C"))); err != nil {
		t.Fatalf("pickup with the hidden card: %v", err)
	}
}

// TestViewDependsOnlyOnSeen checks that every field of a view is a function
// of what its seat may see: in thousands of positions of simulated deals
// (greedy and uniformly random play) of every configuration, the cards
// hidden from the seat are permuted at random among the places hidden from
// it (the other seats' hands, the stock, the untaken pots, in fechado the
// pile under its top card; sizes kept), and the view must marshal to the
// same JSON. Once the deal is over the hands are shown for the score, so
// only the stock, the pots and the pile are permuted.
func TestViewDependsOnlyOnSeen(t *testing.T) {
	t.Parallel()
	// CI plays 3 deals of each configuration (6 until make test had to
	// fit in 4 minutes); the race detector 1.
	deals := propertyDeals(t, 3, 1)
	if raceEnabled {
		deals = 1
	}
	positions, changed := 0, 0
	for _, c := range simConfigs() {
		r := c.rules(t)
		for d := range deals {
			seed := uint64(d)*7_919 + uint64(r.Players) + 17
			var totals []int
			if r.ID.Brazilian() && d%2 == 1 {
				totals = make([]int, r.Teams())
				totals[0] = r.Options.Target / 2
			}
			g, err := Deal(r, d%r.Players, seed, totals)
			if err != nil {
				t.Fatal(err)
			}
			rng := NewRand(seed ^ 0xfeed)
			b := &bot{rng: NewRand(seed), hesitant: d%3 == 1}
			for moves := 0; ; moves++ {
				positions++
				for seat := -1; seat < r.Players; seat++ {
					if checkViewPermuted(t, g, seat, rng) {
						changed++
					}
				}
				if g.Over() || moves >= maxSimMoves {
					break
				}
				var m Move
				var ok bool
				if d%2 == 0 {
					m, ok = b.choose(g)
				} else {
					m, ok = randomMove(g, rng)
				}
				if !ok {
					break
				}
				mustApply(t, g, g.Turn(), m)
			}
		}
	}
	t.Logf("%d positions, %d views compared with hidden cards moved", positions, changed)
	if changed < positions {
		t.Errorf("only %d of %d positions had hidden cards moved", changed, positions)
	}
}

// checkViewPermuted compares seat's view of g with its view of a copy whose
// hidden cards are permuted; it reports whether the permutation moved a card.
func checkViewPermuted(t *testing.T, g *Game, seat int, rng *Rand) bool {
	t.Helper()
	h, moved := permuteHidden(g, seat, rng)
	a, err := json.Marshal(g.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(h.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Fatalf("%s: seat %d's view depends on hidden cards:\n%s\n%s\nposition %s\npermuted %s",
			describe(g), seat, a, b, posJSON(t, g), posJSON(t, h))
	}
	return moved
}
