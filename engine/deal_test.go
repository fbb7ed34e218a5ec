package engine

import (
	"strings"
	"testing"
)

func TestDealLayout(t *testing.T) {
	tests := []struct {
		id             RuleSet
		players        int
		stock, pile    int
		rows, deckSize int
	}{
		{Fibur, 4, 41, 1, 0, 108},
		{Fibur, 2, 63, 1, 0, 108},
		{FiburRow, 2, 41, 1, 11, 108},
		{Reale, 4, 37, 1, 0, 104},
		{Reale, 2, 59, 1, 0, 104},
		{Aberto, 4, 42, 0, 0, 108},
		{Aberto, 2, 64, 0, 0, 108},
		{Fechado, 4, 42, 0, 0, 108},
		{Fechado, 2, 64, 0, 0, 108},
	}
	for _, tc := range tests {
		t.Run(string(tc.id)+"/"+string(rune('0'+tc.players)), func(t *testing.T) {
			r, err := NewRules(tc.id, tc.players)
			if err != nil {
				t.Fatal(err)
			}
			for seed := range uint64(20) {
				g, err := Deal(r, int(seed)%tc.players, seed, nil)
				if err != nil {
					t.Fatal(err)
				}
				if g.StockSize() != tc.stock || len(g.Pile()) != tc.pile || g.PotsLeft() != 2 {
					t.Fatalf("stock %d pile %d pots %d", g.StockSize(), len(g.Pile()), g.PotsLeft())
				}
				for s := range tc.players {
					if g.HandSize(s) != 11 || len(g.Row(s)) != tc.rows {
						t.Fatalf("seat %d: hand %d row %d", s, g.HandSize(s), len(g.Row(s)))
					}
				}
				var deck [256]int
				for _, c := range r.Deck() {
					deck[c]++
				}
				if countCards(g) != deck || len(r.Deck()) != tc.deckSize {
					t.Fatal("the deal is not the deck")
				}
				if want := r.next(g.Dealer()); g.Turn() != want {
					t.Fatalf("first player %d, want %d", g.Turn(), want)
				}
				if g.FirstTurn() != tc.id.Brazilian() {
					t.Fatal("first_turn")
				}
			}
		})
	}
}

// TestDealGolden pins the deal of one seed: the shuffle, cut and deal must
// never change, or recorded deals would replay differently.
func TestDealGolden(t *testing.T) {
	r, _ := NewRules(Fibur, 4)
	g, err := Deal(r, 0, 20260101, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{
		strings.Join(FormatCards(g.Hand(1)), " "),
		strings.Join(FormatCards(g.Hand(0)), " "),
		strings.Join(FormatCards(g.Pile()), " "),
		strings.Join(FormatCards(g.Position().Stock[:5]), " "),
		strings.Join(FormatCards(g.Position().Pots[0]), " "),
	}
	want := goldenDeal
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

var goldenDeal = []string{
	"KC AC 4C 7D 9S 7C 9H 2H 2C 7S 8C", // seat 1 (dealer's left): dealt first
	"4D 8S 8D 6S 7D 4S 3D QD KD 6D AH", // seat 0 (dealer)
	"9H",                               // the card turned up
	"JH 5S JC 9C QH",                   // top of the stock
	"4S TD JK 7S JD 5D 4D 2S 3H AD 9C", // the first pot
}

func TestRandDeterministic(t *testing.T) {
	r := NewRand(1)
	want := []uint64{0x910a2dec89025cc1, 0xbeeb8da1658eec67, 0xf893a2eefb32555e}
	for i, w := range want {
		if got := r.Uint64(); got != w {
			t.Errorf("value %d: %#x, want %#x", i, got, w)
		}
	}
	for n := 1; n < 200; n++ {
		if v := r.IntN(n); v < 0 || v >= n {
			t.Fatalf("IntN(%d) = %d", n, v)
		}
	}
}
