package engine

// The complete search for a fechado pickup that attaches the pile's top card
// to one of the team's melds, with cards of a pool (the hand, and the cards
// under the top when they are known), RULES §9.
//
// A wild top card is never attached (it must start a new meld), so the top
// card is a natural. Which cards could join it?
//
//   - A set takes the top card alone: if the top card and more cards can
//     join it, so can the top card alone, and it leaves more cards in the
//     hand, which is never worse (two or more cards left are always legal;
//     with one left and the pot taken, more cards would leave none).
//   - A sequence becomes a run of positions a..b holding the meld's naturals
//     and the top card at its place. Every position of a..b the meld does
//     not fill takes the natural card of the pool, or is a hole: the wild's
//     place (the meld's wild, its natural 2 at the low end moving, or a wild
//     of the pool; one hole more when a 2 of the suit turns natural). The
//     search tries every such window with at most two holes, with the
//     pool's naturals, alone and with each kind of wild of the pool; Attach
//     places the cards. A result in which the meld's natural 2 left the low
//     end is also the result of the window that keeps position 2, so the
//     windows always hold every natural of the meld. When the move would
//     leave at most two cards the search also tries leaving out each natural
//     in turn (alone and with a wild in its place): which card is left may
//     then decide (a lone wild cannot be the closing discard).
//
// Further melds in the same move never help: they take three cards or more,
// and an attach that leaves two or more cards is legal already (the team has
// melds, so no first-meld minimum applies).

// findPickupAttach returns a legal fechado pickup attaching the pile's top
// card, with cards of pool, to one of the team's melds, if one exists.
func (g *Game) findPickupAttach(seat int, pool []Card) (Move, bool) {
	if g.phase != PhaseTake || g.rules.ID != Fechado || len(g.pile) == 0 {
		return Move{}, false
	}
	top := g.pile[len(g.pile)-1]
	if top.IsWildCard() {
		return Move{}, false
	}
	ok := func(m Move) bool { _, err := g.check(seat, m); return err == nil }
	for i, m := range g.melds[g.rules.Team(seat)] {
		if mv := PickupAttachMove(i); ok(mv) {
			return mv, true
		}
		if m.Kind != Sequence || top.Suit() != m.Suit {
			continue
		}
		// size: the cards the hand will hold before the attach (the pile
		// under the top joins it, even where the seat cannot see it).
		s := pickupAttachSearch{meld: i, m: m, top: top, ok: ok,
			size: len(g.hands[seat]) + len(g.pile) - 1}
		s.pool.add(pool)
		if mv, found := s.run(); found {
			return mv, true
		}
	}
	return Move{}, false
}

// pickupAttachSearch tries the windows of one sequence.
type pickupAttachSearch struct {
	meld  int
	m     Meld
	top   Card
	pool  cardSet
	size  int    // cards in the hand after the pickup, before the attach
	fixed uint16 // positions of the meld's naturals
	ok    func(Move) bool
}

func (s *pickupAttachSearch) run() (Move, bool) {
	for i := range s.m.Cards {
		if i != s.m.Wild {
			s.fixed |= bit(s.m.Low + Rank(i))
		}
	}
	for a := Ace; a <= HighAce; a++ {
		for b := a + 2; b <= HighAce && b-a < maxSeqLen; b++ {
			if s.fixed&^span(a, b) != 0 {
				continue
			}
			if mv, found := s.window(a, b); found {
				return mv, true
			}
		}
	}
	return Move{}, false
}

// window tries the attaches that make the meld the run a..b.
func (s *pickupAttachSearch) window(a, b Rank) (Move, bool) {
	left := s.pool
	var nat []Card
	holes, topIn := 0, false
	for p := a; p <= b; p++ {
		if s.fixed&bit(p) != 0 {
			continue
		}
		c := posCard(p, s.m.Suit)
		switch {
		case c == s.top && !topIn:
			topIn = true
		case left[c] > 0:
			left[c]--
			nat = append(nat, c)
		default:
			holes++
		}
	}
	if !topIn || holes > 2 {
		return Move{}, false
	}
	try := func(cs []Card) (Move, bool) {
		mv := PickupAttachMove(s.meld, cs...)
		return mv, s.ok(mv)
	}
	withWilds := func(cs []Card) (Move, bool) {
		if mv, ok := try(cs); ok {
			return mv, true
		}
		for _, w := range wildKinds {
			if left[w] > 0 {
				if mv, ok := try(append(cs[:len(cs):len(cs)], w)); ok {
					return mv, true
				}
			}
		}
		return Move{}, false
	}
	if mv, ok := withWilds(nat); ok {
		return mv, true
	}
	if s.size-len(nat) > 2 {
		return Move{}, false
	}
	for k := range nat {
		if mv, ok := withWilds(append(nat[:k:k], nat[k+1:]...)); ok {
			return mv, true
		}
	}
	return Move{}, false
}
