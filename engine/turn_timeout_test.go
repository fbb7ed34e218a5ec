package engine

import (
	"strings"
	"testing"
)

func TestTimeoutMoves(t *testing.T) {
	tests := []struct {
		name    string
		rules   RuleSet
		players int
		pos     string
		want    string // the moves, space-separated in notation
		code    Code
	}{
		{name: "ok/draw then the highest card", rules: Fibur, players: 2,
			pos:  `{"turn":0,"hands":[["4C","KH","9D"],["3D"]],"stock":["AS","7S","8S"],"discard":["5H"]}`,
			want: `{"move":"draw"} {"move":"discard","card":"AS"}`},
		{name: "ok/already taken: only the discard", rules: Fibur, players: 2,
			pos:  `{"turn":0,"phase":"play","hands":[["4C","KH","9D"],["3D"]],"stock":["AS","7S","8S"],"discard":["5H"]}`,
			want: `{"move":"discard","card":"KH"}`},
		{name: "ok/ties: the higher rank, then spades first", rules: Fibur, players: 2,
			pos:  `{"turn":0,"phase":"play","hands":[["TC","KD","KS","9H"],["3D"]],"stock":["AS","7S","8S"],"discard":["5H"]}`,
			want: `{"move":"discard","card":"KS"}`},
		{name: "ok/a joker is the highest value", rules: Fibur, players: 2,
			pos:  `{"turn":0,"phase":"play","hands":[["AC","JK","2D"],["3D"]],"stock":["AS","7S","8S"],"discard":["5H"]}`,
			want: `{"move":"discard","card":"JK"}`},
		{name: "ok/Brazilian values: the ace over a 2", rules: Aberto, players: 2,
			pos:  `{"turn":0,"phase":"play","hands":[["AC","2D","KH"],["3D"]],"stock":["AS","7S","8S"],"discard":["5H"]}`,
			want: `{"move":"discard","card":"AC"}`},
		{name: "ok/the card picked up alone is passed over", rules: Fibur, players: 2,
			pos:  `{"turn":0,"phase":"play","took":"pickup","picked":"AH","hands":[["4C","AH","9D"],["3D"]],"stock":["AS","7S","8S"],"discard":[]}`,
			want: `{"move":"discard","card":"9D"}`},
		{name: "ok/the card picked up alone, an identical one held", rules: Fibur, players: 2,
			pos:  `{"turn":0,"phase":"play","took":"pickup","picked":"AH","picked_held":true,"hands":[["4C","AH","AH","9D"],["3D"]],"stock":["AS","7S","8S"],"discard":[]}`,
			want: `{"move":"discard","card":"AH"}`},
		{name: "ok/no draw possible: the pile is taken", rules: Fibur, players: 2,
			pos:  `{"turn":0,"hands":[["4C","9D"],["3D"]],"stock":["7S","8S"],"discard":["QH","5H"]}`,
			want: `{"move":"pickup"} {"move":"discard","card":"QH"}`},
		{name: "ok/the last card takes the pot", rules: Fibur, players: 2,
			pos:  `{"turn":0,"phase":"play","hands":[["KC"],["3D"]],"stock":["AS","7S","8S"],"discard":["5H"],"pots":[["3S","4S"]]}`,
			want: `{"move":"discard","card":"KC"}`},
		{name: "ok/a wild goes when it is not the last card", rules: Fibur, players: 2,
			pos: `{"turn":0,"hands":[["JK"],["3D"]],"stock":["4S","7S","8S"],"discard":["5H"],"pots":[],"pot_taken":[true,false],
			 "melds":[[["4D","5D","6D","7D","8D","9D","TD"]],[]]}`,
			want: `{"move":"draw"} {"move":"discard","card":"JK"}`},
		{name: "ErrStockEmpty/fechado: no draw, no plain pickup", rules: Fechado, players: 2,
			pos:  `{"turn":0,"hands":[["4C","KH"],["3D"]],"stock":[],"discard":["9S"],"pots":[]}`,
			code: ErrStockEmpty},
		{name: "ErrCannotClose/a lone card that may not be discarded", rules: Fibur, players: 2,
			pos: `{"turn":0,"phase":"play","hands":[["JK"],["3D"]],"stock":["4S","7S","8S"],"discard":["5H"],"pots":[],"pot_taken":[true,false],
			 "melds":[[["4D","5D","6D","7D","8D","9D","TD"]],[]]}`,
			code: ErrCannotClose},
		{name: "ErrDealOver/after the deal", rules: Fibur, players: 2,
			pos:  `{"phase":"over","hands":[[],["3D"]],"stock":[],"discard":[],"pots":[]}`,
			code: ErrDealOver},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := loadPos(t, tc.rules, tc.players, "", tc.pos)
			before := posJSON(t, g)
			ms, err := TimeoutMoves(g)
			if after := posJSON(t, g); after != before {
				t.Fatalf("TimeoutMoves changed the game")
			}
			if tc.code != "" {
				if ErrorCode(err) != tc.code {
					t.Fatalf("error %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				got = append(got, m.String())
				mustApply(t, g, g.Turn(), m)
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Fatalf("moves %s, want %s", s, tc.want)
			}
		})
	}
}

// TestTimeoutMovesEndTheTurn plays deals where every turn times out: each
// time the moves are legal and pass the turn (or end the deal).
func TestTimeoutMovesEndTheTurn(t *testing.T) {
	for _, c := range simConfigs() {
		r := c.rules(t)
		g, err := Deal(r, 0, uint64(r.Players)+11, nil)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; !g.Over(); n++ {
			if n > maxSimMoves {
				t.Fatalf("%s: the deal did not end", describe(g))
			}
			turn := g.Turn()
			ms, err := TimeoutMoves(g)
			if err != nil {
				t.Fatalf("%s: %v\n%s", describe(g), err, posJSON(t, g))
			}
			for _, m := range ms {
				mustApply(t, g, turn, m)
			}
			if !g.Over() && (g.Turn() == turn || g.Phase() != PhaseTake) {
				t.Fatalf("%s: the turn did not pass after %v", describe(g), ms)
			}
		}
	}
}
