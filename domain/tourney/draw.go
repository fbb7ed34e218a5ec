package tourney

import (
	"errors"
	"math/bits"
	"sort"

	"github.com/burraco/burraco/domain/pairing"
)

// PlannedRounds is the number of rounds the tournament plays: the set-up's,
// or a knockout's, from its bracket (before the first draw, from the
// entries still in).
func (s *State) PlannedRounds() int {
	if s.setup.Movement == RoundRobin && s.setup.Rounds == 0 {
		n := len(s.order) // the field as it started
		if n == 0 {
			n = len(s.active())
		}
		return roundRobinRounds(n)
	}
	if s.setup.Movement != Knockout {
		return s.setup.Rounds
	}
	size := len(s.active())
	if len(s.rounds) > 0 {
		size = len(s.rounds[0].bracket)
	}
	if size < 2 {
		return 1
	}
	return bits.Len(uint(size - 1)) // ceil(log2(size))
}

// active is the entries still in (not withdrawn), by number.
func (s *State) active() []*Entry {
	var out []*Entry
	for _, e := range s.byNumber() {
		if !e.Withdrawn {
			out = append(out, e)
		}
	}
	return out
}

func (s *State) latest() *round {
	if len(s.rounds) == 0 {
		return nil
	}
	return s.rounds[len(s.rounds)-1]
}

// canDraw refuses the draw of round n unless it is the next one, the one
// before is closed, and the tournament plays it.
func (s *State) canDraw(n int) error {
	if err := s.needStatus("drawing a round", StatusRunning); err != nil {
		return err
	}
	if r := s.latest(); r != nil && r.status != RoundStatusClosed {
		if s.phased() && n == s.phaseFirst(s.phaseOf(n)) && n == r.number+1 {
			return conflict(CodePhaseNotFinal, "phase %d is seeded from the standings of round %d, which is %s: close it first", s.phaseOf(n), r.number, r.status)
		}
		return conflict(CodeRoundOpen, "round %d is %s: close it before the next", r.number, r.status)
	}
	if n != len(s.rounds)+1 {
		return conflict(CodeBadTransition, "the next round is %d, not %d", len(s.rounds)+1, n)
	}
	if n > s.PlannedRounds() {
		return conflict(CodeNoMoreRounds, "the tournament plays %d rounds", s.PlannedRounds())
	}
	if in := len(s.active()); in < s.minEntries() {
		return conflict(CodeNotEnoughEntries, "%d entries are still in; a round needs %d", in, s.minEntries())
	}
	return nil
}

// draw draws round n by the movement on the state as it is (the rounds
// before n drawn, n not).
func (s *State) draw(n int, rnd pairing.Rand) (*RoundDrawn, error) {
	if s.phased() {
		return s.drawPhase(n, nil, rnd)
	}
	if s.setup.Kind == KindIndividual {
		return s.drawIndividual(n, rnd)
	}
	if s.setup.Movement == Knockout {
		return s.drawKnockout(n)
	}
	var r pairing.Round
	var err error
	switch s.setup.Movement {
	case Mitchell:
		r, err = pairing.Mitchell(s.scheduleField(), n, s.setup.MitchellStep)
	case RoundRobin:
		r, err = pairing.RoundRobin(s.scheduleField(), n)
	case Danish:
		r, err = pairing.Danish(s.searchField(n))
	case ModifiedDanish:
		draw := pairing.ModifiedDanish
		if s.setup.AvoidRepeatOpponents {
			draw = pairing.ModifiedDanishAvoidingRepeats
		}
		r, err = draw(s.searchField(n), n == s.PlannedRounds())
	case Random:
		if rnd == nil {
			return nil, errf(KindInvalid, CodeInvalidCommand, "a random draw needs a random source")
		}
		r, err = pairing.RandomDraw(s.searchField(n), rnd)
	}
	if err != nil {
		return nil, pairingErr(err)
	}
	r = s.dropWithdrawn(r)
	return &RoundDrawn{Round: n, Tables: s.layout(r), Byes: r.Byes, Rule: s.drawRule(n)}, nil
}

// Draw rules: what drew a round (RoundView.Rule), so that players and
// directors can tell why two entries meet.
const (
	RuleMitchell     = "mitchell"                   // the fixed Mitchell schedule
	RuleRoundRobin   = "round_robin"                // the fixed round-robin schedule
	RuleDanish       = "danish"                     // pure Danish: by standings, rematches allowed
	RuleRandom       = "random"                     // a random draw avoiding rematches while it can
	RuleKnockout     = "knockout"                   // the bracket
	RuleIndividual   = "individual"                 // partners and tables drawn, repeats avoided while possible
	RuleManual       = "manual"                     // set by the referee (an override)
	RuleModified     = "modified_danish"            // RULES §10: by standings, no rematch of the previous round, older ones allowed
	RuleModifiedLast = "modified_danish_last_round" // RULES §10's last round: pure Danish, rematches included
	// RuleModifiedAvoid is the event's avoid_repeat_opponents: no earlier
	// opponent while possible, then no previous-round one (the last round:
	// then any).
	RuleModifiedAvoid = "modified_danish_avoid_repeats"
)

