package pairing

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a round entered by hand. Table is the
// table number it concerns (0 for the round as a whole); Code is stable.
type Problem struct {
	Table   int     `json:"table,omitempty"`
	Entries []int64 `json:"entries,omitempty"`
	Code    string  `json:"code"`
	Message string  `json:"message"`
}

// Problem codes of a manual round.
const (
	ProblemTableNumber = "table_number" // not positive, or used twice
	ProblemSelf        = "self"         // an entry against itself, or twice at one table
	ProblemZero        = "zero_entry"   // an empty seat
	ProblemUnknown     = "unknown"      // an id not in the field
	ProblemTwice       = "twice"        // an entry seated or given a bye more than once
	ProblemMissing     = "missing"      // an entry neither seated nor given a bye
	ProblemByeCount    = "bye_count"    // more byes than the field's size requires
	ProblemByeRepeat   = "bye_repeat"   // a second bye while others have had fewer
	ProblemForbidden   = "forbidden"    // a forbidden pair at one table
)

// Problems is every problem of a round; as an error it lists them all.
type Problems []Problem

func (ps Problems) Error() string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.Message
	}
	return "pairing: invalid round: " + strings.Join(s, "; ")
}

// ValidateRound checks a round of a pairs or team event entered by hand
// (RULES §10, manual override): table numbers positive and distinct, two
// different known entries at each table, every entry exactly once (seated
// or with a bye), byes only as many as an odd field needs (one), a bye not
// to an entry that has had more byes than another who plays, and no
// forbidden pair. Rematches are the referee's call and not a problem. It
// returns every problem, nil when there is none.
func ValidateRound(f Field, r Round) Problems {
	x, err := newIndex(f, 0)
	if err != nil {
		return Problems{{Code: ProblemTwice, Message: err.Error()}}
	}
	v := newRoundCheck(x)
	numbers := map[int]bool{}
	for _, t := range r.Tables {
		v.number(t.Number, numbers)
		v.seats(t.Number, []int64{t.NS, t.EW})
		if i, ok := x.pos[t.NS]; ok {
			if j, ok := x.pos[t.EW]; ok && t.NS != t.EW && x.isForbidden(i, j) {
				v.add(t.Number, []int64{t.NS, t.EW}, ProblemForbidden, "table %d: %d and %d must not meet", t.Number, t.NS, t.EW)
			}
		}
	}
	v.byes(r.Byes, len(x.ids)%2)
	return v.done()
}

// ValidateIndividualRound checks a round of an individual event entered by
// hand, as ValidateRound does, with four distinct players at each table,
// n mod 4 byes, and no forbidden pair at one table.
func ValidateIndividualRound(f IndividualField, r IndividualRound) Problems {
	ix, err := newIndividualIndex(IndividualField{Players: f.Players, History: f.History, Forbidden: f.Forbidden, ForbidSameClub: f.ForbidSameClub})
	if err != nil {
		return Problems{{Code: ProblemTwice, Message: err.Error()}}
	}
	v := newRoundCheck(ix.index)
	numbers := map[int]bool{}
	for _, t := range r.Tables {
		v.number(t.Number, numbers)
		seats := []int64{t.N, t.S, t.E, t.W}
		v.seats(t.Number, seats)
		for i := range seats {
			for j := i + 1; j < len(seats); j++ {
				a, okA := ix.pos[seats[i]]
				b, okB := ix.pos[seats[j]]
				if okA && okB && a != b && ix.isForbidden(a, b) {
					v.add(t.Number, []int64{seats[i], seats[j]}, ProblemForbidden, "table %d: %d and %d must not sit together", t.Number, seats[i], seats[j])
				}
			}
		}
	}
	v.byes(r.Byes, len(ix.ids)%4)
	return v.done()
}

// roundCheck collects the problems of a round.
type roundCheck struct {
	x     *index
	seen  map[int64]int
	bye   map[int64]bool
	probs Problems
}

func newRoundCheck(x *index) *roundCheck {
	return &roundCheck{x: x, seen: map[int64]int{}, bye: map[int64]bool{}}
}

func (v *roundCheck) add(table int, entries []int64, code, format string, args ...any) {
	v.probs = append(v.probs, Problem{Table: table, Entries: entries, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (v *roundCheck) number(n int, used map[int]bool) {
	if n < 1 || used[n] {
		v.add(n, nil, ProblemTableNumber, "table number %d is not positive or is used twice", n)
	}
	used[n] = true
}

func (v *roundCheck) seats(table int, ids []int64) {
	here := map[int64]bool{}
	for _, id := range ids {
		switch {
		case id == 0:
			v.add(table, nil, ProblemZero, "table %d has an empty seat", table)
			continue
		case here[id]:
			v.add(table, []int64{id}, ProblemSelf, "table %d seats %d twice", table, id)
			continue
		}
		here[id] = true
		v.place(table, id)
	}
}

func (v *roundCheck) place(table int, id int64) {
	if _, ok := v.x.pos[id]; !ok {
		v.add(table, []int64{id}, ProblemUnknown, "%d is not an entry of the event", id)
		return
	}
	v.seen[id]++
	if v.seen[id] == 2 {
		v.add(table, []int64{id}, ProblemTwice, "%d is placed more than once", id)
	}
}

func (v *roundCheck) byes(byes []int64, want int) {
	for _, id := range byes {
		v.place(0, id)
		v.bye[id] = true
	}
	if len(byes) > want {
		v.add(0, byes, ProblemByeCount, "%d byes; a field of %d needs %d", len(byes), len(v.x.ids), want)
	}
	fewest := -1 // the fewest byes of an entry that plays this round
	for i, id := range v.x.ids {
		if !v.bye[id] && (fewest < 0 || v.x.byes[i] < fewest) {
			fewest = v.x.byes[i]
		}
	}
	for _, id := range byes {
		if i, ok := v.x.pos[id]; ok && fewest >= 0 && v.x.byes[i] > fewest {
			v.add(0, []int64{id}, ProblemByeRepeat, "%d has had %d byes while others playing have had %d", id, v.x.byes[i], fewest)
		}
	}
}

func (v *roundCheck) done() Problems {
	var missing []int64
	for _, id := range v.x.ids {
		if v.seen[id] == 0 {
			missing = append(missing, id)
		}
	}
	if missing != nil {
		v.add(0, missing, ProblemMissing, "%d entries are neither seated nor given a bye", len(missing))
	}
	return v.probs
}
