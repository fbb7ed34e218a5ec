package domain_test

import (
	"strconv"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// TestInterimBotPlaysLegalDealsToTheEnd: with the interim bot in every
// seat, deals of every rule set and player count end, every move it picks
// being legal.
func TestInterimBotPlaysLegalDealsToTheEnd(t *testing.T) {
	for _, id := range engine.RuleSets() {
		for _, players := range []int{2, 4} {
			r, err := engine.NewRules(id, players)
			if err != nil {
				continue // e.g. fibur-row is for 2
			}
			t.Run(string(id)+"/"+strconv.Itoa(players), func(t *testing.T) {
				for seed := range uint64(15) {
					g, err := engine.Deal(r, int(seed)%players, seed*7919+1, nil)
					if err != nil {
						t.Fatal(err)
					}
					moves := 0
					for ; !g.Over() && moves < 3000; moves++ {
						seat := g.Turn()
						m := domain.InterimBot(g.Clone(), seat)
						if err := g.Apply(seat, m); err != nil {
							t.Fatalf("seed %d move %d: the bot chose %s: %v", seed, moves, m, err)
						}
					}
					if !g.Over() {
						t.Fatalf("seed %d: no end after %d moves", seed, moves)
					}
				}
			})
		}
	}
}
