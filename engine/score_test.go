package engine

import "testing"

// The worked example of RULES §7a.
func TestScoreWorkedExample(t *testing.T) {
	g := loadPos(t, Fibur, 4, "", `{"turn":0,"phase":"play",
	 "hands":[["9D"],["AS","2D"],["3D","8S"],["5H"]],
	 "stock":["8C","7C","TS"],"discard":["4H"],"pots":[["KD","KH","KS"]],"pot_taken":[true,false],
	 "melds":[[["4C","5C","6C","7C","8C","9C","TC"],["KS","KH","JK"]],[["QD","QC","QH"]]]}`)
	mustApply(t, g, 0, DiscardMove(MustParseCard("9D")))
	if !g.Over() || g.EndReason() != Closed {
		t.Fatalf("deal not closed: %v", g.EndReason())
	}
	want := []Score{
		{Cards: 100, Bonus: 200, Closing: 100, Hand: -15, Pot: 0, Total: 385},
		{Cards: 30, Bonus: 0, Closing: 0, Hand: -40, Pot: -100, Total: -110},
	}
	got := g.Score()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("team %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestScoreRules(t *testing.T) {
	tests := []struct {
		name    string
		rules   RuleSet
		options string
		pos     string
		want    []Score
	}{
		{name: "reale A..K clean is 500", rules: Reale,
			pos: `{"phase":"over","hands":[[],[],[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true],
			 "melds":[[["AS","2S","3S","4S","5S","6S","7S","8S","9S","TS","JS","QS","KS"]],[]]}`,
			want: []Score{{Cards: 15 + 20 + 5*5 + 6*10, Bonus: 500}, {}}},
		{name: "reale A..A clean is 1000", rules: Reale,
			pos: `{"phase":"over","hands":[[],[],[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true],
			 "melds":[[["AS","2S","3S","4S","5S","6S","7S","8S","9S","TS","JS","QS","KS","AS"]],[]]}`,
			want: []Score{{Cards: 30 + 20 + 5*5 + 6*10, Bonus: 1000}, {}}},
		{name: "fechado canastra of 2s is 1000", rules: Fechado,
			pos: `{"phase":"over","hands":[[],[],[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true],
			 "melds":[[["2S","2S","2H","2H","2D","2D","2C"]],[]]}`,
			want: []Score{{Cards: 70, Bonus: 1000}, {}}},
		{name: "fechado canastra of 2s with its joker is 1000", rules: Fechado,
			pos: `{"phase":"over","hands":[[],[],[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true],
			 "melds":[[["2S","2S","2H","JK","2D","2D","2C"]],[]]}`,
			want: []Score{{Cards: 60 + 20, Bonus: 1000}, {}}},
		{name: "fechado canastra of 2s ignores canastra_bonus", rules: Fechado, options: `{"canastra_bonus":"150/300"}`,
			pos: `{"phase":"over","hands":[[],[],[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true],
			 "melds":[[["2S","2S","2H","2H","2D","2D","2C","2C","JK"]],[]]}`,
			want: []Score{{Cards: 80 + 20, Bonus: 1000}, {}}},
		{name: "fechado eight clean 2s with real_canastra: 1000 once", rules: Fechado, options: `{"real_canastra":true}`,
			pos: `{"phase":"over","hands":[[],[],[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true],
			 "melds":[[["2S","2S","2H","2H","2D","2D","2C","2C"]],[]]}`,
			want: []Score{{Cards: 80, Bonus: 1000}, {}}},
		{name: "fechado set of six 2s and a joker under 7: no bonus", rules: Fechado,
			pos: `{"phase":"over","hands":[[],[],[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true],
			 "melds":[[["2S","2H","2D","2C","JK","2C"]],[]]}`,
			want: []Score{{Cards: 50 + 20}, {}}},
		{name: "Brazilian: no pot penalty when neither team took one", rules: Aberto,
			pos:  `{"phase":"over","hands":[["3S"],["4S"],["5S"],["6S"]],"stock":[],"discard":[],"pots":[["KD","KH","KS"],["QD","QH","QS"]]}`,
			want: []Score{{Hand: -10}, {Hand: -10}}},
		{name: "fibur: pot penalty even when neither took one", rules: Fibur,
			pos:  `{"phase":"over","hands":[["3S"],["4S"],["5S"],["6S"]],"stock":[],"discard":[],"pots":[["KD","KH","KS"],["QD","QH","QS"]]}`,
			want: []Score{{Hand: -10, Pot: -100}, {Hand: -10, Pot: -100}}},
		{name: "Italian unplayed pot counts in the hand", rules: Fibur,
			pos:  `{"phase":"over","turn":1,"hands":[["KD","KH"],["4S"],["5S"],["6S"]],"stock":[],"discard":[],"pots":[["QD"]],"pot_taken":[true,false],"pot_unplayed":[true,false]}`,
			want: []Score{{Hand: -25}, {Hand: -10, Pot: -100}}},
		{name: "Brazilian unplayed pot: -100, its cards not counted", rules: Aberto,
			pos:  `{"phase":"over","turn":1,"hands":[["KD","KH"],["4S"],["5S"],["6S"]],"stock":[],"discard":[],"pots":[["QD"]],"pot_taken":[true,false],"pot_unplayed":[true,false]}`,
			want: []Score{{Hand: -5, Pot: -100}, {Hand: -10, Pot: -100}}},
		{name: "round_up_10 rounds totals up", rules: Aberto, options: `{"round_up_10":true}`,
			pos:  `{"phase":"over","hands":[["3S","4S"],["4S"],["AS"],["6S"]],"stock":[],"discard":[],"pots":[]}`,
			want: []Score{{Hand: -25}, {Hand: -10}}},
		{name: "fibur-row: row cards count in the hand", rules: FiburRow,
			pos:  `{"phase":"over","hands":[["3S"],["4S"]],"rows":[["KS"],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true]}`,
			want: []Score{{Hand: -15}, {Hand: -5}}},
		{name: "canastra_bonus 150/300", rules: Aberto, options: `{"canastra_bonus":"150/300"}`,
			pos: `{"phase":"over","hands":[[],[],[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true],
			 "melds":[[["3S","4S","5S","6S","7S","8S","9S"]],[["3H","4H","5H","JK","7H","8H","9H"]]]}`,
			want: []Score{{Cards: 45, Bonus: 300}, {Cards: 60, Bonus: 150}}},
		{name: "joker_points 50", rules: Aberto, options: `{"joker_points":50}`,
			pos:  `{"phase":"over","hands":[["JK"],[],[],[]],"stock":[],"discard":[],"pots":[],"pot_taken":[true,true]}`,
			want: []Score{{Hand: -50}, {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			players := 4
			if tc.rules == FiburRow {
				players = 2
			}
			g := loadPos(t, tc.rules, players, tc.options, tc.pos)
			got := g.Score()
			for i := range tc.want {
				w := tc.want[i]
				w.Total = w.Sum()
				if g.rules.Options.RoundUp10 {
					w.Total = roundUp10(w.Total)
				}
				if got[i] != w {
					t.Errorf("team %d: got %+v, want %+v", i, got[i], w)
				}
			}
		})
	}
}

func TestRoundUp10(t *testing.T) {
	for in, want := range map[int]int{0: 0, 5: 10, 10: 10, 11: 20, -5: 0, -15: -10, -20: -20} {
		if got := roundUp10(in); got != want {
			t.Errorf("roundUp10(%d) = %d, want %d", in, got, want)
		}
	}
}

// TestSetOfTwosBurraco: in a fechado set of 2s the 2s are natural, the one
// joker its wild (RULES §9): clean without the joker, dirty with it, and a
// closing canastra either way.
func TestSetOfTwosBurraco(t *testing.T) {
	r, err := NewRules(Fechado, 2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		cards string
		want  BurracoKind
	}{
		{"Clean/seven 2s", "2S 2S 2H 2H 2D 2D 2C", Clean},
		{"Dirty/six 2s and the joker", "2S 2S 2H JK 2D 2D 2C", Dirty},
		{"NotBurraco/six cards", "2S 2S 2H JK 2D 2D", NotBurraco},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := LoadMeld(r.MeldRules(), mcards(tc.cards))
			if err != nil {
				t.Fatal(err)
			}
			if m.Kind != Set || m.SetRank != Two {
				t.Fatalf("%s: not a set of 2s", m)
			}
			got := m.Burraco(r.Options.SemiClean, false)
			if got != tc.want {
				t.Errorf("%s: burraco kind %d, want %d", m, got, tc.want)
			}
			if r.closingBurraco(got) != (tc.want != NotBurraco) {
				t.Errorf("%s: closing %v", m, r.closingBurraco(got))
			}
		})
	}
}
