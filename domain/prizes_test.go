package domain_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
)

// TestAwardPrizes: overall prizes go first whatever the list's order; a
// category prize goes to entries whose players all have the tag; an entry
// wins once unless the prize is cumulative; a prize with too few
// qualifying entries gives fewer places; an entry without players
// qualifies for no category.
func TestAwardPrizes(t *testing.T) {
	ladies, other := []string{"ladies"}, []string{"over65"}
	field := []domain.PrizeEntry{
		{Entry: 1, Rank: 1, Players: [][]string{ladies, ladies}},
		{Entry: 2, Rank: 2, Players: [][]string{ladies, other}},
		{Entry: 3, Rank: 3, Players: [][]string{ladies, {"ladies", "over65"}}},
		{Entry: 4, Rank: 4},
		{Entry: 5, Rank: 5, Players: [][]string{ladies, ladies}},
	}
	winners := func(awards []domain.PrizeAward) map[string][]int64 {
		out := map[string][]int64{}
		for _, a := range awards {
			out[a.Prize.Name] = []int64{}
			for _, w := range a.Winners {
				out[a.Prize.Name] = append(out[a.Prize.Name], w.Entry)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		prizes []domain.Prize
		want   map[string][]int64
	}{
		{"OverallWinnersSkippedByACategoryPrize", []domain.Prize{{Name: "L", Category: "ladies", Places: 2}, {Name: "O", Places: 1}},
			map[string][]int64{"O": {1}, "L": {3, 5}}},
		{"CumulativePrizeTakesWinnersToo", []domain.Prize{{Name: "O", Places: 1}, {Name: "L", Category: "ladies", Places: 2, Cumulative: true}},
			map[string][]int64{"O": {1}, "L": {1, 3}}},
		{"FewerPlacesWhenFewQualify", []domain.Prize{{Name: "X", Category: "nobody", Places: 3}, {Name: "O", Places: 9}},
			map[string][]int64{"O": {1, 2, 3, 4, 5}, "X": {}}},
		{"EntryWithoutPlayersNeverQualifies", []domain.Prize{{Name: "O", Places: 3}, {Name: "L", Category: "ladies", Places: 5}},
			map[string][]int64{"O": {1, 2, 3}, "L": {5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := domain.AwardPrizes(tc.prizes, field)
			if d := cmp.Diff(tc.want, winners(got)); d != "" {
				t.Fatalf("winners (-want +got):\n%s", d)
			}
			if got[0].Prize.Category != "" {
				t.Fatalf("an overall prize not first: %+v", got[0].Prize)
			}
		})
	}
}

// TestAwardGroupPrizes: the whole field's prizes go first, then the
// groups', then the categories' (within a group when they name one); a
// group prize goes down its group's standings, skipping entries that won;
// a group never seeded gives nobody its prize.
func TestAwardGroupPrizes(t *testing.T) {
	ladies := []string{"ladies"}
	field := []domain.PrizeEntry{
		{Entry: 1, Rank: 1, Players: [][]string{ladies, ladies}}, {Entry: 2, Rank: 2}, {Entry: 3, Rank: 3},
		{Entry: 4, Rank: 4, Players: [][]string{ladies, ladies}}, {Entry: 5, Rank: 5}, {Entry: 6, Rank: 6, Players: [][]string{ladies, ladies}},
	}
	groups := map[string][]domain.PrizeEntry{"A": {field[0], field[3], field[4]}, "B": {field[1], field[2], field[5]}}
	byGroup := func(p domain.Prize) []domain.PrizeEntry { return groups[p.Group] }
	for _, tc := range []struct {
		name   string
		prizes []domain.Prize
		want   map[string][]int64
		order  []string
	}{
		{"GroupPrizesSkipTheOverallWinners", []domain.Prize{{Name: "GA", Group: "A", Places: 2}, {Name: "GB", Group: "B", Places: 1},
			{Name: "O", Places: 2}}, map[string][]int64{"O": {1, 2}, "GA": {4, 5}, "GB": {3}}, []string{"O", "GA", "GB"}},
		{"ACategoryPrizeOfAGroupGoesLast", []domain.Prize{{Name: "LB", Category: "ladies", Group: "B", Places: 1},
			{Name: "GB", Group: "B", Places: 1}}, map[string][]int64{"GB": {2}, "LB": {6}}, []string{"GB", "LB"}},
		{"AGroupNeverSeededGivesNothing", []domain.Prize{{Name: "GC", Group: "C", Places: 2}}, map[string][]int64{"GC": {}}, []string{"GC"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := domain.AwardGroupPrizes(tc.prizes, field, byGroup)
			names := []string{}
			wins := map[string][]int64{}
			for _, a := range got {
				names = append(names, a.Prize.Name)
				wins[a.Prize.Name] = []int64{}
				for _, w := range a.Winners {
					wins[a.Prize.Name] = append(wins[a.Prize.Name], w.Entry)
				}
			}
			if d := cmp.Diff(tc.want, wins); d != "" {
				t.Errorf("winners (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.order, names); d != "" {
				t.Errorf("order (-want +got):\n%s", d)
			}
		})
	}
}
