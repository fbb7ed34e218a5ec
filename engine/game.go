package engine

import "slices"

// Phase is where the player to act stands in the turn (mano).
type Phase uint8

// Phases of a turn, and the end of the deal.
const (
	PhaseTake Phase = iota // must draw or pick up
	PhasePlay              // has taken: may meld and attach, must discard
	PhaseOver              // the deal (smazzata) has ended
)

var phaseNames = [...]string{"take", "play", "over"}

// String returns "take", "play" or "over" (the notation of positions).
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "?"
}

// EndReason says how a deal ended.
type EndReason uint8

// Reasons a deal ends.
const (
	NotEnded  EndReason = iota
	Closed              // a player closed (chiusura)
	StockOut            // the stock ran out (Italian two-card rule, or no morto left)
	ByReferee           // ended by the referee (arbitro) at once: stalemate, or a time-out ended now
	TimedOut            // the last round after a referee's time-out was played out (CallTimeOut)
)

var endNames = [...]string{"", "closed", "stock", "referee", "timeout"}

func (e EndReason) String() string {
	if int(e) < len(endNames) {
		return endNames[e]
	}
	return "?"
}

// Game is one deal (smazzata) in progress: the whole position plus the
// rules. Its state is unexported; read it through the getters (slices
// returned are copies) and change it only through Apply, which accepts a move
// only if it is legal. A Game is not safe for concurrent use; Clone it.
type Game struct {
	rules Rules
	mr    MeldRules

	dealer int
	turn   int
	phase  Phase
	end    EndReason
	closer int // seat that closed, -1

	hands [][]Card // per seat, in the order cards were received
	rows  [][]Card // fibur-row: per seat, first = next to play
	stock []Card   // top = last element (internal order)
	pile  []Card   // bottom first
	pots  [][]Card // untaken pots, first = next taken

	potTaken    []bool // per team
	potUnplayed []bool // per team: taken with a discard, not yet played
	potSeat     []int  // per team: seat that took the pot (-1 unknown)
	melds       [][]Meld
	totals      []int // running match totals per team (vulnerability)

	firstTurn bool // Brazilian: first turn of the deal (redraw available)

	// Turn-scoped state.
	took       takeKind // how the player on turn took this turn
	moved      bool     // a meld/attach was made since the take
	redrawn    bool     // the first-turn redraw was used
	picked     Card     // the single card of a one-card pile picked up this turn (0 if none)
	pickedHeld bool     // the player held an identical card before that pickup
	lastTurn   bool     // this turn is the last of the deal (stock exhausted)

	// Referee time-out (RULES §10, CallTimeOut): the last round is being
	// played, and the deal ends after the turn of seat lastRoundUntil.
	lastRound      bool
	lastRoundUntil int
}

type takeKind uint8

const (
	tookNone takeKind = iota
	tookDraw
	tookPickup
)

// Rules returns the rules the deal is played with.
func (g *Game) Rules() Rules {
	r := g.rules
	return r
}

// Players returns the number of seats.
func (g *Game) Players() int { return g.rules.Players }

// Dealer returns the dealer's seat (mazziere).
func (g *Game) Dealer() int { return g.dealer }

// Turn returns the seat to act.
func (g *Game) Turn() int { return g.turn }

// Phase returns the phase of the turn, or PhaseOver.
func (g *Game) Phase() Phase { return g.phase }

// Over reports whether the deal has ended.
func (g *Game) Over() bool { return g.phase == PhaseOver }

// EndReason returns how the deal ended (NotEnded while it goes on).
func (g *Game) EndReason() EndReason { return g.end }

// Closer returns the seat that closed, or -1.
func (g *Game) Closer() int { return g.closer }

// Hand returns a copy of seat's hand.
func (g *Game) Hand(seat int) []Card {
	if seat < 0 || seat >= len(g.hands) {
		return nil
	}
	return slices.Clone(g.hands[seat])
}

// HandSize returns the number of cards in seat's hand.
func (g *Game) HandSize(seat int) int {
	if seat < 0 || seat >= len(g.hands) {
		return 0
	}
	return len(g.hands[seat])
}

// Row returns a copy of seat's face-up row (fibur-row), next card first.
func (g *Game) Row(seat int) []Card {
	if seat < 0 || seat >= len(g.rows) {
		return nil
	}
	return slices.Clone(g.rows[seat])
}

