package engine

import (
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
	case !slices.Contains(ruleSetTexts[r.ID].players, r.Players):
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
