package tourney

import (
	"slices"
	"testing"

	"github.com/burraco/burraco/domain/standings"
	"github.com/google/go-cmp/cmp"
)

// phasedSetup is 3 phases: a Mitchell of 3 rounds, a Danish of 2 carrying
// everything, a Danish of 2 rounds of 4 deals in serpentine groups
// carrying half.
func phasedSetup(groups *Grouping) Config {
	c := pairsSetup(Mitchell, 0, 3)
	c.TieBreaks = []standings.Criterion{standings.ByVP, standings.ByMPDiff, standings.ByMPFor, standings.ByLots}
	c.Phases = []Phase{
		{Name: "Mitchell", Movement: Mitchell, Rounds: 3},
		{Name: "Danish", Movement: Danish, Rounds: 2, CarryOver: CarryAll},
		{Name: "Groups", Movement: Danish, Rounds: 2, DealsPerRound: 4, CarryOver: CarryFraction, CarryOverPercent: 50, Groups: groups},
	}
	c.Setup.MirrorPhases()
	return c
}

// playPhaseRound draws (with hand groups when given), starts, plays every
// table to its planned deals and closes round n.
func (h *harness) playPhaseRound(n int, groups [][]int) RoundView {
	h.t.Helper()
	h.do(DrawRound{Round: n, Groups: groups}, referee)
	h.do(StartRound{Round: n}, referee)
	rv, _ := h.s.Round(n)
	for _, tv := range rv.Tables {
		for d := 1; d <= tv.Sheet.PlannedDeals; d++ {
			h.playDeal(n, tv.Number, varied(n, tv, d))
		}
	}
	h.do(CloseRound{Round: n}, referee)
	rv, _ = h.s.Round(n)
	return rv
}

func TestPhasedEventSeedsGroupsAndCarriesVP(t *testing.T) {
	h := newHarness(t, phasedSetup(&Grouping{By: GroupSerpentine, Count: 2}))
	h.register(16)
	h.do(Start{}, referee)
	for n := 1; n <= 5; n++ {
		rv := h.playPhaseRound(n, nil)
		for _, tv := range rv.Tables {
			if tv.Group != "" || tv.Sheet.PlannedDeals != 3 {
				t.Fatalf("round %d table %d: group %q, %d deals; want none, 3", n, tv.Number, tv.Group, tv.Sheet.PlannedDeals)
			}
		}
	}
	before := h.standings() // overall after phase 2: the seeding
	var order []int64
	for _, r := range before.Rows {
		order = append(order, r.Entry)
	}
	rv := h.playPhaseRound(6, nil)
	want := map[string][]int64{}
	for i, id := range order {
		g := []string{"A", "B", "B", "A"}[i%4]
		want[g] = append(want[g], id)
	}
	got := map[string][]int64{}
	for _, g := range h.s.Phases()[2].Groups {
		got[g.Name] = g.Entries
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("serpentine groups (-want +got):\n%s", diff)
	}
	for i, tv := range rv.Tables {
		if tv.Number != i+1 || tv.Sheet.PlannedDeals != 4 {
			t.Errorf("table %d numbered %d with %d deals; want %d, 4", i, tv.Number, tv.Sheet.PlannedDeals, i+1)
		}
		wantGroup := "A"
		if i >= 4 {
			wantGroup = "B"
		}
		if tv.Group != wantGroup || !slices.Contains(want[tv.Group], tv.NS) || !slices.Contains(want[tv.Group], tv.EW) {
			t.Errorf("table %d (group %q) seats %d and %d: not both of group %s", tv.Number, tv.Group, tv.NS, tv.EW, wantGroup)
		}
	}
	h.playPhaseRound(7, nil)
	h.do(Finish{}, director)

	carried := map[int64]int{}
	for _, r := range before.Rows {
		carried[r.Entry] = (r.VP*50 + 50) / 100
	}
	final := h.standings()
	phaseOnly, err := h.s.PhaseStandings(3, "", false)
	if err != nil {
		t.Fatal(err)
	}
	own := map[int64]int{}
	for _, r := range phaseOnly.Rows {
		own[r.Entry] = r.VP
		if r.CarriedVP != 0 || len(r.Lines) != 2 {
			t.Errorf("phase-only row %d: carried %d, %d lines; want 0, 2", r.Entry, r.CarriedVP, len(r.Lines))
		}
	}
	for _, r := range final.Rows {
		if r.CarriedVP != carried[r.Entry] || r.VP != carried[r.Entry]+own[r.Entry] {
			t.Errorf("entry %d: VP %d (carried %d); want %d + %d", r.Entry, r.VP, r.CarriedVP, carried[r.Entry], own[r.Entry])
		}
	}
	for _, g := range []string{"A", "B"} {
		st, err := h.s.PhaseStandings(3, g, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Rows) != 8 {
			t.Fatalf("group %s: %d rows, want 8", g, len(st.Rows))
		}
		for _, r := range st.Rows {
			if !slices.Contains(want[g], r.Entry) || r.VP != carried[r.Entry]+own[r.Entry] {
				t.Errorf("group %s row %d: VP %d, in group %v", g, r.Entry, r.VP, slices.Contains(want[g], r.Entry))
			}
		}
	}
	h.checkReplay()
}

