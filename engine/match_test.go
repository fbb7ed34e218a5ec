package engine

import (
	"encoding/json"
	"reflect"
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
