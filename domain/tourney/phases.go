package tourney

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/burraco/burraco/domain/vp"
)

// Phases (issue 32, docs/PHASES.md): a tournament may be played in phases,
// each with its own movement, rounds, deals per round and VP table. The VP
// at the end of a phase carry over (all, none or a percentage) into the
// next, which is seeded from the standings so far when its first round is
// drawn; a phase may split the field into groups (sections, gironi), each
// drawn, seated and ranked on its own. A set-up without phases is one phase
// of every round: the fold below is then exactly what it was.

// CarryOver is how much of the VP an entry has at the end of a phase the
// next phase starts with.
type CarryOver string

// Carry-overs.
const (
	CarryAll      CarryOver = "all"
	CarryNone     CarryOver = "none"
	CarryFraction CarryOver = "fraction" // Phase.CarryOverPercent of them, rounded half up (CarryVP)
)

// GroupBy is how a phase splits its field into groups.
type GroupBy string

// Ways to make groups.
const (
	GroupSerpentine GroupBy = "serpentine" // by standing: A B C C B A A B C …
	GroupBlocks     GroupBy = "blocks"     // by standing: the first ⌈n/count⌉ to A, the next to B, …
	GroupClub       GroupBy = "club"       // one group per club (by name), entries without a club last
	GroupHand       GroupBy = "hand"       // the director gives them when drawing the phase's first round
	// GroupRegion is one group per region of the players' profiles: the
	// service, which knows the profiles, gives them with the draw of the
	// phase's first round (A, B, … the regions by name, entries without
	// one last), as a director gives hand groups.
	GroupRegion GroupBy = "region"
)

// givenGroups reports whether a way of grouping takes its groups with the
// draw (hand, region) rather than making them from the standings.
func givenGroups(g *Grouping) bool {
	return g != nil && (g.By == GroupHand || g.By == GroupRegion)
}

// GroupsByRegion reports whether drawing (or setting by hand) round n
// seeds a phase whose groups are by region: the caller then gives them.
func (s *State) GroupsByRegion(n int) bool {
	if !s.seeds(n) {
		return false
	}
	g := s.phase(s.phaseOf(n)).Groups
	return g != nil && g.By == GroupRegion
}

// Limits of phases and groups.
const (
	MaxPhases       = 10
	MaxGroups       = 26 // named A..Z
	MaxPhaseName    = 60
	MinGroupEntries = 2
)

// Grouping is how a phase makes its groups: By, and Count groups (not for
// club, where the clubs decide).
type Grouping struct {
	By    GroupBy `json:"by"`
	Count int     `json:"count,omitempty"`
}

// Phase is one phase of a tournament in phases. DealsPerRound 0 means the
// tournament's; VPTable nil the built-in table for the phase's deals;
// MitchellStep 0 means DefaultMitchellStep; CarryOver "" means all (and is
// the only value of the first phase, which carries nothing).
type Phase struct {
	Name             string    `json:"name"`
	Movement         Movement  `json:"movement"`
	Rounds           int       `json:"rounds"`
	MitchellStep     int       `json:"mitchell_step,omitempty"`
	DealsPerRound    int       `json:"deals_per_round,omitempty"`
	VPTable          *vp.Table `json:"vp_table,omitempty"`
	CarryOver        CarryOver `json:"carry_over,omitempty"`
	CarryOverPercent int       `json:"carry_over_percent,omitempty"`
	Groups           *Grouping `json:"groups,omitempty"`
}

// Group is a group of a phase as seeded: its name (A, B, …; "" for the
// whole field of a phase without groups) and its entries in seeded order
// (the order a Mitchell or round robin seats them in).
type Group struct {
	Name    string  `json:"name"`
	Entries []int64 `json:"entries"`
}

// GroupName is the name of the i-th group (from 0): A, B, …
func GroupName(i int) string { return string(rune('A' + i)) }

// CarryVP is the VP a phase with carry-over c (percent for a fraction)
// starts with for an entry that had vp at the end of the phase before:
// a fraction rounds half away from zero to a whole VP (50 % of 131 is 66,
// of −3 is −2), as VP are whole numbers.
func CarryVP(c CarryOver, percent, vp int) int {
	switch c {
	case CarryNone:
		return 0
	case CarryFraction:
		x := vp * percent
		if x < 0 {
			return -((-x + 50) / 100)
		}
		return (x + 50) / 100
	}
	return vp
}

