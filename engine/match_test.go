package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func deal(totals ...int) []Score {
	out := make([]Score, len(totals))
	for i, t := range totals {
		out[i].Total = t
	}
	return out
}

func TestMatchStatus(t *testing.T) {
	tests := []struct {
		name  string
		f     MatchFormat
		deals [][]Score
		want  MatchStatus
	}{
		{"target not reached", MatchFormat{Target: 2005}, [][]Score{deal(1000, 500)},
			MatchStatus{Totals: []int{1000, 500}, Winner: -1}},
		{"target reached, higher wins", MatchFormat{Target: 2005}, [][]Score{deal(1000, 500), deal(1100, 1600)},
			MatchStatus{Totals: []int{2100, 2100 + 0}, Winner: -1, TieBreak: true}},
		{"target reached by the loser", MatchFormat{Target: 2005}, [][]Score{deal(1000, 1900), deal(1100, 100)},
			MatchStatus{Totals: []int{2100, 2000}, Over: true, Winner: 0}},
		{"fixed deals, draw allowed", MatchFormat{Deals: 2}, [][]Score{deal(300, 200), deal(0, 100)},
			MatchStatus{Totals: []int{300, 300}, Over: true, Winner: -1, Draw: true}},
		{"fixed deals, winner required", MatchFormat{Deals: 2, RequireWinner: true}, [][]Score{deal(300, 200), deal(0, 100)},
			MatchStatus{Totals: []int{300, 300}, Winner: -1, TieBreak: true}},
		{"fixed deals, tie-break decides", MatchFormat{Deals: 2, RequireWinner: true}, [][]Score{deal(300, 200), deal(0, 100), deal(-10, 40)},
			MatchStatus{Totals: []int{290, 340}, Over: true, Winner: 1}},
		{"fixed deals, not yet", MatchFormat{Deals: 3}, [][]Score{deal(300, 200)},
			MatchStatus{Totals: []int{300, 200}, Winner: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.Status(tc.deals); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	if Leader([]int{5, 9, 9}) != -1 || Leader([]int{5, 9, 7}) != 1 || Leader([]int{-5, -9}) != 0 {
		t.Error("Leader")
	}
	if NextDealer(3, 4) != 0 {
		t.Error("NextDealer")
	}
}

func TestRecordReplay(t *testing.T) {
	for _, c := range simConfigs() {
		r := c.rules(t)
		g, err := Deal(r, 1, 1234, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec := NewRecord(r, 1, 1234, nil)
		b := &bot{rng: NewRand(5)}
		for len(rec.Moves) < 200 && !g.Over() {
			m, ok := b.choose(g)
			if !ok {
				break
			}
			rec.Moves = append(rec.Moves, SeatMove{Seat: g.Turn(), Move: m})
			mustApply(t, g, g.Turn(), m)
		}
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var back Record
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		h, err := back.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if posJSON(t, g) != posJSON(t, h) {
			t.Fatalf("%s: replay differs", r.ID)
		}
	}
}

// TestRecordSeed checks that a record's seed is written as a JSON string
// (a uint64 exceeds JavaScript's exact integers) and read as a string or a
// number.
func TestRecordSeed(t *testing.T) {
	r, err := NewRules(Fibur, 2)
	if err != nil {
		t.Fatal(err)
	}
	const big = uint64(18446744073709551615)
	data, err := json.Marshal(NewRecord(r, 0, big, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"seed":"18446744073709551615"`) {
		t.Fatalf("seed not written as a string: %s", data)
	}
	for _, tc := range []struct {
		seed string
		want uint64
		ok   bool
	}{
		{`"18446744073709551615"`, big, true},
		{`18446744073709551615`, big, true},
		{`1234`, 1234, true},
		{`"1234"`, 1234, true},
		{`0`, 0, true},
		{`null`, 0, true},
		{`-1`, 0, false},
		{`1.5`, 0, false},
		{`1e3`, 0, false},
		{`18446744073709551616`, 0, false},
		{`"x"`, 0, false},
		{`true`, 0, false},
	} {
		js := `{"rules":"fibur","players":2,"dealer":0,"seed":` + tc.seed + `,"moves":[]}`
		var rec Record
		err := json.Unmarshal([]byte(js), &rec)
		switch {
		case tc.ok && err != nil:
			t.Errorf("seed %s: %v", tc.seed, err)
		case tc.ok && rec.Seed != tc.want:
			t.Errorf("seed %s read as %d, want %d", tc.seed, rec.Seed, tc.want)
		case !tc.ok && ErrorCode(err) != ErrBadNotation:
			t.Errorf("seed %s: error %v, want %s", tc.seed, err, ErrBadNotation)
		}
	}
	var rec Record
	if err := json.Unmarshal([]byte(`{"rules":"fibur","players":2,"dealer":0,"moves":[]}`), &rec); err != nil || rec.Seed != 0 {
		t.Errorf("no seed: %v, seed %d", err, rec.Seed)
	}
}

// TestMatchFormatValidate checks that a format that cannot end a match is
// refused, and that Status never ends a match on it.
func TestMatchFormatValidate(t *testing.T) {
	for _, tc := range []struct {
		f  MatchFormat
		ok bool
	}{
		{MatchFormat{Target: 2005}, true},
		{MatchFormat{Deals: 4}, true},
		{MatchFormat{Deals: 2, RequireWinner: true}, true},
		{MatchFormat{Deals: 2, Target: 2005}, true},
		{MatchFormat{}, false},
		{MatchFormat{RequireWinner: true}, false},
		{MatchFormat{Deals: -1, Target: 2005}, false},
		{MatchFormat{Target: -5}, false},
	} {
		err := tc.f.Validate()
		if (err == nil) != tc.ok || err != nil && ErrorCode(err) != ErrBadOption {
			t.Errorf("%+v: Validate() = %v, want ok %v (else %s)", tc.f, err, tc.ok, ErrBadOption)
		}
		if !tc.ok {
			st := tc.f.Status([][]Score{deal(10, 0)})
			if st.Over || st.Winner != -1 || st.TieBreak || !reflect.DeepEqual(st.Totals, []int{10, 0}) {
				t.Errorf("%+v: status %+v for an invalid format", tc.f, st)
			}
		}
	}
}