// drawRule is the rule the movement draws round n by.
func (s *State) drawRule(n int) string {
	if s.phased() {
		k := s.phaseOf(n)
		m := s.phase(k).Movement
		switch {
		case m == ModifiedDanish && s.setup.AvoidRepeatOpponents:
			return RuleModifiedAvoid
		case m == ModifiedDanish && n == s.phaseFirst(k)+s.phase(k).Rounds-1:
			return RuleModifiedLast
		}
		return map[Movement]string{Mitchell: RuleMitchell, RoundRobin: RuleRoundRobin, Danish: RuleDanish,
			ModifiedDanish: RuleModified, Random: RuleRandom}[m]
	}
	switch {
	case s.setup.Kind == KindIndividual:
		return RuleIndividual
	case s.setup.Movement == ModifiedDanish && s.setup.AvoidRepeatOpponents:
		return RuleModifiedAvoid
	case s.setup.Movement == ModifiedDanish && n == s.PlannedRounds():
		return RuleModifiedLast
	}
	return map[Movement]string{Mitchell: RuleMitchell, RoundRobin: RuleRoundRobin, Danish: RuleDanish,
		ModifiedDanish: RuleModified, Random: RuleRandom, Knockout: RuleKnockout}[s.setup.Movement]
}

func pairingErr(err error) error {
	var pe *pairing.Error
	if errors.As(err, &pe) {
		return conflict(CodeUnpairable, "%s", pe.Error())
	}
	return conflict(CodeUnpairable, "%v", err)
}

// scheduleField is the field of the fixed schedules: every entry that
// started, in the start's order, with the forbidden pairs of the start.
func (s *State) scheduleField() pairing.Field {
	f := pairing.Field{Forbidden: s.schedForbidden, ForbidSameClub: s.setup.ForbidSameClub}
	for _, id := range s.order {
		e := s.entries[id-1]
		f.Entries = append(f.Entries, pairing.Entry{ID: e.ID, Club: e.Club, Seed: e.Seed})
	}
	return f
}

// searchField is the field of the searched movements for round n: the
// entries still in, the rounds before n, the standings.
func (s *State) searchField(n int) pairing.Field {
	f := pairing.Field{Forbidden: s.forbidden, ForbidSameClub: s.setup.ForbidSameClub}
	for _, e := range s.active() {
		f.Entries = append(f.Entries, pairing.Entry{ID: e.ID, Club: e.Club, Seed: e.Seed})
	}
	f.History = s.history(n)
	f.Standings = s.rankOrder()
	return f
}

// rankOrder is the entries best first: by the standings once a result is
// in; before, by seed (seeded first) then number.
func (s *State) rankOrder() []int64 {
	st := s.standingsTable()
	// A later phase ranks by the VP carried into it before its first result.
	if st.AfterRound > 0 || s.currentPhase() > 1 {
		out := make([]int64, len(st.Rows))
		for i, r := range st.Rows {
			out[i] = r.Entry
		}
		return out
	}
	es := s.active()
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i].Seed, es[j].Seed
		return a != 0 && (b == 0 || a < b)
	})
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

// history is the rounds before n as the pairing package sees them (a team
// match as one table).
func (s *State) history(n int) []pairing.Round {
	var out []pairing.Round
	for _, r := range s.rounds {
		if r.number >= n {
			break
		}
		pr := pairing.Round{Byes: r.byes}
		for _, t := range r.tables {
			if t.Pair <= 1 {
				pr.Tables = append(pr.Tables, pairing.Table{Number: t.Number, NS: t.NS, EW: t.EW})
			}
		}
		out = append(out, pr)
	}
	return out
}

// dropWithdrawn turns a fixed schedule's tables with a withdrawn entry into
// a bye for the other, and drops withdrawn entries' byes.
func (s *State) dropWithdrawn(r pairing.Round) pairing.Round {
	gone := func(id int64) bool { return s.entries[id-1].Withdrawn }
	out := pairing.Round{}
	for _, t := range r.Tables {
		switch {
		case gone(t.NS) && gone(t.EW):
		case gone(t.NS):
			out.Byes = append(out.Byes, t.EW)
		case gone(t.EW):
			out.Byes = append(out.Byes, t.NS)
		default:
			out.Tables = append(out.Tables, t)
		}
	}
	for _, id := range r.Byes {
		if !gone(id) {
			out.Byes = append(out.Byes, id)
		}
	}
	return out
}

// layout seats a round: a pairs table as it is; a team match as TeamPairs
// tables, pair k of each team at the match's k-th table.
func (s *State) layout(r pairing.Round) []TableLayout {
	var out []TableLayout
	for _, t := range r.Tables {
		if s.setup.Kind != KindTeams {
			out = append(out, TableLayout{Number: t.Number, NS: t.NS, EW: t.EW})
			continue
		}
		for k := 1; k <= s.setup.TeamPairs; k++ {
			out = append(out, TableLayout{Number: (t.Number-1)*s.setup.TeamPairs + k, Match: t.Number, Pair: k, NS: t.NS, EW: t.EW})
		}
	}
	return out
}

