package pairing_test

import (
	"fmt"

	"github.com/burraco/burraco/domain/pairing"
)

func Example() {
	f := pairing.Field{
		Entries: []pairing.Entry{{ID: 1, Club: "Roma"}, {ID: 2, Club: "Roma"}, {ID: 3}, {ID: 4}, {ID: 5}},
		// Round 1 was 1–3, 2–4, and 5 had the bye.
		History:        []pairing.Round{{Tables: []pairing.Table{{Number: 1, NS: 1, EW: 3}, {Number: 2, NS: 2, EW: 4}}, Byes: []int64{5}}},
		Standings:      []int64{1, 2, 5, 3, 4},
		ForbidSameClub: true,
	}
	r, err := pairing.ModifiedDanish(f, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range r.Tables {
		fmt.Printf("table %d: %d v %d\n", t.Number, t.NS, t.EW)
	}
	fmt.Println("bye:", r.Byes)
	fmt.Println("problems:", len(pairing.ValidateRound(f, r)))
	// Output:
	// table 1: 5 v 1
	// table 2: 3 v 2
	// bye: [4]
	// problems: 0
}
