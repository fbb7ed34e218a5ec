package pages_test

// The test's own record of an event in phases, scored through the API
// with directorScoresWinner's fixed deals: from the match points it entered
// it computes every entry's VP by RULES §10's 3-deal table (written out
// here, as the api package's exam test writes it) and the carry-over of
// docs/PHASES.md, to check the standings the console shows against a
// computation that is not the server's.

import (
	"testing"
)

// vp3 is RULES §10's 3-deal VP table: the winner's and the loser's VP of
// a difference in match points.
func vp3(diff int) (winner, loser int) {
	if diff < 0 {
		diff = -diff
	}
	for _, b := range []struct{ to, w int }{{50, 10}, {150, 11}, {250, 12}, {350, 13}, {500, 14}, {650, 15},
		{800, 16}, {1000, 17}, {1250, 18}, {1500, 19}} {
		if diff <= b.to {
			return b.w, 20 - b.w
		}
	}
	return 20, 0
}

// winnerMP are the match points directorScoresWinner enters for a table
// (three deals): the winner's and the loser's.
func winnerMP(big bool) (win, lose int) {
	if big {
		return 3 * 640, 3 * 65
	}
	return 3 * 450, 3 * 320
}

// bookLine is one entry's round as the test scored it.
type bookLine struct {
	phase, vp, mpFor, mpAgainst int
}

// examBook is every line of every entry, by entry id.
type examBook map[int64][]bookLine

// score records round (of phase) as scoreRound entered it.
func (b examBook) score(phase, round int, r apiRound) {
	for _, tb := range r.Tables {
		if len(tb.NS.Entries) == 0 || len(tb.EW.Entries) == 0 {
			continue
		}
		winNS, big := (tb.Number+round)%3 != 0, tb.Number%2 == 0
		win, lose := winnerMP(big)
		vw, vl := vp3(win - lose)
		ns, ew := bookLine{phase, vw, win, lose}, bookLine{phase, vl, lose, win}
		if !winNS {
			ns, ew = bookLine{phase, vl, lose, win}, bookLine{phase, vw, win, lose}
		}
		b[tb.NS.Entries[0].ID] = append(b[tb.NS.Entries[0].ID], ns)
		b[tb.EW.Entries[0].ID] = append(b[tb.EW.Entries[0].ID], ew)
	}
}

// bookTotal is an entry's figures in a phase: the VP carried into it, its
// VP in all (carried included, as the overall scope shows them) and its
// match points' difference.
type bookTotal struct {
	carried, vp, mpDiff int
}

// totals are every entry's figures in phase, overall (with carry: the VP
// carried into the phase, by entry; nil for the phase's rounds alone).
func (b examBook) totals(phase int, carry map[int64]int) map[int64]bookTotal {
	out := map[int64]bookTotal{}
	for e, lines := range b {
		t := bookTotal{carried: carry[e], vp: carry[e]}
		for _, l := range lines {
			if l.phase == phase {
				t.vp += l.vp
				t.mpDiff += l.mpFor - l.mpAgainst
			}
		}
		out[e] = t
	}
	return out
}

// carryInto are the VP carried into the phase after one whose overall
// totals are at: percent of them, rounded half up (docs/PHASES.md).
func carryInto(at map[int64]bookTotal, percent int) map[int64]int {
	out := map[int64]int{}
	for e, t := range at {
		out[e] = roundHalfUp(t.vp, percent)
	}
	return out
}

// checkBookStandings compares the rows the console shows (entry, carried
// VP, VP) with the book's totals: the entries wanted (members), each with
// the book's figures, in an order those figures allow (VP down, then the
// match points' difference down: the set-up's first tie-breaks).
func checkBookStandings(t *testing.T, what string, rows [][3]int64, want map[int64]bookTotal, members []int64) {
	t.Helper()
	if len(rows) != len(members) {
		t.Errorf("%s: the console shows %d rows, want %d", what, len(rows), len(members))
	}
	in := map[int64]bool{}
	for _, m := range members {
		in[m] = true
	}
	for i, r := range rows {
		w, ok := want[r[0]]
		if !ok || !in[r[0]] {
			t.Errorf("%s: row %d is entry %d, not one of the field", what, i+1, r[0])
			continue
		}
		if r[1] != int64(w.carried) || r[2] != int64(w.vp) {
			t.Errorf("%s: entry %d shows %d carried, %d VP; the test computes %d and %d", what, r[0], r[1], r[2], w.carried, w.vp)
		}
		if i == 0 {
			continue
		}
		p := want[rows[i-1][0]]
		if p.vp < w.vp || (p.vp == w.vp && p.mpDiff < w.mpDiff) {
			t.Errorf("%s: entry %d (%d VP, %+d MP) is ranked below entry %d (%d VP, %+d MP)", what, r[0], w.vp, w.mpDiff, rows[i-1][0], p.vp, p.mpDiff)
		}
	}
}
