package vp

// The built-in tables, RULES §10, as [from, to, winner] rows; to < 0 marks the
// open-ended last band. The loser has 20 − winner.
var (
	threeDealRows = [][3]int{
		{0, 50, 10}, {55, 150, 11}, {155, 250, 12}, {255, 350, 13}, {355, 500, 14},
		{505, 650, 15}, {655, 800, 16}, {805, 1000, 17}, {1005, 1250, 18},
		{1255, 1500, 19}, {1505, -1, 20},
	}
	// ">2000 20–0": with MP in multiples of 5, the last band starts at 2005.
	fourDealRows = [][3]int{
		{0, 100, 10}, {105, 300, 11}, {305, 500, 12}, {505, 700, 13}, {705, 900, 14},
		{905, 1100, 15}, {1105, 1300, 16}, {1305, 1500, 17}, {1505, 1700, 18},
		{1705, 2000, 19}, {2005, -1, 20},
	}
)

// ThreeDeal is RULES §10's table for 3-deal rounds (a fresh copy).
func ThreeDeal() Table { return fromRows("3-deal", threeDealRows) }

// FourDeal is RULES §10's table for 4-deal rounds (a fresh copy).
func FourDeal() Table { return fromRows("4-deal", fourDealRows) }

// Builtin is the built-in table for rounds of that many deals. RULES has
// none for other counts (2-deal tables are the organiser's): ok is false.
func Builtin(deals int) (t Table, ok bool) {
	switch deals {
	case 3:
		return ThreeDeal(), true
	case 4:
		return FourDeal(), true
	}
	return Table{}, false
}

func fromRows(name string, rows [][3]int) Table {
	t := Table{Name: name, Sum: DefaultSum, Bands: make([]Band, len(rows))}
	for i, r := range rows {
		t.Bands[i] = Band{From: r[0], Winner: r[2], Loser: DefaultSum - r[2]}
		if r[1] >= 0 {
			to := r[1]
			t.Bands[i].To = &to
		}
	}
	return t
}
