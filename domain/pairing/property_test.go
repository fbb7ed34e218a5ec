package pairing

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
)

// events is how many random events each property test plays.
const events = 250

// randomEvent is a field of 2..60 entries, clubs kept apart half the time
// (many clubs in large fields, few in small ones, so some small fields
// cannot be paired), and sometimes a referee's forbidden pair.
func randomEvent(rnd *rand.Rand) Field {
	n := 2 + rnd.IntN(59)
	f := field(rnd, n, 2+n/3)
	f.ForbidSameClub = rnd.IntN(2) == 0
	if rnd.IntN(3) == 0 {
		f.Forbidden = append(f.Forbidden, [2]int64{int64(101 + rnd.IntN(n)), int64(101 + rnd.IntN(n))})
	}
	return f
}

type searched struct {
	name    string
	draw    func(f Field, last bool, rnd Rand) (Round, error)
	avoid   bool // no rematch while avoidable
	notLast bool // never the previous round's opponent, except in the last round
}

var searchedMovements = []searched{
	{"Danish", func(f Field, _ bool, _ Rand) (Round, error) { return Danish(f) }, false, false},
	{"ModifiedDanish", func(f Field, last bool, _ Rand) (Round, error) { return ModifiedDanish(f, last) }, false, true},
	{"ModifiedDanishAvoidingRepeats", func(f Field, last bool, _ Rand) (Round, error) { return ModifiedDanishAvoidingRepeats(f, last) }, true, true},
	{"RandomDraw", func(f Field, _ bool, rnd Rand) (Round, error) { return RandomDraw(f, rnd) }, true, false},
}

func TestSearchedMovementsKeepTheirRulesOverRandomFields(t *testing.T) {
	for _, m := range searchedMovements {
		t.Run(m.name, func(t *testing.T) {
			refused := 0
			for seed := range uint64(events) {
				rnd := rand.New(rand.NewPCG(seed, 7))
				f := randomEvent(rnd)
				rounds := 1 + rnd.IntN(7)
				for r := 1; r <= rounds; r++ {
					last := r == rounds
					f.Standings = standingsAfter(rnd, f)
					round, err := m.draw(f, last, rnd)
					if err != nil {
						checkRefusalIsRight(t, m, f, last, err)
						refused++
						break
					}
					checkOnce(t, f, round)
					checkNoForbidden(t, f, round)
					checkSearchedRound(t, m, f, round, last)
					f.History = append(f.History, round)
				}
			}
			t.Logf("%d of %d events met a field that could not be paired (checked exhaustively)", refused, events)
		})
	}
}

// checkRefusalIsRight accepts a refusal only for a small field that an
// exhaustive search confirms cannot be paired under the hard constraints.
func checkRefusalIsRight(t *testing.T, m searched, f Field, last bool, err error) {
	t.Helper()
	var pe *Error
	if !errors.As(err, &pe) || pe.Code != CodeUnpairable || len(pe.Entries) == 0 {
		t.Fatalf("refusal %v is not an unpairable error listing entries", err)
	}
	if len(f.Entries) > 12 {
		t.Fatalf("%d entries refused: %v", len(f.Entries), err)
	}
	hard := func(a, b int64) bool {
		return !forbidden(f, a, b) && (!m.notLast || last || met(f, a, b, true) == 0)
	}
	if canPair(idsOf(f), idsOf(f), hard) {
		t.Fatalf("refused a field that can be paired: %v", err)
	}
}

func checkSearchedRound(t *testing.T, m searched, f Field, round Round, last bool) {
	t.Helper()
	small := len(f.Entries) <= 12
	if len(round.Byes) > 0 {
		byes := map[int64]int{}
		for _, h := range f.History {
			for _, b := range h.Byes {
				byes[b]++
			}
		}
		fewest := fewestByes(f)
		if byes[round.Byes[0]] > byes[fewest[0]] {
			// Only when no entry with the fewest byes could sit out.
			ok := func(a, b int64) bool { return !forbidden(f, a, b) && (!m.notLast || last || met(f, a, b, true) == 0) }
			if !small || canPair(idsOf(f), fewest, ok) {
				t.Fatalf("bye to %d with %d byes while %d has %d", round.Byes[0], byes[round.Byes[0]], fewest[0], byes[fewest[0]])
			}
		}
	}
	for _, tb := range round.Tables {
		if m.notLast && !last && met(f, tb.NS, tb.EW, true) > 0 {
			t.Fatalf("%d–%d meet again in the round after", tb.NS, tb.EW)
		}
		if m.avoid && met(f, tb.NS, tb.EW, false) > 0 && small {
			fresh := func(a, b int64) bool { return !forbidden(f, a, b) && met(f, a, b, false) == 0 }
			if canPair(idsOf(f), fewestByes(f), fresh) {
				t.Fatalf("rematch %d–%d though a pairing without rematches exists", tb.NS, tb.EW)
			}
		}
	}
}

