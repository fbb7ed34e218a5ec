package tourney

import (
	"fmt"
	"slices"
	"sort"

	"github.com/burraco/burraco/domain/pairing"
)

// drawPhase draws round n of a tournament in phases: the phase's movement
// within each group, the groups seeded first when n is the phase's first
// round (hand: the director's groups, entry numbers). Table numbers
// continue across the groups (A's tables first), so that a table number
// stays the one key of a sheet in a round.
func (s *State) drawPhase(n int, hand [][]int, rnd pairing.Rand) (*RoundDrawn, error) {
	k := s.phaseOf(n)
	ph := s.phase(k)
	groups := s.seatings[k]
	var seeded []Group
	switch {
	case s.seeds(n):
		if hand == nil && givenGroups(ph.Groups) {
			return nil, groupsProblem("groups", PRequired, "phase %d's groups are made by %s: give them when drawing round %d", k, ph.Groups.By, n)
		}
		if hand != nil && !givenGroups(ph.Groups) {
			return nil, groupsProblem("groups", PNotAllowed, "phase %d's groups are not made by hand", k)
		}
		var err error
		if seeded, err = s.seat(k, hand); err != nil {
			return nil, err
		}
		groups = seeded
	case hand != nil:
		return nil, groupsProblem("groups", PNotAllowed, "groups are given only when drawing a phase's first round")
	}
	r, err := s.drawGroups(n, ph, groups, rnd)
	if err != nil {
		return nil, err
	}
	r = s.dropWithdrawn(r)
	return &RoundDrawn{Round: n, Tables: s.layout(r), Byes: r.Byes, Rule: s.drawRule(n), Groups: seeded}, nil
}

// drawGroups draws each group (nil: the whole field as the set-up's first
// phase plays it) and numbers the tables on from the group before.
func (s *State) drawGroups(n int, ph Phase, groups []Group, rnd pairing.Rand) (pairing.Round, error) {
	if groups == nil {
		return s.drawGroup(n, ph, nil, rnd)
	}
	var out pairing.Round
	offset := 0
	for i := range groups {
		r, err := s.drawGroup(n, ph, &groups[i], rnd)
		if err != nil {
			return pairing.Round{}, err
		}
		top := 0
		for _, t := range r.Tables {
			t.Number += offset
			top = max(top, t.Number)
			out.Tables = append(out.Tables, t)
		}
		out.Byes = append(out.Byes, r.Byes...)
		// A Mitchell's phantom table gives a bye, not a number: keep the
		// group's numbers apart all the same.
		offset = max(top, offset+(len(groups[i].Entries)+1)/2)
	}
	return out, nil
}

// drawGroup draws round n of phase ph in group g (nil: the whole field).
func (s *State) drawGroup(n int, ph Phase, g *Group, rnd pairing.Rand) (pairing.Round, error) {
	first := s.phaseFirst(s.phaseOf(n))
	local, last := n-first+1, n == first+ph.Rounds-1
	var r pairing.Round
	var err error
	switch ph.Movement {
	case Mitchell:
		r, err = pairing.Mitchell(s.groupScheduleField(g), local, ph.MitchellStep)
	case RoundRobin:
		r, err = pairing.RoundRobin(s.groupScheduleField(g), local)
	case Danish:
		r, err = pairing.Danish(s.groupSearchField(n, g))
	case ModifiedDanish:
		draw := pairing.ModifiedDanish
		if s.setup.AvoidRepeatOpponents {
			draw = pairing.ModifiedDanishAvoidingRepeats
		}
		r, err = draw(s.groupSearchField(n, g), last)
	case Random:
		if rnd == nil {
			return pairing.Round{}, errf(KindInvalid, CodeInvalidCommand, "a random draw needs a random source")
		}
		r, err = pairing.RandomDraw(s.groupSearchField(n, g), rnd)
	default:
		return pairing.Round{}, conflict(CodeUnpairable, "a phase cannot be drawn by %s", ph.Movement)
	}
	if err != nil {
		return pairing.Round{}, pairingErr(err)
	}
	return r, nil
}

