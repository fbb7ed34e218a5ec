package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Position is the notation of a whole deal in progress, the engine's "FEN":
// the `start` object of the conformance cases (FORMAT.md) plus the rules,
// options and players, and the turn-scoped state a position needs to be
// complete (all omitted when zero). Card lists use the notation of RULES §1;
// the stock is listed top first, the pile bottom first, pots next-taken first,
// rows next-to-play first.
//
// Partial decks are allowed: a position need not hold 108 cards.
type Position struct {
	Rules   RuleSet         `json:"rules,omitempty"`
	Options json.RawMessage `json:"options,omitempty"`
	Players int             `json:"players,omitempty"`

	Turn        int        `json:"turn"`
	Phase       string     `json:"phase,omitempty"`
	Dealer      *int       `json:"dealer,omitempty"`
	Hands       [][]Card   `json:"hands"`
	Stock       []Card     `json:"stock"`
	Discard     []Card     `json:"discard"`
	Pots        [][]Card   `json:"pots"`
	PotTaken    []bool     `json:"pot_taken,omitempty"`
	PotUnplayed []bool     `json:"pot_unplayed,omitempty"`
	Melds       [][][]Card `json:"melds,omitempty"`
	Rows        [][]Card   `json:"rows,omitempty"`
	Totals      []int      `json:"totals,omitempty"`
	FirstTurn   bool       `json:"first_turn,omitempty"`
	// PotSeat is, per team, the seat that took its pot with a discard
	// while that pot is unplayed (the pot is that player's next hand; in the
	// Brazilian games an unplayed morto scores −100 instead of its cards);
	// -1 for a team whose pot is not unplayed. Written only while some pot
	// is unplayed. On input, absent or -1 for an unplayed pot means FORMAT's
	// default: the team's seat that last played before Turn.
	PotSeat []int `json:"pot_seat,omitempty"`

	// Engine state beyond FORMAT.md, needed to resume a deal mid-turn.
	Took       string `json:"took,omitempty"`        // "draw" or "pickup": how the player on turn took
	Moved      bool   `json:"moved,omitempty"`       // a meld or attach was made since the take
	Redrawn    bool   `json:"redrawn,omitempty"`     // the first-turn redraw was used
	Picked     Card   `json:"picked,omitempty"`      // the card of a one-card pile picked up this turn
	PickedHeld bool   `json:"picked_held,omitempty"` // an identical card was held before that pickup
	LastTurn   bool   `json:"last_turn,omitempty"`   // the stock is exhausted: this turn is the last
	End        string `json:"end,omitempty"`         // how the deal ended: closed, stock, referee, timeout
	Closer     *int   `json:"closer,omitempty"`      // seat that closed
	// LastRound is set while the last round after a referee's time-out is
	// played (CallTimeOut): {"until":2,"turns_left":3}. Until is the seat
	// whose discard ends the deal; turns_left may be omitted on input and
	// must agree with Until when given.
	LastRound *LastRound `json:"last_round,omitempty"`
}

// ParsePosition decodes a position from JSON and loads it. Errors:
// ErrBadPosition, ErrBadOption, ErrBadNotation.
func ParsePosition(data []byte) (*Game, error) {
	var p Position
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		if ErrorCode(err) != "" {
			return nil, err
		}
		return nil, ruleErr(ErrBadPosition, err.Error())
	}
	return LoadPosition(p)
}

// MarshalJSON encodes the game as its Position.
func (g *Game) MarshalJSON() ([]byte, error) { return json.Marshal(g.Position()) }

// LoadPosition builds a game from a position. The rule set, options and
// players come from p (Players defaults to the number of hands). The
// position is validated; nothing in p is retained. Errors: ErrBadPosition,
// ErrBadOption.
func LoadPosition(p Position) (*Game, error) {
	players := p.Players
	if players == 0 {
		players = len(p.Hands)
	}
	opts, err := ParseOptions(p.Rules, p.Options)
	if err != nil {
		return nil, err
	}
	r := Rules{ID: p.Rules, Players: players, Options: opts}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return loadPosition(r, p)
}

