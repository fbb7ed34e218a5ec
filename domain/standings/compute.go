package standings

import (
	"math/rand/v2"
	"sort"
)

// Compute is the standings of the input under the config, or every problem
// of the input. Rows come best first.
func Compute(in Input, cfg Config) (Table, error) {
	crits := cfg.TieBreaks
	if crits == nil {
		crits = DefaultTieBreaks
	}
	s := &state{cfg: cfg, crits: crits, pos: make(map[int64]int, len(in.Entries))}
	if ps := s.check(in); ps != nil {
		return Table{}, ps
	}
	s.rows = make([]Row, len(in.Entries))
	for i, id := range in.Entries {
		s.rows[i].Entry = id
	}
	s.count(in)
	s.drawLots()
	order := s.rank()
	t := Table{Rows: make([]Row, len(order)), TieBreaks: append([]Criterion(nil), crits...), LotsSeed: cfg.LotsSeed}
	for p, i := range order {
		t.Rows[p] = s.rows[i]
		t.Rows[p].AheadBy = s.ahead[p]
		t.Rows[p].Rank = p + 1
		if p > 0 && s.ahead[p-1] == "" {
			t.Rows[p].Rank = t.Rows[p-1].Rank
		}
	}
	return t, nil
}

// state is one computation.
type state struct {
	cfg   Config
	crits []Criterion
	pos   map[int64]int
	rows  []Row
	ahead []Criterion // by final position: what separates it from the next
	key   []int       // by row: the value of the criterion being applied
}

// check lists every problem of the input.
func (s *state) check(in Input) Problems {
	var ps Problems
	seen := map[Criterion]bool{}
	for _, c := range s.crits {
		if !c.Valid() || seen[c] {
			ps.add(CodeCriterion, 0, 0, "tie-break %q is not known or is listed twice", c)
		}
		seen[c] = true
	}
	for _, id := range in.Entries {
		if _, dup := s.pos[id]; dup {
			ps.add(CodeDuplicate, 0, id, "entry %d is listed twice", id)
		}
		s.pos[id] = len(s.pos)
	}
	type seat struct {
		round int
		id    int64
	}
	placed := make(map[seat]bool, 2*len(in.Matches)+len(in.Byes))
	place := func(round int, id int64) {
		if _, ok := s.pos[id]; !ok {
			ps.add(CodeUnknownEntry, round, id, "round %d: %d is not an entry", round, id)
		} else if placed[seat{round, id}] {
			ps.add(CodeDuplicate, round, id, "round %d: %d plays or rests twice", round, id)
		}
		placed[seat{round, id}] = true
	}
	for _, m := range in.Matches {
		if m.Round < 1 {
			ps.add(CodeBadRound, m.Round, m.A, "match %d–%d has round %d", m.A, m.B, m.Round)
		}
		if m.A == m.B {
			ps.add(CodeSelf, m.Round, m.A, "round %d: %d against itself", m.Round, m.A)
		}
		if m.Left != 0 && m.Left != m.A && m.Left != m.B {
			ps.add(CodeLeftNotAtTab, m.Round, m.Left, "round %d: %d left a table it did not sit at", m.Round, m.Left)
		}
		place(m.Round, m.A)
		if m.A != m.B {
			place(m.Round, m.B)
		}
	}
	for _, b := range in.Byes {
		if b.Round < 1 {
			ps.add(CodeBadRound, b.Round, b.Entry, "bye of %d has round %d", b.Entry, b.Round)
		}
		place(b.Round, b.Entry)
	}
	for _, p := range in.Penalties {
		if _, ok := s.pos[p.Entry]; !ok {
			ps.add(CodeUnknownEntry, p.Round, p.Entry, "penalty for %d, not an entry", p.Entry)
		}
		if p.VP < 0 || p.MP < 0 {
			ps.add(CodeNegative, p.Round, p.Entry, "penalty of %d VP, %d MP for %d: amounts are positive", p.VP, p.MP, p.Entry)
		}
	}
	return ps
}

