package engine

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestParseOptions(t *testing.T) {
	o, err := ParseOptions(Fibur, []byte(`{}`))
	if err != nil || !reflect.DeepEqual(o, DefaultOptions(Fibur)) {
		t.Fatalf("defaults: %+v %v", o, err)
	}
	o, err = ParseOptions(Fechado, []byte(`{"direction":"anticlockwise","target":1005,"joker_points":50,"canastra_bonus":"150/300","round_up_10":true,"real_canastra":true,"jokers":false}`))
	if err != nil {
		t.Fatal(err)
	}
	if o.Direction != Anticlockwise || o.Target != 1005 || o.JokerPoints != 50 || o.CanastraBonus != CanastraBonus150 ||
		!o.RoundUp10 || !o.RealCanastra || o.Jokers || !o.Vulnerability {
		t.Fatalf("%+v", o)
	}
	for _, bad := range []string{`{"x":1}`, `{"target":"high"}`, `{"semi_clean_set":"7"}`, `{"canastra_bonus":"1/2"}`, `[1]`, `{"real_canastra":true}`} {
		if _, err := ParseOptions(Fibur, []byte(bad)); ErrorCode(err) != ErrBadOption {
			t.Errorf("%s: %v, want bad_option", bad, err)
		}
	}
	if _, err := ParseOptions("poker", nil); ErrorCode(err) != ErrBadOption {
		t.Error("unknown rule set accepted")
	}
}

func TestMeldRulesDerivation(t *testing.T) {
	abertoSets := Rules{ID: Aberto, Players: 4, Options: DefaultOptions(Aberto)}
	abertoSets.Options.AbertoSets = AbertoSetsThreesAces
	tests := []struct {
		r    Rules
		want MeldRules
	}{
		{Rules{ID: Fibur, Players: 4, Options: DefaultOptions(Fibur)}, MeldRules{Sets: true}},
		{Rules{ID: FiburRow, Players: 2, Options: DefaultOptions(FiburRow)}, MeldRules{Sets: true}},
		{Rules{ID: Reale, Players: 4, Options: DefaultOptions(Reale)}, MeldRules{AceBothEnds: true}},
		{Rules{ID: Aberto, Players: 4, Options: DefaultOptions(Aberto)}, MeldRules{AceBothEnds: true}},
		{abertoSets, MeldRules{Sets: true, SetRanks: []Rank{Three, Ace}, AceBothEnds: true}},
		{Rules{ID: Fechado, Players: 4, Options: DefaultOptions(Fechado)}, MeldRules{Sets: true, SetsOfTwos: true, AceBothEnds: true}},
	}
	for _, tc := range tests {
		if got := tc.r.MeldRules(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.r.ID, got, tc.want)
		}
	}
}

func TestCardPoints(t *testing.T) {
	it, _ := NewRules(Fibur, 4)
	br, _ := NewRules(Aberto, 4)
	for s, want := range map[string][2]int{"3S": {5, 5}, "7H": {5, 5}, "8D": {10, 10}, "KC": {10, 10}, "AS": {15, 15}, "2H": {20, 10}, "JK": {30, 20}} {
		c := MustParseCard(s)
		if got := [2]int{it.CardPoints(c), br.CardPoints(c)}; got != want {
			t.Errorf("%s: %v, want %v", s, got, want)
		}
	}
}

func TestRulesJSON(t *testing.T) {
	var r Rules
	if err := json.Unmarshal([]byte(`{"rules":"aberto","players":2,"options":{"target":1005}}`), &r); err != nil {
		t.Fatal(err)
	}
	want := Rules{ID: Aberto, Players: 2, Options: DefaultOptions(Aberto)}
	want.Options.Target = 1005
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("%+v", r)
	}
	b, _ := json.Marshal(r)
	var back Rules
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, r) {
		t.Fatalf("round trip %s: %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"rules":"fibur-row","players":4}`), &r); ErrorCode(err) != ErrBadOption {
		t.Fatalf("fibur-row with 4 players: %v", err)
	}
}