// groupScheduleField is a fixed schedule's field in a group: its entries
// in seeded order, with the forbidden pairs as they are now.
func (s *State) groupScheduleField(g *Group) pairing.Field {
	if g == nil {
		return s.scheduleField()
	}
	f := pairing.Field{Forbidden: s.forbidden, ForbidSameClub: s.setup.ForbidSameClub}
	for _, id := range g.Entries {
		e := s.entries[id-1]
		f.Entries = append(f.Entries, pairing.Entry{ID: e.ID, Club: e.Club, Seed: e.Seed})
	}
	return f
}

// groupSearchField is a searched movement's field in a group: its entries
// still in, every round before n, and the order: the seeded one in the
// phase's first round, the standings after.
func (s *State) groupSearchField(n int, g *Group) pairing.Field {
	f := s.searchField(n)
	if g == nil {
		return f
	}
	f.Entries = slices.DeleteFunc(f.Entries, func(e pairing.Entry) bool { return !slices.Contains(g.Entries, e.ID) })
	if n == s.phaseFirst(s.phaseOf(n)) {
		f.Standings = slices.Clone(g.Entries)
	}
	return f
}

// seat makes phase k's groups: by the phase's way, or hand's (entry
// numbers) when given. Entries are in the order of the standings so far
// (the overall standings at the end of the phase before; in the first
// phase, by seed then number), which is each group's seeded order.
func (s *State) seat(k int, hand [][]int) ([]Group, error) {
	ph := s.phase(k)
	order := s.seedOrder()
	var groups []Group
	switch {
	case ph.Groups == nil:
		groups = []Group{{Name: "", Entries: order}}
	case hand != nil:
		count := ph.Groups.Count
		if ph.Groups.By != GroupHand && ph.Groups.By != GroupSerpentine && ph.Groups.By != GroupBlocks {
			count = min(len(hand), MaxGroups) // one per club or region
		}
		var err error
		if groups, err = s.handGroups(hand, count, order); err != nil {
			return nil, err
		}
	case ph.Groups.By == GroupSerpentine:
		groups = serpentine(order, ph.Groups.Count)
	case ph.Groups.By == GroupBlocks:
		groups = blocks(order, ph.Groups.Count)
	case ph.Groups.By == GroupClub:
		groups = s.byClub(order)
	}
	if err := s.checkGroupSizes(k, ph, groups); err != nil {
		return nil, err
	}
	return groups, nil
}

// seedOrder is the entries still in, best first by the standings so far.
func (s *State) seedOrder() []int64 {
	in := map[int64]bool{}
	for _, e := range s.active() {
		in[e.ID] = true
	}
	var out []int64
	for _, id := range s.rankOrder() {
		if in[id] {
			out = append(out, id)
			delete(in, id)
		}
	}
	for _, e := range s.active() { // not ranked yet: a late entry
		if in[e.ID] {
			out = append(out, e.ID)
		}
	}
	return out
}

func newGroups(count int) []Group {
	gs := make([]Group, count)
	for i := range gs {
		gs[i] = Group{Name: GroupName(i), Entries: []int64{}}
	}
	return gs
}

// serpentine deals the order out A B C C B A A B C …
func serpentine(order []int64, count int) []Group {
	gs := newGroups(count)
	for i, id := range order {
		row, col := i/count, i%count
		if row%2 == 1 {
			col = count - 1 - col
		}
		gs[col].Entries = append(gs[col].Entries, id)
	}
	return gs
}

// blocks cuts the order into count blocks, the first ones one longer when
// the field does not divide.
func blocks(order []int64, count int) []Group {
	gs := newGroups(count)
	size, extra, at := len(order)/count, len(order)%count, 0
	for i := range gs {
		n := size
		if i < extra {
			n++
		}
		gs[i].Entries = append(gs[i].Entries, order[at:at+n]...)
		at += n
	}
	return gs
}