// count fills each row's totals, lines, opponents, penalties.
func (s *state) count(in Input) {
	abandonCap := s.cfg.AbandonVP
	if abandonCap == 0 {
		abandonCap = AbandonCap(s.cfg.DealsPerRound)
	}
	s.presize(in)
	for _, m := range in.Matches {
		a := Line{Round: m.Round, Opponent: m.B, MPFor: m.MPA, MPAgainst: m.MPB, VPFor: m.VPA, VPAgainst: m.VPB}
		b := Line{Round: m.Round, Opponent: m.A, MPFor: m.MPB, MPAgainst: m.MPA, VPFor: m.VPB, VPAgainst: m.VPA}
		switch m.Left {
		case m.A:
			s.abandon(&a, &b, abandonCap)
		case m.B:
			s.abandon(&b, &a, abandonCap)
		}
		s.addLine(s.pos[m.A], a)
		s.addLine(s.pos[m.B], b)
	}
	for _, b := range in.Byes {
		s.addLine(s.pos[b.Entry], Line{Round: b.Round, MPFor: s.cfg.RestMP, VPFor: s.cfg.RestVP, Bye: true})
	}
	for _, p := range in.Penalties {
		r := &s.rows[s.pos[p.Entry]]
		r.PenaltyVP += p.VP
		r.PenaltyMP += p.MP
		r.Penalties = append(r.Penalties, p)
	}
	for id, vp := range in.Carried {
		if i, ok := s.pos[id]; ok {
			s.rows[i].CarriedVP = vp
			s.rows[i].VP += vp
		}
	}
	for i := range s.rows {
		r := &s.rows[i]
		sort.SliceStable(r.Lines, func(x, y int) bool { return r.Lines[x].Round < r.Lines[y].Round })
		r.VP -= r.PenaltyVP
		r.MPDiff = r.MPFor - r.MPAgainst - r.PenaltyMP
	}
	for i := range s.rows {
		for _, o := range s.rows[i].Opponents {
			s.rows[i].OpponentsVP += s.rows[s.pos[o]].VP
		}
	}
}

// abandon caps the VP of the pair that left (RULES §10: 6 or 8 VP unless it
// already has less) and, when the event says so, gives the pair left behind
// the rest score; otherwise it keeps what it scored.
func (s *state) abandon(left, stayed *Line, abandonCap int) {
	left.Left, stayed.Deserted = true, true
	left.VPFor = min(left.VPFor, abandonCap)
	if s.cfg.RemainingGetsRest {
		stayed.VPFor, stayed.MPFor, stayed.MPAgainst = s.cfg.RestVP, s.cfg.RestMP, 0
	}
	stayed.VPAgainst = left.VPFor
	left.VPAgainst = stayed.VPFor
}

// presize gives each row room for its lines and opponents.
func (s *state) presize(in Input) {
	lines := make([]int, len(s.rows))
	for _, m := range in.Matches {
		lines[s.pos[m.A]]++
		lines[s.pos[m.B]]++
	}
	for _, b := range in.Byes {
		lines[s.pos[b.Entry]]++
	}
	for i, n := range lines {
		s.rows[i].Lines = make([]Line, 0, n)
		s.rows[i].Opponents = make([]int64, 0, n)
	}
}

// addLine counts a line: a bye is a round the entry scored (the rest
// score), so Played counts it as the API's spec says ("rounds played at a
// table, and byes"); Byes says how many of them were byes.
func (s *state) addLine(i int, l Line) {
	r := &s.rows[i]
	r.Lines = append(r.Lines, l)
	r.VP += l.VPFor
	r.MPFor += l.MPFor
	r.MPAgainst += l.MPAgainst
	r.Played++
	if l.Bye {
		r.Byes++
		return
	}
	r.Opponents = append(r.Opponents, l.Opponent)
}

// drawLots gives every entry its lot: a permutation of 1..n drawn from the
// seed over the entries in id order, so it does not depend on the order of
// the input.
func (s *state) drawLots() {
	idx := make([]int, len(s.rows))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return s.rows[idx[a]].Entry < s.rows[idx[b]].Entry })
	rnd := rand.New(rand.NewPCG(s.cfg.LotsSeed, s.cfg.LotsSeed^0x5851f42d4c957f2d))
	lots := rnd.Perm(len(idx))
	for k, i := range idx {
		s.rows[i].Lot = lots[k] + 1
	}
}
