package engine

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestViewHidesSecrets marshals every seat's view through a dealt game and
// checks that no card hidden from the seat (others' hands, stock, pots, and
// in fechado the pile under its top) can be read from it.
func TestViewHidesSecrets(t *testing.T) {
	for _, c := range simConfigs()[:9] {
		r := c.rules(t)
		t.Run(string(r.ID)+"/"+string(rune('0'+r.Players)), func(t *testing.T) {
			g, err := Deal(r, 0, 42, nil)
			if err != nil {
				t.Fatal(err)
			}
			b := &bot{rng: NewRand(7)}
			for step := 0; step < 60 && !g.Over(); step++ {
				for seat := range r.Players {
					checkViewSecrets(t, g, seat)
				}
				m, ok := b.choose(g)
				if !ok {
					break
				}
				mustApply(t, g, g.Turn(), m)
			}
		})
	}
}

func checkViewSecrets(t *testing.T, g *Game, seat int) {
	t.Helper()
	b, err := json.Marshal(g.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	// Cards the seat may see.
	public := map[Card]bool{}
	see := func(cs []Card) {
		for _, c := range cs {
			public[c] = true
		}
	}
	see(g.hands[seat])
	for _, ms := range g.melds {
		for _, m := range ms {
			see(m.Cards)
		}
	}
	for _, row := range g.rows {
		see(row)
	}
	if len(g.pile) > 0 {
		if g.rules.ID == Fechado {
			see(g.pile[len(g.pile)-1:])
		} else {
			see(g.pile)
		}
	}
	var hidden []Card
	for s, h := range g.hands {
		if s != seat {
			hidden = append(hidden, h...)
		}
	}
	hidden = append(hidden, g.stock...)
	for _, p := range g.pots {
		hidden = append(hidden, p...)
	}
	if g.rules.ID == Fechado && len(g.pile) > 1 {
		hidden = append(hidden, g.pile[:len(g.pile)-1]...)
	}
	text := string(b)
	for _, c := range hidden {
		if public[c] {
			continue
		}
		if strings.Contains(text, `"`+c.String()+`"`) {
			t.Fatalf("seat %d's view shows hidden card %s:\n%s", seat, c, text)
		}
	}
	if v := g.View(seat); !slices.Equal(v.Hand, g.hands[seat]) {
		t.Fatalf("seat %d's view hand differs", seat)
	}
}

func TestViewPile(t *testing.T) {
	pos := `{"turn":0,"hands":[["4C"],["3D"],["6D"],["JD"]],"stock":["8C","7S","TS"],"discard":["QS","9D"]}`
	open := loadPos(t, Aberto, 4, "", pos).View(1)
	if len(open.Pile) != 2 || open.PileTop != nil {
		t.Errorf("aberto pile %v top %v", open.Pile, open.PileTop)
	}
	closed := loadPos(t, Fechado, 4, "", pos).View(1)
	if closed.Pile != nil || closed.PileTop == nil || *closed.PileTop != MustParseCard("9D") || closed.PileSize != 2 {
		t.Errorf("fechado pile %v top %v size %d", closed.Pile, closed.PileTop, closed.PileSize)
	}
	if !open.Legal.CanDraw && open.Seat == 0 {
		t.Error("seat 0 cannot draw")
	}
	v0 := loadPos(t, Fibur, 4, "", pos).View(0)
	if !v0.Legal.CanDraw || !v0.Legal.CanPickup || v0.Legal.CanDiscard {
		t.Errorf("summary %+v", v0.Legal)
	}
}