// LoadPositionRules is LoadPosition with the rules given apart (p.Rules,
// p.Options and p.Players are ignored).
func LoadPositionRules(r Rules, p Position) (*Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return loadPosition(r, p)
}

func badPos(format string, args ...any) error {
	return ruleErr(ErrBadPosition, fmt.Sprintf(format, args...))
}

func loadPosition(r Rules, p Position) (*Game, error) {
	n, teams := r.Players, r.Teams()
	g := &Game{rules: r, mr: r.MeldRules(), closer: -1}
	if len(p.Hands) != n {
		return nil, badPos("%d hands for %d players", len(p.Hands), n)
	}
	if p.Turn < 0 || p.Turn >= n {
		return nil, badPos("turn %d out of range", p.Turn)
	}
	g.turn = p.Turn
	switch p.Phase {
	case "", "take":
		g.phase = PhaseTake
	case "play":
		g.phase = PhasePlay
	case "over":
		g.phase = PhaseOver
	default:
		return nil, badPos("unknown phase %q", p.Phase)
	}
	g.dealer = r.prev(p.Turn)
	if p.Dealer != nil {
		if *p.Dealer < 0 || *p.Dealer >= n {
			return nil, badPos("dealer %d out of range", *p.Dealer)
		}
		g.dealer = *p.Dealer
	}
	g.hands = make([][]Card, n)
	for i, h := range p.Hands {
		g.hands[i] = slices.Clone(h)
	}
	if len(p.Rows) > 0 {
		if r.ID != FiburRow {
			if slices.ContainsFunc(p.Rows, func(r []Card) bool { return len(r) > 0 }) {
				return nil, badPos("rows exist only in fibur-row")
			}
		}
		if len(p.Rows) != n {
			return nil, badPos("%d rows for %d players", len(p.Rows), n)
		}
	}
	if r.ID == FiburRow {
		g.rows = make([][]Card, n)
		for i := range p.Rows {
			g.rows[i] = slices.Clone(p.Rows[i])
		}
	}
	g.stock = make([]Card, len(p.Stock))
	for i, c := range p.Stock {
		g.stock[len(p.Stock)-1-i] = c
	}
	g.pile = slices.Clone(p.Discard)
	if len(p.Pots) > teams {
		return nil, badPos("%d pots for %d teams", len(p.Pots), teams)
	}
	for _, pot := range p.Pots {
		g.pots = append(g.pots, slices.Clone(pot))
	}
	var err error
	if g.potTaken, err = teamBools(p.PotTaken, teams, "pot_taken"); err != nil {
		return nil, err
	}
	if g.potUnplayed, err = teamBools(p.PotUnplayed, teams, "pot_unplayed"); err != nil {
		return nil, err
	}
	if err := g.loadTeamState(p); err != nil {
		return nil, err
	}
	if err := g.loadTurnState(p); err != nil {
		return nil, err
	}
	if err := g.checkCards(); err != nil {
		return nil, err
	}
	return g, nil
}

func teamBools(v []bool, teams int, name string) ([]bool, error) {
	if len(v) == 0 {
		return make([]bool, teams), nil
	}
	if len(v) != teams {
		return nil, badPos("%s has %d entries for %d teams", name, len(v), teams)
	}
	return slices.Clone(v), nil
}

