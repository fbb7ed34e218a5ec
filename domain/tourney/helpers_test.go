package tourney

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/burraco/burraco/domain/pairing"
	"github.com/google/go-cmp/cmp"
)

// Actors of the tests. Players of entry i are 100i+1 and 100i+2 (a team's
// are 100i+1..100i+4); their users are the player id + 10000.
var (
	director = Actor{UserID: 1, Director: true}
	referee  = Actor{UserID: 2, Referee: true}
	stranger = Actor{UserID: 3, Players: []int64{99999}}
)

func player(id int64) Actor { return Actor{UserID: 10000 + id, Players: []int64{id}} }

// harness runs a tournament through Decide and Apply, keeping the log.
type harness struct {
	t      testing.TB
	setup  Config
	s      *State
	events []Event
	clock  time.Time
	rnd    pairing.Rand
}

func newHarness(t testing.TB, setup Config) *harness {
	t.Helper()
	s, err := New(setup)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &harness{t: t, setup: setup, s: s, clock: time.Date(2026, 3, 14, 15, 0, 0, 0, time.UTC), rnd: pairing.NewRand(42)}
}

// pairsSetup is a pairs tournament at tables of 4 with the set-up's
// defaults.
func pairsSetup(movement Movement, rounds, deals int) Config {
	return Config{Kind: KindPairs, PlayersPerTable: 4, DealsPerRound: deals, Rules: "fibur", LotsSeed: 7,
		Setup: Setup{Movement: movement, Rounds: rounds, MitchellStep: DefaultMitchellStep, TargetScore: DefaultTargetScore,
			RestVP: DefaultRestVP, RestMP: DefaultRestMP}}
}

// try decides a command and, when accepted, applies its event.
func (h *harness) try(cmd Command, who Actor) (Event, error) {
	h.t.Helper()
	h.clock = h.clock.Add(time.Minute)
	before := h.s.Seq()
	e, err := h.s.Decide(cmd, who, h.clock, h.rnd)
	if err != nil {
		if h.s.Seq() != before {
			h.t.Fatalf("Decide changed the state")
		}
		return e, err
	}
	h.checkRoundTrip(e)
	if err := h.s.Apply(e); err != nil {
		h.t.Fatalf("Apply refused what Decide made (%s): %v", e.Kind, err)
	}
	h.events = append(h.events, e)
	return e, nil
}

// do is try that must succeed.
func (h *harness) do(cmd Command, who Actor) Event {
	h.t.Helper()
	e, err := h.try(cmd, who)
	if err != nil {
		h.t.Fatalf("%s by %+v: %v", cmd.CommandName(), who, err)
	}
	return e
}

// refuse is try that must fail with the code.
func (h *harness) refuse(cmd Command, who Actor, code string) *Error {
	h.t.Helper()
	_, err := h.try(cmd, who)
	var te *Error
	if !errors.As(err, &te) {
		h.t.Fatalf("%s: got %v, want a %s refusal", cmd.CommandName(), err, code)
	}
	if te.Code != code {
		h.t.Fatalf("%s: got code %s (%v), want %s", cmd.CommandName(), te.Code, te, code)
	}
	return te
}

// checkRoundTrip: the event survives JSON unchanged.
func (h *harness) checkRoundTrip(e Event) {
	h.t.Helper()
	data, err := json.Marshal(e)
	if err != nil {
		h.t.Fatal(err)
	}
	var back Event
	if err := json.Unmarshal(data, &back); err != nil {
		h.t.Fatal(err)
	}
	if !reflect.DeepEqual(e, back) {
		h.t.Fatalf("event does not round-trip:\n%+v\n%+v", e, back)
	}
	p, err := DecodeEvent(back)
	if err != nil {
		h.t.Fatalf("DecodeEvent: %v", err)
	}
	again, _ := json.Marshal(p)
	if string(again) != string(e.Data) {
		h.t.Fatalf("payload does not round-trip:\n%s\n%s", e.Data, again)
	}
}

// checkReplay: replaying the log (after a JSON trip) gives the same state.
func (h *harness) checkReplay() {
	h.t.Helper()
	data, err := json.Marshal(h.events)
	if err != nil {
		h.t.Fatal(err)
	}
	var events []Event
	if err := json.Unmarshal(data, &events); err != nil {
		h.t.Fatal(err)
	}
	r, err := Replay(h.setup, events)
	if err != nil {
		h.t.Fatalf("Replay: %v", err)
	}
	a, err := json.Marshal(h.s)
	if err != nil {
		h.t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		h.t.Fatal(err)
	}
	if string(a) != string(b) {
		var x, y any
		_ = json.Unmarshal(a, &x)
		_ = json.Unmarshal(b, &y)
		h.t.Fatalf("replayed state differs:\n%s", cmp.Diff(x, y))
	}
}

