package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Record is everything needed to replay a deal: the rules, the dealer, the
// seed of the shuffle and the cards it dealt, the running totals it started
// with, the moves in order, and the referee's interventions. Replaying it
// gives the same deal, move for move.
//
//	{"rules":"fibur","options":{…},"players":4,"dealer":3,"seed":"20261121",
//	 "cards":{"hands":[[…],…],"discard":["7H"],"pots":[[…],[…]],"stock":[…]},
//	 "moves":[{"seat":0,"move":"draw"},{"seat":0,"move":"discard","card":"9C"}],
//	 "timeout_at":2}
//
// Cards (DealtCards) make the record readable without this engine: the
// seed alone needs its shuffle to tell the hands. A record without cards
// (written before they were kept) replays from the seed; one whose cards
// are not what its seed deals is refused.
//
// TimeOutAt, when set, is the number of moves played when the referee
// called the time-out (Game.CallTimeOut): 0 before the first move,
// len(Moves) after the last. ByReferee says the referee ended the deal
// (Game.EndByReferee) after the last move.
//
// The seed is written as a JSON string ("seed":"18446744073709551615"):
// a uint64 exceeds the integers JavaScript numbers hold exactly (2^53). It
// is read as a string or as a JSON number (a non-negative integer, no
// fraction nor exponent), so hand-written records may use either.
type Record struct {
	Rules     RuleSet     `json:"rules"`
	Options   Options     `json:"options"`
	Players   int         `json:"players"`
	Dealer    int         `json:"dealer"`
	Seed      uint64      `json:"seed,string"`
	Cards     *DealtCards `json:"cards,omitempty"`
	Totals    []int       `json:"totals,omitempty"`
	Moves     []SeatMove  `json:"moves"`
	TimeOutAt *int        `json:"timeout_at,omitempty"`
	ByReferee bool        `json:"ended_by_referee,omitempty"`
}

// SeatMove is one move of a record: the seat and the move, written as one
// object {"seat":0,"move":"draw"}.
type SeatMove struct {
	Seat int
	Move Move
}

// MarshalJSON writes the move's notation with a "seat" key.
func (s SeatMove) MarshalJSON() ([]byte, error) {
	b, err := s.Move.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(fmt.Appendf(nil, `{"seat":%d,`, s.Seat), b[1:]...), nil
}

// UnmarshalJSON reads {"seat":N, ...move}.
func (s *SeatMove) UnmarshalJSON(b []byte) error {
	var w struct {
		Seat *int `json:"seat"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return ruleErr(ErrBadNotation, "record move: "+jsonProblem(err))
	}
	if w.Seat == nil {
		return ruleErr(ErrBadNotation, "record move without seat")
	}
	var m Move
	if err := m.UnmarshalJSON(b); err != nil {
		return err
	}
	s.Seat, s.Move = *w.Seat, m
	return nil
}

// UnmarshalJSON reads a record; its options are decoded over the defaults of
// its rule set (ParseOptions).
func (r *Record) UnmarshalJSON(b []byte) error {
	type plain Record
	var w struct {
		plain
		Options json.RawMessage `json:"options"`
		Seed    json.RawMessage `json:"seed"` // a string or a number
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		if ErrorCode(err) != "" {
			return err
		}
		return ruleErr(ErrBadNotation, "record: "+jsonProblem(err))
	}
	if w.Rules == "" {
		return ruleErr(ErrBadNotation, "record: no rules")
	}
	seed, err := parseSeed(w.Seed)
	if err != nil {
		return err
	}
	o, err := ParseOptions(w.Rules, w.Options)
	if err != nil {
		return err
	}
	switch {
	case w.Players == 0:
		return ruleErr(ErrBadNotation, "record: no players")
	case w.Moves == nil:
		return ruleErr(ErrBadNotation, "record: no moves (an empty list for a deal not started)")
	}
	*r = Record(w.plain)
	r.Options, r.Seed = o, seed
	return nil
}

// parseSeed reads a record's seed: a JSON string or number holding a
// uint64 in decimal (absent or null: 0).
func parseSeed(raw json.RawMessage) (uint64, error) {
	s := string(bytes.TrimSpace(raw))
	if s == "" || s == "null" {
		return 0, nil
	}
	if s[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, ruleErr(ErrBadNotation, "record seed: "+err.Error())
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, ruleErr(ErrBadNotation, fmt.Sprintf("record seed %s: not an integer from 0 to 2^64-1", raw))
	}
	return n, nil
}

// NewRecord starts the record of a deal dealt with Deal(rules, dealer, seed,
// totals).
func NewRecord(rules Rules, dealer int, seed uint64, totals []int) Record {
	r := Record{Rules: rules.ID, Options: rules.Options, Players: rules.Players,
		Dealer: dealer, Seed: seed, Totals: append([]int(nil), totals...)}
	if cards, err := Dealt(rules, dealer, seed); err == nil { // else Replay says what is wrong
		r.Cards = &cards
	}
	return r
}

// RulesOf returns the record's rules.
func (r Record) RulesOf() Rules { return Rules{ID: r.Rules, Players: r.Players, Options: r.Options} }

// Replay deals the record's deal and plays its moves. It returns the game
// after the last move, or the error of the first move that is not legal
// (with its index).
func (r Record) Replay() (*Game, error) {
	g, err := Deal(r.RulesOf(), r.Dealer, r.Seed, r.Totals)
	if err != nil {
		return nil, err
	}
	if r.Cards != nil {
		if why := r.Cards.disagreement(g.dealtCards()); why != "" {
			return nil, ruleErr(ErrBadNotation, fmt.Sprintf("record cards disagree with seed %d: %s "+
				"(the cards or the seed were changed; a record's cards must be what its seed deals)", r.Seed, why))
		}
	}
	if at := r.TimeOutAt; at != nil && (*at < 0 || *at > len(r.Moves)) {
		return nil, ruleErr(ErrBadNotation, fmt.Sprintf("record timeout_at %d: not between 0 and the %d moves", *at, len(r.Moves)))
	}
	for i, m := range r.Moves {
		if err := r.timeOutBefore(g, i); err != nil {
			return g, err
		}
		if err := g.Apply(m.Seat, m.Move); err != nil {
			return g, fmt.Errorf("move %d (seat %d %s): %w", i, m.Seat, m.Move, err)
		}
	}
	if err := r.timeOutBefore(g, len(r.Moves)); err != nil {
		return g, err
	}
	if r.ByReferee && !g.Over() {
		if err := g.EndByReferee(); err != nil {
			return g, err
		}
	}
	return g, nil
}

// timeOutBefore calls the record's time-out when it came before move i.
func (r Record) timeOutBefore(g *Game, i int) error {
	if r.TimeOutAt == nil || *r.TimeOutAt != i {
		return nil
	}
	if err := g.CallTimeOut(); err != nil {
		return fmt.Errorf("time-out before move %d: %w", i, err)
	}
	return nil
}

// jsonProblem says in the record's own terms what encoding/json found wrong.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("field %s: a JSON %s where %s is wanted", strings.TrimPrefix(te.Field, "plain."), te.Value, jsonKind(te.Type.Kind()))
	case errors.As(err, &te):
		return fmt.Sprintf("a JSON %s where an object is wanted", te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("not valid JSON at byte %d: %v", se.Offset, se)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ")
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	}
	return "a number"
}
