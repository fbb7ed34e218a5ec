package engine

import (
	"math/bits"
	"slices"
	"testing"
)

// searchConfigs are the simulation's rule sets plus vulnerable tables with
// rows and with sets, so that combined first melds meet every kind of meld.
func searchConfigs() []simConfig {
	vuln := func(o *Options) { o.Vulnerability = true }
	return append(simConfigs(),
		simConfig{Fibur, 4, vuln}, simConfig{Fibur, 2, vuln}, simConfig{FiburRow, 2, vuln},
		simConfig{Reale, 2, vuln},
	)
}

// visitPositions plays deals from random seeds (random moves, then the
// bot) and calls visit on positions along them.
func visitPositions(t *testing.T, deals int, visit func(g *Game)) {
	for ci, c := range searchConfigs() {
		r := c.rules(t)
		for d := range deals {
			seed := uint64(ci*100_003 + d*7 + 1)
			var totals []int
			if r.Options.Vulnerability && d%2 == 0 {
				totals = make([]int, r.Teams())
				for i := range totals {
					totals[i] = r.Options.Target / 2
				}
			}
			g, err := Deal(r, d%r.Players, seed, totals)
			if err != nil {
				t.Fatal(err)
			}
			rng := NewRand(seed ^ 0xabcdef)
			b := &bot{rng: rng}
			random := rng.IntN(12)
			for n := 0; n < 400 && !g.Over(); n++ {
				visit(g)
				var m Move
				if n < random {
					ms := g.LegalMoves(g.Turn())
					m = ms[rng.IntN(len(ms))]
				} else if m, _ = b.choose(g); m.Kind == NoMove {
					break
				}
				mustApply(t, g, g.Turn(), m)
			}
		}
	}
}

// TestSearchComplete compares the summary's can_meld, can_attach and (in
// fechado) can_pickup with a brute-force search over every choice of cards
// of hands of at most 12 cards (pools of at most 13 for the fechado pickup),
// every wild placement and every combination of melds: they must agree.
func TestSearchComplete(t *testing.T) {
	t.Parallel()
	// CI plays 5 deals of each configuration (12 until make test had to
	// fit in 4 minutes); -short 2, which meet every kind of move too.
	deals := propertyDeals(t, 5, 2)
	var n, melds, attaches, pickups, combos, attachCards, lowTwos int
	visitPositions(t, deals, func(g *Game) {
		seat := g.Turn()
		s := g.Summary(seat)
		switch {
		case g.phase == PhasePlay && len(g.hands[seat]) <= 12:
			n++
			want, combo := bruteMeld(g, seat)
			if s.CanMeld != want {
				t.Fatalf("%s: can_meld %v, brute force %v\n%s", describe(g), s.CanMeld, want, posJSON(t, g))
			}
			if want {
				melds++
			}
			if combo {
				combos++
			}
			if want := bruteAttach(g, seat); s.CanAttach != want {
				t.Fatalf("%s: can_attach %v, brute force %v\n%s", describe(g), s.CanAttach, want, posJSON(t, g))
			}
			if s.CanAttach {
				attaches++
			}
			if movesLowTwo(g, seat) {
				lowTwos++
			}
		case g.phase == PhaseTake && g.rules.ID == Fechado && len(g.pile) > 0 && len(g.hands[seat])+len(g.pile) <= 13:
			n++
			// can_pickup sees the hand and the top card only, the pile
			// under it being placeholders (seenBy).
			if want := brutePickup(g.seenBy(seat), seat, g.hands[seat]); s.CanPickup != want {
				t.Fatalf("%s: can_pickup %v, brute force %v\n%s", describe(g), s.CanPickup, want, posJSON(t, g))
			}
			if s.CanPickup {
				pickups++
			}
			// The complete search behind LegalMoves uses the whole pile.
			pool := append(slices.Clone(g.hands[seat]), g.pile[:len(g.pile)-1]...)
			_, found := g.findPickupMeld(seat)
			attach := slices.ContainsFunc(g.LegalMoves(seat), func(m Move) bool { return m.Kind == Pickup && m.Attach })
			if want := brutePickup(g, seat, pool); (found || attach) != want {
				t.Fatalf("%s: pickup search %v (attach %v), brute force %v\n%s", describe(g), found, attach, want, posJSON(t, g))
			}
			if m, ok := g.findPickupAttach(seat, pool); ok && len(m.Cards) > 0 {
				attachCards++
			}
			if s.CanPickup && !found && !attach {
				t.Fatalf("%s: can_pickup but no pickup legal\n%s", describe(g), posJSON(t, g))
			}
		}
	})
	t.Logf("%d positions: can_meld %d (only combined %d), can_attach %d (moving a natural 2 %d), fechado can_pickup %d (attaching with more cards %d)",
		n, melds, combos, attaches, lowTwos, pickups, attachCards)
	if melds == 0 || attaches == 0 || pickups == 0 || combos == 0 || attachCards == 0 || lowTwos == 0 {
		t.Error("some kind of move was never possible: the test proves little")
	}
}

