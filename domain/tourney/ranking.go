package tourney

import (
	"slices"
	"sync"

	"github.com/burraco/burraco/domain/standings"
)

// standingsCache holds the standings computed since the last Apply: reads
// may run concurrently with each other (not with Apply).
type standingsCache struct {
	mu  sync.Mutex
	st  *Standings
	err error
}

// Standings are the standings as they stand (see the Standings type): every
// result counted, the entered deals of tables in play included.
func (s *State) Standings() (Standings, error) {
	st, err := s.standingsCached()
	if err != nil {
		return Standings{}, err
	}
	return st.clone(), nil
}

// standingsTable is the cached standings, empty on an error (which
// Standings reports).
func (s *State) standingsTable() *Standings {
	st, err := s.standingsCached()
	if err != nil {
		return &Standings{}
	}
	return st
}

func (s *State) standingsCached() (*Standings, error) {
	c := s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st == nil && c.err == nil {
		c.st, c.err = s.computeStandings()
	}
	return c.st, c.err
}

func (st *Standings) clone() Standings {
	c := *st
	c.Unsettled = append([]int64(nil), st.Unsettled...)
	c.TieBreaks = append([]standings.Criterion(nil), st.TieBreaks...)
	c.Rows = make([]standings.Row, len(st.Rows))
	for i, r := range st.Rows {
		r.Penalties = append([]standings.Penalty(nil), r.Penalties...)
		r.Opponents = append([]int64(nil), r.Opponents...)
		r.Lines = append([]standings.Line(nil), r.Lines...)
		c.Rows[i] = r
	}
	return c
}

func (s *State) computeStandings() (*Standings, error) {
	return s.scopedStandings(scope{phase: s.currentPhase(), carry: true, eventPenalties: true})
}

// scope is which standings: those of a phase (every round without
// phases), of one group of it ("" for all), with the VP carried into it
// or not, with the event's penalties (those of no round) or not.
type scope struct {
	phase          int
	group          string
	carry          bool
	eventPenalties bool
}

// scopedStandings computes the standings of a scope. A phase's overall
// standings count the VP carried from the overall standings at the end
// of the phase before (without the event's penalties, which count once,
// in the current phase: never scaled nor dropped).
func (s *State) scopedStandings(sc scope) (*Standings, error) {
	ph := s.phase(sc.phase)
	cfg := standings.Config{TieBreaks: s.setup.TieBreaks, RestVP: s.setup.RestVP, RestMP: s.setup.RestMP,
		DealsPerRound: ph.DealsPerRound, AbandonVP: s.setup.AbandonVP,
		RemainingGetsRest: s.setup.RemainingGetsRest, LotsSeed: s.setup.LotsSeed}
	if s.setup.Movement == Knockout {
		cfg.RestVP, cfg.RestMP = 1, 0 // a bye is a round won
	}
	member := s.groupMembers(sc)
	var in standings.Input
	for _, e := range s.entries {
		// An entry that withdrew before its first round never played: it
		// is not ranked.
		if (!e.Withdrawn || e.WithdrawnAfter >= max(e.FirstRound, 1)) && member(e.ID) {
			in.Entries = append(in.Entries, e.ID)
		}
	}
	after, final := 0, true
	for _, r := range s.rounds {
		final = final && r.status == RoundStatusClosed
		if s.phaseOf(r.number) != sc.phase {
			continue
		}
		for _, id := range r.byes {
			if member(id) {
				in.Byes = append(in.Byes, standings.Bye{Round: r.number, Entry: id})
			}
		}
		if s.roundLines(r, &in, cfg, sc.group) {
			after = r.number
		}
	}
	for _, p := range s.penalties {
		counts := (p.Round == 0 && sc.eventPenalties) || (p.Round > 0 && s.phaseOf(p.Round) == sc.phase)
		if counts && member(p.Entry) {
			in.Penalties = append(in.Penalties, p)
		}
	}
	if sc.carry && sc.phase > 1 {
		carried, err := s.carried(sc.phase)
		if err != nil {
			return nil, err
		}
		in.Carried = carried
	}
	tab, err := standings.Compute(in, cfg)
	if err != nil {
		return nil, err
	}
	done := s.status == StatusFinished || s.status == StatusResultsPublished
	var unsettled []int64
	for _, id := range s.unsettled() {
		if member(id) {
			unsettled = append(unsettled, id)
		}
	}
	return &Standings{Provisional: !done || !final, AfterRound: after, Unsettled: unsettled, Table: tab}, nil
}

// carried is the VP each entry starts phase k with: its overall VP at the
// end of phase k−1, by phase k's carry-over.
func (s *State) carried(k int) (map[int64]int, error) {
	prev, err := s.scopedStandings(scope{phase: k - 1, carry: true})
	if err != nil {
		return nil, err
	}
	ph := s.phase(k)
	out := make(map[int64]int, len(prev.Rows))
	for _, r := range prev.Rows {
		out[r.Entry] = CarryVP(ph.CarryOver, ph.CarryOverPercent, r.VP)
	}
	return out, nil
}

