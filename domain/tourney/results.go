package tourney

import (
	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/vp"
)

// koScan reads a knockout table's running totals deal by deal: the number
// of deals after which it is decided (a side at or past the target, the
// totals different; 0 while it is not), and which deals were tie-break
// deals (played while the totals were tied at or past the target).
func koScan(totals [][2]int, target int) (decidedAt int, tieBreak []bool) {
	tieBreak = make([]bool, len(totals))
	var ns, ew int
	for i, t := range totals {
		tieBreak[i] = (ns >= target || ew >= target) && ns == ew
		ns, ew = ns+t[0], ew+t[1]
		if (ns >= target || ew >= target) && ns != ew {
			return i + 1, tieBreak
		}
	}
	return 0, tieBreak
}

func dealTotals(deals []Deal) [][2]int {
	out := make([][2]int, len(deals))
	for i, d := range deals {
		out[i] = [2]int{d.NS.Total, d.EW.Total}
	}
	return out
}

// markTieBreaks sets the tie-break flag of a knockout table's deals.
func (s *State) markTieBreaks(t *table) {
	if s.setup.Movement != Knockout {
		return
	}
	_, tb := koScan(dealTotals(t.deals), s.setup.TargetScore)
	for i := range t.deals {
		t.deals[i].TieBreak = tb[i]
	}
}

// counted reports whether a table's result counts yet: a deal is on its
// sheet, or a ruling decided it.
func (t *table) counted() bool { return len(t.deals) > 0 || t.decided != "" }

// other is the entry facing id at a pairs or teams table.
func (t *table) other(id int64) int64 {
	if id == t.NS {
		return t.EW
	}
	return t.NS
}

func (s *State) result(r *round, t *table) Result {
	res := Result{DecidedBy: t.decided, Left: t.left, Absent: t.absent, Deals: len(t.deals), Final: true}
	for _, d := range t.deals {
		res.MPNS += d.NS.Total
		res.MPEW += d.EW.Total
		if d.Status != DealConfirmed {
			res.Final = false
		}
	}
	if s.setup.Movement == Knockout {
		s.knockoutResult(t, &res)
	} else {
		res.Complete = t.decided != "" || len(t.deals) >= t.planned
		s.tableVP(r, t, &res)
	}
	res.Final = res.Final && res.Complete
	return res
}

// knockoutResult: the winner is decided by the target, or by a ruling (the
// other side of one that left or did not turn up; the higher total at a
// time-out). A table is complete once it has a winner; the winner scores 1
// VP, the loser 0.
func (s *State) knockoutResult(t *table, res *Result) {
	switch t.decided {
	case RulingAbandonment, rulingWithdrawal:
		res.Winner = t.other(t.left)
	case RulingBye:
		res.Winner = t.other(t.absent)
	default:
		at, _ := koScan(dealTotals(t.deals), s.setup.TargetScore)
		if at > 0 || (t.decided == RulingTimeOut && res.MPNS != res.MPEW) {
			res.Winner = map[bool]int64{true: t.NS, false: t.EW}[res.MPNS > res.MPEW]
		}
	}
	res.Complete = res.Winner != 0
	switch res.Winner {
	case t.NS:
		res.VPNS = 1
	case t.EW:
		res.VPEW = 1
	}
}

// tableVP converts a counted table's MP (teams: its match's VP; a bye
// ruling: the rest score to the side present, nothing to the absent).
func (s *State) tableVP(r *round, t *table, res *Result) {
	switch {
	case !t.counted():
	case s.setup.Kind == KindTeams:
		m := s.matchResult(r, t.Match)
		res.VPNS, res.VPEW = m.VPA, m.VPB
	case t.absent != 0:
		if t.absent == t.NS || t.absent == t.N || t.absent == t.S {
			res.VPEW = s.setup.RestVP
		} else {
			res.VPNS = s.setup.RestVP
		}
	default:
		res.VPNS, res.VPEW = s.convert(r, res.MPNS, res.MPEW)
		if s.setup.Kind == KindPairs {
			res.VPNS, res.VPEW = s.abandonedIn(r, t.left, t.NS, res.VPNS, t.EW, res.VPEW)
		}
	}
}

