package engine

import "slices"

// View is what one seat may see of a deal (or a spectator, Seat -1): its own
// hand, the others' hand sizes, every meld, the discard pile as the rule set
// shows it (all of it, or in fechado only its top card and size), the stock
// size, the pots left and taken, the rows (public), and the legal-move
// summary for that seat. Nothing hidden from the seat is reachable from it.
type View struct {
	Rules       RuleSet      `json:"rules"`
	Options     Options      `json:"options"`
	Players     int          `json:"players"`
	Seat        int          `json:"seat"`
	Team        int          `json:"team"`
	Dealer      int          `json:"dealer"`
	Turn        int          `json:"turn"`
	Phase       string       `json:"phase"`
	Hand        []Card       `json:"hand"`
	HandSizes   []int        `json:"hand_sizes"`
	Rows        [][]Card     `json:"rows,omitempty"`
	Melds       [][]MeldView `json:"melds"`
	Pile        []Card       `json:"pile,omitempty"`
	PileTop     *Card        `json:"pile_top,omitempty"`
	PileSize    int          `json:"pile_size"`
	StockSize   int          `json:"stock_size"`
	PotsLeft    int          `json:"pots_left"`
	PotTaken    []bool       `json:"pot_taken"`
	PotUnplayed []bool       `json:"pot_unplayed"`
	Totals      []int        `json:"totals"`
	FirstTurn   bool         `json:"first_turn"`
	LastTurn    bool         `json:"last_turn"`
	LastRound   *LastRound   `json:"last_round,omitempty"` // after a referee's time-out: the seat whose turn ends the deal, and the turns left
	Over        bool         `json:"over"`
	End         string       `json:"end,omitempty"`
	Closer      *int         `json:"closer,omitempty"`
	Score       []Score      `json:"score,omitempty"`
	Legal       Summary      `json:"legal"`
}

// MeldView is a meld as shown to players.
type MeldView struct {
	Cards   []Card `json:"cards"`
	Kind    string `json:"kind"`              // "sequence" or "set"
	Wild    int    `json:"wild"`              // index of the wild in cards, -1 when clean
	Burraco string `json:"burraco,omitempty"` // "clean", "semi_clean", "dirty" for 7+ cards
	Bonus   int    `json:"bonus,omitempty"`
}

var burracoNames = [...]string{"", "dirty", "semi_clean", "clean"}

// View returns what seat sees; seat -1 (or any seat out of range) is a
// spectator, who sees no hand.
func (g *Game) View(seat int) View {
	r := g.rules
	if seat < 0 || seat >= r.Players {
		seat = -1
	}
	v := View{
		Rules: r.ID, Options: r.Options, Players: r.Players, Seat: seat, Team: -1,
		Dealer: g.dealer, Turn: g.turn, Phase: g.phase.String(),
		HandSizes: make([]int, r.Players), Melds: make([][]MeldView, len(g.melds)),
		PileSize: len(g.pile), StockSize: len(g.stock), PotsLeft: len(g.pots),
		PotTaken: slices.Clone(g.potTaken), PotUnplayed: slices.Clone(g.potUnplayed),
		Totals: slices.Clone(g.totals), FirstTurn: g.firstTurn, LastTurn: g.lastTurn,
		Over: g.phase == PhaseOver,
	}
	if lr, ok := g.LastRound(); ok {
		v.LastRound = &lr
	}
	if seat >= 0 {
		v.Team, v.Hand = r.Team(seat), append([]Card{}, g.hands[seat]...) // [] not null when empty
		v.Legal = g.Summary(seat)
	}
	for i, h := range g.hands {
		v.HandSizes[i] = len(h)
	}
	if g.rows != nil {
		v.Rows = make([][]Card, len(g.rows))
		for i, row := range g.rows {
			v.Rows[i] = append([]Card{}, row...)
		}
	}
	o := r.Options
	for t, ms := range g.melds {
		v.Melds[t] = make([]MeldView, len(ms))
		for i, m := range ms {
			kind := "sequence"
			if m.Kind == Set {
				kind = "set"
			}
			v.Melds[t][i] = MeldView{Cards: slices.Clone(m.Cards), Kind: kind, Wild: m.Wild,
				Burraco: burracoNames[m.Burraco(o.SemiClean, o.SemiCleanSet == SemiCleanSetAtLeast8)%4],
				Bonus:   r.MeldBonus(m)}
		}
	}
	if len(g.pile) > 0 {
		if r.ID == Fechado {
			top := g.pile[len(g.pile)-1]
			v.PileTop = &top
		} else {
			v.Pile = slices.Clone(g.pile)
		}
	}
	if g.phase == PhaseOver {
		v.End = g.end.String()
		if g.closer >= 0 {
			c := g.closer
			v.Closer = &c
		}
		v.Score = g.Score()
	}
	return v
}
