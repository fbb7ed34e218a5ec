package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/engine"
)

// restByJSON is what encoding/json writes of s after its table: the
// reference appendStateRest must equal.
func restByJSON(t testing.TB, s TableState) []byte {
	t.Helper()
	s.Table = Table{}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := json.Marshal(Table{})
	if err != nil {
		t.Fatal(err)
	}
	prefix := append([]byte(`{"table":`), zero...)
	if !bytes.HasPrefix(b, prefix) {
		t.Fatalf("encoding/json wrote the state's table otherwise: %s", b)
	}
	return b[len(prefix):]
}

// fill sets every field reachable from v (a pointer's, a slice's elements,
// a struct's fields) to a value that is not its type's zero, each a little
// different (n counts), so that encoding/json writes every field: a field
// appendStateRest does not write shows as a difference. Booleans are true
// and false in turn, flip saying which comes first: every boolean is true
// in one of the two fills, and two of them swapped differ in one.
func fill(t testing.TB, v reflect.Value, n *int, flip bool) {
	t.Helper()
	*n++
	switch v.Type() {
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Date(2026, 11, 29, 4, 30, *n%60, *n*1000+7, time.UTC)))
		return
	case reflect.TypeFor[json.RawMessage]():
		v.Set(reflect.ValueOf(json.RawMessage(fmt.Sprintf(` { "cards" : [ "5H", "6H" ], "n": %d } `, *n))))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool((*n%2 == 0) != flip)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), n, flip)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(t, v.Index(i), n, flip)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i), n, flip)
		}
	default:
		t.Fatalf("fill: a field of kind %s (%s): teach fill and appendStateRest", v.Kind(), v.Type())
	}
}

// emptySlices sets every slice reachable from v to an empty, non-nil
// slice (which encoding/json writes [] where nil is null, and omits where
// the field says omitempty, not where it says omitzero).
func emptySlices(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			emptySlices(v.Elem())
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			return
		}
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		}
		for i := range v.Len() {
			emptySlices(v.Index(i))
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return
		}
		for i := range v.NumField() {
			emptySlices(v.Field(i))
		}
	}
}

// TestTheStateEncodesAsEncodingJSONDoes: appendStateRest writes, for a
// state with every field set, with none, and with empty slices, the bytes
// encoding/json writes, or says it cannot; encodeState's answer is
// json.Marshal's in every case, strings to escape, times out of range and
// numbers JSON cannot hold included.
func TestTheStateEncodesAsEncodingJSONDoes(t *testing.T) {
	filled := func(flip bool) TableState {
		var s TableState
		n := 0
		fill(t, reflect.ValueOf(&s).Elem(), &n, flip)
		return s
	}
	full := func() TableState { return filled(false) }
	withView := func(f func(s *TableState)) TableState {
		s := full()
		f(&s)
		return s
	}
	cases := []struct {
		name  string
		state TableState
		ok    bool // written by hand, not by encoding/json
	}{
		{"every field set", full(), true},
		{"every field set, the other booleans true", filled(true), true},
		{"no field set", TableState{}, true},
		{"every optional pointer nil", withView(func(s *TableState) {
			s.Deal.EndedAt, s.View.PileTop, s.View.LastRound, s.View.Closer = nil, nil, nil, nil
			s.LastMove.Move.Card, s.LastMove.Move.Attach, s.LastMove.Move.WildAs = nil, nil, nil
			s.View.Options = TableOptions{}
			s.TurnSecondsLeft, s.Presence[0].WindowEnds = nil, nil
		}), true},
		{"every slice empty", func() TableState {
			s := TableState{Deal: &TableDeal{}, View: &DealView{Melds: [][]MeldView{nil, {}}}, LastMove: &LastMove{}}
			emptySlices(reflect.ValueOf(&s).Elem())
			return s
		}(), true},
		{"small, large and negative numbers", withView(func(s *TableState) {
			*s.TurnSecondsLeft = 1e-7
			s.MatchSecondsLeft = []float64{0, -0.5, 1e21, 123456789.125, 1e-6, 3e-10}
			s.BankSecondsLeft = []float64{math.MaxFloat64, math.SmallestNonzeroFloat64}
			s.Version, s.Seat, s.View.Turn = math.MaxInt64, -1, math.MinInt
		}), true},
		{"a time with a zone other than UTC", withView(func(s *TableState) {
			s.LastMove.At = time.Date(2026, 11, 29, 5, 0, 0, 0, time.FixedZone("CET", 3600))
			s.Deal.StartedAt = time.Date(2026, 11, 29, 5, 0, 0, 0, time.FixedZone("", 0))
		}), true},
		{"a string with HTML to escape", withView(func(s *TableState) { s.View.Phase = "<b>&</b>" }), false},
		{"a string with a quote", withView(func(s *TableState) { s.LastMove.By = `a "bot"` }), false},
		{"a string with a new line", withView(func(s *TableState) { s.Presence[1].State = "gone\n" }), false},
		{"a string not ASCII", withView(func(s *TableState) { s.View.Hand[0] = "10♥" }), false},
		{"a string with invalid UTF-8", withView(func(s *TableState) { s.View.Rules = "\xff" }), false},
		{"a meld with HTML in its JSON", withView(func(s *TableState) { s.LastMove.Move.Meld = json.RawMessage(`{"a":"<b>"}`) }), true},
		{"a year past 9999", withView(func(s *TableState) { s.Deal.StartedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }), false},
		{"a NaN", withView(func(s *TableState) { s.MatchSecondsLeft[0] = math.NaN() }), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := appendStateRest(nil, &c.state)
			if ok != c.ok {
				t.Fatalf("appendStateRest ok=%v, want %v", ok, c.ok)
			}
			if _, err := json.Marshal(c.state); err != nil {
				if ok {
					t.Fatalf("encoding/json refuses the state (%v); appendStateRest wrote %s", err, got)
				}
				return
			}
			if want := restByJSON(t, c.state); ok && !bytes.Equal(got, want) {
				t.Fatalf("appendStateRest wrote\n%s\nencoding/json writes\n%s", got, want)
			}
		})
	}
}

