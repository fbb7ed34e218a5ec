package engine

import (
	"fmt"
	"os"
	"strconv"
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

// maxSimMoves bounds the moves of a simulated deal: every deal must end
// (closed or stock exhausted) well before it; a deal that reaches it fails
// the test.
const maxSimMoves = 3000

// simStats tallies what simulated deals did, to show the simulation
// reaches every part of the rules.
type simStats struct {
	deals, moves int
	ends         [len(endNames)]int // by EndReason
	injected     int                // referee endings injected by refereeAt (all the ByReferee ends)
	potDirect    int                // pots taken by emptying the hand
	potDiscard   int                // pots taken with a discard
	potStock     int                // untaken pots turned into the stock (reale, Brazilian)
	closings     int
	pickups      int // pile pickups (in fechado: with the top card laid at once)
	rowPlays     int // fibur-row moves playing a row card
	redraws      int
	mustKeep     int // meld and attach candidates refused with must_keep_card
}

func (s *simStats) add(o simStats) {
	s.deals, s.moves, s.injected = s.deals+o.deals, s.moves+o.moves, s.injected+o.injected
	for i, n := range o.ends {
		s.ends[i] += n
	}
	s.potDirect, s.potDiscard, s.potStock = s.potDirect+o.potDirect, s.potDiscard+o.potDiscard, s.potStock+o.potStock
	s.closings, s.pickups, s.rowPlays = s.closings+o.closings, s.pickups+o.pickups, s.rowPlays+o.rowPlays
	s.redraws, s.mustKeep = s.redraws+o.redraws, s.mustKeep+o.mustKeep
}

// record notes what move m did to the game, given the pots before it.
func (s *simStats) record(g *Game, m Move, potsBefore, takenBefore int) {
	s.moves++
	taken := 0
	for _, t := range g.potTaken {
		if t {
			taken++
		}
	}
	switch {
	case len(g.pots) == potsBefore:
	case taken == takenBefore:
		s.potStock++
	case m.Kind == Discard:
		s.potDiscard++
	default:
		s.potDirect++
	}
	switch {
	case m.Kind == Pickup:
		s.pickups++
	case m.Kind == Redraw:
		s.redraws++
	}
	if m.Row {
		s.rowPlays++
	}
}

// refereeAt returns the move at which the referee ends the deal of seed
// (time-out), or -1: one deal in 25.
func refereeAt(seed uint64) int {
	if seed%25 != 3 {
		return -1
	}
	return 10 + int(seed/25%80)
}

// playRandomDeal plays one deal from Deal(seed) with the greedy bot (with
// uniform: a bot picking uniformly among LegalMoves) and tallies it in
// stats (which may be nil). With check it verifies the invariants after
// every move, that random illegal candidates change nothing, and that the
// candidates refused with must_keep_card change nothing. The deal must end
// by itself (closed or stock exhausted) within maxSimMoves, unless refereeAt
// injects a referee ending (tallied apart); a deal that stalls or runs past
// the bound fails the test.
func playRandomDeal(t testing.TB, r Rules, seed uint64, uniform, check bool, stats *simStats) (*Game, int) {
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
	var st simStats
	deck := countCards(g)
	b := &bot{rng: NewRand(seed ^ 0x5eed), hesitant: seed%5 == 1}
	n, stop := 0, refereeAt(seed)
	for !g.Over() {
		if n == stop {
			if err := g.EndByReferee(); err != nil {
				t.Fatal(err)
			}
			st.injected++
			break
		}
		if n >= maxSimMoves {
			t.Fatalf("%s seed %d (%s bot, options %+v): the deal did not end in %d moves\n%s",
				describe(g), seed, botName(uniform), r.Options, maxSimMoves, posJSON(t, g))
		}
		if check && n%7 == 0 {
			probeIllegal(t, g, b.rng)
		}
		if check && g.phase == PhasePlay && len(g.hands[g.turn]) <= 4 {
			st.mustKeep += probeMustKeep(t, g)
		}
		var m Move
		var ok bool
		if uniform {
			m, ok = randomMove(g, b.rng)
		} else {
			m, ok = b.choose(g)
		}
		if !ok {
			// A stalled deal: no legal move. Dealt deals must never stall.
			t.Fatalf("%s seed %d (%s bot, options %+v): no legal move\n%s", describe(g), seed, botName(uniform), r.Options, posJSON(t, g))
		}
		pots, taken := len(g.pots), 0
		for _, t := range g.potTaken {
			if t {
				taken++
			}
		}
		if err := g.Apply(g.Turn(), m); err != nil {
			t.Fatalf("%s seed %d (%s bot): legal move %s rejected: %v\n%s", describe(g), seed, botName(uniform), m, err, posJSON(t, g))
		}
		st.record(g, m, pots, taken)
		n++
		if check {
			checkInvariants(t, g, deck)
		}
	}
	if check {
		checkInvariants(t, g, deck)
		roundTrip(t, g)
	}
	st.deals++
	st.ends[g.EndReason()]++
	if g.EndReason() == Closed {
		st.closings++
	}
	if stats != nil {
		stats.add(st)
	}
	return g, n
}

// probeMustKeep tries the meld and attach candidates of a small hand and
// returns how many were refused with must_keep_card, checking that each
// refusal changes nothing.
func probeMustKeep(t testing.TB, g *Game) int {
	t.Helper()
	n := 0
	for _, m := range g.candidates(g.turn) {
		if (m.Kind == MeldCards || m.Kind == AttachCards) && ErrorCode(g.Check(g.turn, m)) == ErrMustKeepCard {
			wantRejectAny(t, g, g.turn, m)
			n++
		}
	}
	return n
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

func botName(uniform bool) string {
	if uniform {
		return "uniform"
	}
	return "greedy"
}

// simDeals is how many deals TestRandomPlay plays with each bot for one
// configuration. BURRACO_SIM_DEALS=N sets it for every configuration (the
// deep run: N=1000 plays 2,000 complete deals per rule set and player
// count). Otherwise it is sized for CI, where the engine runs without the
// race detector beside the other packages' race step: 50 with each bot
// (100 complete deals) for each rule set and player count and each option
// mix, which meets each rule the tallies look for (checkSimStats); 15
// under -short, which need not. (CI played 100 per bot for the plain
// configurations until make test had to fit in 4 minutes on two cores.)
func simDeals(t *testing.T) int {
	if s := os.Getenv("BURRACO_SIM_DEALS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("BURRACO_SIM_DEALS=%q: want a positive number", s)
		}
		return n
	}
	if testing.Short() {
		return 15
	}
	return 50
}

// TestRandomPlay plays complete deals of every configuration (rule set,
// player count, option mixes) with two bots: the greedy beginner, and a bot
// that picks uniformly among LegalMoves. It checks the invariants after
// every move, that every deal ends by itself within maxSimMoves (referee
// endings are only the injected ones, tallied apart), and tallies how the
// deals ended and which rules they met: the greedy bot must close a healthy
// share of deals (it plays to close), and meet the rules each rule set has
// (pots taken both ways, pots turned into the stock, fechado pickups, row
// play, redraws, must_keep_card).
func TestRandomPlay(t *testing.T) {
	for _, c := range simConfigs() {
		r := c.rules(t)
		name := fmt.Sprintf("%s/%d", r.ID, r.Players)
		if c.opts != nil {
			name += "/options"
		}
		deals := simDeals(t)
		for _, uniform := range []bool{false, true} {
			name := name + "/" + botName(uniform)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				var st simStats
				base := uint64(r.Players)
				if uniform {
					base += 1_000_003
				}
				if c.opts != nil {
					base += 500_009 // other deals than the plain configuration's
				}
				for i := range deals {
					playRandomDeal(t, r, uint64(i)*7919+base, uniform, true, &st)
				}
				t.Logf("%s: %d deals, %d moves: closed %d, stock exhausted %d, referee (injected) %d; pots direct %d, with a discard %d, as stock %d; pickups %d, row plays %d, redraws %d, must_keep_card %d",
					name, st.deals, st.moves, st.ends[Closed], st.ends[StockOut], st.injected,
					st.potDirect, st.potDiscard, st.potStock, st.pickups, st.rowPlays, st.redraws, st.mustKeep)
				checkSimStats(t, r, st, uniform, testing.Short())
			})
		}
	}
}

