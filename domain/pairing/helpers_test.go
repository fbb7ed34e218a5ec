package pairing

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
)

// field makes n entries with ids 101, 102, … and, when clubs > 0, a club
// each drawn from clubs clubs.
func field(rnd *rand.Rand, n, clubs int) Field {
	f := Field{}
	for i := range n {
		e := Entry{ID: int64(101 + i), Seed: i + 1}
		if clubs > 0 {
			e.Club = fmt.Sprintf("club%d", rnd.IntN(clubs))
		}
		f.Entries = append(f.Entries, e)
	}
	return f
}

// standingsAfter is a random standings order built from random results of
// the rounds played: each table's winner gets a point, a bye one point.
func standingsAfter(rnd *rand.Rand, f Field) []int64 {
	score := map[int64]int{}
	for _, r := range f.History {
		for _, t := range r.Tables {
			if rnd.IntN(2) == 0 {
				score[t.NS] += 2
			} else {
				score[t.EW] += 2
			}
		}
		for _, b := range r.Byes {
			score[b]++
		}
	}
	ids := make([]int64, len(f.Entries))
	for i, e := range f.Entries {
		ids[i] = e.ID
	}
	rnd.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	sort.SliceStable(ids, func(i, j int) bool { return score[ids[i]] > score[ids[j]] })
	return ids
}

// checkOnce fails unless every entry is at exactly one table or has the bye,
// with exactly n mod 2 byes — an independent check, not ValidateRound.
func checkOnce(t *testing.T, f Field, r Round) {
	t.Helper()
	count := map[int64]int{}
	for _, tb := range r.Tables {
		count[tb.NS]++
		count[tb.EW]++
	}
	for _, b := range r.Byes {
		count[b]++
	}
	for _, e := range f.Entries {
		if count[e.ID] != 1 {
			t.Fatalf("entry %d appears %d times in %+v", e.ID, count[e.ID], r)
		}
	}
	if len(count) != len(f.Entries) || len(r.Byes) != len(f.Entries)%2 {
		t.Fatalf("round has %d ids and %d byes for %d entries", len(count), len(r.Byes), len(f.Entries))
	}
}

// forbidden reports whether two ids of the field must not meet.
func forbidden(f Field, a, b int64) bool {
	club := map[int64]string{}
	for _, e := range f.Entries {
		club[e.ID] = e.Club
	}
	if f.ForbidSameClub && club[a] != "" && club[a] == club[b] {
		return true
	}
	for _, p := range f.Forbidden {
		if (p[0] == a && p[1] == b) || (p[0] == b && p[1] == a) {
			return true
		}
	}
	return false
}

func checkNoForbidden(t *testing.T, f Field, r Round) {
	t.Helper()
	for _, tb := range r.Tables {
		if forbidden(f, tb.NS, tb.EW) {
			t.Fatalf("forbidden pair %d–%d meets", tb.NS, tb.EW)
		}
	}
}

// met is the number of times a and b met in the history.
func met(f Field, a, b int64, onlyLast bool) int {
	n := 0
	for i, h := range f.History {
		if onlyLast && i != len(f.History)-1 {
			continue
		}
		for _, tb := range h.Tables {
			if (tb.NS == a && tb.EW == b) || (tb.NS == b && tb.EW == a) {
				n++
			}
		}
	}
	return n
}

// canPair reports, by exhaustive search, whether ids can all be paired with
// ok holding for every pair, leaving out one of byeFrom when the count is
// odd. For small fields only.
func canPair(ids []int64, byeFrom []int64, ok func(a, b int64) bool) bool {
	if len(ids)%2 == 1 {
		for _, b := range byeFrom {
			var rest []int64
			for _, id := range ids {
				if id != b {
					rest = append(rest, id)
				}
			}
			if canPair(rest, nil, ok) {
				return true
			}
		}
		return false
	}
	if len(ids) == 0 {
		return true
	}
	for j := 1; j < len(ids); j++ {
		if !ok(ids[0], ids[j]) {
			continue
		}
		rest := append(append([]int64(nil), ids[1:j]...), ids[j+1:]...)
		if canPair(rest, nil, ok) {
			return true
		}
	}
	return false
}

// fewestByes is the entries with the fewest byes in the history.
func fewestByes(f Field) []int64 {
	byes := map[int64]int{}
	for _, h := range f.History {
		for _, b := range h.Byes {
			byes[b]++
		}
	}
	least := -1
	for _, e := range f.Entries {
		if least < 0 || byes[e.ID] < least {
			least = byes[e.ID]
		}
	}
	var out []int64
	for _, e := range f.Entries {
		if byes[e.ID] == least {
			out = append(out, e.ID)
		}
	}
	return out
}

func idsOf(f Field) []int64 {
	out := make([]int64, len(f.Entries))
	for i, e := range f.Entries {
		out[i] = e.ID
	}
	return out
}
