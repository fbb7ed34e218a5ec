package standings_test

import (
	"fmt"

	"github.com/burraco/burraco/domain/standings"
)

func Example() {
	in := standings.Input{
		Entries: []int64{1, 2, 3},
		Matches: []standings.Match{
			{Round: 1, A: 1, B: 2, MPA: 620, MPB: 310, VPA: 13, VPB: 7},
			{Round: 2, A: 2, B: 3, MPA: 900, MPB: 250, VPA: 15, VPB: 5},
			{Round: 3, A: 3, B: 1, MPA: 700, MPB: 260, VPA: 14, VPB: 6},
		},
		Byes: []standings.Bye{{Round: 1, Entry: 3}, {Round: 2, Entry: 1}, {Round: 3, Entry: 2}},
	}
	tab, err := standings.Compute(in, standings.Config{RestVP: 14, RestMP: 355, LotsSeed: 7})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tab.Rows {
		fmt.Printf("%d. entry %d  %d VP  %+d MP  ahead by %q\n", r.Rank, r.Entry, r.VP, r.MPDiff, r.AheadBy)
	}
	// Output:
	// 1. entry 2  36 VP  +695 MP  ahead by "vp"
	// 2. entry 1  33 VP  +225 MP  ahead by "mp_difference"
	// 3. entry 3  33 VP  +145 MP  ahead by ""
}