// byClub is one group per club, by club name, entries without a club in a
// last group; each in the order given.
func (s *State) byClub(order []int64) []Group {
	var clubs []string
	for _, id := range order {
		if c := s.entries[id-1].Club; c != "" && !slices.Contains(clubs, c) {
			clubs = append(clubs, c)
		}
	}
	sort.Strings(clubs)
	hasNone := slices.ContainsFunc(order, func(id int64) bool { return s.entries[id-1].Club == "" })
	count := len(clubs)
	if hasNone {
		count++
	}
	gs := newGroups(min(count, MaxGroups))
	for _, id := range order {
		i := len(clubs)
		if c := s.entries[id-1].Club; c != "" {
			i = slices.Index(clubs, c)
		}
		gs[min(i, len(gs)-1)].Entries = append(gs[min(i, len(gs)-1)].Entries, id)
	}
	return gs
}

// handGroups reads the director's groups (entry numbers) against the
// entries still in: every one exactly once, count groups. Each group is in
// the order of the standings so far.
func (s *State) handGroups(hand [][]int, count int, order []int64) ([]Group, error) {
	var ps problems
	if len(hand) != count {
		ps.add("groups", PBadCount, "the phase has %d groups, not %d", count, len(hand))
	}
	byNumber := map[int]*Entry{}
	for _, e := range s.entries {
		byNumber[e.Number] = e
	}
	where := map[int64]int{}
	for i, g := range hand {
		for j, num := range g {
			f := fmt.Sprintf("groups[%d][%d]", i, j)
			e, ok := byNumber[num]
			switch {
			case !ok:
				ps.add(f, CodeEntryNotFound, "no entry has number %d", num)
			case e.Withdrawn:
				ps.add(f, CodeWithdrawn, "entry %d has withdrawn", num)
			case where[e.ID] != 0:
				ps.add(f, PDuplicate, "entry %d is in a group already", num)
			default:
				where[e.ID] = i + 1
			}
		}
	}
	var missing []string
	for _, e := range s.active() {
		if where[e.ID] == 0 {
			missing = append(missing, fmt.Sprint(e.Number))
		}
	}
	if missing != nil {
		ps.add("groups", PMissing, "entries %v are in no group", missing)
	}
	if err := ps.err(CodeBadGroups, "the groups are not valid"); err != nil {
		return nil, err
	}
	gs := newGroups(len(hand))
	for _, id := range order {
		gs[where[id]-1].Entries = append(gs[where[id]-1].Entries, id)
	}
	return gs, nil
}

// checkGroupSizes refuses a group its movement cannot play the phase's
// rounds in: fewer than 2 entries; a Mitchell with a step sharing a
// factor with the group's tables, or more rounds than tables (EW would
// meet NS again); a round robin with more rounds than it has.
func (s *State) checkGroupSizes(k int, ph Phase, groups []Group) error {
	for _, g := range groups {
		n := len(g.Entries)
		tables := (n + 1) / 2
		name := g.Name
		if name == "" {
			name = "the field"
		} else {
			name = "group " + name
		}
		switch {
		case n < MinGroupEntries:
			return conflict(CodeGroupTooSmall, "phase %d: %s has %d entries; a group needs %d", k, name, n, MinGroupEntries)
		case ph.Movement == Mitchell && (gcd(ph.MitchellStep, tables) != 1 || ph.Rounds > tables):
			return conflict(CodeGroupTooSmall, "phase %d: %s has %d tables; a Mitchell of %d rounds, step %d, needs at least as many tables as rounds, sharing no factor with the step",
				k, name, tables, ph.Rounds, ph.MitchellStep)
		case ph.Movement == RoundRobin && ph.Rounds > roundRobinRounds(n):
			return conflict(CodeGroupTooSmall, "phase %d: %s of %d entries plays a round robin of %d rounds at most, not %d", k, name, n, roundRobinRounds(n), ph.Rounds)
		}
	}
	return nil
}