// movesLowTwo reports whether some card of the seat's hand attaches to a
// team meld only by moving its natural low 2 into a gap (RULES §5).
func movesLowTwo(g *Game, seat int) bool {
	for _, m := range g.melds[g.Team(seat)] {
		if m.Kind != Sequence || m.Wild >= 0 || m.Low != Two {
			continue
		}
		for _, c := range g.hands[seat] {
			if r, err := m.Attach(g.mr, []Card{c}, 0); err == nil && r.Low > Two {
				return true
			}
		}
	}
	return false
}

// subsets lists the choices of at least min cards of cs, as index masks.
func subsets(cs []Card, least int) []uint32 {
	var out []uint32
	for m := uint32(1); m < 1<<len(cs); m++ {
		if bits.OnesCount32(m) >= least {
			out = append(out, m)
		}
	}
	return out
}

func pickCards(cs []Card, m uint32) []Card {
	var out []Card
	for i, c := range cs {
		if m&(1<<i) != 0 {
			out = append(out, c)
		}
	}
	return out
}

// maybeMeld is a quick necessary condition: the cards other than jokers and
// 2s share a suit or a rank.
func maybeMeld(cs []Card) bool {
	var first Card
	suit, rank := true, true
	for _, c := range cs {
		if c.IsWildCard() {
			continue
		}
		if first == 0 {
			first = c
		}
		suit = suit && c.Suit() == first.Suit()
		rank = rank && c.Rank() == first.Rank()
	}
	return suit || rank
}

// wildAsChoices lists 0 and, when cs holds a wild, every card it could be
// named to stand for (in a sequence of the suit of extra or of cs's
// naturals, or in a set of their rank).
func wildAsChoices(cs []Card, extra ...Card) []Card {
	out := []Card{0}
	var nat Card
	wild := false
	for _, c := range append(cs, extra...) {
		if c.IsWildCard() {
			wild = true
		} else if nat == 0 {
			nat = c
		}
	}
	if !wild {
		return out
	}
	if nat == 0 {
		return append(out, Card(uint8(NoSuit)<<4|uint8(Two)))
	}
	for rk := Ace; rk <= King; rk++ {
		out = append(out, NewCard(rk, nat.Suit()))
	}
	return append(out, Card(uint8(NoSuit)<<4|uint8(nat.Rank())))
}

// bruteMeld reports whether any meld move from seat's hand is legal: one
// meld (any cards, any wild_as), a row meld, or several melds at once. combo
// says only a combination was.
func bruteMeld(g *Game, seat int) (legal, combo bool) {
	hand := g.hands[seat]
	ok := func(m Move) bool { return g.Check(seat, m) == nil }
	var meldable []uint32
	for _, m := range subsets(hand, 3) {
		cs := pickCards(hand, m)
		if !maybeMeld(cs) {
			continue
		}
		for _, w := range wildAsChoices(cs) {
			if ok(Move{Kind: MeldCards, Cards: cs, WildAs: w}) {
				return true, false
			}
		}
		if _, err := NewMeld(g.mr, cs, 0); err == nil {
			meldable = append(meldable, m)
		}
	}
	var row []Card
	if seat < len(g.rows) && len(g.rows[seat]) > 0 {
		row = g.rows[seat][:1]
		for _, m := range subsets(hand, 2) {
			cs := pickCards(hand, m)
			if len(cs) != 2 || !maybeMeld(append(cs, row[0])) {
				continue
			}
			for _, w := range wildAsChoices(cs, row[0]) {
				if ok(Move{Kind: MeldCards, Cards: cs, Row: true, WildAs: w}) {
					return true, false
				}
			}
		}
	}
	// Combinations: two or more disjoint melds, or a row meld with others.
	var rec func(used uint32, start int, melds [][]Card) bool
	rec = func(used uint32, start int, melds [][]Card) bool {
		if len(melds) >= 2 && ok(Move{Kind: MeldCards, Melds: melds}) {
			return true
		}
		for i := start; i < len(meldable); i++ {
			if meldable[i]&used == 0 && rec(used|meldable[i], i+1, append(melds[:len(melds):len(melds)], pickCards(hand, meldable[i]))) {
				return true
			}
		}
		return false
	}
	if rec(0, 0, nil) {
		return true, true
	}
	if row != nil {
		for _, m := range subsets(hand, 2) {
			if bits.OnesCount32(m) != 2 {
				continue
			}
			for _, o := range meldable {
				if o&m == 0 && ok(Move{Kind: MeldCards, Cards: pickCards(hand, m), Row: true, Melds: [][]Card{pickCards(hand, o)}}) {
					return true, true
				}
			}
		}
	}
	return false, false
}

