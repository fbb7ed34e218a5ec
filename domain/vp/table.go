package vp

import (
	"errors"
	"fmt"
	"sort"
)

// DefaultSum is what the two sides of every band add up to (RULES §10).
const DefaultSum = 20

// Step is the granularity of match points: every score is a multiple of it.
const Step = 5

// ErrNotMultipleOf5 is returned by Convert for a difference that no score
// sheet can produce.
var ErrNotMultipleOf5 = errors.New("vp: MP difference is not a multiple of 5")

// Band is one row of a VP table: an MP difference from From to To
// (inclusive, both multiples of 5) gives the winner Winner VP and the loser
// Loser VP. To is nil in the last band only, which is open-ended.
type Band struct {
	From   int  `json:"from"`
	To     *int `json:"to,omitempty"`
	Winner int  `json:"winner"`
	Loser  int  `json:"loser"`
}

// Table is a VP conversion table. The zero Sum means DefaultSum. Use
// Validate (or Parse, which validates) before Convert: Convert on an invalid
// table answers, but not meaningfully.
type Table struct {
	Name  string `json:"name,omitempty"`
	Sum   int    `json:"sum,omitempty"`
	Bands []Band `json:"bands"`
}

// sum is the table's side total, DefaultSum unless the organiser set one.
func (t Table) sum() int {
	if t.Sum == 0 {
		return DefaultSum
	}
	return t.Sum
}

// Lookup gives the winner's and the loser's VP for an MP difference (its
// absolute value is used). A difference of 0 gives the first band's tie
// split.
func (t Table) Lookup(diff int) (winner, loser int, err error) {
	if diff < 0 {
		diff = -diff
	}
	if diff%Step != 0 {
		return 0, 0, fmt.Errorf("%w: %d", ErrNotMultipleOf5, diff)
	}
	if len(t.Bands) == 0 {
		return 0, 0, errors.New("vp: empty table")
	}
	// The band is the last one starting at or below diff.
	i := sort.Search(len(t.Bands), func(i int) bool { return t.Bands[i].From > diff }) - 1
	if i < 0 {
		i = 0
	}
	return t.Bands[i].Winner, t.Bands[i].Loser, nil
}

// Convert turns the MP of the two sides of a table over a round into their
// VP: the side with more MP gets the winner's VP of the difference's band,
// the other the loser's; equal MP split the first band.
func (t Table) Convert(mpA, mpB int) (vpA, vpB int, err error) {
	w, l, err := t.Lookup(mpA - mpB)
	if err != nil {
		return 0, 0, err
	}
	if mpA >= mpB {
		return w, l, nil
	}
	return l, w, nil
}

// Score is one table's MP of a team match: side A's pair against side B's.
type Score struct {
	A int `json:"a"`
	B int `json:"b"`
}

// ConvertTeam converts a team match: a team fields pairs at several tables
// (RULES §10), and the organiser's team table converts the sum of the
// tables' MP differences (team A's MP over all its tables minus team B's)
// into the teams' VP. Summing the differences, not the VP of each table, is
// our reading: the team table is what converts, and it is set by the
// organiser for the team's total.
func (t Table) ConvertTeam(tables []Score) (vpA, vpB int, err error) {
	if len(tables) == 0 {
		return 0, 0, errors.New("vp: a team match needs at least one table")
	}
	var a, b int
	for _, s := range tables {
		a += s.A
		b += s.B
	}
	return t.Convert(a, b)
}

// Clone returns a deep copy, so a caller may change it freely.
func (t Table) Clone() Table {
	c := t
	c.Bands = make([]Band, len(t.Bands))
	for i, b := range t.Bands {
		c.Bands[i] = b
		if b.To != nil {
			to := *b.To
			c.Bands[i].To = &to
		}
	}
	return c
}