func (g *Game) loadTeamState(p Position) error {
	r, teams := g.rules, g.rules.Teams()
	g.totals = make([]int, teams)
	if len(p.Totals) > 0 {
		if len(p.Totals) != teams {
			return badPos("totals has %d entries for %d teams", len(p.Totals), teams)
		}
		copy(g.totals, p.Totals)
	}
	if len(p.Melds) > teams {
		return badPos("melds for %d teams, %d teams play", len(p.Melds), teams)
	}
	g.melds = make([][]Meld, teams)
	for t, ms := range p.Melds {
		for i, cs := range ms {
			m, err := LoadMeld(g.mr, cs)
			if err != nil {
				return badPos("team %d meld %d %v: %v", t, i, FormatCards(cs), err)
			}
			g.melds[t] = append(g.melds[t], m)
		}
		if err := checkDuplicateSets(g.melds[t]); err != nil {
			return badPos("team %d: %v", t, err)
		}
	}
	g.potSeat = make([]int, teams)
	for t := range g.potSeat {
		g.potSeat[t] = -1
		if g.potUnplayed[t] && !g.potTaken[t] {
			return badPos("team %d: pot_unplayed without pot_taken", t)
		}
	}
	if len(p.PotSeat) > 0 {
		if len(p.PotSeat) != teams {
			return badPos("pot_seat has %d entries for %d teams", len(p.PotSeat), teams)
		}
		for t, s := range p.PotSeat {
			if s < -1 || s >= r.Players || (s >= 0 && r.Team(s) != t) {
				return badPos("pot_seat %d of team %d", s, t)
			}
			g.potSeat[t] = s
		}
	}
	for t := range g.potSeat {
		if !g.potUnplayed[t] {
			g.potSeat[t] = -1 // it matters only while the pot is unplayed
			continue
		}
		if g.potSeat[t] < 0 {
			g.potSeat[t] = g.guessPotSeat(t)
		}
		if g.potSeat[t] == g.turn && g.phase != PhaseOver {
			return badPos("team %d: pot_seat %d is on turn, so its pot is being played (pot_unplayed false)", t, g.turn)
		}
	}
	return nil
}

// guessPotSeat returns the member of team who played most recently before
// the seat on turn: the one who can have taken the pot with a discard.
func (g *Game) guessPotSeat(team int) int {
	s := g.turn
	for range g.rules.Players {
		s = g.rules.prev(s)
		if g.rules.Team(s) == team {
			return s
		}
	}
	return -1
}

func checkDuplicateSets(ms []Meld) error {
	for i, m := range ms {
		if m.Kind != Set {
			continue
		}
		for _, o := range ms[:i] {
			if o.Kind == Set && o.SetRank == m.SetRank {
				return ruleErr(ErrDuplicateSet, fmt.Sprintf("two sets of %s", m.SetRank))
			}
		}
	}
	return nil
}

func (g *Game) loadTurnState(p Position) error {
	g.firstTurn = p.FirstTurn
	switch p.Took {
	case "":
		if g.phase == PhasePlay {
			g.took = tookDraw
		}
	case "draw":
		g.took = tookDraw
	case "pickup":
		g.took = tookPickup
	default:
		return badPos("unknown took %q", p.Took)
	}
	if g.phase != PhasePlay && (p.Took != "" || p.Moved || p.Picked != 0 || p.Redrawn) {
		return badPos("turn state given outside phase play")
	}
	g.moved, g.redrawn, g.picked, g.pickedHeld, g.lastTurn = p.Moved, p.Redrawn, p.Picked, p.PickedHeld, p.LastTurn
	if p.Picked != 0 && !p.Picked.Valid() {
		return badPos("picked card invalid")
	}
	switch p.End {
	case "":
		if g.phase == PhaseOver {
			g.end = ByReferee
		}
	case "closed":
		g.end = Closed
	case "stock":
		g.end = StockOut
	case "referee":
		g.end = ByReferee
	case "timeout":
		g.end = TimedOut
	default:
		return badPos("unknown end %q", p.End)
	}
	if (g.end != NotEnded) != (g.phase == PhaseOver) {
		return badPos("end %q does not match phase %s", p.End, g.phase)
	}
	if p.Closer != nil {
		if *p.Closer < 0 || *p.Closer >= g.rules.Players || g.end != Closed {
			return badPos("closer %d without a closing", *p.Closer)
		}
		g.closer = *p.Closer
	} else if g.end == Closed {
		return badPos("end closed without closer")
	}
	return g.loadLastRound(p.LastRound)
}