// enterPairs opens registration, enters n entries (by a player each) and
// closes registration.
func (h *harness) register(n int) {
	h.t.Helper()
	h.do(OpenRegistration{}, director)
	per := h.s.playersPerEntry()
	for i := 1; i <= n; i++ {
		var ps []int64
		for k := 1; k <= per; k++ {
			ps = append(ps, int64(100*i+k))
		}
		h.do(AddEntry{Players: ps, Club: "C" + string(rune('A'+i%5))}, player(ps[0]))
	}
	h.do(CloseRegistration{}, director)
}

// deal is a valid deal whose NS total is ns·5-ish and EW's ew: built from
// card points, one closing, a burraco where it helps.
func deal(n, ns, ew int) DealInput {
	return DealInput{Number: n, NS: sideParts(ns, true), EW: sideParts(ew, false)}
}

// sideParts makes parts adding up to total (a multiple of 5): the closing
// and a clean burraco for the closing side when there is room, burraco
// bonuses while the card points would pass 400, or for a negative total the
// cards in hand and the pot penalty.
func sideParts(total int, closes bool) Parts {
	p := Parts{Total: total}
	rest := total
	if rest < 0 {
		p.Hand = -rest
		if p.Hand > 100 {
			p.Pot, p.Hand = 100, p.Hand-100
		}
		return p
	}
	if closes && rest >= 300 {
		p.Closing, p.Burraco = 100, 200
		rest -= 300
	}
	for rest > 400 {
		p.Burraco += 200
		rest -= 200
	}
	p.Cards = rest
	return p
}

// sideAt is a player of the side at a table: NS's first, or EW's.
func (h *harness) sideAt(round, tbl int, side string) Actor {
	h.t.Helper()
	tv, err := h.s.Table(round, tbl)
	if err != nil {
		h.t.Fatal(err)
	}
	if h.s.setup.Kind == KindIndividual {
		id := map[string]int64{"ns": tv.N, "ew": tv.E}[side]
		return player(h.s.entries[id-1].Players[0])
	}
	id := map[string]int64{"ns": tv.NS, "ew": tv.EW}[side]
	return player(h.s.pairPlayers(id, max(tv.Pair, 1))[0])
}

func (h *harness) version(round, tbl int) int64 {
	h.t.Helper()
	tv, err := h.s.Table(round, tbl)
	if err != nil {
		h.t.Fatal(err)
	}
	return tv.Sheet.Version
}

// playDeal: NS enters the deal, EW confirms it.
func (h *harness) playDeal(round, tbl int, d DealInput) {
	h.t.Helper()
	h.do(EnterScore{Round: round, Table: tbl, Version: h.version(round, tbl), Deals: []DealInput{d}}, h.sideAt(round, tbl, "ns"))
	h.do(ConfirmScore{Round: round, Table: tbl, Version: h.version(round, tbl)}, h.sideAt(round, tbl, "ew"))
}

// scoreFunc gives the deal d of a table of a round.
type scoreFunc func(round int, tv TableView, d int) DealInput

// playRound draws, starts, plays every table (players enter and confirm)
// and closes round n.
func (h *harness) playRound(n int, score scoreFunc) RoundView {
	h.t.Helper()
	h.do(DrawRound{Round: n}, referee)
	h.do(StartRound{Round: n}, referee)
	rv, _ := h.s.Round(n)
	for _, tv := range rv.Tables {
		for d := 1; d <= h.s.setup.DealsPerRound; d++ {
			h.playDeal(n, tv.Number, score(n, tv, d))
		}
	}
	h.do(CloseRound{Round: n}, referee)
	rv, _ = h.s.Round(n)
	return rv
}

// varied is a score function whose results differ by table, deal and
// round, so standings separate.
func varied(round int, tv TableView, d int) DealInput {
	k := int(tv.NS+2*tv.EW+3*tv.N+5*tv.E) + 7*round + 11*d
	return deal(d, 100+5*(k*37%97), 50+5*(k*53%89))
}

func (h *harness) standings() Standings {
	h.t.Helper()
	st, err := h.s.Standings()
	if err != nil {
		h.t.Fatal(err)
	}
	return st
}

// playKnockoutRound plays a knockout round in which every NS wins its one
// deal past the target.
func (h *harness) playKnockoutRound(n int) {
	h.t.Helper()
	h.do(DrawRound{Round: n}, referee)
	h.do(StartRound{Round: n}, referee)
	rv, _ := h.s.Round(n)
	for _, tv := range rv.Tables {
		h.playDeal(n, tv.Number, deal(1, 2100, 100))
	}
	h.do(CloseRound{Round: n}, referee)
}