// bruteAttach reports whether any attach is legal: any cards of the hand
// to any meld of the team (any wild_as), or the next row card.
func bruteAttach(g *Game, seat int) bool {
	hand := g.hands[seat]
	ms := g.melds[g.Team(seat)]
	for i := range ms {
		if g.Check(seat, Move{Kind: AttachCards, Meld: i, Row: true}) == nil {
			return true
		}
	}
	for _, m := range subsets(hand, 1) {
		cs := pickCards(hand, m)
		for i, ml := range ms {
			if !maybeMeld(append(cs, ml.Cards...)) {
				continue
			}
			for _, w := range wildAsChoices(cs, ml.Cards...) {
				if g.Check(seat, Move{Kind: AttachCards, Meld: i, Cards: cs, WildAs: w}) == nil {
					return true
				}
			}
		}
	}
	return false
}

// brutePickup reports whether a fechado pickup is legal: the top card
// attached to a meld with any other cards of pool (any wild_as), or laid
// with any other cards of pool (any wild_as), with any further melds.
// Further melds beside an attach are not tried: they would leave fewer
// cards, and an attach leaving two or more is legal already.
func brutePickup(g *Game, seat int, pool []Card) bool {
	ok := func(m Move) bool { return g.Check(seat, m) == nil }
	top := g.pile[len(g.pile)-1]
	for i, ml := range g.melds[g.Team(seat)] {
		if ok(PickupAttachMove(i)) {
			return true
		}
		for _, m := range subsets(pool, 1) {
			cs := pickCards(pool, m)
			if !maybeMeld(append(append(cs, top), ml.Cards...)) {
				continue
			}
			for _, w := range wildAsChoices(append(cs, top), ml.Cards...) {
				if ok(Move{Kind: Pickup, Attach: true, Meld: i, Cards: cs, WildAs: w}) {
					return true
				}
			}
		}
	}
	var firsts, others []uint32
	for _, m := range subsets(pool, 2) {
		cs := pickCards(pool, m)
		if maybeMeld(append(cs, top)) {
			for _, w := range wildAsChoices(cs, top) {
				if ok(Move{Kind: Pickup, Cards: cs, WildAs: w}) {
					return true
				}
			}
			if _, err := NewMeld(g.mr, append(cs, top), 0); err == nil {
				firsts = append(firsts, m)
			}
		}
		if len(cs) >= 3 && maybeMeld(cs) {
			if _, err := NewMeld(g.mr, cs, 0); err == nil {
				others = append(others, m)
			}
		}
	}
	var rec func(used uint32, start int, first []Card, melds [][]Card) bool
	rec = func(used uint32, start int, first []Card, melds [][]Card) bool {
		if len(melds) > 0 && ok(Move{Kind: Pickup, Cards: first, Melds: melds}) {
			return true
		}
		for i := start; i < len(others); i++ {
			if others[i]&used == 0 && rec(used|others[i], i+1, first, append(melds[:len(melds):len(melds)], pickCards(pool, others[i]))) {
				return true
			}
		}
		return false
	}
	for _, f := range firsts {
		if rec(f, 0, pickCards(pool, f), nil) {
			return true
		}
	}
	return false
}

