package engine

import (
	"slices"
)

// Bot plays a seat like a greedy beginner, with some randomness: it picks
// up the pile when a pile card would join a meld, lays the biggest meld or
// attach it can whenever it can, closes when it can, and otherwise discards
// a card it has little use for (rarely a wild). Online tables use it for
// seats without a player; the simulations use it to play whole deals.
//
// A Bot decides only from what its seat may see (RULES §4): its own hand,
// the melds, the rows, the visible pile, and the sizes of the hidden places.
// It never reads the other hands, the stock, the pots or, in fechado, the
// pile under its top card: its moves are the same whatever those cards are
// (so a fechado pickup it makes lays the top card with hand cards only).
// Given the same random source state and position it makes the same move.
// A Bot is not safe for concurrent use.
type Bot struct {
	rng *Rand
	// Hesitant makes the bot lay cards only now and then, so that its deals
	// run long (stock exhaustion, pots turned into the stock): for tests.
	Hesitant bool
}

// NewBot returns a bot that draws its random choices from rng (a nil rng
// is NewRand(0)).
func NewBot(rng *Rand) *Bot {
	if rng == nil {
		rng = NewRand(0)
	}
	return &Bot{rng: rng}
}

// Move returns the bot's move for the seat on turn in g; g is not changed.
// Errors: ErrDealOver when the deal is over (or g was never dealt), and
// ErrNotAllowed when the seat has no legal move (a loaded position with
// nothing to take).
func (b *Bot) Move(g *Game) (Move, error) {
	if b.rng == nil {
		b.rng = NewRand(0)
	}
	if !g.ready() || g.phase == PhaseOver {
		return Move{}, ruleErr(ErrDealOver, "the deal is over")
	}
	seat := g.turn
	v := g.seenBy(seat)
	moves := v.seenMoves(seat)
	if len(moves) == 0 {
		return Move{}, ruleErr(ErrNotAllowed, "no legal move")
	}
	return b.choose(v, seat, moves), nil
}

// seenMoves lists legal moves of seat on a copy seenBy(seat): LegalMoves,
// but for a fechado pickup, which lays the top card with hand cards only
// (the copy's pile under the top is placeholders). Every move listed is
// legal in the real game too: the placeholders are never a legal last card,
// so a pickup legal here is legal whatever the hidden cards are.
func (g *Game) seenMoves(seat int) []Move {
	if g.phase != PhaseTake || g.rules.ID != Fechado || len(g.pile) == 0 {
		return g.LegalMoves(seat)
	}
	var out []Move
	ok := func(m Move) bool { _, err := g.check(seat, m); return err == nil }
	if m := DrawMove(); ok(m) {
		out = append(out, m)
	}
	hand := g.hands[seat]
	top := g.pile[len(g.pile)-1]
	laid := false
	for _, c := range meldCandidates(append(slices.Clone(hand), top), g.mr.SetsOfTwos) {
		if i := slices.Index(c, top); i >= 0 {
			if m := PickupMeldMove(slices.Delete(slices.Clone(c), i, i+1)); ok(m) {
				out, laid = append(out, m), true
			}
		}
	}
	for i := range g.melds[g.rules.Team(seat)] {
		if m := PickupAttachMove(i); ok(m) {
			out, laid = append(out, m), true
		}
	}
	if !laid {
		if m, found := g.findPickupAttach(seat, hand); found {
			out, laid = append(out, m), true
		}
	}
	if !laid {
		s := g.newMeldSearch(seat, searchPickup, [][]Card{hand, {top}}, top)
		if s.run() {
			out = append(out, s.found)
		}
	}
	return out
}

// chance reports true with probability n/d.
func (b *Bot) chance(n, d int) bool { return b.rng.IntN(d) < n }

// choose picks one of the legal moves; v is the seat's view of the game.
func (b *Bot) choose(v *Game, seat int, moves []Move) Move {
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
		return b.take(v, seat, takes)
	case redraw != nil && b.chance(1, 3):
		return *redraw
	case len(lays) > 0 && (!b.Hesitant && b.chance(9, 10) || b.chance(1, 5)):
		return b.lay(lays)
	case len(discards) > 0:
		return b.discard(v, seat, discards)
	case len(lays) > 0:
		return b.lay(lays)
	}
	return moves[b.rng.IntN(len(moves))]
}

// take picks up the pile when it helps (a fechado pickup always lays
// cards; elsewhere a pile card must join a meld), now and then at random,
// and otherwise draws.
func (b *Bot) take(v *Game, seat int, takes []Move) Move {
	var draw, pickups []Move
	for _, m := range takes {
		if m.Kind == Draw {
			draw = append(draw, m)
		} else {
			pickups = append(pickups, m)
		}
	}
	if len(pickups) > 0 && (len(draw) == 0 || b.chance(1, 20) ||
		(v.rules.ID == Fechado || pileHelps(v, seat)) && b.chance(4, 5) && (!b.Hesitant || b.chance(1, 4))) {
		return b.lay(pickups)
	}
	if len(draw) == 0 {
		return pickups[0]
	}
	return draw[0]
}

// pileHelps reports whether a card of the pile would join a meld of the
// seat's hand or attach to one of its team's melds (outside fechado, where
// the pile is public).
func pileHelps(v *Game, seat int) bool {
	hand := v.hands[seat]
	for _, c := range v.pile {
		for _, cs := range meldCandidates(append(slices.Clone(hand), c), v.mr.SetsOfTwos) {
			if slices.Contains(cs, c) {
				if _, err := NewMeld(v.mr, cs, 0); err == nil {
					return true
				}
			}
		}
		for _, m := range v.melds[v.rules.Team(seat)] {
			if _, err := m.Attach(v.mr, []Card{c}, 0); err == nil && !c.IsWildCard() {
				return true
			}
		}
	}
	return false
}

// lay picks the move laying the most cards (a row card counts double, a
// wild counts less), ties at random, and now and then any move.
func (b *Bot) lay(ms []Move) Move {
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
func (b *Bot) discard(v *Game, seat int, ds []Move) Move {
	for _, m := range ds {
		if p, err := v.check(seat, m); err == nil && p.outcome == discardClose && b.chance(19, 20) {
			return m
		}
	}
	if b.chance(1, 8) {
		return ds[b.rng.IntN(len(ds))]
	}
	hand := v.hands[seat]
	if seat < len(v.rows) && len(v.rows[seat]) > 0 {
		hand = append(slices.Clone(hand), v.rows[seat][0]) // keep what goes with the next row card
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
