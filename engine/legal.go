package engine

import (
	"slices"
)

// LegalMoves returns legal moves for seat now. Draws, pickups, discards,
// redraws, single-card attaches and fechado pickups attaching the top card
// alone are listed completely; melds (and fechado pickups that lay a meld)
// are those a simple generator proposes (runs, sets, a pair with a wild, a
// combination of disjoint melds), so the list is a useful sample of them,
// completed by one move of the complete search of Summary whenever the
// sample has no move of a kind Summary allows (a vulnerable team's combined
// first melds, a multi-card attach that empties a small hand, a fechado
// pickup attaching the top card with more cards). Every move listed passes
// Check, and the kinds listed are exactly the kinds Summary reports, but
// for the fechado pickup: LegalMoves knows the whole pile and may list a
// pickup that uses cards under its top, where Summary's CanPickup sees only
// the top card. LegalMoves is therefore not for showing to a seat in
// fechado (it would reveal hidden pile cards); a View carries only the
// Summary, and a Bot lists its moves from what its seat sees.
func (g *Game) LegalMoves(seat int) []Move {
	if !g.ready() || g.phase == PhaseOver || seat != g.turn {
		return nil
	}
	var out []Move
	listed := [len(moveNames)]bool{}
	var pickupLays, pickupAttach bool
	for _, m := range g.candidates(seat) {
		if _, err := g.check(seat, m); err == nil {
			out = append(out, m)
			listed[m.Kind] = true
			pickupLays = pickupLays || m.Kind == Pickup && (m.Attach || len(m.Cards) > 0)
			pickupAttach = pickupAttach || m.Kind == Pickup && m.Attach
		}
	}
	if !listed[MeldCards] {
		if m, ok := g.findMeld(seat); ok {
			out = append(out, m)
		}
	}
	if !listed[AttachCards] {
		if m, ok := g.findAttach(seat); ok {
			out = append(out, m)
		}
	}
	if !pickupAttach && g.phase == PhaseTake && len(g.pile) > 0 {
		pool := append(slices.Clone(g.hands[seat]), g.pile[:len(g.pile)-1]...)
		if m, ok := g.findPickupAttach(seat, pool); ok {
			out = append(out, m)
			pickupLays = true
		}
	}
	if !pickupLays {
		if m, ok := g.findPickupMeld(seat); ok {
			out = append(out, m)
		}
	}
	return out
}

// candidates lists candidate moves for the seat on turn (not yet checked).
func (g *Game) candidates(seat int) []Move {
	hand := g.hands[seat]
	team := g.rules.Team(seat)
	var out []Move
	if g.phase == PhaseTake {
		out = append(out, DrawMove())
		if len(g.pile) == 0 {
			return out
		}
		if g.rules.ID != Fechado {
			return append(out, PickupMove())
		}
		top := g.pile[len(g.pile)-1]
		pool := append(slices.Clone(hand), g.pile[:len(g.pile)-1]...)
		for _, c := range meldCandidates(append(slices.Clone(pool), top), g.mr.SetsOfTwos) {
			if i := slices.Index(c, top); i >= 0 {
				rest := slices.Delete(slices.Clone(c), i, i+1)
				out = append(out, PickupMeldMove(rest))
			}
		}
		for i := range g.melds[team] {
			out = append(out, PickupAttachMove(i))
		}
		return out
	}
	if g.firstTurn && g.took == tookDraw && !g.moved && !g.redrawn {
		out = append(out, RedrawMove())
	}
	cands := meldCandidates(hand, g.mr.SetsOfTwos)
	for _, c := range cands {
		out = append(out, MeldMove(c...))
	}
	if combo := disjoint(cands); len(combo) > 1 {
		out = append(out, Move{Kind: MeldCards, Melds: combo})
	}
	distinct := distinctCards(hand)
	for i := range g.melds[team] {
		for _, c := range distinct {
			out = append(out, AttachMove(i, c))
		}
	}
	if seat < len(g.rows) && len(g.rows[seat]) > 0 {
		out = append(out, g.rowCandidates(seat, team)...)
	}
	for _, c := range distinct {
		out = append(out, DiscardMove(c))
	}
	return out
}

func (g *Game) rowCandidates(seat, team int) []Move {
	var out []Move
	for i := range g.melds[team] {
		out = append(out, Move{Kind: AttachCards, Meld: i, Row: true})
	}
	r := g.rows[seat][0]
	hand := g.hands[seat]
	for _, c := range meldCandidates(append(slices.Clone(hand), r), g.mr.SetsOfTwos) {
		if len(c) != 3 {
			continue
		}
		if i := slices.Index(c, r); i >= 0 {
			rest := slices.Delete(slices.Clone(c), i, i+1)
			out = append(out, Move{Kind: MeldCards, Cards: rest, Row: true})
		}
	}
	return out
}

