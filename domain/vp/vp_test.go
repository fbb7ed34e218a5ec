package vp

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

// edgeCase is a difference and the winner's VP it must give.
type edgeCase struct{ diff, winner int }

// edges lists both sides of every band edge of the table given as rows:
// each band's first and last difference, and one past the last band's start.
func edges(rows [][3]int) []edgeCase {
	var cs []edgeCase
	for _, r := range rows {
		cs = append(cs, edgeCase{r[0], r[2]})
		if r[1] >= 0 {
			cs = append(cs, edgeCase{r[1], r[2]})
		} else {
			cs = append(cs, edgeCase{r[0] + 5, r[2]}, edgeCase{100000, r[2]})
		}
	}
	return cs
}

func TestBuiltinGivesRulesVPAtEveryBandEdge(t *testing.T) {
	// Written out from RULES §10 independently of builtin.go's rows.
	want := map[string][]edgeCase{
		"3-deal": {
			{0, 10}, {50, 10}, {55, 11}, {150, 11}, {155, 12}, {250, 12}, {255, 13}, {350, 13},
			{355, 14}, {500, 14}, {505, 15}, {650, 15}, {655, 16}, {800, 16}, {805, 17}, {1000, 17},
			{1005, 18}, {1250, 18}, {1255, 19}, {1500, 19}, {1505, 20}, {1510, 20}, {100000, 20},
		},
		"4-deal": {
			{0, 10}, {100, 10}, {105, 11}, {300, 11}, {305, 12}, {500, 12}, {505, 13}, {700, 13},
			{705, 14}, {900, 14}, {905, 15}, {1100, 15}, {1105, 16}, {1300, 16}, {1305, 17}, {1500, 17},
			{1505, 18}, {1700, 18}, {1705, 19}, {2000, 19}, {2005, 20}, {2010, 20}, {100000, 20},
		},
	}
	tables := map[string]Table{"3-deal": ThreeDeal(), "4-deal": FourDeal()}
	rows := map[string][][3]int{"3-deal": threeDealRows, "4-deal": fourDealRows}
	for name, tab := range tables {
		if ps := tab.Validate(); ps != nil {
			t.Fatalf("%s: built-in table invalid: %v", name, ps)
		}
		if got, w := fmt.Sprint(edges(rows[name])), fmt.Sprint(want[name]); got != w {
			t.Fatalf("%s: rows differ from RULES §10:\n got %s\nwant %s", name, got, w)
		}
		for _, c := range want[name] {
			t.Run(fmt.Sprintf("%s/diff%d_gives%d", name, c.diff, c.winner), func(t *testing.T) {
				a, b, err := tab.Convert(c.diff, 0)
				if err != nil || a != c.winner || b != 20-c.winner {
					t.Fatalf("Convert(%d, 0) = %d, %d, %v; want %d, %d", c.diff, a, b, err, c.winner, 20-c.winner)
				}
				// The same difference from negative totals.
				a, b, err = tab.Convert(-500, -500-c.diff)
				if err != nil || a != c.winner || b != 20-c.winner {
					t.Fatalf("Convert(-500, %d) = %d, %d, %v", -500-c.diff, a, b, err)
				}
			})
		}
	}
}

func TestConvertIsSymmetric(t *testing.T) {
	for _, tab := range []Table{ThreeDeal(), FourDeal()} {
		for a := -300; a <= 2500; a += 35 {
			for b := -300; b <= 2500; b += 65 {
				x, y, err := tab.Convert(a, b)
				y2, x2, err2 := tab.Convert(b, a)
				if err != nil || err2 != nil || x != x2 || y != y2 || x+y != 20 {
					t.Fatalf("%s: Convert(%d,%d)=%d,%d Convert(%d,%d)=%d,%d", tab.Name, a, b, x, y, b, a, y2, x2)
				}
				if (a > b && x < y) || (a < b && x > y) || (a == b && x != y) {
					t.Fatalf("%s: Convert(%d,%d)=%d,%d favours the wrong side", tab.Name, a, b, x, y)
				}
			}
		}
	}
}

