package api

import (
	"encoding/json"
	"sync"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// Direct conversions of the engine's values into the API's documented
// types, for the answers of moves and polls. They give exactly what a trip
// through the engine's JSON gives (convertJSON): nil and empty slices where
// it has them, pointers where it has keys, only the options that apply to
// the rule set. TestStateConversionMatchesJSON checks that over many random
// positions of every rule set, so that the two cannot drift apart; an
// option this file does not know falls back to the JSON trip.

// dealViewOut converts a seat's View.
func dealViewOut(v *engine.View) DealView {
	out := DealView{Rules: string(v.Rules), Options: optionsOut(v.Rules, v.Options), Players: v.Players, Seat: v.Seat,
		Team: v.Team, Dealer: v.Dealer, Turn: v.Turn, Phase: v.Phase, Hand: cardsOut(v.Hand), HandSizes: v.HandSizes,
		PileSize: v.PileSize, StockSize: v.StockSize, PotsLeft: v.PotsLeft, PotTaken: v.PotTaken,
		PotUnplayed: v.PotUnplayed, StartTotals: v.Totals, Totals: v.Totals, FirstTurn: v.FirstTurn, LastTurn: v.LastTurn, Over: v.Over,
		End: v.End, Legal: LegalSummary(v.Legal)}
	if len(v.Rows) > 0 { // omitempty
		out.Rows = make([][]string, len(v.Rows))
		for i, row := range v.Rows {
			out.Rows[i] = cardsOut(row)
		}
	}
	if v.Melds != nil {
		out.Melds = make([][]MeldView, len(v.Melds))
		for t, ms := range v.Melds {
			if ms == nil {
				continue
			}
			out.Melds[t] = make([]MeldView, len(ms))
			for i, m := range ms {
				out.Melds[t][i] = MeldView{Cards: cardsOut(m.Cards), Kind: m.Kind, Wild: m.Wild, Burraco: m.Burraco, Bonus: m.Bonus}
			}
		}
	}
	if len(v.Pile) > 0 { // omitempty
		out.Pile = cardsOut(v.Pile)
	}
	if v.PileTop != nil {
		s := v.PileTop.String()
		out.PileTop = &s
	}
	if v.LastRound != nil {
		out.LastRound = &LastRound{Until: v.LastRound.Until, TurnsLeft: v.LastRound.TurnsLeft}
	}
	if v.Closer != nil {
		c := *v.Closer
		out.Closer = &c
	}
	if len(v.Score) > 0 { // omitempty
		out.Score = teamScoresOut(v.Score)
	}
	return out
}

// cardsOut writes cards in notation; nil stays nil (JSON null).
func cardsOut(cs []engine.Card) []string {
	if cs == nil {
		return nil
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

func teamScoresOut(s []engine.Score) []TeamScore {
	out := make([]TeamScore, len(s))
	for i, sc := range s {
		out[i] = TeamScore(sc)
	}
	return out
}

// optionsOut converts options of rule set id: the keys that apply to it
// set, the others nil, as engine.Options' JSON writes them.
func optionsOut(id engine.RuleSet, o engine.Options) TableOptions {
	out := TableOptions{PotPenaltyIfNeither: o.PotPenaltyIfNeither, ClosingDiscard: o.ClosingDiscard,
		Direction: o.Direction, Target: o.Target, Vulnerability: o.Vulnerability}
	for _, k := range optionKeys(id) {
		switch k {
		case "pot_penalty_if_neither", "closing_discard", "direction", "target", "vulnerability": // every rule set's
		case "semi_clean":
			out.SemiClean = &o.SemiClean
		case "semi_clean_set":
			out.SemiCleanSet = &o.SemiCleanSet
		case "joker_points":
			out.JokerPoints = &o.JokerPoints
		case "jokers":
			out.Jokers = &o.Jokers
		case "canastra_bonus":
			out.CanastraBonus = &o.CanastraBonus
		case "round_up_10":
			out.RoundUp10 = &o.RoundUp10
		case "aberto_sets":
			out.AbertoSets = &o.AbertoSets
		case "real_canastra":
			out.RealCanastra = &o.RealCanastra
		default: // an option added to the engine and not here yet
			return convertJSON[TableOptions](o)
		}
	}
	return out
}

// optionKeys is engine.OptionKeys, made once for each rule set the engine
// knows (a state's view converts its options at every poll).
func optionKeys(id engine.RuleSet) []string {
	if keys, ok := ruleSetOptionKeys[id]; ok {
		return keys
	}
	return engine.OptionKeys(id)
}

var ruleSetOptionKeys = func() map[engine.RuleSet][]string {
	m := map[engine.RuleSet][]string{}
	for _, id := range engine.RuleSets() {
		m[id] = engine.OptionKeys(id)
	}
	return m
}()

// moveNotationOut reads a stored move (the engine's JSON notation).
func moveNotationOut(raw json.RawMessage) MoveNotation {
	var m MoveNotation
	_ = json.Unmarshal(raw, &m) // written by engine.Move.MarshalJSON
	return m
}

// tableOptions decodes a table's stored options object, which every answer
// about the table shows: a table keeps its options for life and most tables
// play the defaults, so the decoded objects are kept by their JSON (at most
// maxOptionObjects of them) and copied out.
func tableOptions(raw json.RawMessage) TableOptions {
	optionObjects.RLock()
	o, ok := optionObjects.m[string(raw)]
	optionObjects.RUnlock()
	if !ok {
		_ = json.Unmarshal(raw, &o) // the domain stores the complete object it validated
		optionObjects.Lock()
		if len(optionObjects.m) >= maxOptionObjects {
			clear(optionObjects.m)
		}
		optionObjects.m[string(raw)] = o
		optionObjects.Unlock()
	}
	return o.clone()
}

// maxOptionObjects bounds the decoded options kept (a few hundred bytes
// each); past it the cache starts afresh.
const maxOptionObjects = 1024

var optionObjects = struct {
	sync.RWMutex
	m map[string]TableOptions
}{m: map[string]TableOptions{}}

// clone copies o with pointers of its own, so that no caller shares the
// cached values.
func (o TableOptions) clone() TableOptions {
	o.SemiClean, o.SemiCleanSet, o.JokerPoints, o.Jokers = clonePtr(o.SemiClean), clonePtr(o.SemiCleanSet),
		clonePtr(o.JokerPoints), clonePtr(o.Jokers)
	o.CanastraBonus, o.RoundUp10, o.AbertoSets, o.RealCanastra = clonePtr(o.CanastraBonus), clonePtr(o.RoundUp10),
		clonePtr(o.AbertoSets), clonePtr(o.RealCanastra)
	return o
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// lastMoveOut converts the last move of a deal.
func lastMoveOut(m *domain.LastMove) *LastMove {
	return &LastMove{Seat: m.Seat, Move: moveNotationOut(m.Move), Auto: m.Auto, By: string(m.By), At: m.At}
}
