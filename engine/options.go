package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
)

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
// option keys of the conformance cases and of the API.
//
// Each option applies only to the rule sets of its "applies to" column
// (OptionKeys, Catalog). The Options of a rule set hold the zero value for
// every option that does not apply to it: DefaultOptions and ParseOptions
// build them so, and Validate refuses anything else (bad_option). That is
// what lets MarshalJSON write exactly the options that apply, which
// ParseOptions reads back: reale (no semi-clean, no jokers: the zero
// false/0 say so) writes neither semi_clean nor jokers nor joker_points.
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
// 20-point jokers and no pot penalty when neither team took one). Options
// that do not apply to id are zero. An unknown id gets the fibur defaults.
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
	if id.Brazilian() {
		o.PotPenaltyIfNeither = false
		o.Target = 3000
		o.Vulnerability = true
		o.JokerPoints = 20
	}
	if !id.valid() {
		id = Fibur
	}
	for _, s := range optionSpecs {
		if !s.appliesTo(id) {
			optionField(&o, s.key).SetZero()
		}
	}
	return o
}

// OptionProblem is one thing wrong with an options object: the option key
// ("" when the problem is the object itself) and what is wrong with it.
type OptionProblem struct {
	Key     string `json:"key"`
	Message string `json:"message"`
}

func (p OptionProblem) String() string {
	if p.Key == "" {
		return "options: " + p.Message
	}
	return "option " + p.Key + ": " + p.Message
}

// ParseOptions decodes an options object (keys of RULES §11) over the
// defaults of rule set id. An empty or null input gives the defaults. An
// unknown key, a key of an option that does not apply to id (present at
// all, whatever its value, even the default: RULES §11 "set for another
// rule set it is refused"), a value of the wrong type or an unknown value
// give ErrBadOption, whose message lists every problem (OptionProblems
// lists them one by one).
func ParseOptions(id RuleSet, data []byte) (Options, error) {
	o, problems := parseOptions(id, data)
	if len(problems) > 0 {
		return Options{}, problemsErr(problems)
	}
	return o, nil
}

// OptionProblems returns every problem of an options object for rule set
// id, in key order (nil when ParseOptions accepts it): for an API that
// names each bad option in one answer.
func OptionProblems(id RuleSet, data []byte) []OptionProblem {
	_, problems := parseOptions(id, data)
	return problems
}

func problemsErr(ps []OptionProblem) error {
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.String()
	}
	return ruleErr(ErrBadOption, strings.Join(msgs, "; "))
}

func parseOptions(id RuleSet, data []byte) (Options, []OptionProblem) {
	if !id.valid() {
		return Options{}, []OptionProblem{{"", fmt.Sprintf("unknown rule set %q", id)}}
	}
	o := DefaultOptions(id)
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return o, nil
	}
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return Options{}, []OptionProblem{{"", "not a JSON object"}}
	}
	if dec.More() {
		return Options{}, []OptionProblem{{"", "trailing data after the object"}}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var problems []OptionProblem
	for _, k := range keys {
		if msg := setOption(&o, id, k, raw[k]); msg != "" {
			problems = append(problems, OptionProblem{k, msg})
		}
	}
	// Values are checked for the keys given only: the defaults are valid.
	for _, p := range o.problems(id) {
		if slices.Contains(keys, p.Key) && !slices.ContainsFunc(problems, func(q OptionProblem) bool { return q.Key == p.Key }) {
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b OptionProblem) int { return strings.Compare(a.Key, b.Key) })
		return Options{}, problems
	}
	return o, nil
}

// setOption decodes one key's value into o, or says what is wrong.
func setOption(o *Options, id RuleSet, key string, val json.RawMessage) string {
	s, ok := specOf(key)
	switch {
	case !ok:
		return "unknown option"
	case !s.appliesTo(id):
		return fmt.Sprintf("does not apply to %s (only %s)", id, joinRuleSets(s.applies))
	}
	f := optionField(o, key)
	v := reflect.New(f.Type())
	v.Elem().Set(f)
	if err := json.Unmarshal(val, v.Interface()); err != nil {
		return "wants " + typeNoun(s.kind)
	}
	f.Set(v.Elem())
	return ""
}

func typeNoun(kind string) string {
	switch kind {
	case "boolean":
		return "true or false"
	case "integer":
		return "an integer"
	}
	return "a string"
}

func joinRuleSets(ids []RuleSet) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = string(id)
	}
	return strings.Join(s, ", ")
}

// Validate checks every option value for rule set id, and that the options
// that do not apply to id are unset (zero). The error lists every problem.
func (o Options) Validate(id RuleSet) error {
	if !id.valid() {
		return ruleErr(ErrBadOption, fmt.Sprintf("unknown rule set %q", id))
	}
	if ps := o.problems(id); len(ps) > 0 {
		return problemsErr(ps)
	}
	return nil
}

// problems lists what is wrong with o for id, in the order of the catalogue.
func (o Options) problems(id RuleSet) []OptionProblem {
	var out []OptionProblem
	for _, s := range optionSpecs {
		f := optionField(&o, s.key)
		if !s.appliesTo(id) {
			if !f.IsZero() {
				out = append(out, OptionProblem{s.key, fmt.Sprintf("does not apply to %s (only %s)", id, joinRuleSets(s.applies))})
			}
			continue
		}
		if msg := s.check(f.Interface()); msg != "" {
			out = append(out, OptionProblem{s.key, msg})
		}
	}
	return out
}

// MarshalJSON writes the options that apply to the rule set o belongs to,
// in catalogue order; ParseOptions of that rule set reads them back. The
// rule set is recognised from the options themselves, which hold zero for
// the options that do not apply (see Options): semi_clean_set is set only
// in fibur and fibur-row (which share their options), canastra_bonus only in
// the Brazilian games, aberto_sets only in aberto; options with none of
// them are reale's.
func (o Options) MarshalJSON() ([]byte, error) {
	id := o.ruleFamily()
	var buf bytes.Buffer
	buf.WriteByte('{')
	first := true
	for _, s := range optionSpecs {
		if !s.appliesTo(id) {
			continue
		}
		v, err := json.Marshal(optionField(&o, s.key).Interface())
		if err != nil {
			return nil, err
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&buf, "%q:%s", s.key, v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// ruleFamily returns a rule set whose applicable options are those o holds
// (fibur stands for fibur and fibur-row).
func (o Options) ruleFamily() RuleSet {
	switch {
	case o.SemiCleanSet != "":
		return Fibur
	case o.CanastraBonus != "" && o.AbertoSets != "":
		return Aberto
	case o.CanastraBonus != "":
		return Fechado
	}
	return Reale
}

// OptionKeys returns the keys of the options that apply to rule set id, in
// catalogue order (nil for an unknown rule set).
func OptionKeys(id RuleSet) []string {
	if !id.valid() {
		return nil
	}
	var keys []string
	for _, s := range optionSpecs {
		if s.appliesTo(id) {
			keys = append(keys, s.key)
		}
	}
	return keys
}

// optionFieldIndex maps each JSON key of Options to its field index.
var optionFieldIndex = func() map[string]int {
	m := map[string]int{}
	t := reflect.TypeFor[Options]()
	for i := range t.NumField() {
		m[strings.Split(t.Field(i).Tag.Get("json"), ",")[0]] = i
	}
	return m
}()

// optionField returns the settable field of *o named by its JSON key; the
// key must be one of the catalogue's (a test checks both lists agree).
func optionField(o *Options, key string) reflect.Value {
	return reflect.ValueOf(o).Elem().Field(optionFieldIndex[key])
}