// TestEncodeStateAnswersWhatJSONMarshalDoes: over the states of deals of
// every rule set played by bots to their end, as each seat and a spectator
// see them at each move, with the finished deals, a last move and a seat's
// presence, encodeState's bytes are json.Marshal's of the state's answer.
func TestEncodeStateAnswersWhatJSONMarshalDoes(t *testing.T) {
	h := tableHandlers{s: &server{stampedItems: newStampedBodies(maxStampedItems)}}
	at := time.Date(2026, 11, 29, 4, 0, 0, 123456789, time.UTC)
	ended := at.Add(time.Hour)
	sets := []struct {
		rules   engine.RuleSet
		players int
	}{{engine.Fibur, 4}, {engine.Fibur, 2}, {engine.FiburRow, 2}, {engine.Reale, 4}, {engine.Aberto, 4}, {engine.Fechado, 4}}
	states, tableID := 0, int64(0)
	for _, set := range sets {
		rules, err := engine.NewRules(set.rules, set.players)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			tableID++ // the tables' encodings are kept by id and version
			g, err := engine.Deal(rules, int(seed)%set.players, seed, []int{120, 45})
			if err != nil {
				t.Fatal(err)
			}
			bot := engine.NewBot(engine.NewRand(seed))
			var seats []domain.Seat
			for i := range set.players {
				uid := int64(i + 1)
				seats = append(seats, domain.Seat{Seat: i, UserID: &uid, UserName: fmt.Sprintf("player %d", i), JoinedAt: &at})
			}
			var last *domain.LastMove
			for version := int64(1); ; version++ {
				for seat := -1; seat < set.players; seat++ {
					view := g.View(seat) // -1: a spectator's
					st := domain.TableState{Seat: seat, View: &view, Totals: []int{120, 45}, LastMove: last,
						Deal:     &domain.DealScore{Number: 2, Dealer: 1, StartedAt: at},
						Deals:    []domain.DealScore{{Number: 1, Score: []engine.Score{{Cards: 120, Total: 120}, {Cards: 45, Total: 45}}, StartedAt: at, EndedAt: &ended}},
						Presence: []domain.SeatPresence{{Seat: 0, Present: true, Since: at}, {Seat: 1, Since: at, WindowEnds: &ended}},
						Table: domain.Table{ID: tableID, CreatorID: 1, Rules: domain.RuleSet(set.rules), Players: set.players, Status: domain.TablePlaying,
							Version: version, DealNumber: 2, CreatedAt: at, UpdatedAt: at, Seats: seats}}
					got, err := h.encodeState(st)
					if err != nil {
						t.Fatal(err)
					}
					want, err := json.Marshal(tableStateOut(st))
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%s, %d players, seed %d, version %d, seat %d: encodeState wrote\n%s\njson.Marshal writes\n%s",
							set.rules, set.players, seed, version, seat, got, want)
					}
					states++
				}
				if g.Over() {
					break
				}
				seat := g.Turn()
				m, err := bot.Move(g)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Apply(seat, m); err != nil {
					t.Fatal(err)
				}
				mj, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				last = &domain.LastMove{Seat: seat, Move: mj, By: domain.ByPlayer, At: at.Add(time.Duration(version) * time.Second)}
			}
		}
	}
	if states < 1000 {
		t.Fatalf("%d states compared: the deals ended too soon to say much", states)
	}
	t.Logf("%d states compared", states)
}

// FuzzAppendStateRest: whatever strings and numbers a state holds,
// appendStateRest writes encoding/json's bytes or says it cannot.
func FuzzAppendStateRest(f *testing.F) {
	f.Add("take", "5H", "player", 1.5, int64(3))
	f.Add("<play>", "10♥", "a \"bot\"", math.Inf(1), int64(-1))
	f.Add("over\u2028", "\xff", "clock\n", 1e-9, int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, phase, card, by string, secs float64, version int64) {
		var s TableState
		n := 0
		fill(t, reflect.ValueOf(&s).Elem(), &n, version%2 == 0)
		s.View.Phase, s.View.Hand[1], s.LastMove.By, *s.TurnSecondsLeft, s.Version = phase, card, by, secs, version
		got, ok := appendStateRest(nil, &s)
		if _, err := json.Marshal(s); err != nil {
			if ok {
				t.Fatalf("encoding/json refuses the state (%v); appendStateRest wrote %s", err, got)
			}
			return
		}
		if ok && !bytes.Equal(got, restByJSON(t, s)) {
			t.Fatalf("appendStateRest wrote\n%s\nencoding/json writes\n%s", got, restByJSON(t, s))
		}
		if !ok && !strings.ContainsAny(phase+card+by, "<>&\"\\") && isPlainASCII(phase+card+by) {
			t.Fatalf("appendStateRest refused plain strings %q %q %q and %v", phase, card, by, secs)
		}
	})
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