func groupsProblem(field, code, format string, args ...any) error {
	var ps problems
	ps.add(field, code, format, args...)
	return ps.err(CodeBadGroups, "the groups are not valid")
}

// checkSeating is Apply's check of a draw's or override's groups: given
// exactly in a phase's first round, a partition of the entries still in
// named as the phase names them; and every table within one group.
func (s *State) checkSeating(n int, groups []Group, tables []TableLayout) error {
	if !s.seeds(n) {
		if len(groups) > 0 {
			return errf(KindInvalid, CodeBadGroups, "round %d does not seed a phase: it takes no groups", n)
		}
		groups = s.seatings[s.phaseOf(n)]
	} else if err := s.checkPartition(s.phaseOf(n), groups); err != nil {
		return err
	}
	if groups == nil {
		return nil
	}
	in := map[int64]string{}
	for _, g := range groups {
		for _, id := range g.Entries {
			in[id] = g.Name
		}
	}
	for _, t := range tables {
		if in[t.NS] != in[t.EW] {
			return errf(KindInvalid, CodeBadPairings, "table %d seats entries of groups %q and %q", t.Number, in[t.NS], in[t.EW])
		}
	}
	return nil
}

func (s *State) checkPartition(k int, groups []Group) error {
	ph := s.phase(k)
	seen := map[int64]bool{}
	for i, g := range groups {
		want := ""
		if ph.Groups != nil {
			want = GroupName(i)
		}
		if g.Name != want || (ph.Groups == nil && len(groups) != 1) {
			return errf(KindInvalid, CodeBadGroups, "phase %d: group %d is named %q, not %q", k, i+1, g.Name, want)
		}
		for _, id := range g.Entries {
			e, err := s.entry(id)
			if err != nil {
				return err
			}
			if seen[id] || e.Withdrawn {
				return errf(KindInvalid, CodeBadGroups, "phase %d: entry %d is placed twice or has withdrawn", k, id)
			}
			seen[id] = true
		}
	}
	if len(seen) != len(s.active()) || len(groups) == 0 {
		return errf(KindInvalid, CodeBadGroups, "phase %d: the groups hold %d entries, %d are in", k, len(seen), len(s.active()))
	}
	return nil
}

// cloneGroups is a deep copy (nil for none).
func cloneGroups(gs []Group) []Group {
	if len(gs) == 0 {
		return nil
	}
	out := make([]Group, len(gs))
	for i, g := range gs {
		out[i] = Group{Name: g.Name, Entries: slices.Clone(g.Entries)}
	}
	return out
}

// overrideGroups is the groups an override records: in a round that seeds
// its phase, the command's (entry numbers; only where the phase has
// groups), else those the round already has when it is replaced, else the
// phase's own way's; none in any other round.
func (s *State) overrideGroups(c OverridePairings, replaced bool) ([]Group, error) {
	if !s.phased() || !s.seeds(c.Round) {
		if c.Groups != nil {
			return nil, groupsProblem("groups", PNotAllowed, "groups are given only for a phase's first round")
		}
		return nil, nil
	}
	k := s.phaseOf(c.Round)
	ph := s.phase(k)
	switch {
	case c.Groups != nil && ph.Groups == nil:
		return nil, groupsProblem("groups", PNotAllowed, "phase %d has no groups", k)
	case c.Groups != nil:
		groups, err := s.handGroups(c.Groups, min(len(c.Groups), MaxGroups), s.seedOrder())
		if err == nil && ph.Groups.By != GroupClub && ph.Groups.By != GroupRegion && len(c.Groups) != ph.Groups.Count {
			err = groupsProblem("groups", PBadCount, "the phase has %d groups, not %d", ph.Groups.Count, len(c.Groups))
		}
		return groups, err
	case replaced:
		return cloneGroups(s.seatings[k]), nil
	case givenGroups(ph.Groups):
		return nil, groupsProblem("groups", PRequired, "phase %d's groups are made by %s: give them with the pairings", k, ph.Groups.By)
	}
	return s.seat(k, nil)
}
