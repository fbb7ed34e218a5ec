package api_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
)

// bodyProperties are the top-level properties of an operation's request
// body, allOf members merged (MoveRequest: the move and its version).
func bodyProperties(op *openapi3.Operation) openapi3.Schemas {
	s := op.RequestBody.Value.Content["application/json"].Schema.Value
	out := openapi3.Schemas{}
	for name, p := range s.Properties {
		out[name] = p
	}
	for _, sub := range s.AllOf {
		for name, p := range sub.Value.Properties {
			out[name] = p
		}
	}
	return out
}

// wrongType is a JSON value of another type than s.
func wrongType(s *openapi3.Schema) any {
	switch {
	case s.Type.Is(openapi3.TypeString):
		return 12345
	case s.Type.Is(openapi3.TypeObject), s.Type.Is(openapi3.TypeArray), len(s.AllOf) > 0:
		return "not-an-object-nor-an-array"
	}
	return "not-a-number"
}

// fieldNamed reports whether the problem names field (or a field in it).
func fieldNamed(p api.Problem, field, code string) bool {
	for _, f := range p.Errors {
		if (f.Field == field || strings.HasPrefix(f.Field, field+".") || strings.HasPrefix(f.Field, field+"[")) && (code == "" || f.Code == code) {
			return true
		}
	}
	return false
}

// TestShapeRefusalsNameTheField sends, to every operation with a body
// (where its example went, as whom), the example with one field null, one
// field of the wrong type, and one field the schema does not have
// (additionalProperties: false): each is a 400 malformed_json naming the
// field, before anything else is looked at.
func TestShapeRefusalsNameTheField(t *testing.T) {
	t.Parallel()
	x := runExamples(t)
	keys := make([]string, 0, len(x.paths))
	for k := range x.paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		method, path, _ := strings.Cut(key, " ")
		op := x.doc.Paths.Value(path).GetOperation(method)
		t.Run(key, func(t *testing.T) {
			send := func(field string, v any) api.Problem {
				t.Helper()
				body := requestExample(t, x.doc, method, path, map[string]any{field: v})
				res := x.do(req{Method: method, Path: x.paths[key], Token: x.tokens[key], Body: body})
				if res.Status != 400 {
					t.Fatalf("%s = %s: status %d, want 400: %s", field, jsonOf(v), res.Status, res.Body)
				}
				return problemOf(t, res, "malformed_json")
			}
			if p := send("zz_not_a_field", 1); !fieldNamed(p, "zz_not_a_field", "unknown_field") {
				t.Errorf("an unknown field: errors %+v", p.Errors)
			}
			for name, prop := range bodyProperties(op) {
				if p := send(name, nil); !fieldNamed(p, name, "null") {
					t.Errorf("%s null: errors %+v", name, p.Errors)
				}
				if p := send(name, wrongType(prop.Value)); !fieldNamed(p, name, "wrong_type") {
					t.Errorf("%s of the wrong type: errors %+v", name, p.Errors)
				}
			}
		})
	}
}

// constrained are the operations TestSchemaConstraintsAreEnforced probes:
// those that can be sent again and again (creations, and changes that
// stay valid), with the fields it leaves alone and why.
var constrained = map[string]map[string]string{
	"POST /api/v1/auth/register":       {},
	"POST /api/v1/auth/logout":         {},
	"POST /api/v1/clubs":               {},
	"PATCH /api/v1/clubs/{clubID}":     {},
	"POST /api/v1/players":             {"user_id": "one player per user", "club_id": "an existing club"},
	"PATCH /api/v1/players/{playerID}": {"club_id": "an existing club"},
	"POST /api/v1/clubs/{clubID}/tournaments": {
		"rules": "options and players_per_table depend on it (the operation's description)", "players_per_table": "fibur-row is played by 2",
		"kind": "team_pairs and players per entry depend on it", "movement": "its own fields (mitchell_step, rounds) depend on it",
		"deals_per_round": "the VP table is for its number of deals", "tie_breaks": "an array of enums: probed by its items elsewhere",
		"late_entry_round": "at most rounds", "rounds": "the movement's number of rounds", "team_pairs": "only for kind teams",
		"rest_vp": "at most the VP table's sum", "abandon_vp": "at most the VP table's sum",
	},
	"POST /api/v1/tables": {"rules": "options depend on it", "players": "fibur-row needs two", "seat": "below players", "club_id": "an existing club",
		"bank_seconds": "only with turn_seconds"},
	"POST /api/v1/tournaments/{tournamentID}/penalties": {"entry": "an entry of the tournament", "round": "a round that exists",
		"vp": "a penalty takes vp or mp, not neither", "mp": "a penalty takes vp or mp, not neither"},
}

// probe is one value of a field and whether the schema allows it.
type probe struct {
	value any
	valid bool
}

