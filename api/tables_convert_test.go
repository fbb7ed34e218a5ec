package api

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// TestStateConversionMatchesJSON: the direct conversions of the state's
// engine values (dealViewOut, optionsOut, lastMoveOut, tableOptions) give
// exactly what the trip through the engine's JSON gives, nil and empty
// slices included, over random positions of every rule set and player
// count with random options: bots play whole deals, with referee time-outs
// and deals ended by the referee, and every seat's view (and a
// spectator's) is compared along the way and at the end.
//
// It plays 12 deals of each configuration; 3 under -short; 1 under the
// race detector, where the conversions' shared cache is what matters and
// the parallel table tests hit it at the same time (.ci/test.sh runs the
// full size without the detector).
func TestStateConversionMatchesJSON(t *testing.T) {
	t.Parallel()
	deals := 12
	switch {
	case raceEnabled:
		deals = 1
	case testing.Short():
		deals = 3
	}
	rng := rand.New(rand.NewPCG(7, 11))
	views := 0
	for _, id := range engine.RuleSets() {
		for _, players := range []int{2, 4} {
			r, err := engine.NewRules(id, players)
			if err != nil {
				continue // fibur-row is played by 2
			}
			for d := range deals {
				r.Options = randomOptions(t, rng, id)
				name := fmt.Sprintf("%s-%d-deal%d", id, players, d)
				views += playAndCompare(t, name, r, rng)
			}
		}
	}
	t.Logf("%d views compared", views)
	if views < 300*deals {
		t.Fatalf("compared %d views in %d deals per configuration: the games ended too early to test much", views, deals)
	}
}

// randomOptions picks a random valid options object of rule set id: each
// option's value drawn from the catalogue's values (the target from its
// range), the draw repeated until the engine accepts it.
func randomOptions(t *testing.T, rng *rand.Rand, id engine.RuleSet) engine.Options {
	t.Helper()
	info, ok := engine.RuleSetCatalog(id)
	if !ok {
		t.Fatalf("no catalogue for %s", id)
	}
	for range 100 {
		raw := map[string]any{}
		for _, o := range info.Options {
			switch {
			case len(o.Values) > 0:
				raw[o.Key] = o.Values[rng.IntN(len(o.Values))]
			case o.Minimum != nil && o.Maximum != nil:
				raw[o.Key] = *o.Minimum + rng.IntN(min(*o.Maximum-*o.Minimum+1, 5000))
			}
		}
		b, _ := json.Marshal(raw)
		if opts, err := engine.ParseOptions(id, b); err == nil {
			return opts
		}
	}
	t.Fatalf("no valid random options for %s", id)
	return engine.Options{}
}

// playAndCompare plays a deal with bots and compares the conversions at
// random moments; it returns the number of views compared.
func playAndCompare(t *testing.T, name string, r engine.Rules, rng *rand.Rand) int {
	t.Helper()
	g, err := engine.Deal(r, rng.IntN(r.Players), rng.Uint64(), nil)
	if err != nil {
		t.Fatalf("%s: deal: %v", name, err)
	}
	compareOptions(t, name, r)
	bot := engine.NewBot(engine.NewRand(rng.Uint64()))
	timeoutAt, refereeAt := -1, -1
	switch rng.IntN(4) {
	case 0:
		timeoutAt = rng.IntN(120)
	case 1:
		refereeAt = rng.IntN(200)
	}
	views := 0
	for n := 0; !g.Over() && n < 2000; n++ {
		if n == timeoutAt {
			_ = g.CallTimeOut() // refused in some phases: the view says so either way
		}
		if n == refereeAt {
			if err := g.EndByReferee(); err != nil {
				t.Fatalf("%s: end by referee: %v", name, err)
			}
			break
		}
		if n%5 == 0 || rng.IntN(8) == 0 {
			views += compareViews(t, fmt.Sprintf("%s move %d", name, n), g)
		}
		seat := g.Turn()
		m, err := bot.Move(g)
		if err != nil {
			t.Fatalf("%s: bot: %v", name, err)
		}
		if err := g.Apply(seat, m); err != nil {
			t.Fatalf("%s: apply %v: %v", name, m, err)
		}
		compareMove(t, name, seat, m)
	}
	return views + compareViews(t, name+" end", g)
}

// compareViews compares every seat's view of g, and a spectator's.
func compareViews(t *testing.T, name string, g *engine.Game) int {
	t.Helper()
	for seat := -1; seat < g.Players(); seat++ {
		v := g.View(seat)
		got, want := dealViewOut(&v), convertJSON[DealView](v)
		want.StartTotals = want.Totals // the engine's totals, under the name that says which
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s seat %d: direct view\n%#v\nJSON trip\n%#v", name, seat, got, want)
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(want)
		if string(gb) != string(wb) {
			t.Fatalf("%s seat %d: direct view writes\n%s\nJSON trip\n%s", name, seat, gb, wb)
		}
	}
	return g.Players() + 1
}

// compareMove compares the last move's conversion.
func compareMove(t *testing.T, name string, seat int, m engine.Move) {
	t.Helper()
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	lm := &domain.LastMove{Seat: seat, Move: b}
	got, want := lastMoveOut(lm), &LastMove{Seat: seat, Move: convertJSON[MoveNotation](lm.Move)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: move %s: direct %#v, JSON trip %#v", name, b, got, want)
	}
}

// compareOptions compares the options' conversions: from the engine's
// value, and from the stored JSON (twice: read, then from the cache).
func compareOptions(t *testing.T, name string, r engine.Rules) {
	t.Helper()
	want := convertJSON[TableOptions](r.Options)
	if got := optionsOut(r.ID, r.Options); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: options direct %#v, JSON trip %#v", name, got, want)
	}
	raw, _ := json.Marshal(r.Options)
	for range 2 {
		got := tableOptions(raw)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: options from %s: %#v, want %#v", name, raw, got, want)
		}
		if got.Jokers != nil { // a copy of its own: the cached value does not change
			*got.Jokers = !*got.Jokers
		}
	}
}
