package standings

import (
	"fmt"
	"strings"
)

// Criterion is one tie-break.
type Criterion string

// The criteria.
const (
	ByVP          Criterion = "vp"
	ByMPDiff      Criterion = "mp_difference"
	ByMPFor       Criterion = "mp_for"
	ByHeadToHead  Criterion = "head_to_head"
	ByOpponentsVP Criterion = "opponents_vp"
	ByLots        Criterion = "lots"
)

// DefaultTieBreaks is RULES §10's list.
var DefaultTieBreaks = []Criterion{ByVP, ByMPDiff, ByHeadToHead, ByOpponentsVP, ByLots}

// Valid reports whether c is one of the criteria.
func (c Criterion) Valid() bool {
	switch c {
	case ByVP, ByMPDiff, ByMPFor, ByHeadToHead, ByOpponentsVP, ByLots:
		return true
	}
	return false
}

// Match is one table of one round: entries A and B, their MP and their VP
// (converted by the event's VP table). Left is the entry that abandoned the
// table, 0 when none did.
type Match struct {
	Round int   `json:"round"`
	A     int64 `json:"a"`
	B     int64 `json:"b"`
	MPA   int   `json:"mp_a"`
	MPB   int   `json:"mp_b"`
	VPA   int   `json:"vp_a"`
	VPB   int   `json:"vp_b"`
	Left  int64 `json:"left,omitempty"`
}

// Bye is an entry sitting out a round; it scores the event's rest score.
type Bye struct {
	Round int   `json:"round"`
	Entry int64 `json:"entry"`
}

// Penalty takes VP and/or MP (both given as positive amounts) from an entry,
// for a reason the standings show.
type Penalty struct {
	Round  int    `json:"round,omitempty"`
	Entry  int64  `json:"entry"`
	VP     int    `json:"vp,omitempty"`
	MP     int    `json:"mp,omitempty"`
	Reason string `json:"reason"`
}

// Input is everything the standings are computed from.
type Input struct {
	Entries   []int64
	Matches   []Match
	Byes      []Bye
	Penalties []Penalty
	// Carried is the VP an entry brings from an earlier phase of the event
	// (issue 32: the carry-over, already scaled and rounded); it counts in
	// the entry's VP, and so in its opponents' VP, but is no round: MP,
	// lines and rounds played are the phase's own.
	Carried map[int64]int
}

// Config is the event's settings for the standings.
type Config struct {
	// TieBreaks is the ordered list; nil means DefaultTieBreaks.
	TieBreaks []Criterion
	// RestVP and RestMP are the rest score a bye scores (RULES §10's
	// example: 14 VP, +355 MP).
	RestVP, RestMP int
	// DealsPerRound sets the abandonment cap when AbandonVP is 0.
	DealsPerRound int
	// AbandonVP is the most VP a pair that abandons keeps; 0 means
	// AbandonCap(DealsPerRound).
	AbandonVP int
	// RemainingGetsRest gives the pair left at an abandoned table the rest
	// score (VP and MP) instead of what it scored.
	RemainingGetsRest bool
	// LotsSeed is the seed of the draw of lots, recorded with the standings.
	LotsSeed uint64
}

// AbandonCap is RULES §10's most VP for a pair that abandons: 6 in rounds of
// 2–3 deals, 8 in rounds of 4. Rounds of other lengths (the domain allows 1
// to 8 deals) follow the nearest: 6 below 4 deals, 8 from 4 on.
func AbandonCap(deals int) int {
	if deals >= 4 {
		return 8
	}
	return 6
}

// Line is one round of an entry, as the standings counted it.
type Line struct {
	Round     int   `json:"round"`
	Opponent  int64 `json:"opponent,omitempty"` // 0 for a bye
	MPFor     int   `json:"mp_for"`
	MPAgainst int   `json:"mp_against"`
	VPFor     int   `json:"vp_for"`
	VPAgainst int   `json:"vp_against"`
	Bye       bool  `json:"bye,omitempty"`
	Left      bool  `json:"left,omitempty"`     // this entry abandoned (its VP capped)
	Deserted  bool  `json:"deserted,omitempty"` // the opponent abandoned
}

// Row is one entry's place in the standings.
type Row struct {
	Rank        int       `json:"rank"` // shared by entries tied on every criterion
	Entry       int64     `json:"entry"`
	VP          int       `json:"vp"` // after VP penalties, carried VP included
	CarriedVP   int       `json:"carried_vp,omitempty"`
	MPFor       int       `json:"mp_for"`
	MPAgainst   int       `json:"mp_against"`
	MPDiff      int       `json:"mp_difference"` // after MP penalties
	PenaltyVP   int       `json:"penalty_vp,omitempty"`
	PenaltyMP   int       `json:"penalty_mp,omitempty"`
	Penalties   []Penalty `json:"penalties,omitempty"`
	Played      int       `json:"played"` // rounds scored: at a table, and byes
	Byes        int       `json:"byes"`   // of them, byes
	Opponents   []int64   `json:"opponents,omitempty"`
	OpponentsVP int       `json:"opponents_vp"`
	Lines       []Line    `json:"lines,omitempty"`
	Lot         int       `json:"lot"` // this entry's lot in the recorded draw (1 is best)
	// AheadBy is the criterion that put this row ahead of the next one;
	// empty for the last row and for a row tied with the next.
	AheadBy Criterion `json:"ahead_by,omitempty"`
}

// Table is the standings.
type Table struct {
	Rows      []Row       `json:"rows"`
	TieBreaks []Criterion `json:"tie_breaks"`
	LotsSeed  uint64      `json:"lots_seed"`
}

// Problem is one thing wrong with the input; Code is stable.
type Problem struct {
	Code    string `json:"code"`
	Round   int    `json:"round,omitempty"`
	Entry   int64  `json:"entry,omitempty"`
	Message string `json:"message"`
}

// Problem codes.
const (
	CodeUnknownEntry = "unknown_entry"  // an id not among the entries
	CodeDuplicate    = "duplicate"      // an entry listed twice, or twice in one round
	CodeSelf         = "self"           // an entry against itself
	CodeLeftNotAtTab = "left_not_table" // Left is neither A nor B
	CodeBadRound     = "bad_round"      // a round number below 1
	CodeCriterion    = "bad_criterion"  // a tie-break not known, or listed twice
	CodeNegative     = "negative"       // a negative penalty
)

// Problems is every problem of the input; as an error it lists them all.
type Problems []Problem

func (ps Problems) Error() string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.Message
	}
	return "standings: " + strings.Join(s, "; ")
}

func (ps *Problems) add(code string, round int, entry int64, format string, args ...any) {
	*ps = append(*ps, Problem{Code: code, Round: round, Entry: entry, Message: fmt.Sprintf(format, args...)})
}
