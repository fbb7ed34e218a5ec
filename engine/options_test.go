package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// otherValue returns a valid value of the option that differs from v
// (for a list of values, the next one; for an integer range, v+1).
func otherValue(s optionSpec, v any) any {
	if s.values == nil {
		return v.(int) + 1
	}
	i := slices.Index(s.values, v)
	return s.values[(i+1)%len(s.values)]
}

// anyValue returns a valid value of the option (the first listed, or min).
func anyValue(s optionSpec) any {
	if s.values == nil {
		return s.min
	}
	return s.values[0]
}

func TestInapplicableOptionRefused(t *testing.T) {
	for _, id := range RuleSets() {
		for _, s := range optionSpecs {
			if s.appliesTo(id) {
				continue
			}
			// Every valid value is refused, the zero value (what the
			// engine holds for it) included: the key present is enough.
			for _, v := range append(slices.Clone(s.values), anyValue(s)) {
				data := fmt.Appendf(nil, `{%q:%s}`, s.key, mustJSON(t, v))
				t.Run(fmt.Sprintf("%s/%s", id, data), func(t *testing.T) {
					_, err := ParseOptions(id, data)
					if ErrorCode(err) != ErrBadOption || !strings.Contains(err.Error(), s.key) {
						t.Fatalf("got %v, want bad_option naming %s", err, s.key)
					}
					ps := OptionProblems(id, data)
					if len(ps) != 1 || ps[0].Key != s.key || !strings.Contains(ps[0].Message, "does not apply") {
						t.Fatalf("problems %+v, want one for %s", ps, s.key)
					}
				})
			}
			// Built in Go, the option set for another rule set is refused
			// by Validate (and so by Rules.Validate, Deal, LoadPosition).
			o := DefaultOptions(id)
			optionField(&o, s.key).Set(reflect.ValueOf(anyValue(s)))
			if !optionField(&o, s.key).IsZero() {
				if err := o.Validate(id); ErrorCode(err) != ErrBadOption || !strings.Contains(err.Error(), s.key) {
					t.Errorf("%s: Validate with %s set: %v", id, s.key, err)
				}
			}
		}
	}
}