// checkPhases lists every problem of the set-up's phases for a tournament
// of kind playing dealsPerRound deals a round.
func (s Setup) checkPhases(ps *problems, kind string, dealsPerRound int) {
	if len(s.Phases) == 0 {
		return
	}
	if len(s.Phases) > MaxPhases {
		ps.add("phases", PBadCount, "at most %d phases", MaxPhases)
	}
	if kindValid(kind) && kind != KindPairs {
		ps.add("phases", PNotAllowed, "phases are for pairs events")
	}
	total := 0
	for i, p := range s.Phases {
		total += max(p.Rounds, 0)
		p.problems(ps, fmt.Sprintf("phases[%d]", i), i, kind, dealsPerRound)
	}
	if total > MaxRounds {
		ps.add("phases", POutOfRange, "the phases play %d rounds: at most %d", total, MaxRounds)
	}
}

func (p Phase) problems(ps *problems, f string, i int, kind string, dealsPerRound int) {
	if n := utf8.RuneCountInString(strings.TrimSpace(p.Name)); n < 1 || n > MaxPhaseName {
		ps.add(f+".name", PRequired, "a phase has a name of 1 to %d characters", MaxPhaseName)
	}
	switch {
	case p.Movement == "":
		ps.add(f+".movement", PRequired, "movement is required: one of %s", movementList())
	case !p.Movement.Valid():
		ps.add(f+".movement", PInvalid, "movement must be one of %s", movementList())
	case p.Movement == Knockout:
		ps.add(f+".movement", PNotAllowed, "a knockout's bracket is not a phase")
	}
	if p.Rounds < 1 || p.Rounds > MaxRounds {
		ps.add(f+".rounds", POutOfRange, "rounds must be between 1 and %d", MaxRounds)
	}
	if p.MitchellStep != 0 && (p.Movement != Mitchell || p.MitchellStep < 1 || p.MitchellStep > MaxMitchellStep) {
		ps.add(f+".mitchell_step", POutOfRange, "mitchell_step is a Mitchell's, between 1 and %d tables", MaxMitchellStep)
	}
	deals := p.deals(dealsPerRound)
	if deals < MinDealsPerRound || deals > MaxDealsPerRound {
		ps.add(f+".deals_per_round", POutOfRange, "deals per round must be %d to %d", MinDealsPerRound, MaxDealsPerRound)
	} else {
		var sub problems
		Setup{VPTable: p.VPTable}.checkVPTable(&sub, kind, deals)
		for _, q := range sub {
			ps.add(f+"."+q.Field, q.Code, "%s", q.Message)
		}
	}
	p.checkCarry(ps, f, i)
	p.checkGroups(ps, f)
}

func (p Phase) deals(dealsPerRound int) int {
	if p.DealsPerRound == 0 {
		return dealsPerRound
	}
	return p.DealsPerRound
}

func (p Phase) checkCarry(ps *problems, f string, i int) {
	switch {
	case i == 0 && p.CarryOver != "":
		ps.add(f+".carry_over", PNotAllowed, "the first phase has nothing to carry over")
	case p.CarryOver != "" && p.CarryOver != CarryAll && p.CarryOver != CarryNone && p.CarryOver != CarryFraction:
		ps.add(f+".carry_over", PInvalid, "carry_over is all, none or fraction")
	}
	switch {
	case p.CarryOver == CarryFraction && (p.CarryOverPercent < 1 || p.CarryOverPercent > 99):
		ps.add(f+".carry_over_percent", POutOfRange, "carry_over_percent must be 1 to 99")
	case p.CarryOver != CarryFraction && p.CarryOverPercent != 0:
		ps.add(f+".carry_over_percent", PNotAllowed, "carry_over_percent goes with carry_over fraction")
	}
}

func (p Phase) checkGroups(ps *problems, f string) {
	g := p.Groups
	if g == nil {
		return
	}
	switch g.By {
	case GroupSerpentine, GroupBlocks, GroupHand:
		if g.Count < 2 || g.Count > MaxGroups {
			ps.add(f+".groups.count", POutOfRange, "count must be 2 to %d groups", MaxGroups)
		}
	case GroupClub, GroupRegion:
		if g.Count != 0 {
			ps.add(f+".groups.count", PNotAllowed, "groups by %s are one per %s: no count", g.By, g.By)
		}
	default:
		ps.add(f+".groups.by", PInvalid, "by is serpentine, blocks, club, region or hand")
	}
}

