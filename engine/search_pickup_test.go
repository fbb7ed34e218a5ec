package engine

import (
	"testing"
)

// randomPickupPosition builds a small fechado position in the take phase
// around one sequence of the team: a hand and a pile of cards mostly of its
// suit and near it, wilds, sometimes a canastra and the pot taken, so that
// the pickups that attach the top card with more cards, and the hands they
// leave, meet every case of RULES §5, §6 and §9. It returns nil when the
// drawing made an unloadable position.
func randomPickupPosition(rng *Rand) *Game {
	deck := map[Card]int{}
	take := func(c Card) bool {
		if deck[c] >= 2 && c != Joker || deck[c] >= 4 {
			return false
		}
		deck[c]++
		return true
	}
	suit := Suit(rng.IntN(4))
	near := func(lo, hi int) Card {
		switch rng.IntN(8) {
		case 0:
			return Joker
		case 1:
			return NewCard(Two, Suit(rng.IntN(4)))
		case 2:
			return NewCard(Rank(1+rng.IntN(13)), Suit(rng.IntN(4)))
		}
		p := lo - 3 + rng.IntN(hi-lo+7)
		if p < 1 || p > 14 {
			p = 1 + rng.IntN(13)
		}
		return posCard(Rank(p), suit)
	}
	// The meld: positions lo..hi, maybe a wild at one place.
	lo := 1 + rng.IntN(10)
	n := 3 + rng.IntN(4)
	hi := min(lo+n-1, 14)
	meld := make([]Card, 0, hi-lo+1)
	wildAt := -1
	if rng.IntN(2) == 0 {
		wildAt = lo + rng.IntN(hi-lo+1)
	}
	for p := lo; p <= hi; p++ {
		c := posCard(Rank(p), suit)
		if p == wildAt {
			c = []Card{Joker, NewCard(Two, (suit+1)%4), NewCard(Two, suit)}[rng.IntN(3)]
		}
		if !take(c) {
			return nil
		}
		meld = append(meld, c)
	}
	melds := [][]Card{meld}
	potTaken := rng.IntN(3) > 0
	if potTaken && rng.IntN(3) > 0 || rng.IntN(4) == 0 {
		other := (suit + 2) % 4
		can := []Card{}
		for p := 3; p <= 9; p++ {
			c := NewCard(Rank(p), other)
			take(c)
			can = append(can, c)
		}
		melds = append(melds, can)
	}
	var hand, pile []Card
	for range 1 + rng.IntN(4) {
		if c := near(lo, hi); take(c) {
			hand = append(hand, c)
		}
	}
	for range rng.IntN(3) {
		if c := near(lo, hi); take(c) {
			pile = append(pile, c)
		}
	}
	top := near(lo, hi)
	if !take(top) || len(hand) == 0 {
		return nil
	}
	pile = append(pile, top)
	pos := Position{Rules: Fechado, Players: 2, Turn: 0, Hands: [][]Card{hand, {MustParseCard("3D")}},
		Stock: []Card{MustParseCard("8S")}, Discard: pile, PotTaken: []bool{potTaken, false},
		Melds: [][][]Card{melds, {}}}
	if !potTaken {
		pos.Pots = [][]Card{{MustParseCard("4S")}}
	}
	g, err := LoadPosition(pos)
	if err != nil {
		return nil
	}
	return g
}

// TestPickupAttachSearchComplete compares the complete search for a fechado
// pickup attaching the top card (with the whole pile known, and as the seat
// sees it) with a brute force over every choice of cards and wild_as.
func TestPickupAttachSearchComplete(t *testing.T) {
	rng := NewRand(2024)
	positions, legal, withCards, seenLegal := 0, 0, 0, 0
	want := 4000
	if testing.Short() {
		want = 800
	}
	for positions < want {
		g := randomPickupPosition(rng)
		if g == nil {
			continue
		}
		positions++
		top := g.pile[len(g.pile)-1]
		pool := append(append([]Card(nil), g.hands[0]...), g.pile[:len(g.pile)-1]...)
		brute := bruteAttachPickup(g, pool, top)
		m, found := g.findPickupAttach(0, pool)
		if found != brute {
			t.Fatalf("search %v (%s), brute force %v\n%s", found, m, brute, posJSON(t, g))
		}
		if found {
			legal++
			if len(m.Cards) > 0 {
				withCards++
			}
			mustApply(t, g.Clone(), 0, m)
		}
		v := g.seenBy(0)
		brute = bruteAttachPickup(v, g.hands[0], top)
		_, seen := v.findPickupAttach(0, g.hands[0])
		if seen != brute {
			t.Fatalf("seen: search %v, brute force %v\n%s", seen, brute, posJSON(t, g))
		}
		if seen {
			seenLegal++
		}
	}
	t.Logf("%d positions: a pickup attach in %d (with more cards %d), seen by the seat %d", positions, legal, withCards, seenLegal)
	if withCards == 0 || seenLegal == 0 {
		t.Error("no pickup attach with more cards: the test proves little")
	}
}

// bruteAttachPickup reports whether some fechado pickup attaches the top
// card with any cards of pool to any team meld, with any wild_as.
func bruteAttachPickup(g *Game, pool []Card, top Card) bool {
	for i, ml := range g.melds[0] {
		for _, m := range append([]uint32{0}, subsets(pool, 1)...) {
			cs := pickCards(pool, m)
			for _, w := range wildAsChoices(append(cs, top), ml.Cards...) {
				if g.Check(0, Move{Kind: Pickup, Attach: true, Meld: i, Cards: cs, WildAs: w}) == nil {
					return true
				}
			}
		}
	}
	return false
}

// TestPickupAttachLeavesANatural: with the pot taken, the top 9C can join
// 5C 6C 7C only with the joker as the 8C, keeping the 8C as the closing
// card: with the 8C the joker would be left alone (no closing discard), or
// with both nothing would be left.
func TestPickupAttachLeavesANatural(t *testing.T) {
	g := loadPos(t, Fechado, 2, "", `{"turn":0,"hands":[["8C","JK"],["3D"]],"stock":["8S"],"discard":["9C"],"pots":[],
	 "pot_taken":[true,false],"melds":[[["5C","6C","7C"],["3H","4H","5H","6H","7H","8H","9H"]],[]]}`)
	wantReject(t, g, 0, PickupAttachMove(0, MustParseCard("8C")), ErrMustKeepCard)
	wantReject(t, g, 0, PickupAttachMove(0, MustParseCard("8C"), Joker), ErrMustKeepCard)
	m, ok := g.findPickupAttach(0, g.hands[0])
	if want := PickupAttachMove(0, Joker); !ok || m.String() != want.String() {
		t.Fatalf("found %v %s, want %s", ok, m, want)
	}
	if !g.Summary(0).CanPickup {
		t.Error("can_pickup false")
	}
	mustApply(t, g, 0, m)
	if got := mnotation(g.Melds(0)[0].Cards); got != "5C 6C 7C JK 9C" {
		t.Fatalf("meld %s", got)
	}
}