// probes are values at and past each bound of s, and rounds random valid
// ones; unique makes a value unique where the server wants it (an email).
func probes(s *openapi3.Schema, rnd *rand.Rand, rounds int, unique func(string) string) []probe {
	var out []probe
	switch {
	case len(s.Enum) > 0:
		for _, v := range s.Enum {
			out = append(out, probe{v, true})
		}
		if s.Type.Is(openapi3.TypeString) {
			out = append(out, probe{"zz-not-a-value", false})
		} else {
			out = append(out, probe{-7.0, false})
		}
	case s.Type.Is(openapi3.TypeString) && s.Format == "date-time":
		out = append(out, probe{"2026-05-01T15:00:00Z", true}, probe{"2026-05-01T17:00:00+02:00", true}, probe{"tomorrow", false})
	case s.Type.Is(openapi3.TypeString):
		str := func(n int) string {
			if s.Format == "email" {
				at := unique("")
				return strings.Repeat("a", max(n-len(at), 1)) + at
			}
			return strings.Repeat("a", n)
		}
		if s.MinLength > 0 && s.Format != "email" {
			out = append(out, probe{str(int(s.MinLength)), true}, probe{str(int(s.MinLength) - 1), false})
		}
		if s.MaxLength != nil {
			out = append(out, probe{str(int(*s.MaxLength)), true}, probe{str(int(*s.MaxLength) + 1), false})
		}
		if s.Pattern != "" {
			re := regexp.MustCompile(s.Pattern)
			for _, bad := range []string{"a\x01a", "a\u0085a", "   ", "a b", "a#b"} {
				if !re.MatchString(bad) {
					out = append(out, probe{bad, false})
					break
				}
			}
		}
		hi := 40
		if s.MaxLength != nil {
			hi = int(*s.MaxLength)
		}
		alphabet := []rune("abcdefghijklmnopqrstuvwxyzàèéìòù ABCXYZ0123456789.-/'")
		if s.Pattern != "" && !regexp.MustCompile(s.Pattern).MatchString("à b") {
			alphabet = []rune("abcdefghijklmnopqrstuvwxyz0123456789")
		}
		for range rounds {
			n := int(s.MinLength) + rnd.IntN(hi-int(s.MinLength)+1)
			r := make([]rune, max(n, 1))
			for i := range r {
				r[i] = alphabet[rnd.IntN(len(alphabet))]
			}
			r[0] = 'a' // neither blank nor trimmed
			v := string(r[:n])
			if n > 0 {
				r[n-1] = 'z'
				v = string(r[:n])
			}
			if s.Format == "email" {
				v = strings.Repeat("b", 1+rnd.IntN(20)) + unique("")
			}
			if s.Pattern != "" && !regexp.MustCompile(s.Pattern).MatchString(v) {
				continue
			}
			out = append(out, probe{v, true})
		}
	case s.Type.Is(openapi3.TypeInteger):
		if s.Min != nil {
			out = append(out, probe{*s.Min, true}, probe{*s.Min - 1, false})
		}
		if s.Max != nil {
			out = append(out, probe{*s.Max, true}, probe{*s.Max + 1, false})
		}
		if s.Min != nil && s.Max != nil {
			for range rounds {
				v := *s.Min + float64(rnd.IntN(int(*s.Max-*s.Min)+1))
				if s.MultipleOf != nil {
					v -= float64(int(v) % int(*s.MultipleOf))
					if v < *s.Min {
						v += *s.MultipleOf
					}
				}
				out = append(out, probe{v, true})
			}
		}
	}
	return out
}