func TestRandomDrawIsReproducibleFromItsSeed(t *testing.T) {
	f := field(NewRand(1), 37, 0)
	a, err := RandomDraw(f, NewRand(42))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RandomDraw(f, NewRand(42))
	c, _ := RandomDraw(f, NewRand(43))
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed drew two different rounds")
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("two seeds drew the same round of 37 entries")
	}
}

func TestMitchellRotatesEWOverEveryTableOverRandomFields(t *testing.T) {
	for seed := range uint64(events) {
		rnd := rand.New(rand.NewPCG(seed, 11))
		f := randomEvent(rnd)
		n := len(f.Entries)
		tables := (n + 1) / 2
		step := 1
		for _, s := range []int{1, 2, 3, 5, 7} {
			if gcd(s, tables) == 1 && rnd.IntN(2) == 0 {
				step = s
			}
		}
		nsAt := map[int64]int{}
		visits := map[int64]map[int]bool{}
		byes := map[int64]int{}
		pairs := map[pairKey]int{}
		for r := 1; r <= tables; r++ {
			round, err := Mitchell(f, r, step)
			if err != nil {
				var pe *Error
				if !errors.As(err, &pe) || pe.Code != CodeForbidden || len(pe.Entries) < 2 || !forbidden(f, pe.Entries[0], pe.Entries[1]) {
					t.Fatalf("seed %d: %v", seed, err)
				}
				break
			}
			checkOnce(t, f, round)
			checkNoForbidden(t, f, round)
			for _, tb := range round.Tables {
				if at, ok := nsAt[tb.NS]; ok && at != tb.Number {
					t.Fatalf("NS %d moved from table %d to %d", tb.NS, at, tb.Number)
				}
				nsAt[tb.NS] = tb.Number
				if visits[tb.EW] == nil {
					visits[tb.EW] = map[int]bool{}
				}
				visits[tb.EW][tb.Number] = true
				pairs[key(tb.NS, tb.EW)]++
			}
			for _, b := range round.Byes {
				byes[b]++
			}
			if r == tables {
				checkFullMitchell(t, n, tables, visits, byes, pairs)
			}
		}
	}
}

func checkFullMitchell(t *testing.T, n, tables int, visits map[int64]map[int]bool, byes map[int64]int, pairs map[pairKey]int) {
	t.Helper()
	for ew, v := range visits {
		if len(v) != tables {
			t.Fatalf("EW %d visited %d of %d tables", ew, len(v), tables)
		}
	}
	for k, c := range pairs {
		if c != 1 {
			t.Fatalf("%v met %d times in one Mitchell", k, c)
		}
	}
	if n%2 == 1 && len(byes) != tables {
		t.Fatalf("%d entries had a bye; each of the %d NS entries should have one", len(byes), tables)
	}
	for id, c := range byes {
		if c != 1 {
			t.Fatalf("%d had %d byes", id, c)
		}
	}
}

func TestRoundRobinMeetsEveryPairOnceOverRandomFields(t *testing.T) {
	for n := 2; n <= 60; n++ {
		f := field(NewRand(uint64(n)), n, 0)
		m := n + n%2
		pairs := map[pairKey]int{}
		byes := map[int64]int{}
		for r := 1; r <= m-1; r++ {
			round, err := RoundRobin(f, r)
			if err != nil {
				t.Fatal(err)
			}
			checkOnce(t, f, round)
			for _, tb := range round.Tables {
				pairs[key(tb.NS, tb.EW)]++
			}
			for _, b := range round.Byes {
				byes[b]++
			}
		}
		if len(pairs) != n*(n-1)/2 {
			t.Fatalf("n=%d: %d pairs met, want %d", n, len(pairs), n*(n-1)/2)
		}
		for k, c := range pairs {
			if c != 1 {
				t.Fatalf("n=%d: %v met %d times", n, k, c)
			}
		}
		if n%2 == 1 && len(byes) != n {
			t.Fatalf("n=%d: %d entries had the bye, want all", n, len(byes))
		}
	}
}

