package pairing

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Entry is one entry of the field: a pair, a team, or (individual events) a
// player. ID is never 0. Club is empty when the entry has none. Seed is its
// seeding number (1 is the strongest; 0 unseeded), used by knockout.
type Entry struct {
	ID   int64  `json:"id"`
	Club string `json:"club,omitempty"`
	Seed int    `json:"seed,omitempty"`
}

// Table is one table of a round of a pairs or team event: NS against EW.
type Table struct {
	Number int   `json:"number"`
	NS     int64 `json:"ns"`
	EW     int64 `json:"ew"`
}

// Round is the tables of a round and the entries that sit it out.
type Round struct {
	Tables []Table `json:"tables"`
	Byes   []int64 `json:"byes,omitempty"`
}

// Field is what a movement pairs: the entries, the rounds already played
// (oldest first), the standings (best first; entries missing from it follow
// in entry order) and the pairs that must not meet.
type Field struct {
	Entries   []Entry
	History   []Round
	Standings []int64
	// Forbidden lists pairs the referee keeps apart.
	Forbidden [][2]int64
	// ForbidSameClub keeps entries of the same club apart.
	ForbidSameClub bool
}

// Rand is the injected random source; *rand.Rand from math/rand/v2 is one.
type Rand interface {
	IntN(n int) int
}

// NewRand is the reproducible random source of a draw: the same seed gives
// the same draw.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Error codes, stable.
const (
	CodeBadField   = "bad_field"      // duplicate or zero entry ids, too few entries
	CodeUnpairable = "unpairable"     // the constraints leave these entries without an opponent
	CodeForbidden  = "forbidden_meet" // a fixed movement puts a forbidden pair together this round
	CodeBadRound   = "bad_round"      // a round number or step the movement cannot play
	CodeBadResult  = "bad_result"     // knockout winners that do not match the round
)

// Error is a pairing failure: a stable Code and the entries it concerns.
type Error struct {
	Code    string
	Entries []int64
	Message string
}

func (e *Error) Error() string {
	if len(e.Entries) == 0 {
		return "pairing: " + e.Message
	}
	ids := make([]string, len(e.Entries))
	for i, id := range e.Entries {
		ids[i] = fmt.Sprint(id)
	}
	return fmt.Sprintf("pairing: %s (entries %s)", e.Message, strings.Join(ids, ", "))
}

func errorf(code string, entries []int64, format string, args ...any) *Error {
	return &Error{Code: code, Entries: entries, Message: fmt.Sprintf(format, args...)}
}

// shuffle permutes s in place (Fisher–Yates).
func shuffle[T any](rnd Rand, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		j := rnd.IntN(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}