// normalizedPhases fills the phases' defaults (deals, step, carry-over,
// VP table in force) and mirrors the first phase into the set-up's own
// movement, step and VP table, the rounds being the phases' total: the
// code that reads the set-up's movement (the start's schedule, late
// entries) then sees the first phase.
func (c *Config) normalizePhases() {
	if len(c.Phases) == 0 {
		return
	}
	phases := make([]Phase, len(c.Phases))
	total := 0
	for i, p := range c.Phases {
		p.Name = strings.TrimSpace(p.Name)
		p.DealsPerRound = p.deals(c.DealsPerRound)
		if p.MitchellStep == 0 {
			p.MitchellStep = DefaultMitchellStep
		}
		if i > 0 && p.CarryOver == "" {
			p.CarryOver = CarryAll
		}
		if t, ok := (Setup{VPTable: p.VPTable}).VPTableInForce(c.Kind, p.DealsPerRound); ok {
			p.VPTable = &t
		}
		if p.Groups != nil {
			g := *p.Groups
			p.Groups = &g
		}
		total += p.Rounds
		phases[i] = p
	}
	c.Phases = phases
	c.Movement, c.MitchellStep, c.Rounds = phases[0].Movement, phases[0].MitchellStep, total
	if phases[0].VPTable != nil {
		t := phases[0].VPTable.Clone()
		c.VPTable = &t
	}
}

// MirrorPhases sets the set-up's own movement, rounds, step and VP table
// from its phases, as the fold reads them (the first phase's; the rounds
// the total), so that what is stored and shown agrees with what is played.
// Without phases it does nothing.
func (s *Setup) MirrorPhases() {
	if len(s.Phases) == 0 {
		return
	}
	first := s.Phases[0]
	total := 0
	for _, p := range s.Phases {
		total += p.Rounds
	}
	s.Movement, s.Rounds = first.Movement, total
	s.MitchellStep = max(first.MitchellStep, DefaultMitchellStep)
	s.VPTable = nil
	if first.VPTable != nil {
		t := first.VPTable.Clone()
		s.VPTable = &t
	}
}

// clonePhases is a deep copy.
func clonePhases(ps []Phase) []Phase {
	if ps == nil {
		return nil
	}
	out := slices.Clone(ps)
	for i := range out {
		if out[i].VPTable != nil {
			t := out[i].VPTable.Clone()
			out[i].VPTable = &t
		}
		if out[i].Groups != nil {
			g := *out[i].Groups
			out[i].Groups = &g
		}
	}
	return out
}

// phased reports whether the tournament is set up in phases.
func (s *State) phased() bool { return len(s.setup.Phases) > 0 }

// phaseCount is the number of phases (1 without phases).
func (s *State) phaseCount() int { return max(len(s.setup.Phases), 1) }

// phase is phase k (from 1), with its defaults; without phases, the one
// phase of the set-up.
func (s *State) phase(k int) Phase {
	if !s.phased() {
		return Phase{Movement: s.setup.Movement, Rounds: s.PlannedRounds(), MitchellStep: s.setup.MitchellStep,
			DealsPerRound: s.setup.DealsPerRound, VPTable: s.setup.VPTable}
	}
	return s.setup.Phases[k-1]
}

// phaseFirst is the first round of phase k.
func (s *State) phaseFirst(k int) int {
	n := 1
	for i := 1; i < k && i <= len(s.setup.Phases); i++ {
		n += s.setup.Phases[i-1].Rounds
	}
	return n
}

// phaseOf is the phase round n belongs to (the last phase past the end).
func (s *State) phaseOf(n int) int {
	if !s.phased() {
		return 1
	}
	last := 0
	for k, p := range s.setup.Phases {
		last += p.Rounds
		if n <= last {
			return k + 1
		}
	}
	return len(s.setup.Phases)
}

// currentPhase is the phase of the latest round drawn (1 before any).
func (s *State) currentPhase() int { return s.phaseOf(max(len(s.rounds), 1)) }

// seeds reports whether drawing round n seeds its phase: the first round
// of a phase after the first, or of a first phase with groups.
func (s *State) seeds(n int) bool {
	if !s.phased() {
		return false
	}
	k := s.phaseOf(n)
	return n == s.phaseFirst(k) && (k > 1 || s.phase(k).Groups != nil)
}