// TestSummaryEdges pins the cases the complete search exists for.
func TestSummaryEdges(t *testing.T) {
	tests := []struct {
		name    string
		rules   RuleSet
		players int
		options string
		pos     string
		want    Summary
	}{
		{"AttachTwoCardsToEmptyHand", Fibur, 4, "", `{"turn":0,"phase":"play","took":"pickup","picked":"TC",
			"hands":[["9C","TC"],["3D"],["6D"],["JD"]],"stock":["8S","9S","TS"],"discard":[],"pots":[["4C"],["5S"]],
			"melds":[[["6C","7C","8C"]],[]]}`,
			Summary{CanAttach: true, CanDiscard: true}},
		{"VulnerableCombinedOnly", Aberto, 2, "", `{"turn":0,"phase":"play","totals":[1500,0],
			"hands":[["5S","6S","7S","8S","9D","TD","JD","QC","KC","AC","3H","4H"],["3D"]],"stock":["8H"],"discard":[],"pots":[["4C"],["5C"]]}`,
			Summary{CanMeld: true, CanDiscard: true, MeldMinimum: 75}},
		{"VulnerableTooFew", Aberto, 2, "", `{"turn":0,"phase":"play","totals":[1500,0],
			"hands":[["5S","6S","7S","9D","TD","JD","3H","4H"],["3D"]],"stock":["8H"],"discard":[],"pots":[["4C"],["5C"]]}`,
			Summary{CanDiscard: true, MeldMinimum: 75}},
		{"RowMeldOnly", FiburRow, 2, "", `{"turn":0,"phase":"play","hands":[["8H","9H","4C"],["3D"]],"rows":[["7H","KS"],["4D"]],
			"stock":["8S","9S","TS"],"discard":["QD"],"pots":[["4S"],["5S"]]}`,
			Summary{CanMeld: true, CanDiscard: true}},
		// The pickup needs hidden pile cards (5D 6D under the top 7D): legal,
		// but can_pickup sees only the hand and the top card (RULES §4).
		{"FechadoPickupWithPileCards", Fechado, 2, "", `{"turn":0,"hands":[["4C","KH"],["3D"]],
			"stock":["8S"],"discard":["5D","6D","9S","7D"],"pots":[["4S"],["5S"]]}`,
			Summary{CanDraw: true}},
		{"FechadoPickupFromHand", Fechado, 2, "", `{"turn":0,"hands":[["5D","6D","KH"],["3D"]],
			"stock":["8S"],"discard":["4C","9S","7D"],"pots":[["4S"],["5S"]]}`,
			Summary{CanDraw: true, CanPickup: true}},
		// The hand would be all laid, a hidden pile card left as the last card:
		// its legality depends on that card, so can_pickup is false.
		{"FechadoPickupLeavesHiddenCard", Fechado, 2, "", `{"turn":0,"hands":[["5D","6D"],["3D"]],
			"stock":["8S"],"discard":["4C","7D"],"pots":[],"pot_taken":[true,false],
			"melds":[[["8C","9C","TC","JC","QC","KC","AC"]],[]]}`,
			Summary{CanDraw: true}},
		// The top card 9C joins 5C 6C 7C with the hand's 8C (RULES §9).
		{"FechadoPickupAttachWithHandCard", Fechado, 2, "", `{"turn":0,"hands":[["8C","KH","4D"],["3D"]],
			"stock":["8S"],"discard":["QS","9C"],"pots":[["4S"],["5S"]],"melds":[[["5C","6C","7C"]],[]]}`,
			Summary{CanDraw: true, CanPickup: true}},
		// The same with the 8C under the top: legal, but hidden from the seat.
		{"FechadoPickupAttachWithPileCard", Fechado, 2, "", `{"turn":0,"hands":[["KH","4D"],["3D"]],
			"stock":["8S"],"discard":["8C","9C"],"pots":[["4S"],["5S"]],"melds":[[["5C","6C","7C"]],[]]}`,
			Summary{CanDraw: true}},
		// Two cards fill the gap, the natural 2 moves into the last (RULES §5).
		{"FechadoPickupAttachMovesNaturalTwo", Fechado, 2, "", `{"turn":0,"hands":[["5H","7H","KD","4D"],["3D"]],
			"stock":["8S"],"discard":["8H"],"pots":[["4S"],["5S"]],"melds":[[["2H","3H","4H"]],[]]}`,
			Summary{CanDraw: true, CanPickup: true}},
		{"FechadoPickupVulnerableTooFew", Fechado, 2, "", `{"turn":0,"totals":[1500,0],"hands":[["4C","KH"],["3D"]],
			"stock":["8S"],"discard":["5D","6D","9S","7D"],"pots":[["4S"],["5S"]]}`,
			Summary{CanDraw: true, MeldMinimum: 75}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := loadPos(t, tc.rules, tc.players, tc.options, tc.pos)
			if got := g.Summary(0); got != tc.want {
				t.Errorf("summary %+v, want %+v", got, tc.want)
			}
			kinds := map[MoveKind]bool{}
			for _, m := range g.LegalMoves(0) {
				kinds[m.Kind] = true
			}
			if kinds[MeldCards] != tc.want.CanMeld || kinds[AttachCards] != tc.want.CanAttach {
				t.Errorf("legal moves list kinds %v, summary %+v", kinds, tc.want)
			}
		})
	}
}
