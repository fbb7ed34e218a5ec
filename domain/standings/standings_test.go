package standings

import (
	"errors"
	"reflect"
	"testing"
)

// ranking is the entries in order, and what separated each from the next.
func ranking(t *testing.T, in Input, cfg Config) ([]int64, []Criterion) {
	t.Helper()
	tab, err := Compute(in, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	var by []Criterion
	for _, r := range tab.Rows {
		ids = append(ids, r.Entry)
		by = append(by, r.AheadBy)
	}
	return ids, by
}

func TestEachTieBreakDecidesATie(t *testing.T) {
	rest := Config{RestVP: 8}
	tests := []struct {
		name  string
		in    Input
		cfg   Config
		order []int64
		by    []Criterion
	}{
		{"VPDecides", Input{Entries: []int64{1, 2}, Matches: []Match{{Round: 1, A: 2, B: 1, MPA: 100, MPB: 300, VPA: 8, VPB: 12}}},
			Config{}, []int64{1, 2}, []Criterion{ByVP, ""}},
		{"MPDifferenceDecides", Input{Entries: []int64{1, 2, 3, 4}, Matches: []Match{
			{Round: 1, A: 1, B: 3, MPA: 300, MPB: 100, VPA: 12, VPB: 8},
			{Round: 1, A: 2, B: 4, MPA: 200, MPB: 100, VPA: 12, VPB: 8}}},
			Config{}, []int64{1, 2, 4, 3}, []Criterion{ByMPDiff, ByVP, ByMPDiff, ""}},
		{"HeadToHeadDecides", Input{Entries: []int64{1, 2, 3, 4}, Matches: []Match{
			{Round: 1, A: 1, B: 2, MPA: 200, MPB: 100, VPA: 11, VPB: 9},
			{Round: 1, A: 3, B: 4, MPA: 150, MPB: 100, VPA: 11, VPB: 9},
			{Round: 2, A: 1, B: 3, MPA: 100, MPB: 200, VPA: 9, VPB: 11},
			{Round: 2, A: 2, B: 4, MPA: 200, MPB: 100, VPA: 11, VPB: 9}}},
			Config{}, []int64{3, 1, 2, 4}, []Criterion{ByVP, ByHeadToHead, ByVP, ""}},
		{"OpponentsVPDecides", Input{Entries: []int64{1, 2, 3, 4}, Matches: []Match{
			{Round: 1, A: 1, B: 3, MPA: 200, MPB: 100, VPA: 12, VPB: 8},
			{Round: 1, A: 2, B: 4, MPA: 200, MPB: 100, VPA: 12, VPB: 8},
			{Round: 2, A: 3, B: 4, MPA: 300, MPB: 100, VPA: 14, VPB: 6}},
			Byes: []Bye{{Round: 2, Entry: 1}, {Round: 2, Entry: 2}}},
			rest, []int64{3, 1, 2, 4}, []Criterion{ByVP, ByOpponentsVP, ByVP, ""}},
		{"MPForDecidesWhenListed", Input{Entries: []int64{1, 2, 3, 4}, Matches: []Match{
			{Round: 1, A: 1, B: 3, MPA: 300, MPB: 200, VPA: 12, VPB: 8},
			{Round: 1, A: 2, B: 4, MPA: 400, MPB: 300, VPA: 12, VPB: 8}}},
			Config{TieBreaks: []Criterion{ByVP, ByMPDiff, ByMPFor}}, []int64{2, 1, 4, 3}, []Criterion{ByMPFor, ByVP, ByMPFor, ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			order, by := ranking(t, tc.in, tc.cfg)
			if !reflect.DeepEqual(order, tc.order) || !reflect.DeepEqual(by, tc.by) {
				t.Fatalf("order %v by %v; want %v by %v", order, by, tc.order, tc.by)
			}
		})
	}
}

// threeWay is entries 1, 2, 3 level on VP (37) and MP difference (+1000)
// after a round robin with 4: 1 beat 2 (13–7), 2 beat 3 (12–8), 3 beat 1
// (11–9), so the mini-table is 1: 22, 2: 19, 3: 19.
func threeWay() Input {
	return Input{Entries: []int64{4, 3, 2, 1}, Matches: []Match{
		{Round: 1, A: 1, B: 2, MPA: 300, MPB: 100, VPA: 13, VPB: 7},
		{Round: 1, A: 3, B: 4, MPA: 1100, MPB: 50, VPA: 18, VPB: 2},
		{Round: 2, A: 1, B: 3, MPA: 100, MPB: 150, VPA: 9, VPB: 11},
		{Round: 2, A: 2, B: 4, MPA: 1200, MPB: 100, VPA: 18, VPB: 2},
		{Round: 3, A: 1, B: 4, MPA: 900, MPB: 50, VPA: 15, VPB: 5},
		{Round: 3, A: 2, B: 3, MPA: 200, MPB: 100, VPA: 12, VPB: 8},
	}}
}

func TestThreeWayTieGoesToTheMiniTableThenAgainBetweenTheTwoStillLevel(t *testing.T) {
	tab, err := Compute(threeWay(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tab.Rows[:3] {
		if r.VP != 37 || r.MPDiff != 1000 {
			t.Fatalf("fixture: %d has %d VP, %+d MP", r.Entry, r.VP, r.MPDiff)
		}
	}
	var order []int64
	var by []Criterion
	for _, r := range tab.Rows {
		order, by = append(order, r.Entry), append(by, r.AheadBy)
	}
	if want := []int64{1, 2, 3, 4}; !reflect.DeepEqual(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	if want := []Criterion{ByHeadToHead, ByHeadToHead, ByVP, ""}; !reflect.DeepEqual(by, want) {
		t.Fatalf("ahead by %v, want %v", by, want)
	}
}

func TestHeadToHeadSeparatesNobodyUnlessAllMetEqually(t *testing.T) {
	in := threeWay()
	in.Matches = in.Matches[:5] // 2 and 3 never met
	tab, err := Compute(in, Config{})
	if err != nil {
		t.Fatal(err)
	}
	s := &state{rows: tab.Rows}
	if got := s.headToHead([]int{0, 1, 2}); len(got) != 0 {
		t.Fatalf("mini-table %v among entries that did not all meet", got)
	}
}

func TestLotsAreReproducibleFromTheSeed(t *testing.T) {
	in := Input{Entries: []int64{5, 6, 7, 8}, Matches: []Match{
		{Round: 1, A: 5, B: 6, MPA: 100, MPB: 100, VPA: 10, VPB: 10},
		{Round: 1, A: 7, B: 8, MPA: 100, MPB: 100, VPA: 10, VPB: 10}}}
	firsts := map[int64]bool{}
	for seed := range uint64(40) {
		cfg := Config{LotsSeed: seed}
		a, by := ranking(t, in, cfg)
		b, _ := ranking(t, in, cfg)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d drew %v then %v", seed, a, b)
		}
		if want := []Criterion{ByLots, ByLots, ByLots, ""}; !reflect.DeepEqual(by, want) {
			t.Fatalf("ahead by %v, want %v", by, want)
		}
		// The input's order does not change the draw.
		rev := in
		rev.Entries = []int64{8, 7, 6, 5}
		if c, _ := ranking(t, rev, cfg); !reflect.DeepEqual(a, c) {
			t.Fatalf("seed %d: %v, reordered input %v", seed, a, c)
		}
		firsts[a[0]] = true
	}
	if len(firsts) != 4 {
		t.Fatalf("over 40 seeds only %v came first", firsts)
	}
}

func TestEntriesTiedOnEveryListedCriterionShareARank(t *testing.T) {
	in := Input{Entries: []int64{1, 2, 3}, Matches: []Match{{Round: 1, A: 1, B: 2, MPA: 100, MPB: 100, VPA: 10, VPB: 10}},
		Byes: []Bye{{Round: 1, Entry: 3}}}
	tab, err := Compute(in, Config{TieBreaks: []Criterion{ByVP, ByMPDiff}, RestVP: 14})
	if err != nil {
		t.Fatal(err)
	}
	var ranks []int
	for _, r := range tab.Rows {
		ranks = append(ranks, r.Rank)
	}
	if !reflect.DeepEqual(ranks, []int{1, 2, 2}) || tab.Rows[1].AheadBy != "" {
		t.Fatalf("ranks %v, rows %+v", ranks, tab.Rows)
	}
}

func TestScoresOfByesAbandonmentsAndPenalties(t *testing.T) {
	tests := []struct {
		name        string
		in          Input
		cfg         Config
		entry       int64
		vp, mpDiff  int
		played, bye int
	}{
		{"ByeScoresTheRestScore", Input{Entries: []int64{1}, Byes: []Bye{{Round: 1, Entry: 1}}},
			Config{RestVP: 14, RestMP: 355}, 1, 14, 355, 1, 1},
		{"LeaverCappedAt6In3DealRounds", abandoned(14, 6), Config{DealsPerRound: 3}, 1, 6, 300, 1, 0},
		{"LeaverCappedAt8In4DealRounds", abandoned(14, 6), Config{DealsPerRound: 4}, 1, 8, 300, 1, 0},
		{"LeaverKeepsLessThanTheCap", abandoned(4, 16), Config{DealsPerRound: 3}, 1, 4, 300, 1, 0},
		{"RemainingKeepsWhatItScored", abandoned(14, 6), Config{DealsPerRound: 3, RestVP: 14, RestMP: 355}, 2, 6, -300, 1, 0},
		{"RemainingGetsTheRestScoreWhenSet", abandoned(14, 6), Config{DealsPerRound: 3, RestVP: 14, RestMP: 355, RemainingGetsRest: true}, 2, 14, 355, 1, 0},
		{"PenaltiesComeOff", Input{Entries: []int64{1, 2}, Matches: []Match{{Round: 1, A: 1, B: 2, MPA: 400, MPB: 100, VPA: 13, VPB: 7}},
			Penalties: []Penalty{{Entry: 1, VP: 2, Reason: "late"}, {Entry: 1, MP: 50, Reason: "slow play"}}}, Config{}, 1, 11, 250, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Compute(tc.in, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range tab.Rows {
				if r.Entry != tc.entry {
					continue
				}
				if r.VP != tc.vp || r.MPDiff != tc.mpDiff || r.Played != tc.played || r.Byes != tc.bye {
					t.Fatalf("row %+v; want %d VP, %+d MP, %d played, %d byes", r, tc.vp, tc.mpDiff, tc.played, tc.bye)
				}
				return
			}
			t.Fatal("entry missing")
		})
	}
}

// abandoned is a table where 1 (leading 400–100) leaves with vp1 VP on the
// sheet, 2 having vp2.
func abandoned(vp1, vp2 int) Input {
	return Input{Entries: []int64{1, 2}, Matches: []Match{{Round: 1, A: 1, B: 2, MPA: 400, MPB: 100, VPA: vp1, VPB: vp2, Left: 1}}}
}

func TestPenaltiesKeepTheirReasons(t *testing.T) {
	in := Input{Entries: []int64{1}, Penalties: []Penalty{{Round: 2, Entry: 1, VP: 1, Reason: "mobile phone"}}}
	tab, err := Compute(in, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r := tab.Rows[0]; r.VP != -1 || r.PenaltyVP != 1 || len(r.Penalties) != 1 || r.Penalties[0].Reason != "mobile phone" {
		t.Fatalf("row %+v", r)
	}
}

func TestBadInputListsEveryProblem(t *testing.T) {
	in := Input{
		Entries: []int64{1, 2, 3, 3},
		Matches: []Match{
			{Round: 1, A: 1, B: 9},
			{Round: 1, A: 2, B: 2},
			{Round: 2, A: 1, B: 2, Left: 3},
			{Round: 0, A: 1, B: 3},
		},
		Byes:      []Bye{{Round: 1, Entry: 1}},
		Penalties: []Penalty{{Entry: 8, VP: 1}, {Entry: 1, VP: -1}},
	}
	_, err := Compute(in, Config{TieBreaks: []Criterion{ByVP, "wins", ByVP}})
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("err = %v", err)
	}
	want := map[string]bool{CodeCriterion: true, CodeDuplicate: true, CodeUnknownEntry: true, CodeSelf: true,
		CodeLeftNotAtTab: true, CodeBadRound: true, CodeNegative: true}
	for _, p := range ps {
		delete(want, p.Code)
	}
	if len(want) != 0 {
		t.Fatalf("missing problems %v in %v", want, ps)
	}
}

// TestPlayedCountsTablesAndByes: played is every round an entry scored, at
// a table or with a bye (the API's "rounds played at a table, and byes");
// byes says how many were byes.
func TestPlayedCountsTablesAndByes(t *testing.T) {
	in := Input{Entries: []int64{1, 2, 3},
		Matches: []Match{{Round: 1, A: 1, B: 2, MPA: 400, MPB: 100, VPA: 13, VPB: 7}, {Round: 2, A: 1, B: 3, MPA: 100, MPB: 400, VPA: 7, VPB: 13},
			{Round: 3, A: 2, B: 3, MPA: 300, MPB: 300, VPA: 10, VPB: 10}},
		Byes: []Bye{{Round: 1, Entry: 3}, {Round: 2, Entry: 2}, {Round: 3, Entry: 1}}}
	tab, err := Compute(in, Config{RestVP: 14, RestMP: 355})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tab.Rows {
		if r.Played != 3 || r.Byes != 1 || len(r.Opponents) != 2 {
			t.Errorf("entry %d: played %d, byes %d, opponents %v; want 3, 1, two opponents", r.Entry, r.Played, r.Byes, r.Opponents)
		}
	}
}
