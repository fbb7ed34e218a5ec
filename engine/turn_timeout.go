package engine

import "cmp"

// TimeoutMoves returns the moves the server plays for the seat on turn when
// its turn limit runs out (issue 7): the card for the turn is taken if it
// has not been (a draw; when no card may be drawn, a plain pickup of the
// pile where the rule set allows one), then the seat discards the
// highest-value card it may legally discard (RULES §7a values; among cards
// of equal value the higher rank, then the first suit in S H D C order).
// The discard obeys every rule of a discard: the card picked up alone from
// a one-card pile is passed over, and a last card is discarded only when
// that takes the pot or closes. It melds nothing.
//
// The moves are legal when applied to g in order; g is not changed. The
// discard depends on the card drawn, so TimeoutMoves reads the stock: it is
// for the server, never for showing to a seat.
// Errors: ErrDealOver when the deal is over; ErrStockEmpty when nothing can
// be taken (no card may be drawn and the pile may not be taken plainly);
// ErrCannotClose when no card of the hand may be discarded.
func TimeoutMoves(g *Game) ([]Move, error) {
	if !g.ready() || g.phase == PhaseOver {
		return nil, ruleErr(ErrDealOver, "the deal is over")
	}
	h, seat := g.Clone(), g.turn
	var out []Move
	if h.phase == PhaseTake {
		m := DrawMove()
		if h.Check(seat, m) != nil {
			m = PickupMove()
		}
		if err := h.Apply(seat, m); err != nil {
			return nil, ruleErr(ErrStockEmpty, "no card may be drawn and the pile may not be taken: "+err.Error())
		}
		out = append(out, m)
	}
	d, ok := h.highestDiscard(seat)
	if !ok {
		return nil, ruleErr(ErrCannotClose, "no card of the hand may be discarded")
	}
	return append(out, d), nil
}

// highestDiscard returns the legal discard of the highest-value card.
func (g *Game) highestDiscard(seat int) (Move, bool) {
	var best Card
	for _, c := range g.hands[seat] {
		if best != 0 && g.discardOrder(c, best) <= 0 || g.Check(seat, DiscardMove(c)) != nil {
			continue
		}
		best = c
	}
	return DiscardMove(best), best != 0
}

// discardOrder orders cards for the time-out discard: by value, then rank
// (the ace high), then suit (S first).
func (g *Game) discardOrder(a, b Card) int {
	rank := func(c Card) int {
		if c.Rank() == Ace {
			return int(HighAce)
		}
		return int(c.Rank())
	}
	return cmp.Or(
		cmp.Compare(g.rules.CardPoints(a), g.rules.CardPoints(b)),
		cmp.Compare(rank(a), rank(b)),
		cmp.Compare(b.Suit(), a.Suit()),
	)
}