// minClosedShare is the share of deals (in %) the greedy bot must close in
// every configuration. It closes about 27% of the fibur-row deals (the row
// must be cleared too) and 45% or more of every other configuration's.
const minClosedShare = 20

func checkSimStats(t *testing.T, r Rules, st simStats, uniform, short bool) {
	t.Helper()
	if st.ends[Closed]+st.ends[StockOut]+st.injected != st.deals || st.ends[ByReferee] != st.injected {
		t.Errorf("%d deals: closed %d, stock exhausted %d, referee %d of which injected %d",
			st.deals, st.ends[Closed], st.ends[StockOut], st.ends[ByReferee], st.injected)
	}
	if !uniform && 100*st.ends[Closed] < minClosedShare*st.deals {
		t.Errorf("only %d of %d deals closed (want at least %d%%)", st.ends[Closed], st.deals, minClosedShare)
	}
	if short {
		return
	}
	want := map[string]int{"injected referee endings": st.injected}
	if !uniform {
		want["pots taken directly"] = st.potDirect
		want["pots taken with a discard"] = st.potDiscard
		want["pickups"] = st.pickups
		want["must_keep_card refusals"] = st.mustKeep
		if !r.ID.twoCardRule() {
			want["pots turned into the stock"] = st.potStock
		}
		if r.ID == FiburRow {
			want["row plays"] = st.rowPlays
		}
		if r.ID.Brazilian() {
			want["redraws"] = st.redraws
		}
	}
	for what, n := range want {
		if n == 0 {
			t.Errorf("no %s in %d deals", what, st.deals)
		}
	}
}
