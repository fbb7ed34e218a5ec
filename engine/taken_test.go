package engine

import (
	"fmt"
	"testing"
)

// TestApplyTakenAccountsForEveryCardGained plays bot deals under every rule
// set: each card a move brings into the mover's hand is one ApplyTaken
// names (drawn, pile or pot), a draw names the card it put in the hand, and
// a pot is named exactly when the team's pot flag turns on.
func TestApplyTakenAccountsForEveryCardGained(t *testing.T) {
	for _, id := range RuleSets() {
		for _, players := range []int{2, 4} {
			r, err := NewRules(id, players)
			if err != nil {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", id, players), func(t *testing.T) {
				for seed := uint64(1); seed <= 3; seed++ {
					playTaken(t, r, seed)
				}
			})
		}
	}
}

func playTaken(t *testing.T, r Rules, seed uint64) {
	t.Helper()
	g, err := Deal(r, 0, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	bot := NewBot(NewRand(seed))
	for n := 0; !g.Over() && n < 2000; n++ {
		seat := g.Turn()
		m, err := bot.Move(g)
		if err != nil {
			t.Fatal(err)
		}
		before, team := g.Hand(seat), g.Team(seat)
		hadPot := g.PotTaken(team)
		tk, err := g.ApplyTaken(seat, m)
		if err != nil {
			t.Fatalf("seed %d move %d %s: %v", seed, n, m, err)
		}
		after := g.Hand(seat)
		gained := counts(after)
		for _, c := range before {
			gained[c]--
		}
		named := counts(append(append(append([]Card{}, tk.Drawn...), tk.Pile...), tk.Pot...))
		for c, k := range gained {
			if k > named[c] {
				t.Fatalf("seed %d move %d %s: %s came into the hand unnamed (taken %+v)", seed, n, m, c, tk)
			}
		}
		if (m.Kind == Draw || m.Kind == Redraw) != (len(tk.Drawn) == 1) {
			t.Fatalf("seed %d move %d %s: drawn %v", seed, n, m, tk.Drawn)
		}
		if tk.PotTaken != (!hadPot && g.PotTaken(team)) || tk.PotTaken != (len(tk.Pot) > 0) {
			t.Fatalf("seed %d move %d %s: pot %v taken %v", seed, n, m, tk.Pot, tk.PotTaken)
		}
	}
}

func counts(cs []Card) map[Card]int {
	out := map[Card]int{}
	for _, c := range cs {
		out[c]++
	}
	return out
}

// TestTakenSeenByHidesDrawnAndPotCards: the mover sees everything; another
// seat and a spectator see what is face up only.
func TestTakenSeenByHidesDrawnAndPotCards(t *testing.T) {
	tk := Taken{Drawn: tcards("AS"), Pile: tcards("5H 6H"), TurnedUp: tcards("KD"), Pot: tcards("2C 3C"), PotTaken: true}
	cases := []struct {
		name   string
		rules  RuleSet
		viewer int
		want   Taken
	}{
		{"MoverSeesAll", Fibur, 1, tk},
		{"OtherSeatSeesPublicPart", Fibur, 0, Taken{Pile: tk.Pile, TurnedUp: tk.TurnedUp, PotTaken: true}},
		{"PartnerSeesPublicPart", Fibur, 3, Taken{Pile: tk.Pile, TurnedUp: tk.TurnedUp, PotTaken: true}},
		{"SpectatorSeesPublicPart", Fibur, -1, Taken{Pile: tk.Pile, TurnedUp: tk.TurnedUp, PotTaken: true}},
		{"FechadoPileHidden", Fechado, -1, Taken{TurnedUp: tk.TurnedUp, PotTaken: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := tk.SeenBy(c.rules, 1, c.viewer)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