func TestApplicableOptionsAccepted(t *testing.T) {
	for _, id := range RuleSets() {
		for _, key := range OptionKeys(id) {
			s, _ := specOf(key)
			def := optionField(ptr(DefaultOptions(id)), key).Interface()
			for _, v := range []any{def, otherValue(s, def)} {
				data := fmt.Appendf(nil, `{%q:%s}`, key, mustJSON(t, v))
				o, err := ParseOptions(id, data)
				if err != nil {
					t.Errorf("%s %s: %v", id, data, err)
					continue
				}
				if got := optionField(&o, key).Interface(); got != v {
					t.Errorf("%s %s: read %v", id, data, got)
				}
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOptionProblemsListsEveryProblem(t *testing.T) {
	data := []byte(`{"semi_clean":false,"canastra_bonus":"100/200","bogus":1,"target":"high","direction":"up","joker_points":30,"vulnerability":false}`)
	got := OptionProblems(Reale, data)
	keys := make([]string, len(got))
	for i, p := range got {
		keys[i] = p.Key
	}
	want := []string{"bogus", "canastra_bonus", "direction", "joker_points", "semi_clean", "target"}
	if !slices.Equal(keys, want) {
		t.Fatalf("problems %+v, want keys %v", got, want)
	}
	_, err := ParseOptions(Reale, data)
	for _, k := range want {
		if !strings.Contains(err.Error(), "option "+k+":") {
			t.Errorf("ParseOptions error %q does not name %s", err, k)
		}
	}
	for _, tc := range []struct {
		id   RuleSet
		data string
	}{{Fibur, `[1]`}, {Fibur, `{"target":1} {}`}, {"poker", `{}`}} {
		if ps := OptionProblems(tc.id, []byte(tc.data)); len(ps) != 1 || ps[0].Key != "" {
			t.Errorf("%s %s: %+v, want one problem of the whole object", tc.id, tc.data, ps)
		}
	}
	if ps := OptionProblems(Fechado, []byte(`{"real_canastra":true,"target":1005}`)); ps != nil {
		t.Errorf("valid options: %+v", ps)
	}
}

// nonDefault returns id's options with every applicable option changed from
// its default (Validate must still pass).
func nonDefault(t *testing.T, id RuleSet) Options {
	t.Helper()
	o := DefaultOptions(id)
	for _, key := range OptionKeys(id) {
		s, _ := specOf(key)
		f := optionField(&o, key)
		f.Set(reflect.ValueOf(otherValue(s, f.Interface())))
	}
	if err := o.Validate(id); err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return o
}

func TestOptionsJSONWritesOnlyWhatApplies(t *testing.T) {
	for _, id := range RuleSets() {
		for name, o := range map[string]Options{"defaults": DefaultOptions(id), "changed": nonDefault(t, id)} {
			t.Run(string(id)+"/"+name, func(t *testing.T) {
				b, err := json.Marshal(o)
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]json.RawMessage
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				var keys []string
				for k := range m {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				want := slices.Sorted(slices.Values(OptionKeys(id)))
				if !slices.Equal(keys, want) {
					t.Fatalf("wrote %s, want the keys %v", b, want)
				}
				back, err := ParseOptions(id, b)
				if err != nil || back != o {
					t.Fatalf("read back %+v, %v; want %+v", back, err, o)
				}
			})
		}
	}
}

// TestPositionRoundTripEveryRuleSet writes, loads and writes again the
// positions of a deal of every rule set with non-default options: what the
// engine writes it reads back, unchanged.
func TestPositionRoundTripEveryRuleSet(t *testing.T) {
	for _, id := range RuleSets() {
		for _, players := range ruleSetTexts[id].players {
			t.Run(fmt.Sprintf("%s/%d", id, players), func(t *testing.T) {
				r := Rules{ID: id, Players: players, Options: nonDefault(t, id)}
				g, err := Deal(r, 0, 7, nil)
				if err != nil {
					t.Fatal(err)
				}
				for step := 0; step < 30 && !g.Over(); step++ {
					data, err := json.Marshal(g.Position())
					if err != nil {
						t.Fatal(err)
					}
					h, err := ParsePosition(data)
					if err != nil {
						t.Fatalf("reload: %v\n%s", err, data)
					}
					if again := posJSON(t, h); again != string(data) {
						t.Fatalf("round trip differs:\n%s\n%s", data, again)
					}
					if h.Rules() != g.Rules() {
						t.Fatalf("rules %+v, want %+v", h.Rules(), g.Rules())
					}
					moves := g.LegalMoves(g.Turn())
					mustApply(t, g, g.Turn(), moves[step%len(moves)])
				}
			})
		}
	}
}

// TestOptionCatalogueMatchesOptions is the one-source check: every field of
// Options has a catalogue entry, in field order, and every entry a field.
func TestOptionCatalogueMatchesOptions(t *testing.T) {
	typ := reflect.TypeFor[Options]()
	var fields []string
	for i := range typ.NumField() {
		fields = append(fields, strings.Split(typ.Field(i).Tag.Get("json"), ",")[0])
	}
	var specs []string
	for _, s := range optionSpecs {
		specs = append(specs, s.key)
	}
	if !slices.Equal(fields, specs) {
		t.Fatalf("Options fields %v, catalogue %v", fields, specs)
	}
	kinds := map[reflect.Kind]string{reflect.Bool: "boolean", reflect.String: "string", reflect.Int: "integer"}
	for i, s := range optionSpecs {
		if got := kinds[typ.Field(i).Type.Kind()]; got != s.kind {
			t.Errorf("%s: field of kind %s, catalogue says %s", s.key, got, s.kind)
		}
		if len(s.applies) == 0 || s.desc.IT == "" || s.desc.EN == "" {
			t.Errorf("%s: no rule set or no description", s.key)
		}
		for _, v := range s.values {
			if reflect.TypeOf(v) != typ.Field(i).Type {
				t.Errorf("%s: value %v of type %T", s.key, v, v)
			}
		}
	}
}

func TestCatalog(t *testing.T) {
	cat := Catalog()
	if len(cat) != len(RuleSets()) {
		t.Fatalf("%d rule sets in the catalogue", len(cat))
	}
	for i, info := range cat {
		id := RuleSets()[i]
		def := DefaultOptions(id)
		if info.ID != id || info.Name.IT == "" || info.Name.EN == "" || info.Description.IT == "" ||
			info.Description.EN == "" || info.ToClose.IT == "" || info.ToClose.EN == "" || len(info.Players) == 0 {
			t.Errorf("%s: incomplete entry %+v", id, info)
		}
		for _, n := range info.Players {
			if _, err := NewRules(id, n); err != nil {
				t.Errorf("%s: catalogue lists %d players, NewRules says %v", id, n, err)
			}
		}
		if info.Match.Target != def.Target {
			t.Errorf("%s: match target %d, default option %d", id, info.Match.Target, def.Target)
		}
		var keys []string
		for _, o := range info.Options {
			keys = append(keys, o.Key)
			if o.Default != optionField(&def, o.Key).Interface() {
				t.Errorf("%s %s: default %v, DefaultOptions says %v", id, o.Key, o.Default, optionField(&def, o.Key).Interface())
			}
			s, _ := specOf(o.Key)
			if msg := s.check(o.Default); msg != "" {
				t.Errorf("%s %s: the default is not valid: %s", id, o.Key, msg)
			}
		}
		if !slices.Equal(keys, OptionKeys(id)) {
			t.Errorf("%s: catalogue options %v, OptionKeys %v", id, keys, OptionKeys(id))
		}
	}
	want := map[RuleSet]struct {
		deck, jokers int
		melds        []string
	}{
		Fibur: {108, 4, []string{"sequences", "sets"}}, FiburRow: {108, 4, []string{"sequences", "sets"}},
		Reale: {104, 0, []string{"sequences"}}, Aberto: {108, 4, []string{"sequences"}},
		Fechado: {108, 4, []string{"sequences", "sets", "sets_of_twos"}},
	}
	for _, info := range cat {
		w := want[info.ID]
		if info.Deck != w.deck || info.Jokers != w.jokers || !slices.Equal(info.Melds, w.melds) {
			t.Errorf("%s: deck %d jokers %d melds %v, want %+v", info.ID, info.Deck, info.Jokers, info.Melds, w)
		}
	}
	if _, ok := RuleSetCatalog("poker"); ok {
		t.Error("an unknown rule set has a catalogue entry")
	}
	// The catalogue is the data of GET /rules: it encodes, and a client
	// changing the copy it got does not change the engine's.
	if _, err := json.Marshal(cat); err != nil {
		t.Fatal(err)
	}
	cat[0].Options[0].Values[0] = "x"
	if Catalog()[0].Options[0].Values[0] == "x" {
		t.Error("Catalog shares its slices")
	}
}

// TestSemiCleanShapeScoresDirtyWithoutTheOption: reale and the Brazilian
// games have no semi-clean burraco (RULES §7a), and cannot be given one.
func TestSemiCleanShapeScoresDirtyWithoutTheOption(t *testing.T) {
	seq := tcards("2C 4H 5H 6H 7H 8H 9H TH") // the wild at one end of 7 naturals
	for _, id := range []RuleSet{Fibur, Reale, Aberto, Fechado} {
		r, _ := NewRules(id, 4)
		m, err := NewMeld(r.MeldRules(), seq, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := 100
		if id == Fibur {
			want = 150
		}
		if got := r.MeldBonus(m); got != want {
			t.Errorf("%s: bonus %d, want %d", id, got, want)
		}
		if id != Fibur {
			if _, err := ParseOptions(id, []byte(`{"semi_clean":true}`)); ErrorCode(err) != ErrBadOption {
				t.Errorf("%s accepts semi_clean: %v", id, err)
			}
		}
	}
}

// FuzzParseOptions: any input is either refused with bad_option and at
// least one problem, or gives valid options that write and read back.
func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"target":1005,"direction":"anticlockwise"}`, `{"semi_clean":false}`,
		`{"jokers":false,"joker_points":50}`, `{"canastra_bonus":"150/300","round_up_10":true}`, `{"aberto_sets":"threes_and_aces"}`,
		`{"real_canastra":true}`, `[1]`, `{"target":1e3}`, `{"target":null}`, `{"x":1,"x":2}`} {
		for i := range RuleSets() {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, i uint8, data []byte) {
		id := RuleSets()[int(i)%len(RuleSets())]
		o, err := ParseOptions(id, data)
		if err != nil {
			if ErrorCode(err) != ErrBadOption || len(OptionProblems(id, data)) == 0 {
				t.Fatalf("%s %s: %v with problems %+v", id, data, err, OptionProblems(id, data))
			}
			return
		}
		if err := o.Validate(id); err != nil {
			t.Fatalf("%s %s: parsed options invalid: %v", id, data, err)
		}
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := ParseOptions(id, b); err != nil || back != o {
			t.Fatalf("%s: %s does not read back: %v", id, b, err)
		}
	})
}
