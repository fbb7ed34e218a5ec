package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// RuleSet identifies a rule set (RULES §2).
type RuleSet string

// The supported rule sets.
const (
	Fibur    RuleSet = "fibur"     // Italian Burraco, FIBUR code (4 or 2 players)
	FiburRow RuleSet = "fibur-row" // Burraco in 2 with face-up rows (§8)
	Reale    RuleSet = "reale"     // Burraco Reale: sequences only, no jokers
	Aberto   RuleSet = "aberto"    // Brazilian Buraco Aberto: sequences only
	Fechado  RuleSet = "fechado"   // Brazilian Buraco Fechado: closed pile
)

// RuleSets lists every supported rule set.
func RuleSets() []RuleSet { return []RuleSet{Fibur, FiburRow, Reale, Aberto, Fechado} }

// Brazilian reports whether the rule set is one of the Brazilian games
// (aberto, fechado): empty starting pile, redraw, card values.
func (id RuleSet) Brazilian() bool { return id == Aberto || id == Fechado }

// Italian reports whether the rule set is Italian (fibur, fibur-row, reale).
func (id RuleSet) Italian() bool { return id == Fibur || id == FiburRow || id == Reale }

// twoCardRule reports whether the last two stock cards are never drawn
// (fibur, fibur-row); the others draw the stock to the end and then turn an
// untaken pot into the stock (§7).
func (id RuleSet) twoCardRule() bool { return id == Fibur || id == FiburRow }

func (id RuleSet) valid() bool { return slices.Contains(RuleSets(), id) }

// Option values (RULES §11).
const (
	SemiCleanSetExactly8 = "exactly8"
	SemiCleanSetAtLeast8 = "at_least8"
	ClosingNoWild        = "no_wild"    // the closing discard may be neither a joker nor a 2
	ClosingNoPinella     = "no_pinella" // the closing discard may not be a 2 (a joker is allowed)
	Clockwise            = "clockwise"
	Anticlockwise        = "anticlockwise"
	CanastraBonus100     = "100/200" // dirty/clean burraco bonus
	CanastraBonus150     = "150/300"
	AbertoSetsNone       = "none"
	AbertoSetsThreesAces = "threes_and_aces"
)

// Options are the per-table options of RULES §11. The JSON names are the
// option keys of the conformance cases; DefaultOptions gives the defaults of
// each rule set.
type Options struct {
	SemiClean           bool   `json:"semi_clean"`
	SemiCleanSet        string `json:"semi_clean_set"`
	PotPenaltyIfNeither bool   `json:"pot_penalty_if_neither"`
	ClosingDiscard      string `json:"closing_discard"`
	Direction           string `json:"direction"`
	Target              int    `json:"target"`
	Vulnerability       bool   `json:"vulnerability"`
	JokerPoints         int    `json:"joker_points"`
	Jokers              bool   `json:"jokers"`
	CanastraBonus       string `json:"canastra_bonus"`
	RoundUp10           bool   `json:"round_up_10"`
	AbertoSets          string `json:"aberto_sets"`
	RealCanastra        bool   `json:"real_canastra"`
}

// DefaultOptions returns the defaults of rule set id (the bold values of
// RULES §11, read per rule set: reale plays without jokers and has no
// semi-clean burraco; the Brazilian games default to 3000, vulnerability,
// 20-point jokers and no pot penalty when neither team took one).
func DefaultOptions(id RuleSet) Options {
	o := Options{
		SemiClean:           true,
		SemiCleanSet:        SemiCleanSetExactly8,
		PotPenaltyIfNeither: true,
		ClosingDiscard:      ClosingNoWild,
		Direction:           Clockwise,
		Target:              2005,
		JokerPoints:         30,
		Jokers:              true,
		CanastraBonus:       CanastraBonus100,
		AbertoSets:          AbertoSetsNone,
	}
	switch {
	case id == Reale:
		o.SemiClean = false
		o.Jokers = false
	case id.Brazilian():
		o.SemiClean = false
		o.PotPenaltyIfNeither = false
		o.Target = 3000
		o.Vulnerability = true
		o.JokerPoints = 20
	}
	return o
}