func distinctCards(cs []Card) []Card {
	d := slices.Clone(cs)
	slices.Sort(d)
	return slices.Compact(d)
}

// meldCandidates proposes melds from cards: sets of a rank (all, and three),
// a pair of a rank with a wild, runs of one suit (whole runs and windows of
// three, the ace low and high), and two cards of a suit one or two apart
// with a wild. Proposals may be illegal; the caller checks them.
func meldCandidates(cards []Card, setsOfTwos bool) [][]Card {
	var out [][]Card
	var byRank [14][]Card
	var bySuit [4][15]bool
	var wilds []Card
	for _, c := range cards {
		if c.IsWildCard() {
			wilds = append(wilds, c)
		}
		if c == Joker || (c.IsTwo() && !setsOfTwos) {
			if c.IsTwo() {
				bySuit[c.Suit()][Two] = true
			}
			continue
		}
		byRank[c.Rank()] = append(byRank[c.Rank()], c)
		bySuit[c.Suit()][c.Rank()] = true
		if c.Rank() == Ace {
			bySuit[c.Suit()][HighAce] = true
		}
	}
	for rk := Ace; rk <= King; rk++ {
		cs := byRank[rk]
		if len(cs) >= 3 {
			out = append(out, slices.Clone(cs[:3]))
			if len(cs) > 3 {
				out = append(out, slices.Clone(cs))
			}
		}
		if len(cs) >= 2 && rk != Two {
			if w := otherWild(wilds, cs[0], cs[1]); w != 0 {
				out = append(out, []Card{cs[0], cs[1], w})
			}
		}
	}
	for s := Spades; s < NoSuit; s++ {
		out = appendRuns(out, s, bySuit[s][:], wilds)
	}
	return out
}

func appendRuns(out [][]Card, s Suit, has []bool, wilds []Card) [][]Card {
	card := func(rk int) Card {
		if rk == int(HighAce) {
			return NewCard(Ace, s)
		}
		return NewCard(Rank(rk), s)
	}
	run := func(lo, hi int) []Card {
		cs := make([]Card, 0, hi-lo+1)
		for rk := lo; rk <= hi; rk++ {
			cs = append(cs, card(rk))
		}
		return cs
	}
	for lo := int(Ace); lo <= int(HighAce); lo++ {
		if !has[lo] || (lo > int(Ace) && has[lo-1]) {
			continue
		}
		hi := lo
		for hi+1 <= int(HighAce) && has[hi+1] {
			hi++
		}
		if hi-lo+1 >= 3 {
			out = append(out, run(lo, hi))
			for a := lo; a+2 <= hi && hi-lo+1 > 3; a++ {
				out = append(out, run(a, a+2))
			}
		}
	}
	for a := int(Ace); a <= int(HighAce); a++ {
		for d := 1; d <= 2 && a+d <= int(HighAce); d++ {
			if has[a] && has[a+d] {
				if w := otherWild(wilds, card(a), card(a+d)); w != 0 {
					out = append(out, []Card{card(a), card(a + d), w})
				}
			}
		}
	}
	return out
}

// otherWild returns a wild from wilds that is not one of the cards a, b.
func otherWild(wilds []Card, a, b Card) Card {
	for _, w := range wilds {
		if w != a && w != b {
			return w
		}
	}
	return 0
}

// disjoint picks, largest first, candidate melds that use no card twice.
func disjoint(cands [][]Card) [][]Card {
	sorted := slices.Clone(cands)
	slices.SortStableFunc(sorted, func(a, b []Card) int { return len(b) - len(a) })
	var used [256]int
	var out [][]Card
	for _, c := range sorted {
		var need [256]int
		ok := true
		for _, x := range c {
			need[x]++
		}
		for x, k := range need {
			if k > 0 && used[x]+k > 2 {
				ok = false
			}
		}
		if ok {
			for x, k := range need {
				used[x] += k
			}
			out = append(out, c)
		}
	}
	return out
}

// Summary is what a frontend needs to enable its controls for one seat.
//
// CanMeld is true iff some meld move is legal now: one new meld from the
// hand, several at once, or in fibur-row the next row card with two hand
// cards. For a vulnerable team's first melds (RULES §9) that means some
// combination of melds worth 75 or more; MeldMinimum is then 75, telling
// the frontend that a meld under 75 can only be laid together with others in
// one move (CanMeld does not promise that every meld the player sees is
// legal alone). CanAttach is true iff some attach is legal (one card or
// several, or the next row card). CanPickup is true iff the pile may be
// taken; in fechado, where only the pile's top card and size are visible
// (RULES §4), it is a lower bound computed from what the seat sees: true iff
// some pickup laying the top card at once with cards of the hand only (a new
// meld, or an attach) is legal whatever the hidden pile cards are. When it
// is false a pickup may still be legal (Check tells): one whose meld also
// uses cards from under the top, or that leaves a hidden pile card as the
// last card of the hand. Every field depends only on what the seat may see
// (its hand, the public cards, the sizes of the hidden places).
type Summary struct {
	CanDraw     bool `json:"can_draw"`
	CanPickup   bool `json:"can_pickup"`
	CanMeld     bool `json:"can_meld"`
	CanAttach   bool `json:"can_attach"`
	CanDiscard  bool `json:"can_discard"`
	CanClose    bool `json:"can_close"`
	CanRedraw   bool `json:"can_redraw"`
	MeldMinimum int  `json:"meld_minimum,omitempty"` // points the team's first melds must reach together (0: none)
}

// Summary returns the legal-move summary for seat (all false when it is not
// the seat's turn), from the complete search: see Summary's fields.
// CanClose says a discard now would close the deal.
func (g *Game) Summary(seat int) Summary {
	var s Summary
	if !g.ready() || g.phase == PhaseOver || seat != g.turn {
		return s
	}
	g = g.seenBy(seat)
	legal := func(m Move) bool { _, err := g.check(seat, m); return err == nil }
	team := g.rules.Team(seat)
	if len(g.melds[team]) == 0 && g.vulnerable(team) {
		s.MeldMinimum = 75
	}
	if g.phase == PhaseTake {
		s.CanDraw = legal(DrawMove())
		if g.rules.ID != Fechado {
			s.CanPickup = legal(PickupMove())
			return s
		}
		if len(g.pile) > 0 {
			_, s.CanPickup = g.findPickupAttach(seat, g.hands[seat])
		}
		if !s.CanPickup && len(g.pile) > 0 {
			// g is seenBy(seat): the pool is the hand and the top card, and
			// the cards under the top are placeholders that are never a
			// legal last card (see hiddenCard).
			top := g.pile[len(g.pile)-1]
			ms := g.newMeldSearch(seat, searchPickup, [][]Card{g.hands[seat], {top}}, top)
			s.CanPickup = ms.run()
		}
		return s
	}
	s.CanRedraw = legal(RedrawMove())
	_, s.CanMeld = g.findMeld(seat)
	_, s.CanAttach = g.findAttach(seat)
	hand := g.hands[seat]
	for k, c := range hand {
		if slices.Contains(hand[:k], c) {
			continue
		}
		if p, err := g.check(seat, DiscardMove(c)); err == nil {
			s.CanDiscard = true
			s.CanClose = s.CanClose || p.outcome == discardClose
		}
	}
	return s
}

// hiddenCard stands for every card the seat may not see in the copy of the
// game Summary works on. It is a 2, the card that is never a legal closing
// discard under either closing_discard option (closingWildBarred), so a
// fechado pickup that would leave a hidden pile card as the hand's last card
// counts as illegal: the summary never promises a pickup that the hidden
// cards could make illegal.
var hiddenCard = NewCard(Two, Spades)

// hiddenCards backs the placeholder slices of seenBy (more than the 108
// cards of any deal); it is never written after init.
var hiddenCards = func() []Card {
	cs := make([]Card, 256)
	for i := range cs {
		cs[i] = hiddenCard
	}
	return cs
}()

// seenBy returns a read-only shallow copy of g in which every card hidden
// from seat is hiddenCard: the other seats' hands, the stock, the untaken
// pots and, in fechado, the pile under its top card (RULES §4); the sizes
// stay. Summary works on it, so that nothing it reports can depend on a
// hidden card. check and the searches only read it; it must never be
// applied to.
func (g *Game) seenBy(seat int) *Game {
	h := *g
	h.hands = make([][]Card, len(g.hands))
	for i, hand := range g.hands {
		if i == seat {
			h.hands[i] = hand
		} else {
			h.hands[i] = hiddenCards[:len(hand):len(hand)]
		}
	}
	h.stock = hiddenCards[:len(g.stock):len(g.stock)]
	h.pots = make([][]Card, len(g.pots))
	for i, p := range g.pots {
		h.pots[i] = hiddenCards[:len(p):len(p)]
	}
	if n := len(g.pile); n > 0 && g.rules.ID == Fechado {
		h.pile = append(slices.Clone(hiddenCards[:n-1]), g.pile[n-1])
	}
	return &h
}