// StockSize returns the number of cards in the stock (tallone).
func (g *Game) StockSize() int { return len(g.stock) }

// Pile returns a copy of the discard pile (monte degli scarti), bottom first.
func (g *Game) Pile() []Card { return slices.Clone(g.pile) }

// PotsLeft returns the number of pots (pozzetti) not yet taken.
func (g *Game) PotsLeft() int { return len(g.pots) }

// PotTaken reports whether team has taken its pot.
func (g *Game) PotTaken(team int) bool {
	return team >= 0 && team < len(g.potTaken) && g.potTaken[team]
}

// PotUnplayed reports whether team took its pot with a discard and the
// player has not had a turn since.
func (g *Game) PotUnplayed(team int) bool {
	return team >= 0 && team < len(g.potUnplayed) && g.potUnplayed[team]
}

// Melds returns copies of team's melds in the order they were laid.
func (g *Game) Melds(team int) []Meld {
	if team < 0 || team >= len(g.melds) {
		return nil
	}
	out := make([]Meld, len(g.melds[team]))
	for i, m := range g.melds[team] {
		out[i] = cloneMeld(m)
	}
	return out
}

// Totals returns the running match totals per team the deal started with.
func (g *Game) Totals() []int { return slices.Clone(g.totals) }

// FirstTurn reports whether this is the Brazilian first turn (redraw).
func (g *Game) FirstTurn() bool { return g.firstTurn }

// Team returns seat's team.
func (g *Game) Team(seat int) int { return g.rules.Team(seat) }

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := new(Game)
	c.CopyFrom(g)
	return c
}

// CopyFrom makes g an independent copy of src, reusing g's storage where it
// can (cheap position copies for search and benchmarks).
func (g *Game) CopyFrom(src *Game) {
	hands, rows, pots, melds := g.hands, g.rows, g.pots, g.melds
	stock, pile := g.stock, g.pile
	pt, pu, ps, tot := g.potTaken, g.potUnplayed, g.potSeat, g.totals
	*g = *src
	g.hands = copyCards2(hands, src.hands)
	g.rows = copyCards2(rows, src.rows)
	g.pots = copyCards2(pots, src.pots)
	g.stock = append(stock[:0], src.stock...)
	g.pile = append(pile[:0], src.pile...)
	g.potTaken = append(pt[:0], src.potTaken...)
	g.potUnplayed = append(pu[:0], src.potUnplayed...)
	g.potSeat = append(ps[:0], src.potSeat...)
	g.totals = append(tot[:0], src.totals...)
	if cap(melds) < len(src.melds) {
		melds = make([][]Meld, len(src.melds))
	}
	melds = melds[:len(src.melds)]
	for t, ms := range src.melds {
		dst := melds[t][:0]
		for i, m := range ms {
			var buf []Card
			if i < cap(melds[t]) {
				buf = melds[t][:cap(melds[t])][i].Cards[:0]
			}
			m.Cards = append(buf, m.Cards...)
			dst = append(dst, m)
		}
		melds[t] = dst
	}
	g.melds = melds
}

func copyCards2(dst, src [][]Card) [][]Card {
	if src == nil {
		return nil
	}
	if cap(dst) < len(src) {
		dst = append(dst[:cap(dst)], make([][]Card, len(src)-cap(dst))...)
	}
	dst = dst[:len(src)]
	for i, s := range src {
		dst[i] = append(dst[i][:0], s...)
	}
	return dst
}

func cloneMeld(m Meld) Meld {
	m.Cards = slices.Clone(m.Cards)
	return m
}

// CardCount returns every card in the deal, wherever it lies (hands, rows,
// melds, pile, stock, pots): the multiset the deal was dealt from.
func (g *Game) CardCount() map[Card]int {
	n := map[Card]int{}
	g.eachCardList(func(cs []Card) {
		for _, c := range cs {
			n[c]++
		}
	})
	return n
}

// eachCardList calls f with every list of cards in the position: hands,
// rows, pots, melds, the pile and the stock.
func (g *Game) eachCardList(f func([]Card)) {
	for _, h := range g.hands {
		f(h)
	}
	for _, r := range g.rows {
		f(r)
	}
	for _, p := range g.pots {
		f(p)
	}
	for _, ms := range g.melds {
		for _, m := range ms {
			f(m.Cards)
		}
	}
	f(g.pile)
	f(g.stock)
}