// movementOf is the movement round n is drawn by.
func (s *State) movementOf(n int) Movement { return s.phase(s.phaseOf(n)).Movement }

// groupOf is the group of entry id in phase k ("" without groups).
func (s *State) groupOf(k int, id int64) string {
	for _, g := range s.seatings[k] {
		if slices.Contains(g.Entries, id) {
			return g.Name
		}
	}
	return ""
}

// Phase numbers and groups, read.

// PhaseView is a phase as it stands: its set-up, its rounds, its status
// and its groups once seeded.
type PhaseView struct {
	Number     int     `json:"number"`
	Phase      Phase   `json:"phase"`
	FirstRound int     `json:"first_round"`
	LastRound  int     `json:"last_round"`
	Status     string  `json:"status"`
	Groups     []Group `json:"groups"`
}

// Phase statuses.
const (
	PhasePending = "pending" // no round drawn
	PhasePlaying = "playing"
	PhaseDone    = "done" // every round drawn and closed
)

// Phases is every phase (one, covering every round, without phases).
func (s *State) Phases() []PhaseView {
	out := make([]PhaseView, s.phaseCount())
	for i := range out {
		k := i + 1
		first := s.phaseFirst(k)
		last := first + s.phase(k).Rounds - 1
		if !s.phased() {
			first, last = 1, s.PlannedRounds()
		}
		v := PhaseView{Number: k, Phase: s.phase(k), FirstRound: first, LastRound: last, Status: PhasePending, Groups: []Group{}}
		if v.Phase.VPTable != nil {
			t := v.Phase.VPTable.Clone()
			v.Phase.VPTable = &t
		}
		for _, g := range s.seatings[k] {
			if g.Name != "" {
				v.Groups = append(v.Groups, Group{Name: g.Name, Entries: slices.Clone(g.Entries)})
			}
		}
		if len(s.rounds) >= first {
			v.Status = PhasePlaying
			if last >= 1 && len(s.rounds) >= last && s.rounds[last-1].status == RoundStatusClosed {
				v.Status = PhaseDone
			}
		}
		out[i] = v
	}
	return out
}

// CurrentPhase is the phase of the latest round drawn (1 before any).
func (s *State) CurrentPhase() int { return s.currentPhase() }

// PhaseStandings are the standings of phase k (from 1): overall (the VP
// carried into it counted, and the event's penalties when k is the
// current phase) or the phase's rounds alone; of one group (its entries
// ranked on their group's tables) or, with group "", of the whole field.
// Errors: phase_not_found, group_not_found (no such group in the phase,
// or the phase not yet seeded).
func (s *State) PhaseStandings(k int, group string, overall bool) (Standings, error) {
	if k < 1 || k > s.phaseCount() {
		return Standings{}, notFound(CodePhaseNotFound, "the tournament has %d phases, not %d", s.phaseCount(), k)
	}
	if group != "" && !slices.ContainsFunc(s.seatings[k], func(g Group) bool { return g.Name == group }) {
		return Standings{}, notFound(CodeGroupNotFound, "phase %d has no group %q (yet)", k, group)
	}
	st, err := s.scopedStandings(scope{phase: k, group: group, carry: overall, eventPenalties: overall && k == s.currentPhase()})
	if err != nil {
		return Standings{}, err
	}
	return st.clone(), nil
}

// ScopedStandings are the standings of a phase (Overall: with the VP
// carried into it) of one group ("": the whole field).
type ScopedStandings struct {
	Phase   int    `json:"phase"`
	Group   string `json:"group,omitempty"`
	Overall bool   `json:"overall"`
	Standings
}

// phaseStandingsAll is, for every phase begun, its overall and its own
// standings of the whole field, then each group's overall standings.
func (s *State) phaseStandingsAll() ([]ScopedStandings, error) {
	var out []ScopedStandings
	for k := 1; k <= s.phaseCount() && s.phaseFirst(k) <= len(s.rounds); k++ {
		scopes := []ScopedStandings{{Phase: k, Overall: true}, {Phase: k}}
		for _, g := range s.seatings[k] {
			if g.Name != "" {
				scopes = append(scopes, ScopedStandings{Phase: k, Group: g.Name, Overall: true})
			}
		}
		for _, sc := range scopes {
			st, err := s.PhaseStandings(sc.Phase, sc.Group, sc.Overall)
			if err != nil {
				return nil, err
			}
			sc.Standings = st
			out = append(out, sc)
		}
	}
	return out, nil
}
