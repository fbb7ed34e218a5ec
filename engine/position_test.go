package engine

import (
	"encoding/json"
	"testing"
)

func TestPositionRoundTrip(t *testing.T) {
	for _, c := range simConfigs()[:9] {
		r := c.rules(t)
		g, err := Deal(r, 1, 99, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := &bot{rng: NewRand(3)}
		for step := 0; step < 40 && !g.Over(); step++ {
			roundTrip(t, g)
			data, _ := json.Marshal(g)
			h, err := ParsePosition(data)
			if err != nil {
				t.Fatalf("%s: parse exported position: %v", r.ID, err)
			}
			if posJSON(t, h) != string(data) {
				t.Fatalf("%s: ParsePosition round trip differs", r.ID)
			}
			m, ok := b.choose(g)
			if !ok {
				break
			}
			mustApply(t, g, g.Turn(), m)
		}
	}
}

func TestLoadPositionErrors(t *testing.T) {
	tests := []struct {
		name string
		js   string
		code Code
	}{
		{"ErrBadOption/unknown rule set", `{"rules":"scopa","hands":[[],[]]}`, ErrBadOption},
		{"ErrBadOption/unknown option", `{"rules":"fibur","options":{"wilds":3},"hands":[[],[]]}`, ErrBadOption},
		{"ErrBadOption/bad option value", `{"rules":"fibur","options":{"direction":"up"},"hands":[[],[]]}`, ErrBadOption},
		{"ErrBadOption/three players", `{"rules":"fibur","hands":[[],[],[]]}`, ErrBadOption},
		{"ErrBadPosition/players and hands disagree", `{"rules":"fibur","players":4,"hands":[[],[]]}`, ErrBadPosition},
		{"ErrBadPosition/turn out of range", `{"rules":"fibur","turn":5,"hands":[[],[]]}`, ErrBadPosition},
		{"ErrBadPosition/unknown phase", `{"rules":"fibur","phase":"nap","hands":[[],[]]}`, ErrBadPosition},
		{"ErrBadPosition/three copies", `{"rules":"fibur","hands":[["AS","AS"],["AS"]]}`, ErrBadPosition},
		{"ErrBadPosition/illegal meld", `{"rules":"fibur","hands":[[],[]],"melds":[[["AS","KD","3C"]],[]]}`, ErrBadPosition},
		{"ErrBadPosition/rows outside fibur-row", `{"rules":"fibur","hands":[[],[]],"rows":[["AS"],[]]}`, ErrBadPosition},
		{"ErrBadPosition/pot_taken length", `{"rules":"fibur","hands":[[],[]],"pot_taken":[true]}`, ErrBadPosition},
		{"ErrBadPosition/too many pots", `{"rules":"fibur","hands":[[],[]],"pots":[[],[],[]]}`, ErrBadPosition},
		{"ErrBadPosition/unknown field", `{"rules":"fibur","hands":[[],[]],"colour":1}`, ErrBadPosition},
		{"ErrBadNotation/bad card", `{"rules":"fibur","hands":[["ZZ"],[]]}`, ErrBadNotation},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePosition([]byte(tc.js))
			if got := ErrorCode(err); got != tc.code {
				t.Fatalf("got %v, want %s", err, tc.code)
			}
		})
	}
}