func TestConvertRefusesDifferenceNotMultipleOf5(t *testing.T) {
	for _, d := range []int{1, 4, 52, 1503, -7} {
		if _, _, err := ThreeDeal().Convert(d, 0); !errors.Is(err, ErrNotMultipleOf5) {
			t.Errorf("Convert(%d, 0) err = %v, want ErrNotMultipleOf5", d, err)
		}
	}
}

func TestConvertTeamSumsTheTablesDifferences(t *testing.T) {
	team := ThreeDeal() // stands in for an organiser's team table
	tests := []struct {
		name   string
		tables []Score
		a, b   int
	}{
		{"TeamAWinsOnTotal", []Score{{600, 100}, {200, 400}}, 13, 7}, // +500 −200 = +300: 255–350
		{"TeamBWinsOnTotal", []Score{{100, 600}, {400, 200}}, 7, 13},
		{"EvenTotalIsATie", []Score{{300, 100}, {100, 300}}, 10, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b, err := team.ConvertTeam(tc.tables)
			if err != nil || a != tc.a || b != tc.b {
				t.Fatalf("ConvertTeam = %d, %d, %v; want %d, %d", a, b, err, tc.a, tc.b)
			}
		})
	}
	t.Run("NoTablesRefused", func(t *testing.T) {
		if _, _, err := team.ConvertTeam(nil); err == nil {
			t.Fatal("no error")
		}
	})
}

func ip(n int) *int { return &n }

func TestValidateListsEveryProblemOfABadTable(t *testing.T) {
	good := func() Table {
		return Table{Bands: []Band{
			{From: 0, To: ip(50), Winner: 10, Loser: 10},
			{From: 55, To: ip(150), Winner: 12, Loser: 8},
			{From: 155, Winner: 20, Loser: 0},
		}}
	}
	tests := []struct {
		name  string
		edit  func(*Table)
		codes map[int]string // band → code expected among the problems
	}{
		{"EmptyRefused", func(t *Table) { t.Bands = nil }, map[int]string{-1: CodeEmpty}},
		{"OddSumRefused", func(t *Table) { t.Sum = 21 }, map[int]string{-1: CodeSum}},
		{"FirstNotFromZeroRefused", func(t *Table) { t.Bands[0].From = 5 }, map[int]string{0: CodeFirstFrom}},
		{"EdgeNotMultipleOf5Refused", func(t *Table) { t.Bands[1].To = ip(151); t.Bands[2].From = 156 }, map[int]string{1: CodeNotMultiple, 2: CodeNotMultiple}},
		{"GapRefused", func(t *Table) { t.Bands[1].From = 60 }, map[int]string{1: CodeGap}},
		{"OverlapRefused", func(t *Table) { t.Bands[2].From = 150 }, map[int]string{2: CodeGap}},
		{"InvertedRefused", func(t *Table) { t.Bands[1].To = ip(50) }, map[int]string{1: CodeInverted, 2: CodeGap}},
		{"OpenBandBeforeLastRefused", func(t *Table) { t.Bands[1].To = nil }, map[int]string{1: CodeOpenNotLast}},
		{"ClosedLastBandRefused", func(t *Table) { t.Bands[2].To = ip(5000) }, map[int]string{2: CodeClosedLast}},
		{"SidesNot20Refused", func(t *Table) { t.Bands[1].Loser = 9 }, map[int]string{1: CodeSides}},
		{"NegativeSideRefused", func(t *Table) { t.Bands[2] = Band{From: 155, Winner: 21, Loser: -1} }, map[int]string{2: CodeNegative}},
		{"LoserAheadRefused", func(t *Table) { t.Bands[1].Winner, t.Bands[1].Loser = 8, 12 }, map[int]string{1: CodeLoserAhead}},
		{"DecreasingWinnerRefused", func(t *Table) { t.Bands[2].Winner, t.Bands[2].Loser = 11, 9 }, map[int]string{2: CodeDecreasing}},
		{"FirstBandNotTieRefused", func(t *Table) { t.Bands[0].Winner, t.Bands[0].Loser = 11, 9 }, map[int]string{0: CodeFirstNotSplit}},
		{"SeveralProblemsAllListed", func(t *Table) { t.Bands[0].From = 5; t.Bands[1].Loser = 9; t.Bands[2].To = ip(999) },
			map[int]string{0: CodeFirstFrom, 1: CodeSides, 2: CodeClosedLast}},
	}
	if ps := good().Validate(); ps != nil {
		t.Fatalf("good table: %v", ps)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab := good()
			tc.edit(&tab)
			ps := tab.Validate()
			for band, code := range tc.codes {
				found := false
				for _, p := range ps {
					found = found || (p.Band == band && p.Code == code)
				}
				if !found {
					t.Errorf("no %s problem on band %d in %v", code, band, ps)
				}
			}
			data, _ := json.Marshal(tab)
			if _, err := Parse(data); !errors.As(err, new(Problems)) {
				t.Errorf("Parse accepted it: %v", err)
			}
		})
	}
}

