package engine

import (
	"encoding/json"
	"fmt"
)

// Record is everything needed to replay a deal: the rules, the dealer, the
// seed of the shuffle, the running totals it started with, and the moves in
// order. Replaying it gives the same deal, move for move.
type Record struct {
	Rules     RuleSet    `json:"rules"`
	Options   Options    `json:"options"`
	Players   int        `json:"players"`
	Dealer    int        `json:"dealer"`
	Seed      uint64     `json:"seed,string"`
	Totals    []int      `json:"totals,omitempty"`
	Moves     []SeatMove `json:"moves"`
	ByReferee bool       `json:"ended_by_referee,omitempty"`
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
		return ruleErr(ErrBadNotation, "record move: "+err.Error())
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
	}
	if err := json.Unmarshal(b, &w); err != nil {
		if ErrorCode(err) != "" {
			return err
		}
		return ruleErr(ErrBadNotation, "record: "+err.Error())
	}
	o, err := ParseOptions(w.Rules, w.Options)
	if err != nil {
		return err
	}
	*r = Record(w.plain)
	r.Options = o
	return nil
}

// NewRecord starts the record of a deal dealt with Deal(rules, dealer, seed,
// totals).
func NewRecord(rules Rules, dealer int, seed uint64, totals []int) Record {
	return Record{Rules: rules.ID, Options: rules.Options, Players: rules.Players,
		Dealer: dealer, Seed: seed, Totals: append([]int(nil), totals...)}
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
	for i, m := range r.Moves {
		if err := g.Apply(m.Seat, m.Move); err != nil {
			return g, fmt.Errorf("move %d (seat %d %s): %w", i, m.Seat, m.Move, err)
		}
	}
	if r.ByReferee && !g.Over() {
		if err := g.EndByReferee(); err != nil {
			return g, err
		}
	}
	return g, nil
}
