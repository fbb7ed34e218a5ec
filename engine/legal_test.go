package engine

import (
	"slices"
	"testing"
)

// TestLegalMoves checks the move generator along random deals: every move
// listed is accepted, discards and takes are listed completely, and the
// summary agrees with the list (in fechado can_pickup, which sees only the
// pile's top card, may be false while a pickup using hidden cards is listed).
func TestLegalMoves(t *testing.T) {
	for _, c := range simConfigs()[:9] {
		r := c.rules(t)
		g, err := Deal(r, 0, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := &bot{rng: NewRand(11)}
		for step := 0; step < 150 && !g.Over(); step++ {
			seat := g.Turn()
			moves := g.LegalMoves(seat)
			kinds := map[MoveKind]bool{}
			for _, m := range moves {
				kinds[m.Kind] = true
				h := g.Clone()
				if err := h.Apply(seat, m); err != nil {
					t.Fatalf("%s: listed move %s rejected: %v", r.ID, m, err)
				}
			}
			for _, c := range distinctCards(g.hands[seat]) {
				m := DiscardMove(c)
				listed := slices.ContainsFunc(moves, func(x Move) bool { return x.Kind == Discard && x.Card == c })
				if (g.Check(seat, m) == nil) != listed {
					t.Fatalf("%s: discard %s listed %v", r.ID, c, listed)
				}
			}
			s := g.Summary(seat)
			if s.CanDraw != kinds[Draw] || s.CanDiscard != kinds[Discard] || s.CanMeld != kinds[MeldCards] ||
				s.CanAttach != kinds[AttachCards] || s.CanRedraw != kinds[Redraw] ||
				s.CanPickup && !kinds[Pickup] || s.CanPickup != kinds[Pickup] && r.ID != Fechado {
				t.Fatalf("%s: summary %+v disagrees with %v", r.ID, s, kinds)
			}
			if other := g.LegalMoves((seat + 1) % r.Players); other != nil {
				t.Fatal("moves listed for a seat not on turn")
			}
			m, ok := b.choose(g)
			if !ok {
				break
			}
			mustApply(t, g, seat, m)
		}
	}
}