// ParseOptions decodes an options object (keys of RULES §11) over the
// defaults of rule set id. An empty or null input gives the defaults. Unknown
// keys, values of the wrong type and unknown values give ErrBadOption.
func ParseOptions(id RuleSet, data []byte) (Options, error) {
	if !id.valid() {
		return Options{}, ruleErr(ErrBadOption, fmt.Sprintf("unknown rule set %q", id))
	}
	o := DefaultOptions(id)
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return Options{}, ruleErr(ErrBadOption, "options: "+err.Error())
	}
	if dec.More() {
		return Options{}, ruleErr(ErrBadOption, "options: trailing data")
	}
	return o, o.Validate(id)
}

// Validate checks every option value for rule set id.
func (o Options) Validate(id RuleSet) error {
	bad := func(key, val string) error {
		return ruleErr(ErrBadOption, fmt.Sprintf("option %s: unknown value %q", key, val))
	}
	switch {
	case o.SemiCleanSet != SemiCleanSetExactly8 && o.SemiCleanSet != SemiCleanSetAtLeast8:
		return bad("semi_clean_set", o.SemiCleanSet)
	case o.ClosingDiscard != ClosingNoWild && o.ClosingDiscard != ClosingNoPinella:
		return bad("closing_discard", o.ClosingDiscard)
	case o.Direction != Clockwise && o.Direction != Anticlockwise:
		return bad("direction", o.Direction)
	case o.CanastraBonus != CanastraBonus100 && o.CanastraBonus != CanastraBonus150:
		return bad("canastra_bonus", o.CanastraBonus)
	case o.AbertoSets != AbertoSetsNone && o.AbertoSets != AbertoSetsThreesAces:
		return bad("aberto_sets", o.AbertoSets)
	case o.AbertoSets != AbertoSetsNone && id != Aberto:
		return ruleErr(ErrBadOption, "option aberto_sets applies to aberto only")
	case o.RealCanastra && id != Fechado:
		return ruleErr(ErrBadOption, "option real_canastra applies to fechado only")
	case o.Target <= 0 || o.Target > 1_000_000:
		return ruleErr(ErrBadOption, fmt.Sprintf("option target: %d out of range", o.Target))
	case o.JokerPoints != 20 && o.JokerPoints != 30 && o.JokerPoints != 50:
		return ruleErr(ErrBadOption, fmt.Sprintf("option joker_points: %d (20, 30 or 50)", o.JokerPoints))
	}
	return nil
}

// Rules is a rule set with its player count and options: everything that
// decides how a table plays.
type Rules struct {
	ID      RuleSet `json:"rules"`
	Players int     `json:"players"`
	Options Options `json:"options"`
}

// NewRules returns the rules of id for players seats, with the default
// options. Errors: ErrBadOption.
func NewRules(id RuleSet, players int) (Rules, error) {
	r := Rules{ID: id, Players: players, Options: DefaultOptions(id)}
	return r, r.Validate()
}

// Validate checks the rule set, the player count and the options.
func (r Rules) Validate() error {
	if !r.ID.valid() {
		return ruleErr(ErrBadOption, fmt.Sprintf("unknown rule set %q", r.ID))
	}
	switch {
	case r.ID == FiburRow && r.Players != 2:
		return ruleErr(ErrBadOption, "fibur-row is played by 2 players")
	case r.Players != 2 && r.Players != 4:
		return ruleErr(ErrBadOption, fmt.Sprintf("%d players: 2 or 4 supported", r.Players))
	}
	return r.Options.Validate(r.ID)
}

// Teams returns the number of teams (linee): 2 with 4 players (pairs), one
// per seat otherwise.
func (r Rules) Teams() int {
	if r.Players == 4 {
		return 2
	}
	return r.Players
}

