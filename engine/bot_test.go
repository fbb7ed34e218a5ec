package engine

import (
	"slices"
	"testing"
)

// bot is the tests' shorthand for a Bot: choose returns its move for the
// seat on turn, ok false when it has none.
type bot struct {
	rng      *Rand
	hesitant bool
}

func (b *bot) choose(g *Game) (Move, bool) {
	m, err := (&Bot{rng: b.rng, Hesitant: b.hesitant}).Move(g)
	return m, err == nil
}

// randomMove picks uniformly among the legal moves of the seat on turn.
func randomMove(g *Game, rng *Rand) (Move, bool) {
	moves := g.LegalMoves(g.Turn())
	if len(moves) == 0 {
		return Move{}, false
	}
	return moves[rng.IntN(len(moves))], true
}

// permuteHidden returns a copy of g whose cards hidden from seat (the other
// hands while the deal goes on, the stock, the pots, in fechado the pile
// under its top card) are shuffled among those places, sizes kept, and
// whether a card moved.
func permuteHidden(g *Game, seat int, rng *Rand) (*Game, bool) {
	h := g.Clone()
	var slots []*Card
	place := func(cs []Card) {
		for i := range cs {
			slots = append(slots, &cs[i])
		}
	}
	if !h.Over() {
		for s, hand := range h.hands {
			if s != seat {
				place(hand)
			}
		}
	}
	place(h.stock)
	for _, p := range h.pots {
		place(p)
	}
	if h.rules.ID == Fechado && len(h.pile) > 1 {
		place(h.pile[:len(h.pile)-1])
	}
	cards := make([]Card, len(slots))
	for i, p := range slots {
		cards[i] = *p
	}
	rng.Shuffle(cards)
	moved := false
	for i, p := range slots {
		moved = moved || *p != cards[i]
		*p = cards[i]
	}
	return h, moved
}

// TestBotSeesOnlyItsSeat plays deals of every configuration with the bot
// and, at every position, asks a bot with the same random state for its
// move in a copy whose hidden cards are shuffled: the move must be the same
// (the bot decides only from what its seat may see), and legal in the real
// game.
func TestBotSeesOnlyItsSeat(t *testing.T) {
	deals := 6
	if testing.Short() || raceEnabled {
		deals = 1
	}
	positions, moved := 0, 0
	for _, c := range simConfigs() {
		r := c.rules(t)
		for d := range deals {
			seed := uint64(d)*31_337 + uint64(r.Players) + 5
			g, err := Deal(r, d%r.Players, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			shuffle := NewRand(seed ^ 0xb07)
			b := NewBot(NewRand(seed))
			for n := 0; !g.Over() && n < maxSimMoves; n++ {
				h, ok := permuteHidden(g, g.Turn(), shuffle)
				if ok {
					moved++
				}
				state := *b.rng
				twin := &Bot{rng: &state}
				m, err := b.Move(g)
				if err != nil {
					t.Fatalf("%s: %v\n%s", describe(g), err, posJSON(t, g))
				}
				if m2, err := twin.Move(h); err != nil || m2.String() != m.String() {
					t.Fatalf("%s: the bot plays %s, with hidden cards moved %s (%v)\n%s", describe(g), m, m2, err, posJSON(t, g))
				}
				mustApply(t, g, g.Turn(), m)
				positions++
			}
			if !g.Over() {
				t.Fatalf("%s seed %d: the deal did not end", describe(g), seed)
			}
		}
	}
	t.Logf("%d positions, %d with hidden cards moved", positions, moved)
	if moved < positions/2 {
		t.Errorf("hidden cards moved in only %d of %d positions", moved, positions)
	}
}

// TestBotDeterministic: the same seed and deal give the same moves.
func TestBotDeterministic(t *testing.T) {
	r, err := NewRules(Fechado, 4)
	if err != nil {
		t.Fatal(err)
	}
	play := func() []string {
		g, err := Deal(r, 1, 99, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := NewBot(NewRand(7))
		var out []string
		for !g.Over() {
			m, err := b.Move(g)
			if err != nil {
				t.Fatal(err)
			}
			mustApply(t, g, g.Turn(), m)
			out = append(out, m.String())
		}
		return out
	}
	a, b := play(), play()
	if !slices.Equal(a, b) {
		t.Fatalf("two plays differ: %d and %d moves", len(a), len(b))
	}
}

func TestBotErrors(t *testing.T) {
	var zero Game
	if _, err := NewBot(nil).Move(&zero); ErrorCode(err) != ErrDealOver {
		t.Errorf("zero game: %v", err)
	}
	g := loadPos(t, Fechado, 2, "", `{"turn":0,"hands":[["4C","KH"],["3D"]],"stock":[],"discard":["9S"],"pots":[]}`)
	if _, err := NewBot(NewRand(1)).Move(g); ErrorCode(err) != ErrNotAllowed {
		t.Errorf("nothing to take: %v", err)
	}
}

// TestBotFechadoPickupWithHandCards: the bot takes a fechado pile by laying
// the top card with its hand cards, never with the hidden cards under it.
func TestBotFechadoPickupWithHandCards(t *testing.T) {
	g := loadPos(t, Fechado, 2, "", `{"turn":0,"hands":[["8C","KH","4D"],["3D"]],
	 "stock":["8S"],"discard":["TC","JC","9C"],"pots":[["4S"],["5S"]],"melds":[[["5C","6C","7C"]],[]]}`)
	seen := g.seenBy(0).seenMoves(0)
	want := PickupAttachMove(0, MustParseCard("8C"))
	if !slices.ContainsFunc(seen, func(m Move) bool { return m.String() == want.String() }) {
		t.Fatalf("moves %v, want %s among them", seen, want)
	}
	for _, m := range seen {
		if m.Kind == Pickup && (slices.Contains(m.Cards, MustParseCard("TC")) || slices.Contains(m.Cards, MustParseCard("JC"))) {
			t.Fatalf("%s uses a hidden pile card", m)
		}
		mustApply(t, g.Clone(), 0, m)
	}
}
