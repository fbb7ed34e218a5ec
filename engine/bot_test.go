package engine

import "slices"

// bot plays like a greedy beginner, with some randomness: it picks up the
// pile when a pile card would join a meld, lays the biggest meld or attach
// it can whenever it can, closes when it can, and otherwise discards a card
// it has little use for (rarely a wild). A hesitant bot lays only now and
// then, so that its deals run long (stock exhaustion, pots turned into the
// stock).
type bot struct {
	rng      *Rand
	hesitant bool
}

// chance reports true with probability n/d.
func (b *bot) chance(n, d int) bool { return b.rng.IntN(d) < n }

func (b *bot) choose(g *Game) (Move, bool) {
	moves := g.LegalMoves(g.Turn())
	if len(moves) == 0 {
		return Move{}, false
	}
	var takes, lays, discards []Move
	var redraw *Move
	for i, m := range moves {
		switch m.Kind {
		case Draw, Pickup:
			takes = append(takes, m)
		case Redraw:
			redraw = &moves[i]
		case MeldCards, AttachCards:
			lays = append(lays, m)
		case Discard:
			discards = append(discards, m)
		}
	}
	switch {
	case len(takes) > 0:
		return b.take(g, takes), true
	case redraw != nil && b.chance(1, 3):
		return *redraw, true
	case len(lays) > 0 && (!b.hesitant && b.chance(9, 10) || b.chance(1, 5)):
		return b.lay(lays), true
	case len(discards) > 0:
		return b.discard(g, discards), true
	case len(lays) > 0:
		return b.lay(lays), true
	}
	return moves[b.rng.IntN(len(moves))], true
}

// take picks up the pile when it helps (a fechado pickup always lays
// cards; elsewhere a pile card must join a meld), now and then at random,
// and otherwise draws.
func (b *bot) take(g *Game, takes []Move) Move {
	var draw, pickups []Move
	for _, m := range takes {
		if m.Kind == Draw {
			draw = append(draw, m)
		} else {
			pickups = append(pickups, m)
		}
	}
	if len(pickups) > 0 && (len(draw) == 0 || b.chance(1, 20) ||
		(g.rules.ID == Fechado || pileHelps(g, g.Turn())) && b.chance(4, 5) && (!b.hesitant || b.chance(1, 4))) {
		return b.lay(pickups)
	}
	if len(draw) == 0 {
		return pickups[0]
	}
	return draw[0]
}

// pileHelps reports whether a card of the pile would join a meld of the
// seat's hand or attach to one of its team's melds.
func pileHelps(g *Game, seat int) bool {
	hand := g.hands[seat]
	for _, c := range g.pile {
		for _, cs := range meldCandidates(append(slices.Clone(hand), c), g.mr.SetsOfTwos) {
			if slices.Contains(cs, c) {
				if _, err := NewMeld(g.mr, cs, 0); err == nil {
					return true
				}
			}
		}
		for _, m := range g.melds[g.rules.Team(seat)] {
			if _, err := m.Attach(g.mr, []Card{c}, 0); err == nil && !c.IsWildCard() {
				return true
			}
		}
	}
	return false
}

// lay picks the move laying the most cards (a row card counts double, a
// wild counts less), ties at random, and now and then any move.
func (b *bot) lay(ms []Move) Move {
	if b.chance(1, 6) {
		return ms[b.rng.IntN(len(ms))]
	}
	best, bestScore, ties := ms[0], -1, 0
	for _, m := range ms {
		s := layScore(m)
		switch {
		case s > bestScore:
			best, bestScore, ties = m, s, 1
		case s == bestScore:
			ties++
			if b.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

func layScore(m Move) int {
	s := 0
	count := func(cs []Card) {
		for _, c := range cs {
			s += 4
			if c.IsWildCard() {
				s -= 3
			}
		}
	}
	count(m.Cards)
	for _, l := range m.Melds {
		count(l)
	}
	if m.Row {
		s += 8
	}
	if m.Kind == Pickup {
		s += 4
	}
	return s
}

// discard closes when it can; otherwise it throws the card that least
// goes with the rest of the hand (wilds last), now and then any card.
func (b *bot) discard(g *Game, ds []Move) Move {
	seat := g.Turn()
	for _, m := range ds {
		if p, err := g.check(seat, m); err == nil && p.outcome == discardClose && b.chance(19, 20) {
			return m
		}
	}
	if b.chance(1, 8) {
		return ds[b.rng.IntN(len(ds))]
	}
	hand := g.hands[seat]
	if seat < len(g.rows) && len(g.rows[seat]) > 0 {
		hand = append(slices.Clone(hand), g.rows[seat][0]) // keep what goes with the next row card
	}
	best, bestScore, ties := ds[0], 1<<30, 0
	for _, m := range ds {
		s := keepValue(m.Card, hand)
		switch {
		case s < bestScore:
			best, bestScore, ties = m, s, 1
		case s == bestScore:
			ties++
			if b.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// keepValue is how much c goes with the other cards of hand.
func keepValue(c Card, hand []Card) int {
	if c.IsWildCard() {
		return 100
	}
	v := 0
	for _, o := range hand {
		switch {
		case o == c:
			v += 2 // its twin: one may go
		case o.Rank() == c.Rank():
			v += 3
		case o.Suit() == c.Suit() && absDiff(o.Rank(), c.Rank()) <= 2:
			v += 3
		}
	}
	return v
}

func absDiff(a, b Rank) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// randomMove picks uniformly among the legal moves of the seat on turn.
func randomMove(g *Game, rng *Rand) (Move, bool) {
	moves := g.LegalMoves(g.Turn())
	if len(moves) == 0 {
		return Move{}, false
	}
	return moves[rng.IntN(len(moves))], true
}