// Team returns the team of seat: seat % Teams() (4 players: seats 0 and 2
// are team 0, seats 1 and 3 team 1).
func (r Rules) Team(seat int) int {
	if n := r.Teams(); n > 0 {
		return seat % n
	}
	return 0
}

// MeldRules derives the meld laws of the rule set for the meld code.
func (r Rules) MeldRules() MeldRules {
	switch r.ID {
	case Reale:
		return MeldRules{AceBothEnds: true}
	case Aberto:
		if r.Options.AbertoSets == AbertoSetsThreesAces {
			return MeldRules{Sets: true, SetRanks: []Rank{Three, Ace}, AceBothEnds: true}
		}
		return MeldRules{AceBothEnds: true}
	case Fechado:
		return MeldRules{Sets: true, SetsOfTwos: true, AceBothEnds: true}
	}
	return MeldRules{Sets: true}
}

// CardPoints returns the value of c in this rule set (RULES §7a): 3–7 5,
// 8–K 10, A 15, 2 20 (Italian, also when natural) or 10 (Brazilian), the
// joker 30 (Italian) or 20/50 (Brazilian, option joker_points).
func (r Rules) CardPoints(c Card) int {
	switch {
	case c == Joker:
		return r.Options.JokerPoints
	case c.Rank() == Two:
		if r.ID.Brazilian() {
			return 10
		}
		return 20
	case c.Rank() == Ace:
		return 15
	case c.Rank() >= 8:
		return 10
	}
	return 5
}

// DeckSize is the number of cards of a full deal: 108, or 104 without jokers.
func (r Rules) DeckSize() int {
	if r.Options.Jokers {
		return 108
	}
	return 104
}

// Deck returns the full deck in a fixed order: two 52-card decks (suits
// S H D C, ranks A..K), then the jokers when the rules use them.
func (r Rules) Deck() []Card {
	d := make([]Card, 0, 108)
	for range 2 {
		for s := Spades; s < NoSuit; s++ {
			for rk := Ace; rk <= King; rk++ {
				d = append(d, NewCard(rk, s))
			}
		}
	}
	if r.Options.Jokers {
		d = append(d, Joker, Joker, Joker, Joker)
	}
	return d
}

// next returns the seat that plays after seat.
func (r Rules) next(seat int) int {
	if r.Options.Direction == Anticlockwise {
		return (seat - 1 + r.Players) % r.Players
	}
	return (seat + 1) % r.Players
}

// prev returns the seat that played before seat.
func (r Rules) prev(seat int) int {
	if r.Options.Direction == Anticlockwise {
		return (seat + 1) % r.Players
	}
	return (seat - 1 + r.Players) % r.Players
}

// closingWildBarred reports whether c may not be the closing discard.
func (r Rules) closingWildBarred(c Card) bool {
	if r.Options.ClosingDiscard == ClosingNoPinella {
		return c.IsTwo()
	}
	return c.IsWildCard()
}

// closingBurraco reports whether kind qualifies a team to close: any burraco
// in fibur, fibur-row and fechado; a clean one in reale and aberto.
func (r Rules) closingBurraco(k BurracoKind) bool {
	if r.ID == Reale || r.ID == Aberto {
		return k == Clean
	}
	return k != NotBurraco
}

// UnmarshalJSON reads {"rules":"fibur","players":4,"options":{…}}; options
// missing from the object take the rule set's defaults.
func (r *Rules) UnmarshalJSON(b []byte) error {
	var w struct {
		ID      RuleSet         `json:"rules"`
		Players int             `json:"players"`
		Options json.RawMessage `json:"options"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return ruleErr(ErrBadOption, "rules: "+err.Error())
	}
	o, err := ParseOptions(w.ID, w.Options)
	if err != nil {
		return err
	}
	v := Rules{ID: w.ID, Players: w.Players, Options: o}
	if err := v.Validate(); err != nil {
		return err
	}
	*r = v
	return nil
}