// checkCards checks every card is a real card and no card appears more often
// than the two decks hold (2 of each card, 4 jokers).
func (g *Game) checkCards() error {
	var count [256]int
	bad := Card(0)
	add := func(cs []Card) {
		for _, c := range cs {
			if !c.Valid() {
				bad = c
				if c == 0 {
					bad = 0xff
				}
			}
			count[c]++
		}
	}
	g.eachCardList(add)
	if bad != 0 {
		return badPos("invalid card in position")
	}
	if count[Joker] > 0 && !g.rules.Options.Jokers {
		return badPos("%d joker(s) in a deal without jokers (%s)", count[Joker], jokerlessWhy(g.rules.ID))
	}
	for c, k := range count {
		limit := 2
		if Card(c) == Joker {
			limit = 4
		}
		if k > limit {
			return badPos("%d copies of %s (at most %d)", k, Card(c), limit)
		}
	}
	return nil
}

func jokerlessWhy(id RuleSet) string {
	if id == Reale {
		return "reale has no jokers"
	}
	return "option jokers false"
}

// Position exports the game as a Position (deep copies), complete enough
// for LoadPosition to rebuild an identical game.
func (g *Game) Position() Position {
	r := g.rules
	opts, _ := json.Marshal(r.Options)
	dealer, teams := g.dealer, r.Teams()
	p := Position{
		Rules: r.ID, Options: opts, Players: r.Players,
		Turn: g.turn, Phase: g.phase.String(), Dealer: &dealer,
		Hands: make([][]Card, len(g.hands)), Stock: make([]Card, len(g.stock)),
		Discard: slices.Clone(g.pile), Pots: make([][]Card, len(g.pots)),
		PotTaken: slices.Clone(g.potTaken), PotUnplayed: slices.Clone(g.potUnplayed),
		Melds: make([][][]Card, teams), Totals: slices.Clone(g.totals),
		FirstTurn: g.firstTurn, Moved: g.moved, Redrawn: g.redrawn,
		Picked: g.picked, PickedHeld: g.pickedHeld, LastTurn: g.lastTurn,
		End: g.end.String(),
	}
	if p.Discard == nil {
		p.Discard = []Card{}
	}
	for i, h := range g.hands {
		p.Hands[i] = slices.Clone(h)
		if p.Hands[i] == nil {
			p.Hands[i] = []Card{}
		}
	}
	for i, c := range g.stock {
		p.Stock[len(g.stock)-1-i] = c
	}
	for i, pot := range g.pots {
		p.Pots[i] = slices.Clone(pot)
	}
	for t, ms := range g.melds {
		p.Melds[t] = make([][]Card, len(ms))
		for i, m := range ms {
			p.Melds[t][i] = slices.Clone(m.Cards)
		}
	}
	if g.rows != nil {
		p.Rows = make([][]Card, len(g.rows))
		for i, row := range g.rows {
			p.Rows[i] = slices.Clone(row)
			if p.Rows[i] == nil {
				p.Rows[i] = []Card{}
			}
		}
	}
	if slices.Contains(g.potUnplayed, true) {
		p.PotSeat = make([]int, teams)
		for t, s := range g.potSeat {
			p.PotSeat[t] = -1
			if g.potUnplayed[t] {
				p.PotSeat[t] = s
			}
		}
	}
	if g.phase == PhasePlay {
		p.Took = [...]string{"", "draw", "pickup"}[g.took]
	}
	if g.closer >= 0 {
		c := g.closer
		p.Closer = &c
	}
	if lr, ok := g.LastRound(); ok {
		p.LastRound = &lr
	}
	return p
}
