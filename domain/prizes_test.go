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