func TestParseReadsAnOrganisersTable(t *testing.T) {
	src := `{"name":"2-deal","bands":[{"from":0,"to":30,"winner":10,"loser":10},
		{"from":35,"to":200,"winner":14,"loser":6},{"from":205,"winner":20,"loser":0}]}`
	tab, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if a, b, _ := tab.Convert(0, 35); a != 6 || b != 14 {
		t.Fatalf("Convert(0,35) = %d, %d", a, b)
	}
	for _, bad := range []string{`{"bands":[],"x":1}`, `{"bands":[{"from":0,"winner":10,"loser":10}]} {}`, `[`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) accepted", bad)
		}
	}
}

func TestParseAcceptsACustomSum(t *testing.T) {
	src := `{"sum":30,"bands":[{"from":0,"to":100,"winner":15,"loser":15},{"from":105,"winner":25,"loser":5}]}`
	tab, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if a, b, _ := tab.Convert(300, 0); a != 25 || b != 5 {
		t.Fatalf("Convert = %d, %d", a, b)
	}
}

func TestCloneDoesNotShareBands(t *testing.T) {
	a := ThreeDeal()
	b := a.Clone()
	*b.Bands[0].To = 999
	b.Bands[1].Winner = 0
	if *a.Bands[0].To != 50 || a.Bands[1].Winner != 11 {
		t.Fatal("clone shares memory with the original")
	}
}

func FuzzParse(f *testing.F) {
	for _, tab := range []Table{ThreeDeal(), FourDeal()} {
		data, _ := json.Marshal(tab)
		f.Add(data)
	}
	f.Add([]byte(`{"bands":[{"from":0,"to":-5,"winner":10,"loser":10}]}`))
	f.Add([]byte(`{"sum":0,"bands":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := Parse(data)
		if err != nil {
			return
		}
		// An accepted table converts every difference, symmetrically, to sides
		// summing to its sum, with the winner never behind.
		for _, d := range []int{0, 5, 50, 55, 1505, 2005, 5 << 20} {
			a, b, err := tab.Convert(d, 0)
			b2, a2, err2 := tab.Convert(0, d)
			if err != nil || err2 != nil || a != a2 || b != b2 || a+b != tab.sum() || a < b {
				t.Fatalf("accepted table converts %d to %d,%d / %d,%d (%v %v)", d, a, b, a2, b2, err, err2)
			}
		}
		again, err := json.Marshal(tab)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(again); err != nil {
			t.Fatalf("re-parse of an accepted table fails: %v", err)
		}
	})
}