// TestSchemaConstraintsAreEnforced probes every constrained field of the
// operations in constrained, one field at a time from the example: a value
// the schema allows (each bound, each enum value, random ones) succeeds; a
// value past a bound (length, pattern, minimum, maximum, enum) is a 400
// or 422 naming the field. BURRACO_PROPERTY_ROUNDS (default 2) sets how
// many random valid values each field gets.
func TestSchemaConstraintsAreEnforced(t *testing.T) {
	t.Parallel()
	rounds := 2
	if n, err := strconv.Atoi(os.Getenv("BURRACO_PROPERTY_ROUNDS")); err == nil && n >= 0 {
		rounds = n
	}
	x := runExamples(t)
	rnd := rand.New(rand.NewPCG(7, uint64(rounds)))
	seq := 0
	unique := func(local string) string { // local + a fresh @domain
		seq++
		return fmt.Sprintf("%s@d%d.example.com", local, seq)
	}
	keys := make([]string, 0, len(constrained))
	for k := range constrained {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		method, path, _ := strings.Cut(key, " ")
		if x.paths[key] == "" {
			t.Fatalf("%s: its example was not sent", key)
		}
		op := x.doc.Paths.Value(path).GetOperation(method)
		t.Run(key, func(t *testing.T) {
			props := bodyProperties(op)
			names := make([]string, 0, len(props))
			for n := range props {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, name := range names {
				if constrained[key][name] != "" {
					continue
				}
				for _, pr := range probes(props[name].Value, rnd, rounds, unique) {
					set := map[string]any{}
					for k, v := range x.sets[key] {
						set[k] = v
					}
					set[name] = pr.value
					if key == "POST /api/v1/auth/register" && name != "email" {
						set["email"] = unique("reg")
					}
					if key == "POST /api/v1/players" {
						set["user_id"] = omit{} // a user has one profile: the example's is taken
						if name != "federation_id" {
							set["federation_id"] = omit{} // unique: the example's is taken
						}
					}
					if key == "POST /api/v1/auth/logout" && pr.valid {
						continue // a made-up token is not refused for its shape, but logout answers 204 anyway
					}
					body := requestExample(t, x.doc, method, path, set)
					res := x.do(req{Method: method, Path: x.paths[key], Token: x.tokens[key], Body: body})
					switch {
					case pr.valid && (res.Status < 200 || res.Status > 299):
						t.Errorf("%s = %.60q (allowed): status %d: %.300s", name, fmt.Sprint(pr.value), res.Status, res.Body)
					case !pr.valid && res.Status != 400 && res.Status != 422:
						t.Errorf("%s = %.60q (forbidden): status %d, want 400 or 422: %.300s", name, fmt.Sprint(pr.value), res.Status, res.Body)
					case !pr.valid:
						if p := problem(t, res); !fieldNamed(p, name, "") {
							t.Errorf("%s = %.60q (forbidden): errors %+v do not name it", name, fmt.Sprint(pr.value), p.Errors)
						}
					}
				}
			}
		})
	}
}

// TestPathIdsOutOfRangeAreRefused: every integer path parameter is
// documented minimum 1 (ids int64); 0, a negative and a number past int64
// are a 400 invalid_parameter naming the parameter, on every route.
func TestPathIdsOutOfRangeAreRefused(t *testing.T) {
	doc := loadOpenAPI(t)
	e := newEnv(t, storetest.SQLite(t))
	admin := e.siteAdmin().AccessToken
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for _, p := range op.Parameters {
				s := p.Value.Schema.Value
				if p.Value.In != "path" || !s.Type.Is(openapi3.TypeInteger) {
					continue
				}
				if s.Min == nil || *s.Min != 1 {
					t.Errorf("%s %s: %s has no minimum 1", method, path, p.Value.Name)
				}
				for _, bad := range []string{"0", "-3", "9223372036854775808"} {
					concrete := path
					for _, other := range op.Parameters {
						v := "1"
						if other.Value.Name == p.Value.Name {
							v = bad
						} else if other.Value.In == "path" && !other.Value.Schema.Value.Type.Is(openapi3.TypeInteger) {
							v = "fibur"
						}
						concrete = strings.ReplaceAll(concrete, "{"+other.Value.Name+"}", v)
					}
					res := e.do(req{Method: method, Path: concrete, Token: admin, Body: `{}`})
					if res.Status != 400 {
						t.Errorf("%s %s: status %d, want 400", method, concrete, res.Status)
						continue
					}
					if pr := problemOf(t, res, "invalid_parameter"); !fieldNamed(pr, p.Value.Name, "") {
						t.Errorf("%s %s: errors %+v", method, concrete, pr.Errors)
					}
				}
			}
		}
	}
}

// TestQueryConstraintsAreEnforced probes every constrained query
// parameter of every operation, as TestSchemaConstraintsAreEnforced does
// bodies: a value at a bound is not refused for its shape (400 or 422);
// one past it is, naming the parameter.
func TestQueryConstraintsAreEnforced(t *testing.T) {
	doc := loadOpenAPI(t)
	e := newEnv(t, storetest.SQLite(t))
	admin := e.siteAdmin().AccessToken
	rnd := rand.New(rand.NewPCG(3, 4))
	for path, item := range doc.Paths.Map() {
		if strings.HasSuffix(path, "/events") {
			continue // a stream: its one query parameter (invite) has no constraint
		}
		for method, op := range item.Operations() {
			concrete := path
			for _, p := range op.Parameters {
				v := "1"
				if p.Value.In == "path" && !p.Value.Schema.Value.Type.Is(openapi3.TypeInteger) {
					v = "fibur"
				}
				concrete = strings.ReplaceAll(concrete, "{"+p.Value.Name+"}", v)
			}
			for _, p := range op.Parameters {
				if p.Value.In != "query" {
					continue
				}
				for _, pr := range probes(p.Value.Schema.Value, rnd, 1, func(s string) string { return s + "@example.com" }) {
					value := fmt.Sprint(pr.value)
					if f, ok := pr.value.(float64); ok {
						value = strconv.FormatFloat(f, 'f', -1, 64)
					}
					if p.Value.Name == "wait" && pr.valid {
						value = "0" // a long poll: its bound is not a refusal anyway
					}
					u := concrete + "?" + p.Value.Name + "=" + urlQueryEscape(value)
					res := e.do(req{Method: method, Path: u, Token: admin})
					shape := res.Status == 400 || res.Status == 422
					switch {
					case pr.valid && shape:
						t.Errorf("%s %s (allowed): status %d: %.300s", method, u, res.Status, res.Body)
					case !pr.valid && !shape:
						t.Errorf("%s %s (forbidden): status %d, want 400 or 422", method, u, res.Status)
					case !pr.valid:
						if pp := problem(t, res); !fieldNamed(pp, p.Value.Name, "") {
							t.Errorf("%s %s: errors %+v do not name it", method, u, pp.Errors)
						}
					}
				}
			}
		}
	}
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }
