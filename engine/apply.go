package engine

import (
	"fmt"
	"slices"
)

// Apply plays move m for seat. The move is checked first, in one place
// (check); a rejected move returns a *RuleError and leaves the game exactly
// as it was.
func (g *Game) Apply(seat int, m Move) error {
	p, err := g.check(seat, m)
	if err != nil {
		return err
	}
	g.commit(&p)
	return nil
}

// Check reports whether seat may play m now, without playing it.
func (g *Game) Check(seat int, m Move) error {
	_, err := g.check(seat, m)
	return err
}

// discardOutcome is what a discard does besides passing the turn.
type discardOutcome uint8

const (
	discardNormal  discardOutcome = iota
	discardTakePot                // the last card: the pot is taken with a discard (§6)
	discardClose                  // the last card: closing (chiusura, §7)
)

// plan is a checked move: everything commit needs to apply it without
// further decisions.
type plan struct {
	kind     MoveKind
	seat     int
	team     int
	hand     []Card // the hand after the move (meld, attach, fechado pickup)
	newMelds []Meld
	attachAt int
	attached Meld
	rowUsed  bool
	takePot  bool // the hand emptied: the pot is taken directly (§6)
	card     Card
	index    int // discard: index of the card in the hand
	outcome  discardOutcome
}

// check is the one place that decides whether a move is legal. It does not
// change the game.
func (g *Game) check(seat int, m Move) (plan, error) {
	p := plan{kind: m.Kind, seat: seat, attachAt: -1}
	switch {
	case !g.ready():
		return p, ruleErr(ErrBadPosition, "the game was not dealt or loaded")
	case g.phase == PhaseOver:
		return p, ruleErr(ErrDealOver, "the deal is over")
	case m.Kind == NoMove || int(m.Kind) >= len(moveNames):
		return p, ruleErr(ErrUnknownMove, "unknown move")
	case seat != g.turn:
		return p, ruleErr(ErrNotYourTurn, fmt.Sprintf("seat %d to play, not seat %d", g.turn, seat))
	}
	p.team = g.rules.Team(seat)
	if m.Row && g.rules.ID != FiburRow {
		return p, ruleErr(ErrNotAllowed, "row cards exist only in fibur-row")
	}
	var err error
	switch m.Kind {
	case Draw:
		err = g.checkDraw()
	case Pickup:
		err = g.checkPickup(&p, m)
	case Redraw:
		err = g.checkRedraw()
	case MeldCards:
		err = g.checkMeld(&p, m)
	case AttachCards:
		err = g.checkAttach(&p, m)
	case Discard:
		err = g.checkDiscard(&p, m)
	}
	return p, err
}

// ready reports whether the game was dealt or loaded (a zero Game is not).
func (g *Game) ready() bool {
	n := g.rules.Players
	return n > 0 && len(g.hands) == n && len(g.melds) == g.rules.Teams() &&
		len(g.potTaken) == len(g.melds) && len(g.potUnplayed) == len(g.melds) &&
		len(g.potSeat) == len(g.melds) && len(g.totals) == len(g.melds)
}

func (g *Game) needPhase(ph Phase) error {
	if g.phase == ph {
		return nil
	}
	if ph == PhaseTake {
		return ruleErr(ErrWrongPhase, "the card for this turn has already been taken")
	}
	return ruleErr(ErrWrongPhase, "draw or pick up first")
}

// drawable is the number of stock cards that may still be drawn: fibur and
// fibur-row never draw the last two (§7).
func (g *Game) drawable() int {
	if g.rules.ID.twoCardRule() {
		return max(0, len(g.stock)-2)
	}
	return len(g.stock)
}

func (g *Game) checkDraw() error {
	if err := g.needPhase(PhaseTake); err != nil {
		return err
	}
	if g.drawable() == 0 {
		return ruleErr(ErrStockEmpty, "no card may be drawn from the stock")
	}
	return nil
}

func (g *Game) checkRedraw() error {
	switch {
	case !g.rules.ID.Brazilian() || !g.firstTurn:
		return ruleErr(ErrNotAllowed, "redraw only on the first turn of a Brazilian deal")
	case g.phase != PhasePlay || g.took != tookDraw || g.moved || g.redrawn || len(g.hands[g.turn]) == 0:
		return ruleErr(ErrWrongPhase, "redraw only straight after the first draw")
	case len(g.stock) == 0:
		return ruleErr(ErrStockEmpty, "the stock is empty")
	}
	return nil
}

func (g *Game) checkPickup(p *plan, m Move) error {
	if err := g.needPhase(PhaseTake); err != nil {
		return err
	}
	if len(g.pile) == 0 {
		return ruleErr(ErrPileEmpty, "the discard pile is empty")
	}
	uses := m.Attach || len(m.Cards) > 0 || len(m.Melds) > 0
	if g.rules.ID != Fechado {
		if uses || m.Row || m.WildAs != 0 {
			return ruleErr(ErrNotAllowed, "only fechado lays cards while picking up")
		}
		return nil
	}
	if !m.Attach && len(m.Cards) == 0 {
		return ruleErr(ErrPickupRequiresMeld, "fechado: the top card must be melded or attached at once")
	}
	top := g.pile[len(g.pile)-1]
	if m.Attach && top.IsWildCard() {
		return ruleErr(ErrPickupRequiresMeld, "fechado: a wild top card must start a new meld")
	}
	base := append(slices.Clone(g.hands[p.seat]), g.pile[:len(g.pile)-1]...)
	// The cards joining the top card come from the hand or from under the
	// top (RULES §9), as do those of further melds.
	lists := [][]Card{append([]Card{top}, m.Cards...)}
	lists = append(lists, m.Melds...)
	rest, err := g.takeCards(p.seat, base, withoutFirst(lists))
	if err != nil {
		return err
	}
	wildAs := m.WildAs
	if m.Attach {
		if err := g.pickupAttach(p, m, lists[0]); err != nil {
			return err
		}
		lists, wildAs = lists[1:], 0
	}
	if p.newMelds, err = g.layMelds(p.team, lists, wildAs); err != nil {
		return err
	}
	p.hand = rest
	return g.checkAfterLay(p)
}

// pickupAttach checks a fechado pickup with attach: the top card (with the
// cards listed) joins meld m.Meld of the team.
func (g *Game) pickupAttach(p *plan, m Move, cards []Card) error {
	ms := g.melds[p.team]
	if m.Meld < 0 || m.Meld >= len(ms) {
		return ruleErr(ErrNoSuchMeld, fmt.Sprintf("team %d has no meld %d", p.team, m.Meld))
	}
	a, err := ms[m.Meld].Attach(g.mr, cards, m.WildAs)
	if err != nil {
		return err
	}
	p.attachAt, p.attached = m.Meld, a
	return nil
}

// withoutFirst lists the cards of every meld but the first card of the
// first (the pile's top card, which is not in the hand).
func withoutFirst(lists [][]Card) []Card {
	var out []Card
	for i, l := range lists {
		if i == 0 && len(l) > 0 {
			l = l[1:]
		}
		out = append(out, l...)
	}
	return out
}

func (g *Game) checkMeld(p *plan, m Move) error {
	if err := g.needPhase(PhasePlay); err != nil {
		return err
	}
	var lists [][]Card
	fromHand := []Card(nil)
	if len(m.Cards) > 0 || m.Row {
		first := slices.Clone(m.Cards)
		fromHand = append(fromHand, m.Cards...)
		if m.Row {
			if len(m.Cards) != 2 {
				return ruleErr(ErrInvalidMeld, "a row card is melded with exactly two hand cards")
			}
			if err := g.needRowCard(p.seat); err != nil {
				return err
			}
			first = append(first, g.rows[p.seat][0])
			p.rowUsed = true
		}
		lists = append(lists, first)
	}
	for _, l := range m.Melds {
		lists = append(lists, l)
		fromHand = append(fromHand, l...)
	}
	if len(lists) == 0 {
		return ruleErr(ErrInvalidMeld, "no cards to meld")
	}
	rest, err := g.takeCards(p.seat, g.hands[p.seat], fromHand)
	if err != nil {
		return err
	}
	if p.newMelds, err = g.layMelds(p.team, lists, m.WildAs); err != nil {
		return err
	}
	p.hand = rest
	return g.checkAfterLay(p)
}

func (g *Game) needRowCard(seat int) error {
	if seat >= len(g.rows) || len(g.rows[seat]) == 0 {
		return ruleErr(ErrRowOrder, "no row card left to play")
	}
	return nil
}

func (g *Game) checkAttach(p *plan, m Move) error {
	if err := g.needPhase(PhasePlay); err != nil {
		return err
	}
	ms := g.melds[p.team]
	if m.Meld < 0 || m.Meld >= len(ms) {
		return ruleErr(ErrNoSuchMeld, fmt.Sprintf("team %d has no meld %d", p.team, m.Meld))
	}
	cards := m.Cards
	if m.Row {
		if len(m.Cards) > 0 {
			return ruleErr(ErrInvalidMeld, "a row attach adds only the next row card")
		}
		if err := g.needRowCard(p.seat); err != nil {
			return err
		}
		cards = g.rows[p.seat][:1]
		p.rowUsed = true
	}
	if len(cards) == 0 || len(m.Melds) > 0 {
		return ruleErr(ErrInvalidMeld, "attach needs cards (and no melds)")
	}
	rest := g.hands[p.seat]
	if !m.Row {
		var err error
		if rest, err = g.takeCards(p.seat, rest, cards); err != nil {
			return err
		}
	}
	a, err := ms[m.Meld].Attach(g.mr, cards, m.WildAs)
	if err != nil {
		return err
	}
	p.attachAt, p.attached, p.hand = m.Meld, a, rest
	return g.checkAfterLay(p)
}

// takeCards returns from minus cards (a new slice), or ErrCardNotInHand
// (ErrRowOrder when a missing card is a later card of the seat's row).
func (g *Game) takeCards(seat int, from, cards []Card) ([]Card, error) {
	rest := slices.Clone(from)
	for _, c := range cards {
		i := slices.Index(rest, c)
		if i < 0 {
			if seat < len(g.rows) && slices.Contains(g.rows[seat], c) {
				return nil, ruleErr(ErrRowOrder, fmt.Sprintf("%s is a row card: play the next row card with row", c))
			}
			return nil, ruleErr(ErrCardNotInHand, fmt.Sprintf("seat %d does not hold %s", seat, c))
		}
		rest = slices.Delete(rest, i, i+1)
	}
	return rest, nil
}

// layMelds builds new melds for team from lists; wildAs applies to the
// first. A team may not hold two sets of one rank (ErrDuplicateSet).
func (g *Game) layMelds(team int, lists [][]Card, wildAs Card) ([]Meld, error) {
	out := make([]Meld, 0, len(lists))
	for i, l := range lists {
		w := wildAs
		if i > 0 {
			w = 0
		}
		m, err := NewMeld(g.mr, l, w)
		if err != nil {
			return nil, err
		}
		if m.Kind == Set {
			for _, o := range append(slices.Clip(g.melds[team]), out...) {
				if o.Kind == Set && o.SetRank == m.SetRank {
					return nil, ruleErr(ErrDuplicateSet, fmt.Sprintf("team %d already has a set of %s: attach to it", team, m.SetRank))
				}
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// checkAfterLay applies the rules judged on the result of a meld, attach or
// fechado pickup: the vulnerable team's first melds (§9), and the hand that
// must keep a card for a legal final discard (§6).
func (g *Game) checkAfterLay(p *plan) error {
	if len(p.newMelds) > 0 && len(g.melds[p.team]) == 0 && g.vulnerable(p.team) {
		pts := 0
		for _, m := range p.newMelds {
			for _, c := range m.Cards {
				pts += g.rules.CardPoints(c)
			}
		}
		if pts < 75 {
			return ruleErr(ErrMinimumMeldPoints, fmt.Sprintf("first melds worth %d, a vulnerable team needs 75", pts))
		}
	}
	canTakePot := !g.potTaken[p.team] && len(g.pots) > 0
	switch {
	case len(p.hand) == 0 && canTakePot:
		p.takePot = true
	case len(p.hand) == 0:
		return ruleErr(ErrMustKeepCard, "the hand may not be emptied without a final discard")
	case len(p.hand) == 1 && p.hand[0] == g.picked && !g.pickedHeld:
		return ruleErr(ErrMustKeepCard, fmt.Sprintf("the only card left, %s, was picked up alone and may not be discarded this turn", p.hand[0]))
	case len(p.hand) == 1 && !canTakePot:
		if g.rules.closingWildBarred(p.hand[0]) {
			return ruleErr(ErrMustKeepCard, fmt.Sprintf("the last card %s could not be a closing discard", p.hand[0]))
		}
		if !g.potTaken[p.team] || !g.canCloseAfter(p) {
			return ruleErr(ErrMustKeepCard, "one card left but the team could not close")
		}
	}
	return nil
}

// vulnerable reports whether team's running total is at least half the
// target (option vulnerability, §9).
func (g *Game) vulnerable(team int) bool {
	o := g.rules.Options
	return o.Vulnerability && 2*g.totals[team] >= o.Target
}

// closingMeldsAfter reports whether team would hold a burraco that allows
// closing once p is applied.
func (g *Game) closingMeldsAfter(p *plan) bool {
	for i, m := range g.melds[p.team] {
		if i == p.attachAt {
			m = p.attached
		}
		if g.closingMeld(m) {
			return true
		}
	}
	return slices.ContainsFunc(p.newMelds, g.closingMeld)
}

func (g *Game) closingMeld(m Meld) bool {
	o := g.rules.Options
	return g.rules.closingBurraco(m.Burraco(o.SemiClean, o.SemiCleanSet == SemiCleanSetAtLeast8))
}

// rowLeft is the number of row cards the seat will have after p.
func (g *Game) rowLeft(p *plan) int {
	if p.seat >= len(g.rows) {
		return 0
	}
	n := len(g.rows[p.seat])
	if p.rowUsed {
		n--
	}
	return n
}

func (g *Game) checkDiscard(p *plan, m Move) error {
	if err := g.needPhase(PhasePlay); err != nil {
		return err
	}
	hand := g.hands[p.seat]
	i := slices.Index(hand, m.Card)
	if i < 0 {
		return ruleErr(ErrCardNotInHand, fmt.Sprintf("seat %d does not hold %s", p.seat, m.Card))
	}
	if g.picked != 0 && m.Card == g.picked && !g.pickedHeld {
		return ruleErr(ErrDiscardPickedCard, fmt.Sprintf("%s was the only card of the pile picked up this turn", m.Card))
	}
	p.card, p.index = m.Card, i
	if len(hand) > 1 {
		return nil
	}
	switch {
	case g.potTaken[p.team]:
		if g.rules.closingWildBarred(m.Card) {
			return ruleErr(ErrClosingDiscardWild, fmt.Sprintf("cannot close by discarding %s", m.Card))
		}
		if !g.closingMeldsAfter(p) {
			return ruleErr(ErrCannotClose, "the team has no burraco that allows closing")
		}
		if g.rowLeft(p) > 0 {
			return ruleErr(ErrCannotClose, "the row is not cleared")
		}
		p.outcome = discardClose
	case len(g.pots) > 0:
		p.outcome = discardTakePot
	default:
		return ruleErr(ErrCannotClose, "no pot left to take: the last card cannot be discarded")
	}
	return nil
}

// commit applies a checked plan.
func (g *Game) commit(p *plan) {
	switch p.kind {
	case Draw:
		g.draw()
		g.phase, g.took = PhasePlay, tookDraw
	case Redraw:
		h := g.hands[g.turn]
		g.pile = append(g.pile, h[len(h)-1])
		g.hands[g.turn] = h[:len(h)-1]
		g.draw()
		g.redrawn = true
	case Pickup:
		g.commitPickup(p)
	case MeldCards, AttachCards:
		g.commitLay(p)
	case Discard:
		g.commitDiscard(p)
	}
}

// draw moves the top stock card to the hand of the seat on turn and applies
// the stock-exhaustion rules (§7).
func (g *Game) draw() {
	c := g.stock[len(g.stock)-1]
	g.stock = g.stock[:len(g.stock)-1]
	g.hands[g.turn] = append(g.hands[g.turn], c)
	switch {
	case g.rules.ID.twoCardRule():
		if len(g.stock) <= 2 {
			g.lastTurn = true
		}
	case len(g.stock) == 0 && len(g.pots) > 0:
		pot := g.pots[0]
		g.pots = slices.Delete(g.pots, 0, 1)
		g.stock = make([]Card, len(pot))
		for i, c := range pot {
			g.stock[len(pot)-1-i] = c
		}
	case len(g.stock) == 0:
		g.lastTurn = true
	}
}

func (g *Game) commitPickup(p *plan) {
	seat := p.seat
	top := g.pile[len(g.pile)-1]
	if len(g.pile) == 1 {
		g.picked, g.pickedHeld = top, slices.Contains(g.hands[seat], top)
	}
	g.phase, g.took = PhasePlay, tookPickup
	if p.newMelds == nil && p.attachAt < 0 {
		g.hands[seat] = append(g.hands[seat], g.pile...)
		g.pile = g.pile[:0]
		return
	}
	g.pile = g.pile[:0]
	g.commitLay(p)
}

func (g *Game) commitLay(p *plan) {
	g.hands[p.seat] = append(g.hands[p.seat][:0], p.hand...)
	if p.attachAt >= 0 {
		g.melds[p.team][p.attachAt] = p.attached
	}
	g.melds[p.team] = append(g.melds[p.team], p.newMelds...)
	if p.rowUsed {
		g.rows[p.seat] = slices.Delete(g.rows[p.seat], 0, 1)
	}
	g.moved = true
	if p.takePot {
		g.hands[p.seat] = append(g.hands[p.seat], g.pots[0]...)
		g.pots = slices.Delete(g.pots, 0, 1)
		g.potTaken[p.team] = true
	}
}

func (g *Game) commitDiscard(p *plan) {
	h := g.hands[p.seat]
	g.hands[p.seat] = slices.Delete(h, p.index, p.index+1)
	g.pile = append(g.pile, p.card)
	switch p.outcome {
	case discardClose:
		g.finish(Closed)
		g.closer = p.seat
		return
	case discardTakePot:
		g.hands[p.seat] = append(g.hands[p.seat], g.pots[0]...)
		g.pots = slices.Delete(g.pots, 0, 1)
		g.potTaken[p.team] = true
		g.potUnplayed[p.team] = true
		g.potSeat[p.team] = p.seat
	}
	if g.lastTurn {
		g.finish(StockOut)
		return
	}
	if g.lastRound && p.seat == g.lastRoundUntil {
		g.finish(TimedOut)
		return
	}
	g.nextTurn()
}

// nextTurn passes the turn and clears the turn-scoped state.
func (g *Game) nextTurn() {
	g.turn = g.rules.next(g.turn)
	g.phase = PhaseTake
	g.resetTurn()
	g.firstTurn = false
	t := g.rules.Team(g.turn)
	if g.potUnplayed[t] && (g.potSeat[t] == g.turn || g.potSeat[t] < 0) {
		g.potUnplayed[t] = false
	}
}

func (g *Game) resetTurn() {
	g.took, g.moved, g.redrawn = tookNone, false, false
	g.picked, g.pickedHeld = 0, false
}

func (g *Game) finish(r EndReason) {
	g.phase, g.end = PhaseOver, r
	g.resetTurn()
	g.lastTurn, g.lastRound = false, false
}

// EndByReferee ends the deal as it stands (time-out, stalemate): no closing
// bonus. Errors: ErrDealOver when it has already ended.
func (g *Game) EndByReferee() error {
	if g.phase == PhaseOver {
		return ruleErr(ErrDealOver, "the deal is over")
	}
	g.finish(ByReferee)
	return nil
}