// groupMembers reports whether an entry is in the scope's group (every
// entry when the scope has none).
func (s *State) groupMembers(sc scope) func(int64) bool {
	if sc.group == "" {
		return func(int64) bool { return true }
	}
	in := map[int64]bool{}
	for _, g := range s.seatings[sc.phase] {
		if g.Name == sc.group {
			for _, id := range g.Entries {
				in[id] = true
			}
		}
	}
	return func(id int64) bool { return in[id] }
}

// unsettled is the entries, ascending, whose standings count a table that
// is not final (a deal waiting for confirmation, or deals still to play);
// at a team match, both teams when any of its tables is not.
func (s *State) unsettled() []int64 {
	set := map[int64]bool{}
	for _, r := range s.rounds {
		for _, t := range r.tables {
			counted := t.counted()
			if s.setup.Kind == KindTeams {
				counted = s.matchCounted(r, t.Match) // the match counts once any of its tables does
			}
			if !counted || s.result(r, t).Final {
				continue
			}
			for _, id := range []int64{t.NS, t.EW, t.N, t.S, t.E, t.W} {
				if id != 0 {
					set[id] = true
				}
			}
		}
	}
	out := make([]int64, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// roundLines adds a round's results to the input, reporting whether any
// counted.
func (s *State) roundLines(r *round, in *standings.Input, cfg standings.Config, group string) bool {
	any := false
	if s.setup.Kind == KindTeams {
		for _, t := range r.tables {
			if t.Pair == 1 && s.matchCounted(r, t.Match) {
				any = true
				s.matchLine(r, t.Match, in)
			}
		}
		return any
	}
	for _, t := range r.tables {
		if !t.counted() || (group != "" && t.Group != group) {
			continue
		}
		any = true
		switch s.setup.Kind {
		case KindIndividual:
			s.individualLines(r, t, in, cfg)
		default:
			res := s.result(r, t)
			if t.absent != 0 {
				in.Byes = append(in.Byes, standings.Bye{Round: r.number, Entry: t.other(t.absent)})
				continue
			}
			in.Matches = append(in.Matches, standings.Match{Round: r.number, A: t.NS, B: t.EW,
				MPA: res.MPNS, MPB: res.MPEW, VPA: res.VPNS, VPB: res.VPEW, Left: t.left})
		}
	}
	return any
}

func (s *State) matchLine(r *round, match int, in *standings.Input) {
	m := s.matchResult(r, match)
	switch m.Absent {
	case m.A:
		in.Byes = append(in.Byes, standings.Bye{Round: r.number, Entry: m.B})
	case m.B:
		in.Byes = append(in.Byes, standings.Bye{Round: r.number, Entry: m.A})
	default:
		in.Matches = append(in.Matches, standings.Match{Round: r.number, A: m.A, B: m.B,
			MPA: m.MPA, MPB: m.MPB, VPA: m.VPA, VPB: m.VPB, Left: m.Left})
	}
}

// individualLines: each player scores their partnership's result, as a
// line against the opponent across (N against E, S against W). A player
// who did not turn up scores nothing and the other three a bye; a player
// who left keeps at most the abandonment VP, and the other three keep what
// their sides scored, or the rest score when the event says so.
func (s *State) individualLines(r *round, t *table, in *standings.Input, cfg standings.Config) {
	if t.absent != 0 {
		for _, id := range []int64{t.N, t.S, t.E, t.W} {
			if id != t.absent {
				in.Byes = append(in.Byes, standings.Bye{Round: r.number, Entry: id})
			}
		}
		return
	}
	res := s.result(r, t)
	vpNS, vpEW := s.convert(r, res.MPNS, res.MPEW)
	type line struct {
		id          int64
		mpFor, vpts int
	}
	ls := []line{{t.N, res.MPNS, vpNS}, {t.S, res.MPNS, vpNS}, {t.E, res.MPEW, vpEW}, {t.W, res.MPEW, vpEW}}
	if t.left != 0 {
		abandonCap := cfg.AbandonVP
		if abandonCap == 0 {
			abandonCap = standings.AbandonCap(cfg.DealsPerRound)
		}
		for i := range ls {
			switch {
			case ls[i].id == t.left:
				ls[i].vpts = min(ls[i].vpts, abandonCap)
			case cfg.RemainingGetsRest:
				ls[i].mpFor, ls[i].vpts = cfg.RestMP, cfg.RestVP
			}
		}
	}
	for _, p := range [][2]int{{0, 2}, {1, 3}} {
		a, b := ls[p[0]], ls[p[1]]
		in.Matches = append(in.Matches, standings.Match{Round: r.number, A: a.id, B: b.id,
			MPA: a.mpFor, MPB: b.mpFor, VPA: a.vpts, VPB: b.vpts})
	}
}