func TestKnockoutPlaysDownToAChampionOverRandomFields(t *testing.T) {
	for seed := range uint64(events) {
		rnd := rand.New(rand.NewPCG(seed, 13))
		n := 2 + rnd.IntN(59)
		f := field(rnd, n, 0)
		rnd.Shuffle(n, func(i, j int) { f.Entries[i], f.Entries[j] = f.Entries[j], f.Entries[i] })
		b, err := SeedBracket(f.Entries)
		if err != nil {
			t.Fatal(err)
		}
		size := len(b.Slots)
		if size < n || size >= 2*n || size&(size-1) != 0 {
			t.Fatalf("n=%d: bracket of %d", n, size)
		}
		first := b.Round()
		checkTopSeedsHaveTheByes(t, f, first, size-n)
		alive := n
		for rounds := 0; ; rounds++ {
			if champ, ok := b.Champion(); ok {
				if alive != 1 || 1<<rounds != size {
					t.Fatalf("n=%d: champion %d after %d rounds with %d alive", n, champ, rounds, alive)
				}
				break
			}
			r := b.Round()
			if 2*len(r.Tables)+len(r.Byes) != alive {
				t.Fatalf("n=%d: round seats %d of %d alive", n, 2*len(r.Tables)+len(r.Byes), alive)
			}
			var winners []int64
			for _, tb := range r.Tables {
				winners = append(winners, []int64{tb.NS, tb.EW}[rnd.IntN(2)])
			}
			if b, err = b.Advance(winners); err != nil {
				t.Fatal(err)
			}
			alive -= len(r.Tables)
		}
	}
}

func checkTopSeedsHaveTheByes(t *testing.T, f Field, r Round, want int) {
	t.Helper()
	if len(r.Byes) != want {
		t.Fatalf("%d byes, want %d", len(r.Byes), want)
	}
	seed := map[int64]int{}
	for _, e := range f.Entries {
		seed[e.ID] = e.Seed
	}
	for _, b := range r.Byes {
		if seed[b] > want {
			t.Fatalf("bye to seed %d; the %d byes go to the top seeds", seed[b], want)
		}
	}
}

func TestIndividualKeepsItsRulesOverRandomFields(t *testing.T) {
	for seed := range uint64(events) {
		rnd := rand.New(rand.NewPCG(seed, 17))
		n := 4 + rnd.IntN(57)
		pf := field(rnd, n, 2+n/3)
		f := IndividualField{Players: pf.Entries, ForbidSameClub: rnd.IntN(3) == 0}
		for r := 1; r <= 1+rnd.IntN(6); r++ {
			round, err := Individual(f, rnd)
			if err != nil {
				var pe *Error
				if !errors.As(err, &pe) || pe.Code != CodeUnpairable || !f.ForbidSameClub {
					t.Fatalf("seed %d round %d: %v", seed, r, err)
				}
				break
			}
			checkIndividualRound(t, f, round, !f.ForbidSameClub && n >= 8 && r <= 3)
			f.History = append(f.History, round)
		}
	}
}

func checkIndividualRound(t *testing.T, f IndividualField, r IndividualRound, freshPartners bool) {
	t.Helper()
	pf := Field{Entries: f.Players, ForbidSameClub: f.ForbidSameClub}
	count := map[int64]int{}
	partners := map[pairKey]bool{}
	byes := map[int64]int{}
	for _, h := range f.History {
		for _, tb := range h.Tables {
			partners[key(tb.N, tb.S)], partners[key(tb.E, tb.W)] = true, true
		}
		for _, b := range h.Byes {
			byes[b]++
		}
	}
	for _, tb := range r.Tables {
		seats := []int64{tb.N, tb.S, tb.E, tb.W}
		for i, a := range seats {
			count[a]++
			for _, b := range seats[i+1:] {
				if forbidden(pf, a, b) {
					t.Fatalf("forbidden %d and %d at table %d", a, b, tb.Number)
				}
			}
		}
		if freshPartners && (partners[key(tb.N, tb.S)] || partners[key(tb.E, tb.W)]) {
			t.Fatalf("repeated partners at table %+v", tb)
		}
	}
	onBye := map[int64]bool{}
	for _, b := range r.Byes {
		count[b]++
		onBye[b] = true
	}
	for _, p := range f.Players {
		if count[p.ID] != 1 {
			t.Fatalf("player %d appears %d times", p.ID, count[p.ID])
		}
		for _, b := range r.Byes {
			if !onBye[p.ID] && byes[p.ID] < byes[b] {
				t.Fatalf("bye to %d (%d byes) while %d plays with %d", b, byes[b], p.ID, byes[p.ID])
			}
		}
	}
	if len(r.Byes) != len(f.Players)%4 {
		t.Fatalf("%d byes for %d players", len(r.Byes), len(f.Players))
	}
}
