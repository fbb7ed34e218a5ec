package engine

import (
	"testing"
)

// simConfig is one rule set and player count of the random-play simulation.
type simConfig struct {
	id      RuleSet
	players int
	opts    func(*Options)
}

func simConfigs() []simConfig {
	return []simConfig{
		{Fibur, 4, nil}, {Fibur, 2, nil}, {FiburRow, 2, nil},
		{Reale, 4, nil}, {Reale, 2, nil},
		{Aberto, 4, nil}, {Aberto, 2, nil},
		{Fechado, 4, nil}, {Fechado, 2, nil},
		{Fibur, 4, func(o *Options) { o.ClosingDiscard = ClosingNoPinella; o.SemiCleanSet = SemiCleanSetAtLeast8 }},
		{Aberto, 4, func(o *Options) { o.AbertoSets = AbertoSetsThreesAces; o.Jokers = false; o.Direction = Anticlockwise }},
		{Fechado, 4, func(o *Options) { o.RealCanastra = true; o.RoundUp10 = true; o.CanastraBonus = CanastraBonus150 }},
	}
}

func (c simConfig) rules(t testing.TB) Rules {
	r, err := NewRules(c.id, c.players)
	if err != nil {
		t.Fatal(err)
	}
	if c.opts != nil {
		c.opts(&r.Options)
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// bot picks random legal moves: it takes (mostly drawing), lays what it can
// with some probability, then discards at random.
type bot struct {
	rng *Rand
}

func (b *bot) choose(g *Game) (Move, bool) {
	moves := g.LegalMoves(g.Turn())
	if len(moves) == 0 {
		return Move{}, false
	}
	var takes, lays, discards []Move
	for _, m := range moves {
		switch m.Kind {
		case Draw, Pickup, Redraw:
			takes = append(takes, m)
		case MeldCards, AttachCards:
			lays = append(lays, m)
		case Discard:
			discards = append(discards, m)
		}
	}
	pick := func(ms []Move) Move { return ms[b.rng.IntN(len(ms))] }
	switch {
	case g.Phase() == PhaseTake:
		if len(takes) > 1 && b.rng.IntN(4) == 0 {
			return takes[1+b.rng.IntN(len(takes)-1)], true
		}
		return takes[0], true
	case len(lays) > 0 && b.rng.IntN(10) < 8:
		return pick(lays), true
	case len(takes) > 0 && b.rng.IntN(3) == 0: // redraw
		return takes[0], true
	case len(discards) > 0:
		return pick(discards), true
	case len(lays) > 0:
		return pick(lays), true
	}
	return pick(moves), true
}

const maxSimMoves = 3000

// playRandomDeal plays one deal from Deal(seed) with the bot. With check it
// verifies the invariants after every move and that a random illegal
// candidate changes nothing.
func playRandomDeal(t testing.TB, r Rules, seed uint64, check bool) (*Game, int) {
	t.Helper()
	var totals []int
	if r.ID.Brazilian() && seed%3 == 0 {
		totals = make([]int, r.Teams())
		totals[0] = r.Options.Target / 2
	}
	g, err := Deal(r, int(seed%uint64(r.Players)), seed, totals)
	if err != nil {
		t.Fatal(err)
	}
	deck := countCards(g)
	b := &bot{rng: NewRand(seed ^ 0x5eed)}
	n := 0
	for !g.Over() {
		if n >= maxSimMoves {
			if err := g.EndByReferee(); err != nil {
				t.Fatal(err)
			}
			break
		}
		if check && n%7 == 0 {
			probeIllegal(t, g, b.rng)
		}
		m, ok := b.choose(g)
		if !ok {
			// A stalled deal: no legal move. Dealt deals must never stall;
			// the referee can still end one.
			if check {
				t.Fatalf("%s seed %d: no legal move\n%s", describe(g), seed, posJSON(t, g))
			}
			if err := g.EndByReferee(); err != nil {
				t.Fatal(err)
			}
			break
		}
		if err := g.Apply(g.Turn(), m); err != nil {
			t.Fatalf("%s seed %d: legal move %s rejected: %v\n%s", describe(g), seed, m, err, posJSON(t, g))
		}
		n++
		if check {
			checkInvariants(t, g, deck)
		}
	}
	if check {
		checkInvariants(t, g, deck)
		roundTrip(t, g)
	}
	return g, n
}

// probeIllegal applies a random candidate or a move by the wrong seat; when
// it is rejected, nothing may change.
func probeIllegal(t testing.TB, g *Game, rng *Rand) {
	t.Helper()
	cands := g.candidates(g.Turn())
	cands = append(cands, AttachMove(0, Joker), DiscardMove(Joker), PickupMove(), DrawMove(), RedrawMove())
	m := cands[rng.IntN(len(cands))]
	seat := g.Turn()
	if rng.IntN(5) == 0 {
		seat = rng.IntN(g.Players())
	}
	if g.Check(seat, m) == nil {
		return
	}
	wantRejectAny(t, g, seat, m)
}

func wantRejectAny(t testing.TB, g *Game, seat int, m Move) {
	t.Helper()
	before := posJSON(t, g)
	err := g.Apply(seat, m)
	if err == nil {
		t.Fatalf("Check refused %s but Apply accepted it", m)
	}
	if ErrorCode(err) == "" {
		t.Fatalf("%s: error without a code: %v", m, err)
	}
	if after := posJSON(t, g); after != before {
		t.Fatalf("rejected %s (%v) changed the position", m, err)
	}
}

// roundTrip checks that exporting and reloading the position gives the same
// position.
func roundTrip(t testing.TB, g *Game) {
	t.Helper()
	p := g.Position()
	h, err := LoadPosition(p)
	if err != nil {
		t.Fatalf("reload exported position: %v\n%s", err, posJSON(t, g))
	}
	if a, b := posJSON(t, g), posJSON(t, h); a != b {
		t.Fatalf("position round trip differs:\n%s\n%s", a, b)
	}
}

func TestRandomPlay(t *testing.T) {
	deals := 200
	if testing.Short() {
		deals = 15
	}
	for _, c := range simConfigs() {
		r := c.rules(t)
		name := string(r.ID) + "/" + string(rune('0'+r.Players))
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ends := map[EndReason]int{}
			moves := 0
			for i := range deals {
				g, n := playRandomDeal(t, r, uint64(i)*7919+uint64(r.Players), true)
				ends[g.EndReason()]++
				moves += n
			}
			t.Logf("%d deals, %d moves, ends %v", deals, moves, ends)
		})
	}
}