// abandoned is the VP of sides a and b when left abandoned or withdrew
// (RULES §10): the leaver keeps at most the cap, the other keeps what it
// scored or, when the event says so, gets the rest score. With left 0 (or
// not a or b) they are unchanged.
func (s *State) abandoned(left, a int64, vpA int, b int64, vpB int) (int, int) {
	return s.abandonedIn(nil, left, a, vpA, b, vpB)
}

// abandonedIn is abandoned in round r (nil: the set-up's deals), whose
// phase's deals per round set RULES' cap.
func (s *State) abandonedIn(r *round, left, a int64, vpA int, b int64, vpB int) (int, int) {
	switch left {
	case 0:
	case a:
		vpA = min(vpA, s.abandonCap(r))
		if s.setup.RemainingGetsRest {
			vpB = s.setup.RestVP
		}
	case b:
		vpB = min(vpB, s.abandonCap(r))
		if s.setup.RemainingGetsRest {
			vpA = s.setup.RestVP
		}
	}
	return vpA, vpB
}

// abandonCap is the most VP an entry that leaves keeps: the event's, else
// RULES §10's for the round's length.
func (s *State) abandonCap(r *round) int {
	if s.setup.AbandonVP > 0 {
		return s.setup.AbandonVP
	}
	if r != nil {
		return standings.AbandonCap(s.phase(s.phaseOf(r.number)).DealsPerRound)
	}
	return standings.AbandonCap(s.setup.DealsPerRound)
}

// convert is the VP table's conversion; a difference no sheet can produce
// (not a multiple of 5: the sheets are validated) converts to nothing.
func (s *State) convert(r *round, a, b int) (int, int) {
	t := s.setup.VPTable
	if s.phased() {
		t = s.phase(s.phaseOf(r.number)).VPTable
	}
	if t == nil {
		return 0, 0 // validated away: every phase has a table in force
	}
	x, y, err := t.Convert(a, b)
	if err != nil {
		return 0, 0
	}
	return x, y
}

// matchResults is the team matches of a round, in match order.
func (s *State) matchResults(r *round) []MatchResult {
	var out []MatchResult
	for _, t := range r.tables {
		if t.Pair == 1 {
			out = append(out, s.matchResult(r, t.Match))
		}
	}
	return out
}

// matchResult sums a team match's tables and converts the total with the
// team table (vp.ConvertTeam); a team that did not turn up scores nothing,
// the other the rest score.
func (s *State) matchResult(r *round, match int) MatchResult {
	m := MatchResult{Match: match}
	var scores []vp.Score
	counted := false
	for _, t := range r.tables {
		if t.Match != match {
			continue
		}
		m.A, m.B = t.NS, t.EW
		var sc vp.Score
		for _, d := range t.deals {
			sc.A += d.NS.Total
			sc.B += d.EW.Total
		}
		m.MPA, m.MPB = m.MPA+sc.A, m.MPB+sc.B
		scores = append(scores, sc)
		counted = counted || t.counted()
		if t.left != 0 {
			m.Left = t.left
		}
		if t.absent != 0 {
			m.Absent = t.absent
		}
	}
	switch {
	case !counted:
	case m.Absent == m.A:
		m.VPB = s.setup.RestVP
	case m.Absent == m.B:
		m.VPA = s.setup.RestVP
	default:
		if a, b, err := s.setup.VPTable.ConvertTeam(scores); err == nil {
			m.VPA, m.VPB = s.abandoned(m.Left, m.A, a, m.B, b)
		}
	}
	return m
}

func (s *State) matchCounted(r *round, match int) bool {
	for _, t := range r.tables {
		if t.Match == match && t.counted() {
			return true
		}
	}
	return false
}
