package api

import (
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/vp"
	"github.com/burraco/burraco/engine"
)

// Text is a short text in Italian and English.
type Text struct {
	IT string `json:"it" example:"Burraco italiano"`
	EN string `json:"en" example:"Italian Burraco"`
} // @name Text

// RuleSet describes one rule set for a "new table" or "new tournament" form:
// what the game is, who plays it, with which deck and melds, how a match
// usually runs, and the options that apply to it (RULES §11).
type RuleSet struct {
	ID          string `json:"id" enums:"fibur,fibur-row,reale,aberto,fechado" example:"fibur"`
	Name        Text   `json:"name"`
	Description Text   `json:"description"`
	// The player counts it is played by, the usual first.
	Players []int `json:"players" example:"4,2"`
	// Cards in the deck with the default options (108, or 104 without jokers).
	Deck   int `json:"deck" example:"108"`
	Jokers int `json:"jokers" example:"4"`
	// The kinds of meld: sequences, sets, sets_of_twos (fechado).
	Melds   []string      `json:"melds" example:"sequences,sets"`
	ToClose Text          `json:"to_close"`
	Match   MatchDefaults `json:"match"`
	// The options that apply to this rule set; an option that is not listed
	// is refused for it (422 naming the option).
	Options []RuleOption `json:"options"`
} // @name RuleSet

// MatchDefaults is how a match of the rule set usually runs (RULES §10): to
// a target score, or, where fixed_deals, a fixed number of deals per round.
type MatchDefaults struct {
	Target        int   `json:"target" example:"2005"`
	FixedDeals    bool  `json:"fixed_deals" example:"true"`
	DealsPerRound []int `json:"deals_per_round,omitempty" example:"2,3,4"`
	// The deals per round that RULES §10's built-in VP table covers, for a tournament of pairs or
	// individuals: another count (2) needs the event's own vp_table, and team events always do. A
	// "new tournament" form offers these when the built-in table is chosen.
	BuiltinVPDeals []int `json:"builtin_vp_deals" example:"3,4"`
} // @name MatchDefaults

// RuleOption is one option as it applies to one rule set.
type RuleOption struct {
	// The key in an options object.
	Key  string `json:"key" example:"semi_clean"`
	Type string `json:"type" enums:"boolean,string,integer" example:"boolean"`
	// The allowed values, when they are a list (booleans, strings or integers, as type says).
	Values []any `json:"values,omitempty"`
	// For an integer option without a list of values: the range.
	Minimum *int `json:"minimum,omitempty" example:"1"`
	Maximum *int `json:"maximum,omitempty" example:"10000"`
	// The default for this rule set (of the option's type).
	Default     any  `json:"default"`
	Description Text `json:"description"`
} // @name RuleOption

// RuleSetList is every rule set the server plays.
type RuleSetList struct {
	Items  []RuleSet `json:"items"`
	Total  int       `json:"total" example:"5"`
	Limit  int       `json:"limit" example:"5"`
	Offset int       `json:"offset" example:"0"`
} // @name RuleSetList

func textOut(t engine.Text) Text { return Text{IT: t.IT, EN: t.EN} }

func ruleSetOut(r engine.RuleSetInfo) RuleSet {
	return RuleSet{ID: string(r.ID), Name: textOut(r.Name), Description: textOut(r.Description), Players: r.Players,
		Deck: r.Deck, Jokers: r.Jokers, Melds: r.Melds, ToClose: textOut(r.ToClose),
		Match: MatchDefaults{Target: r.Match.Target, FixedDeals: r.Match.FixedDeals, DealsPerRound: r.Match.DealsPerRound,
			BuiltinVPDeals: builtinVPDeals()},
		Options: mapSlice(r.Options, ruleOptionOut)}
}

func ruleOptionOut(o engine.OptionInfo) RuleOption {
	return RuleOption{Key: o.Key, Type: o.Type, Values: o.Values, Minimum: o.Minimum, Maximum: o.Maximum,
		Default: o.Default, Description: textOut(o.Description)}
}

// builtinVPDeals are the deals per round a tournament may have with the
// built-in VP table: said where the choice is made, so that a form need not
// learn it from a refusal.
func builtinVPDeals() []int {
	out := []int{}
	for n := domain.MinDealsPerRound; n <= domain.MaxDealsPerRound; n++ {
		if _, ok := vp.Builtin(n); ok {
			out = append(out, n)
		}
	}
	return out
}