func (s *State) drawKnockout(n int) (*RoundDrawn, error) {
	var b pairing.Bracket
	var err error
	if n == 1 {
		var es []pairing.Entry
		for _, e := range s.active() {
			es = append(es, pairing.Entry{ID: e.ID, Seed: e.Seed})
		}
		b, err = pairing.SeedBracket(es)
	} else {
		prev := s.rounds[n-2]
		winners := append([]int64(nil), prev.byes...)
		for _, t := range prev.tables {
			if w := s.result(prev, t).Winner; w != 0 {
				winners = append(winners, w)
			}
		}
		b, err = pairing.Bracket{Slots: prev.bracket}.Advance(winners)
	}
	if err != nil {
		return nil, pairingErr(err)
	}
	if len(b.Slots) < 2 {
		return nil, conflict(CodeNoMoreRounds, "the knockout has its winner")
	}
	r := s.dropWithdrawn(b.Round())
	return &RoundDrawn{Round: n, Tables: s.layout(r), Byes: r.Byes, Bracket: b.Slots, Rule: RuleKnockout}, nil
}

func (s *State) individualField(n int) pairing.IndividualField {
	f := pairing.IndividualField{Forbidden: s.forbidden, ForbidSameClub: s.setup.ForbidSameClub}
	for _, e := range s.active() {
		f.Players = append(f.Players, pairing.Entry{ID: e.ID, Club: e.Club, Seed: e.Seed})
	}
	for _, r := range s.rounds {
		if r.number >= n {
			break
		}
		ir := pairing.IndividualRound{Byes: r.byes}
		for _, t := range r.tables {
			ir.Tables = append(ir.Tables, pairing.Foursome{Number: t.Number, N: t.N, S: t.S, E: t.E, W: t.W})
		}
		f.History = append(f.History, ir)
	}
	return f
}

func (s *State) drawIndividual(n int, rnd pairing.Rand) (*RoundDrawn, error) {
	if rnd == nil {
		return nil, errf(KindInvalid, CodeInvalidCommand, "an individual draw needs a random source")
	}
	r, err := pairing.Individual(s.individualField(n), rnd)
	if err != nil {
		return nil, pairingErr(err)
	}
	return &RoundDrawn{Round: n, Tables: foursomeLayout(r.Tables), Byes: r.Byes, Rule: RuleIndividual}, nil
}

func foursomeLayout(fs []pairing.Foursome) []TableLayout {
	out := make([]TableLayout, len(fs))
	for i, t := range fs {
		out[i] = TableLayout{Number: t.Number, N: t.N, S: t.S, E: t.E, W: t.W}
	}
	return out
}

// seated reports whether the entry sits at the table.
func (t *table) seated(id int64) bool {
	return id != 0 && (t.NS == id || t.EW == id || t.N == id || t.S == id || t.E == id || t.W == id)
}

func (s *State) seated(t *table, id int64) bool { return t.seated(id) }

// checkLayout refuses a layout with unknown entries, bad table numbers, or
// an entry at two places (a team at the tables of one match only).
func (s *State) checkLayout(tables []TableLayout, byes []int64) error {
	numbers := map[int]bool{}
	where := map[int64]int{} // entry → match (or table) it sits at
	place := func(id int64, at int) error {
		if _, err := s.entry(id); err != nil {
			return err
		}
		if prev, ok := where[id]; ok && prev != at {
			return errf(KindInvalid, CodeBadPairings, "entry %d is placed twice", id)
		}
		where[id] = at
		return nil
	}
	for _, t := range tables {
		if t.Number < 1 || numbers[t.Number] {
			return errf(KindInvalid, CodeBadPairings, "table number %d is not positive or is used twice", t.Number)
		}
		numbers[t.Number] = true
		at := t.Number
		if s.setup.Kind == KindTeams {
			at = t.Match
		}
		seats := []int64{t.NS, t.EW}
		if s.setup.Kind == KindIndividual {
			seats = []int64{t.N, t.S, t.E, t.W}
		}
		for i, id := range seats {
			for _, other := range seats[:i] {
				if other == id {
					return errf(KindInvalid, CodeBadPairings, "table %d seats entry %d twice", t.Number, id)
				}
			}
			if err := place(id, at); err != nil {
				return err
			}
		}
	}
	for _, id := range byes {
		if err := place(id, -1); err != nil {
			return err
		}
	}
	return nil
}

// newTables is a drawn layout's tables, their sheets at version seq.
func (s *State) newTables(layout []TableLayout, seq int64, n int) []*table {
	out := make([]*table, len(layout))
	k := s.phaseOf(n)
	planned := s.phase(k).DealsPerRound
	if s.setup.Movement == Knockout {
		planned = 0
	}
	for i, l := range layout {
		l.Group = s.groupOf(k, l.NS)
		out[i] = &table{TableLayout: l, version: seq, planned: planned}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out
}

// roundRobinRounds is the rounds of a complete round robin of n entries:
// everyone meets everyone, an odd field giving each entry one bye.
func roundRobinRounds(n int) int {
	if n < 2 {
		return 1
	}
	if n%2 == 1 {
		return n
	}
	return n - 1
}
