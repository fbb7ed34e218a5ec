package engine

import "slices"

// maxSetNaturals is the most natural cards of one rank in a set: one of each
// suit from each of the two decks.
const maxSetNaturals = 8

// setCounts tallies a set's cards: naturals by suit and the wild.
type setCounts struct {
	rank     Rank
	naturals int
	bySuit   [NoSuit]uint8
	wild     int // index of the wild, -1 when none
}

// setNatural reports whether c is a natural card in a set of rank r: in a
// set of 2s the 2s are natural; elsewhere a 2 is always wild.
func setNatural(c Card, r Rank) bool {
	return c != Joker && c.Rank() == r
}

// add tallies card c found at index i.
func (sc *setCounts) add(c Card, i int) fail {
	switch {
	case !c.Valid():
		return failNotCard
	case setNatural(c, sc.rank):
		sc.naturals++
		sc.bySuit[c.Suit()]++
		if sc.bySuit[c.Suit()] > 2 {
			return failCopies
		}
		if sc.naturals > maxSetNaturals {
			return failSetSize
		}
	case c.IsWildCard():
		if sc.wild >= 0 {
			return failTooManyWilds
		}
		sc.wild = i
	default:
		return failSetRank
	}
	return okay
}

// setPermitted says whether a set of rank r may be laid under mr.
func setPermitted(mr MeldRules, r Rank) fail {
	if r == Two && mr.SetsOfTwos || r != Two && mr.setAllowed(r) {
		return okay
	}
	return failNoSets
}

// checkSetWildAs refuses a wildAs that does not name the set's rank, or one
// given for a set without a wild.
func checkSetWildAs(wildAs Card, r Rank, wild int) fail {
	if wildAs != 0 && (wild < 0 || wildAs == Joker || wildAs.Rank() != r || wildAs.Suit() > NoSuit) {
		return failWildAs
	}
	return okay
}

// readSet checks cards as a set of rank r and returns the wild's index.
func readSet(mr MeldRules, cards []Card, r Rank) (int, fail) {
	if f := setPermitted(mr, r); f != okay {
		return -1, f
	}
	sc := setCounts{rank: r, wild: -1}
	for i, c := range cards {
		if f := sc.add(c, i); f != okay {
			return -1, f
		}
	}
	switch {
	case len(cards) < 3:
		return -1, failShort
	case sc.naturals < 2:
		return -1, failWildsOnly
	}
	return sc.wild, okay
}

// newSet reads cards as a set of rank r, in the order given.
func newSet(mr MeldRules, cards []Card, r Rank, wildAs Card) (Meld, fail) {
	wild, f := readSet(mr, cards, r)
	if f != okay {
		return Meld{}, f
	}
	if f := checkSetWildAs(wildAs, r, wild); f != okay {
		return Meld{}, f
	}
	cs := make([]Card, len(cards))
	copy(cs, cards)
	return Meld{Kind: Set, Cards: cs, Wild: wild, Suit: NoSuit, SetRank: r}, okay
}

// newTwosSet reads cards made only of 2s and jokers: a set of 2s where the
// rule set has them, else wild cards only.
func newTwosSet(mr MeldRules, cards []Card, wildAs Card) (Meld, fail) {
	if !mr.SetsOfTwos || !slices.ContainsFunc(cards, Card.IsTwo) {
		return Meld{}, failWildsOnly
	}
	return newSet(mr, cards, Two, wildAs)
}

// attachSet adds cards to the set m, appending them.
func (m Meld) attachSet(mr MeldRules, cards []Card, wildAs Card) (Meld, fail) {
	n := len(m.Cards)
	if n+len(cards) > maxSetNaturals+1 {
		return Meld{}, failSetSize
	}
	wild, f := readSet(mr, m.Cards, m.SetRank)
	if f != okay || wild != m.Wild || m.Suit != NoSuit || m.Low != NoRank {
		return Meld{}, failBadMeld
	}
	sc := setCounts{rank: m.SetRank, wild: -1}
	cs := make([]Card, n+len(cards))
	copy(cs, m.Cards)
	copy(cs[n:], cards)
	for i, c := range cs {
		if f := sc.add(c, i); f != okay {
			return Meld{}, f
		}
	}
	if f := checkSetWildAs(wildAs, m.SetRank, sc.wild); f != okay {
		return Meld{}, f
	}
	return Meld{Kind: Set, Cards: cs, Wild: sc.wild, Suit: NoSuit, SetRank: m.SetRank}, okay
}