func TestHandGroupsSeatTheDirectorsGroups(t *testing.T) {
	h := newHarness(t, phasedSetup(&Grouping{By: GroupHand, Count: 2}))
	h.register(8)
	h.do(Start{}, referee)
	for n := 1; n <= 5; n++ {
		h.playPhaseRound(n, nil)
	}
	rv := h.playPhaseRound(6, [][]int{{1, 3, 5, 7}, {2, 4, 6, 8}})
	for _, tv := range rv.Tables {
		if (tv.NS%2 == 1) != (tv.Group == "A") || tv.NS%2 != tv.EW%2 {
			t.Errorf("table %d (group %s): %d against %d", tv.Number, tv.Group, tv.NS, tv.EW)
		}
	}
	h.checkReplay()
}

func TestPhaseDrawRefusals(t *testing.T) {
	cases := []struct {
		name    string
		groups  *Grouping
		entries int
		draw    DrawRound
		code    string
		fields  []string
	}{
		{"HandGroupsMissAnEntry", &Grouping{By: GroupHand, Count: 2}, 8, DrawRound{Round: 6, Groups: [][]int{{1, 3, 5}, {2, 4, 6, 8}}}, CodeBadGroups, []string{"groups missing"}},
		{"HandGroupsRepeatAnEntry", &Grouping{By: GroupHand, Count: 2}, 8, DrawRound{Round: 6, Groups: [][]int{{1, 3, 5, 7}, {2, 4, 6, 8, 7}}}, CodeBadGroups, []string{"groups[1][4] duplicate"}},
		{"HandGroupsNameAnUnknownEntry", &Grouping{By: GroupHand, Count: 2}, 8, DrawRound{Round: 6, Groups: [][]int{{1, 3, 5, 7, 9}, {2, 4, 6, 8}}}, CodeBadGroups, []string{"groups[0][4] entry_not_found"}},
		{"HandGroupsOfTheWrongCount", &Grouping{By: GroupHand, Count: 2}, 8, DrawRound{Round: 6, Groups: [][]int{{1, 3}, {5, 7}, {2, 4, 6, 8}}}, CodeBadGroups, []string{"groups count"}},
		{"HandGroupsNotGiven", &Grouping{By: GroupHand, Count: 2}, 8, DrawRound{Round: 6}, CodeBadGroups, []string{"groups required"}},
		{"GroupsWhereTheyAreNotByHand", &Grouping{By: GroupBlocks, Count: 2}, 8, DrawRound{Round: 6, Groups: [][]int{{1, 3, 5, 7}, {2, 4, 6, 8}}}, CodeBadGroups, []string{"groups not_allowed"}},
		{"AGroupTooSmall", &Grouping{By: GroupBlocks, Count: 4}, 6, DrawRound{Round: 6}, CodeGroupTooSmall, nil},
		{"HandGroupTooSmall", &Grouping{By: GroupHand, Count: 2}, 8, DrawRound{Round: 6, Groups: [][]int{{1}, {2, 3, 4, 5, 6, 7, 8}}}, CodeGroupTooSmall, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, phasedSetup(c.groups))
			h.register(c.entries)
			h.do(Start{}, referee)
			for n := 1; n <= 5; n++ {
				h.playPhaseRound(n, nil)
			}
			e := h.refuse(c.draw, referee, c.code)
			if c.fields != nil {
				if diff := cmp.Diff(c.fields, problemSet(e)); diff != "" {
					t.Errorf("problems (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestSeedingBeforeThePreviousRoundIsClosedRefused(t *testing.T) {
	h := newHarness(t, phasedSetup(nil))
	h.register(8)
	h.do(Start{}, referee)
	for n := 1; n <= 2; n++ {
		h.playPhaseRound(n, nil)
	}
	h.do(DrawRound{Round: 3}, referee)
	h.do(StartRound{Round: 3}, referee)
	h.refuse(DrawRound{Round: 4}, referee, CodePhaseNotFinal)
	h.refuse(DrawRound{Round: 4, Groups: [][]int{{1, 2, 3, 4}, {5, 6, 7, 8}}}, referee, CodePhaseNotFinal)
}

func TestGroupsOnARoundThatSeedsNothingRefused(t *testing.T) {
	h := newHarness(t, phasedSetup(&Grouping{By: GroupSerpentine, Count: 2}))
	h.register(8)
	h.do(Start{}, referee)
	h.refuse(DrawRound{Round: 1, Groups: [][]int{{1, 2, 3, 4}, {5, 6, 7, 8}}}, referee, CodeBadGroups)
}

func TestPhaseSetupRefusals(t *testing.T) {
	ok := Phase{Name: "P", Movement: Danish, Rounds: 2}
	with := func(f func(*Phase)) []Phase {
		p := ok
		f(&p)
		return []Phase{ok, p}
	}
	cases := []struct {
		name   string
		phases []Phase
		late   int
		fields []string
	}{
		{"KnockoutPhase", with(func(p *Phase) { p.Movement = Knockout }), 0, []string{"phases[1].movement not_allowed"}},
		{"NoName", with(func(p *Phase) { p.Name = " " }), 0, []string{"phases[1].name required"}},
		{"NoRounds", with(func(p *Phase) { p.Rounds = 0 }), 0, []string{"phases[1].rounds out_of_range"}},
		{"FirstPhaseCarries", []Phase{{Name: "P", Movement: Danish, Rounds: 2, CarryOver: CarryAll}}, 0, []string{"phases[0].carry_over not_allowed"}},
		{"UnknownCarryOver", with(func(p *Phase) { p.CarryOver = "half" }), 0, []string{"phases[1].carry_over invalid"}},
		{"FractionWithoutPercent", with(func(p *Phase) { p.CarryOver = CarryFraction }), 0, []string{"phases[1].carry_over_percent out_of_range"}},
		{"PercentWithoutFraction", with(func(p *Phase) { p.CarryOverPercent = 50 }), 0, []string{"phases[1].carry_over_percent not_allowed"}},
		{"OneGroup", with(func(p *Phase) { p.Groups = &Grouping{By: GroupSerpentine, Count: 1} }), 0, []string{"phases[1].groups.count out_of_range"}},
		{"UnknownGrouping", with(func(p *Phase) { p.Groups = &Grouping{By: "county", Count: 2} }), 0, []string{"phases[1].groups.by invalid"}},
		{"ClubGroupsWithACount", with(func(p *Phase) { p.Groups = &Grouping{By: GroupClub, Count: 2} }), 0, []string{"phases[1].groups.count not_allowed"}},
		{"TwoDealsWithoutAVPTable", with(func(p *Phase) { p.DealsPerRound = 2 }), 0, []string{"phases[1].vp_table required"}},
		{"StepOfADanish", with(func(p *Phase) { p.MitchellStep = 2 }), 0, []string{"phases[1].mitchell_step out_of_range"}},
		{"TooManyRounds", with(func(p *Phase) { p.Rounds = MaxRounds }), 0, []string{"phases out_of_range"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := pairsSetup(Danish, 4, 3)
			cfg.Phases, cfg.LateEntryRound = c.phases, c.late
			cfg.Setup.MirrorPhases()
			_, err := New(cfg)
			e, isErr := err.(*Error)
			if !isErr || e.Code != CodeInvalidSetup {
				t.Fatalf("New: %v, want invalid_setup", err)
			}
			if diff := cmp.Diff(c.fields, problemSet(e)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCarryVPRoundsHalfAwayFromZero(t *testing.T) {
	cases := []struct {
		c           CarryOver
		percent, vp int
		want        int
	}{
		{CarryAll, 0, 131, 131}, {CarryNone, 0, 131, 0}, {CarryFraction, 50, 131, 66}, {CarryFraction, 50, 130, 65},
		{CarryFraction, 33, 10, 3}, {CarryFraction, 25, 2, 1}, {CarryFraction, 50, -3, -2}, {CarryFraction, 50, 0, 0},
	}
	for _, c := range cases {
		if got := CarryVP(c.c, c.percent, c.vp); got != c.want {
			t.Errorf("CarryVP(%s, %d, %d) = %d, want %d", c.c, c.percent, c.vp, got, c.want)
		}
	}
}

// TestGroupsByBlocksAndByClub: blocks cut the standings so far into runs
// (the first group one longer when the field does not divide); club
// groups are one per club by name. A Mitchell in groups seats each group
// on its own, table numbers running on past a group's phantom table.
func TestGroupsByBlocksAndByClub(t *testing.T) {
	cases := []struct {
		name    string
		groups  *Grouping
		move    Movement
		entries int
		sizes   []int
	}{
		{"Blocks", &Grouping{By: GroupBlocks, Count: 2}, Danish, 9, []int{5, 4}},
		{"Club", &Grouping{By: GroupClub}, Danish, 10, []int{2, 2, 2, 2, 2}},
		{"MitchellInBlocks", &Grouping{By: GroupBlocks, Count: 2}, Mitchell, 10, []int{5, 5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := phasedSetup(c.groups)
			cfg.Phases[2].Movement = c.move
			h := newHarness(t, cfg)
			h.register(c.entries)
			h.do(Start{}, referee)
			for n := 1; n <= 5; n++ {
				h.playPhaseRound(n, nil)
			}
			order := h.s.seedOrder()
			rv := h.playPhaseRound(6, nil)
			gs := h.s.Phases()[2].Groups
			var sizes []int
			at := 0
			for i, g := range gs {
				sizes = append(sizes, len(g.Entries))
				if g.Name != GroupName(i) {
					t.Errorf("group %d named %q", i, g.Name)
				}
				for _, id := range g.Entries {
					e, _ := h.s.Entry(id)
					if c.groups.By == GroupClub && e.Club != h.s.entries[g.Entries[0]-1].Club {
						t.Errorf("group %s mixes clubs", g.Name)
					}
					if c.groups.By == GroupBlocks && id != order[at] {
						t.Errorf("group %s: entry %d at seed %d, want %d", g.Name, id, at, order[at])
					}
					at++
				}
			}
			if !slices.Equal(sizes, c.sizes) {
				t.Fatalf("group sizes %v, want %v", sizes, c.sizes)
			}
			seen := map[int]bool{}
			for _, tv := range rv.Tables {
				if seen[tv.Number] {
					t.Errorf("table number %d twice", tv.Number)
				}
				seen[tv.Number] = true
				if h.s.groupOf(3, tv.NS) != tv.Group || h.s.groupOf(3, tv.EW) != tv.Group {
					t.Errorf("table %d (group %s) seats %d and %d", tv.Number, tv.Group, tv.NS, tv.EW)
				}
			}
			h.playPhaseRound(7, nil)
			h.checkReplay()
		})
	}
}
