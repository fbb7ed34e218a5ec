package vp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Problem is one thing wrong with a table. Band is the index of the band it
// concerns, or -1 for the table as a whole. Code is stable (an API may switch
// on it); Message says what is wrong, for people.
type Problem struct {
	Band    int    `json:"band"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Problem codes.
const (
	CodeEmpty         = "empty"          // no bands
	CodeSum           = "bad_sum"        // the table's sum is not positive and even
	CodeFirstFrom     = "first_from"     // the first band does not start at 0
	CodeNotMultiple   = "not_multiple_5" // an edge is not a multiple of 5
	CodeInverted      = "inverted"       // To below From
	CodeGap           = "gap"            // a band does not start 5 after the previous one ends
	CodeOpenNotLast   = "open_not_last"  // an open-ended band before the last
	CodeClosedLast    = "closed_last"    // the last band has an end: large differences have no VP
	CodeSides         = "sides"          // winner + loser is not the table's sum
	CodeNegative      = "negative"       // a side below 0
	CodeLoserAhead    = "loser_ahead"    // the loser gets more than the winner
	CodeDecreasing    = "decreasing"     // the winner gets less than in the band before
	CodeFirstNotSplit = "first_not_tie"  // the first band is not an even split
)

// Problems is every problem of a table; as an error it lists them all.
type Problems []Problem

func (ps Problems) Error() string {
	s := make([]string, len(ps))
	for i, p := range ps {
		if p.Band < 0 {
			s[i] = p.Message
		} else {
			s[i] = fmt.Sprintf("band %d: %s", p.Band, p.Message)
		}
	}
	return "vp: invalid table: " + strings.Join(s, "; ")
}

// Validate lists every problem of the table, nil when it is sound: bands
// contiguous and complete (from 0, each starting 5 MP after the previous
// ends, the last open-ended), both sides summing to the table's sum in every
// band, the winner never below the loser nor below the winner of the band
// before, and the first band an even split (a tie).
func (t Table) Validate() Problems {
	var ps Problems
	add := func(band int, code, format string, args ...any) {
		ps = append(ps, Problem{Band: band, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	sum := t.sum()
	if sum <= 0 || sum%2 != 0 {
		add(-1, CodeSum, "sum %d must be positive and even (the tie band splits it)", sum)
	}
	if len(t.Bands) == 0 {
		add(-1, CodeEmpty, "no bands")
		return ps
	}
	for i, b := range t.Bands {
		t.checkEdges(i, b, add)
		t.checkSides(i, b, sum, add)
	}
	return ps
}

type addFunc func(band int, code, format string, args ...any)

func (t Table) checkEdges(i int, b Band, add addFunc) {
	last := i == len(t.Bands)-1
	if i == 0 && b.From != 0 {
		add(i, CodeFirstFrom, "starts at %d, not 0", b.From)
	}
	if b.From%Step != 0 {
		add(i, CodeNotMultiple, "from %d is not a multiple of 5", b.From)
	}
	if b.To != nil && *b.To%Step != 0 {
		add(i, CodeNotMultiple, "to %d is not a multiple of 5", *b.To)
	}
	if b.To != nil && *b.To < b.From {
		add(i, CodeInverted, "to %d is below from %d", *b.To, b.From)
	}
	if b.To == nil && !last {
		add(i, CodeOpenNotLast, "open-ended, but %d bands follow", len(t.Bands)-1-i)
	}
	if b.To != nil && last {
		add(i, CodeClosedLast, "the last band ends at %d: differences above it have no VP", *b.To)
	}
	if i > 0 {
		if prev := t.Bands[i-1]; prev.To != nil && b.From != *prev.To+Step {
			add(i, CodeGap, "starts at %d; the band before ends at %d, so it should start at %d", b.From, *prev.To, *prev.To+Step)
		}
	}
}

func (t Table) checkSides(i int, b Band, sum int, add addFunc) {
	if b.Winner+b.Loser != sum {
		add(i, CodeSides, "%d–%d sums to %d, not %d", b.Winner, b.Loser, b.Winner+b.Loser, sum)
	}
	if b.Winner < 0 || b.Loser < 0 {
		add(i, CodeNegative, "%d–%d has a side below 0", b.Winner, b.Loser)
	}
	if b.Loser > b.Winner {
		add(i, CodeLoserAhead, "the loser's %d is more than the winner's %d", b.Loser, b.Winner)
	}
	if i == 0 && b.Winner != b.Loser {
		add(i, CodeFirstNotSplit, "%d–%d is not a tie split", b.Winner, b.Loser)
	}
	if i > 0 && b.Winner < t.Bands[i-1].Winner {
		add(i, CodeDecreasing, "the winner's %d is less than the %d of the band before", b.Winner, t.Bands[i-1].Winner)
	}
}

// Parse reads a table from JSON (unknown fields refused) and validates it.
// A table with problems is returned with them as a Problems error.
func Parse(data []byte) (Table, error) {
	var t Table
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return Table{}, fmt.Errorf("vp: reading table: %w", err)
	}
	if dec.More() {
		return Table{}, fmt.Errorf("vp: reading table: data after the table")
	}
	if ps := t.Validate(); ps != nil {
		return Table{}, ps
	}
	return t, nil
}
