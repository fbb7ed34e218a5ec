package engine

import "slices"

// A player whose team has taken its pot may leave a single card in the hand
// only if that card can be the closing discard (RULES §6). In fibur-row the
// row must be cleared before closing, so the row cards still to play are
// judged too: the lone hand card may wait while the row is cleared, when the
// row cards can be attached, in order, to the player's melds (a row card is
// melded only with two hand cards, which a lone card cannot give), and the
// team then holds a burraco that allows closing.

// rowClearBudget bounds the attaches tried while judging a row: each row
// card fits few melds in few ways, so real rows stay far below it; past it
// the row counts as not clearable (the move is refused, never a deal left
// without a legal discard).
const rowClearBudget = 20000

// canCloseAfter reports whether, after p leaves one card in the hand, the
// player could close: the team holds a burraco that allows closing and the
// seat has no row card left, or (fibur-row) the row cards left can be
// attached in order to the team's melds, leaving such a burraco.
func (g *Game) canCloseAfter(p *plan) bool {
	row := g.rowAfter(p)
	if len(row) == 0 {
		return g.closingMeldsAfter(p)
	}
	ms := slices.Clone(g.melds[p.team])
	if p.attachAt >= 0 {
		ms[p.attachAt] = p.attached
	}
	ms = append(ms, p.newMelds...)
	budget := rowClearBudget
	return g.clearRow(ms, row, &budget)
}

// rowAfter returns the seat's row cards left after p (not a copy).
func (g *Game) rowAfter(p *plan) []Card {
	if p.seat >= len(g.rows) {
		return nil
	}
	row := g.rows[p.seat]
	if p.rowUsed && len(row) > 0 {
		row = row[1:]
	}
	return row
}

// clearRow reports whether row can be attached, card by card in order, to
// the melds ms (each card to any meld, the wild placed as any wild_as
// allows), leaving a burraco that allows closing.
func (g *Game) clearRow(ms []Meld, row []Card, budget *int) bool {
	if len(row) == 0 {
		return slices.ContainsFunc(ms, g.closingMeld)
	}
	for i, m := range ms {
		for _, a := range g.rowAttaches(m, row[0], budget) {
			if *budget <= 0 {
				return false
			}
			next := slices.Clone(ms)
			next[i] = a
			if g.clearRow(next, row[1:], budget) {
				return true
			}
		}
	}
	return false
}

// rowAttaches returns the distinct melds that attaching c to m can give:
// without wild_as, and with each wild_as that changes the result.
func (g *Game) rowAttaches(m Meld, c Card, budget *int) []Meld {
	*budget--
	var out []Meld
	if a, err := m.Attach(g.mr, []Card{c}, 0); err == nil {
		out = append(out, a)
	}
	if m.Kind != Sequence || (m.Wild < 0 && !c.IsWildCard() && m.Low != Two) {
		return out // only a sequence's wild can stand elsewhere
	}
	for p := max(Ace, m.Low-1); p <= min(HighAce, m.High()+1); p++ {
		*budget--
		a, err := m.Attach(g.mr, []Card{c}, posCard(p, m.Suit))
		if err == nil && !slices.ContainsFunc(out, a.Equal) {
			out = append(out, a)
		}
	}
	return out
}
