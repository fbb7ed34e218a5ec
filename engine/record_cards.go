package engine

import (
	"fmt"
	"slices"
)

// DealtCards is a deal's cards as dealt, in the notation of positions: each
// seat's hand in the order received, the fibur-row rows (next to play
// first), the discard pile (bottom first: the card turned up in the Italian
// games), the pots (next taken first) and the stock (top first). With them a
// record is self-contained: another implementation rebuilds the deal from
// the cards, without this engine's shuffle; the seed stays, and Replay
// refuses a record whose cards are not what its seed deals.
type DealtCards struct {
	Hands   [][]Card `json:"hands"`
	Rows    [][]Card `json:"rows,omitempty"`
	Discard []Card   `json:"discard"`
	Pots    [][]Card `json:"pots"`
	Stock   []Card   `json:"stock"`
}

// Dealt returns the cards of the deal Deal(r, dealer, seed, …) deals.
// Errors: those of Deal.
func Dealt(r Rules, dealer int, seed uint64) (DealtCards, error) {
	g, err := Deal(r, dealer, seed, nil)
	if err != nil {
		return DealtCards{}, err
	}
	return g.dealtCards(), nil
}

// dealtCards returns the cards of a game that has had no move yet.
func (g *Game) dealtCards() DealtCards {
	d := DealtCards{Hands: copyCards2(nil, g.hands), Discard: slices.Clone(g.pile), Pots: copyCards2(nil, g.pots),
		Stock: slices.Clone(g.stock)}
	slices.Reverse(d.Stock) // kept top last, written top first
	if g.rows != nil {
		d.Rows = copyCards2(nil, g.rows)
	}
	if d.Discard == nil {
		d.Discard = []Card{}
	}
	return d
}

// disagreement says where cards differ from what the seed dealt (want), or
// "" when they agree.
func (c DealtCards) disagreement(want DealtCards) string {
	lists := []struct {
		name      string
		got, want [][]Card
	}{
		{"hands", c.Hands, want.Hands}, {"rows", c.Rows, want.Rows}, {"discard", [][]Card{c.Discard}, [][]Card{want.Discard}},
		{"pots", c.Pots, want.Pots}, {"stock", [][]Card{c.Stock}, [][]Card{want.Stock}},
	}
	for _, l := range lists {
		if len(l.got) != len(l.want) {
			return fmt.Sprintf("%s: %d lists, the seed deals %d", l.name, len(l.got), len(l.want))
		}
		for i := range l.got {
			if s := firstDifference(l.got[i], l.want[i]); s != "" {
				name := l.name
				if l.name != "discard" && l.name != "stock" {
					name = fmt.Sprintf("%s[%d]", l.name, i)
				}
				return name + ": " + s
			}
		}
	}
	return ""
}

// firstDifference describes the first difference between two card lists.
func firstDifference(got, want []Card) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("card %d is %s, the seed deals %s", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d cards, the seed deals %d", len(got), len(want))
	}
	return ""
}
