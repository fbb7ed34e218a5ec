package api_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
)

// The tests of this file do what a schema-driven fuzzer (Schemathesis,
// run against the served openapi.yaml for issue 29) does, on every
// operation: bodies generated to be valid by the schema are never refused
// for their shape; query parameters the schema forbids are refused with a
// 400 problem naming them; every 400 is a problem. They find what the
// probes of schema_property_test.go, one field at a time from the
// example, did not: nested numbers, combinations of fields, empty values.

// bodyGen generates JSON values valid by a schema: each property the
// schema requires, the others at random; numbers anywhere within their
// bounds, the bounds themselves included; strings of the lengths and
// patterns the schema states. What it cannot be sure of (a pattern, not,
// oneOf) it checks against the schema and tries again.
type bodyGen struct {
	rnd *rand.Rand
	seq int // makes emails unique
}

// alphabets a generated string is drawn from, widest first: a pattern
// that refuses the wide one gets a narrower one.
var alphabets = [][]rune{
	[]rune("abcdefghijklmnopqrstuvwxyzàèéìòùß ABCXYZ0123456789.-/'_\t\n€日本"),
	[]rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
	[]rune("abcdefghijklmnopqrstuvwxyz"),
}

func (g *bodyGen) value(ref *openapi3.SchemaRef, depth int) any {
	s := ref.Value
	if len(s.AllOf) > 0 { // the members' objects merged
		out := map[string]any{}
		for _, sub := range s.AllOf {
			if m, ok := g.value(sub, depth+1).(map[string]any); ok {
				for k, v := range m {
					out[k] = v
				}
			}
		}
		return out
	}
	if len(s.OneOf) > 0 && len(s.Properties) == 0 { // a union of objects: one of them
		return g.value(s.OneOf[g.rnd.IntN(len(s.OneOf))], depth+1)
	}
	switch {
	case len(s.Enum) > 0:
		return s.Enum[g.rnd.IntN(len(s.Enum))]
	case s.Type.Is(openapi3.TypeBoolean):
		return g.rnd.IntN(2) == 0
	case s.Type.Is(openapi3.TypeInteger), s.Type.Is(openapi3.TypeNumber):
		return g.integer(s)
	case s.Type.Is(openapi3.TypeString):
		return g.text(s)
	case s.Type.Is(openapi3.TypeArray):
		n := int(s.MinItems) + g.rnd.IntN(3)
		if s.MaxItems != nil {
			n = min(n, int(*s.MaxItems))
		}
		if depth > 6 {
			n = int(s.MinItems)
		}
		out := make([]any, n)
		for i := range out {
			out[i] = g.value(s.Items, depth+1)
		}
		return out
	}
	out := map[string]any{}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names) // the same seed, the same body
	for _, name := range names {
		if slicesContains(s.Required, name) || depth < 6 && g.rnd.IntN(2) == 0 {
			out[name] = g.value(s.Properties[name], depth+1)
		}
	}
	if len(s.OneOf) > 0 { // the properties plus one of the alternatives' (MemberAddRequest)
		alt := s.OneOf[g.rnd.IntN(len(s.OneOf))].Value
		for _, name := range alt.Required {
			if _, ok := out[name]; !ok && s.Properties[name] != nil {
				out[name] = g.value(s.Properties[name], depth+1)
			}
		}
		for _, other := range s.OneOf {
			if other.Value == alt {
				continue
			}
			for _, name := range other.Value.Required {
				if !slicesContains(alt.Required, name) {
					delete(out, name)
				}
			}
		}
	}
	return out
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// integer is a number within s's bounds: a bound itself one time in
// four, else anywhere between them.
func (g *bodyGen) integer(s *openapi3.Schema) float64 {
	// Without a bound, any integer is valid: as a fuzzer would, send one
	// far past what any Go integer holds.
	lo, hi := -1e20, 1e20
	if s.Min != nil {
		lo = *s.Min
	}
	if s.Max != nil {
		hi = *s.Max
	}
	var v float64
	switch g.rnd.IntN(8) {
	case 0:
		v = lo
	case 1:
		v = hi
	case 2, 3: // small numbers, where the rules usually are
		v = math.Max(lo, math.Min(hi, float64(g.rnd.IntN(41)-5)))
	default:
		v = lo + math.Floor(g.rnd.Float64()*(hi-lo))
	}
	if s.MultipleOf != nil && *s.MultipleOf > 0 {
		v = math.Ceil(v / *s.MultipleOf) * *s.MultipleOf
		if v > hi {
			v -= *s.MultipleOf
		}
	}
	return v
}

// text is a string of s's length and pattern (an email, a date-time for
// their formats).
func (g *bodyGen) text(s *openapi3.Schema) string {
	switch s.Format {
	case "email":
		g.seq++
		return fmt.Sprintf("u%d@d%d.example.com", g.seq, g.seq)
	case "date-time":
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(g.rnd.IntN(3*365*24)) * time.Hour)
		return at.Format(time.RFC3339)
	case "date":
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, g.rnd.IntN(3*365)).Format(time.DateOnly)
	}
	lo, hi := int(s.MinLength), int(s.MinLength)+40
	if s.MaxLength != nil {
		hi = int(*s.MaxLength)
	}
	var re *regexp.Regexp
	if s.Pattern != "" {
		re = regexp.MustCompile(s.Pattern)
	}
	for try := range 3 * len(alphabets) {
		alphabet := alphabets[try/3]
		n := lo + g.rnd.IntN(hi-lo+1)
		if g.rnd.IntN(4) == 0 {
			n = []int{lo, hi}[g.rnd.IntN(2)]
		}
		r := make([]rune, n)
		for i := range r {
			r[i] = alphabet[g.rnd.IntN(len(alphabet))]
		}
		if re == nil || re.MatchString(string(r)) {
			return string(r)
		}
	}
	return strings.Repeat("a", max(lo, 1))
}

// body is a request body valid by the operation's schema (checked against
// it: a generator's mistake would fail the test, not the server).
func (g *bodyGen) body(t *testing.T, op *openapi3.Operation) map[string]any {
	t.Helper()
	schema := op.RequestBody.Value.Content["application/json"].Schema
	for range 50 {
		b, _ := json.Marshal(g.value(schema, 0))
		var v any
		_ = json.Unmarshal(b, &v)
		if schema.Value.VisitJSON(v) == nil {
			return v.(map[string]any)
		}
	}
	t.Fatalf("no body valid by the schema after 50 tries")
	return nil
}

// propertyRounds is how many bodies, values or requests the property
// tests of this file try per operation (BURRACO_PROPERTY_ROUNDS, default 8).
func propertyRounds() int {
	if n, err := strconv.Atoi(os.Getenv("BURRACO_PROPERTY_ROUNDS")); err == nil && n > 0 {
		return 4 * n
	}
	return 8
}

// TestSchemaValidBodiesAreNeverRefusedForTheirType sends, to every
// operation with a body (where and as whom its example went), bodies
// generated to be valid by its schema: numbers anywhere within their
// bounds, nested ones included; strings of the lengths and patterns the
// schema states; optional fields present or not. Whatever the state says
// (403, 404, 409, 422 for the rules across fields that the operation's
// description names), the answer is never a 400 (the shape was right),
// never a field refused as wrong_type or out_of_range, never a 5xx.
func TestSchemaValidBodiesAreNeverRefusedForTheirType(t *testing.T) {
	t.Parallel()
	x := runExamples(t)
	rounds := propertyRounds()
	keys := make([]string, 0, len(x.paths))
	for k := range x.paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, key := range keys {
		method, path, _ := strings.Cut(key, " ")
		op := x.doc.Paths.Value(path).GetOperation(method)
		if op.RequestBody == nil || op.RequestBody.Value.Content["application/json"] == nil {
			continue
		}
		g := &bodyGen{rnd: rand.New(rand.NewPCG(29, uint64(i))), seq: 1000 * i}
		t.Run(key, func(t *testing.T) {
			for range rounds {
				body := g.body(t, op)
				res := x.do(req{Method: method, Path: x.paths[key], Token: x.tokens[key], Body: body})
				if res.Status >= 500 || res.Status == http.StatusBadRequest {
					t.Errorf("status %d for a body valid by the schema %s: %.400s", res.Status, jsonOf(body), res.Body)
					continue
				}
				if res.Status < 400 {
					continue
				}
				for _, f := range problem(t, res).Errors {
					if f.Code == "wrong_type" {
						t.Errorf("%s refused as %s in a body valid by the schema %s", f.Field, f.Code, jsonOf(body))
					}
				}
			}
		})
	}
}

// badQueryValues are values the schema of a query parameter forbids, each
// with what makes it so.
func badQueryValues(s *openapi3.Schema) map[string]string {
	out := map[string]string{}
	switch {
	case len(s.Enum) > 0:
		out["zz-not-a-value"] = "not in the enum"
		out[""] = "empty, not in the enum"
	case s.Type.Is(openapi3.TypeInteger):
		out["abc"], out["1.5"], out[""] = "not an integer", "not an integer", "empty"
		out["99999999999999999999"] = "past any bound"
		if s.Min != nil {
			out[strconv.FormatFloat(*s.Min-1, 'f', -1, 64)] = "below the minimum"
		}
		if s.Max != nil {
			out[strconv.FormatFloat(*s.Max+1, 'f', -1, 64)] = "above the maximum"
		}
	case s.Type.Is(openapi3.TypeBoolean):
		out["maybe"], out[""] = "not a boolean", "empty"
	case s.Type.Is(openapi3.TypeString):
		if s.MaxLength != nil {
			out[strings.Repeat("x", int(*s.MaxLength)+1)] = "too long"
		}
		if s.Pattern != "" && !regexp.MustCompile(s.Pattern).MatchString("a\x01b") {
			out["a\x01b"] = "outside the pattern"
		}
	}
	return out
}

// concretePath fills an operation's path parameters with 1 (or a rule
// set's name): a value valid by the schema, so that a refusal is the
// query's.
func concretePath(path string, op *openapi3.Operation) string {
	for _, p := range op.Parameters {
		v := "1"
		if p.Value.In == "path" && !p.Value.Schema.Value.Type.Is(openapi3.TypeInteger) {
			v = "fibur"
		}
		path = strings.ReplaceAll(path, "{"+p.Value.Name+"}", v)
	}
	return path
}

// TestQueryParametersOutsideTheSchemaAreRefused sends, to every operation,
// each of its query parameters with values the schema forbids (not in the
// enum, not a number, empty where the type is not text, past a bound, too
// long, a control character): each is a 400 invalid_parameter problem
// naming the parameter, whatever else the request would have met (the
// resource need not exist: the query is read first).
func TestQueryParametersOutsideTheSchemaAreRefused(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	e := newEnv(t, storetest.SQLite(t))
	admin := e.siteAdmin().AccessToken
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for _, p := range op.Parameters {
				if p.Value.In != "query" {
					continue
				}
				t.Run(method+" "+path+"?"+p.Value.Name, func(t *testing.T) {
					if len(badQueryValues(p.Value.Schema.Value)) == 0 && p.Value.Name != "invite" {
						t.Fatalf("the schema forbids no value of %s: %+v", p.Value.Name, p.Value.Schema.Value)
					}
					for value, why := range badQueryValues(p.Value.Schema.Value) {
						u := concretePath(path, op) + "?" + p.Value.Name + "=" + urlQueryEscape(value)
						res := e.do(req{Method: method, Path: u, Token: admin, Body: "{}", Timeout: 5 * time.Second})
						if res.Status != http.StatusBadRequest {
							t.Errorf("%s=%.30q (%s): status %d, want 400: %.300s", p.Value.Name, value, why, res.Status, res.Body)
							continue
						}
						if pr := problemOf(t, res, "invalid_parameter"); !fieldNamed(pr, p.Value.Name, "") {
							t.Errorf("%s=%.30q (%s): errors %+v do not name it", p.Value.Name, value, why, pr.Errors)
						}
					}
				})
			}
		}
	}
}

// TestEveryBadRequestIsAProblem sends, to every operation, what makes a
// 400 (a path id past its bound, a body that is not JSON, an unknown
// field, a field of the wrong type, a query parameter the schema
// forbids): every 400 is application/problem+json with its code. And no
// header parameter allows a value Go's HTTP server refuses before any
// handler runs, with a bare text/plain 400: a control character.
func TestEveryBadRequestIsAProblem(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	e := newEnv(t, storetest.SQLite(t))
	admin := e.siteAdmin().AccessToken
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			t.Run(method+" "+path, func(t *testing.T) {
				var sends []req
				for _, p := range op.Parameters {
					s := p.Value.Schema.Value
					switch p.Value.In {
					case "path":
						if s.Type.Is(openapi3.TypeInteger) {
							sends = append(sends, req{Path: concretePath(strings.ReplaceAll(path, "{"+p.Value.Name+"}", "99999999999999999999"), op)})
						}
					case "query":
						for value := range badQueryValues(s) {
							sends = append(sends, req{Path: concretePath(path, op) + "?" + p.Value.Name + "=" + urlQueryEscape(value)})
						}
					case "header":
						if s.Pattern == "" {
							t.Errorf("header %s has no pattern: Go's server answers a control character in it with a bare 400", p.Value.Name)
							continue
						}
						re := regexp.MustCompile(s.Pattern)
						for _, bad := range []string{"a\x01b", "a\x1fb", "a\x7fb", "a\nb"} {
							if re.MatchString(bad) {
								t.Errorf("header %s allows %q, which Go's server refuses with a bare 400", p.Value.Name, bad)
							}
						}
					}
				}
				if op.RequestBody != nil && op.RequestBody.Value.Content["application/json"] != nil {
					for _, body := range []string{`{`, `[]`, `{"zz_not_a_field":1}`, `{"x":99999999999999999999}`} {
						sends = append(sends, req{Path: concretePath(path, op), Body: body})
					}
				}
				for _, r := range sends {
					r.Method, r.Token, r.Timeout = method, admin, 5*time.Second
					if r.Body == nil {
						r.Body = "{}"
					}
					res := e.do(r)
					if res.Status != http.StatusBadRequest {
						continue // refused otherwise (401, 404, 415, 422): not this test's
					}
					if ct := res.Header.Get("Content-Type"); ct != "application/problem+json" {
						t.Errorf("%s %s: 400 with Content-Type %q: %.200s", method, r.Path, ct, res.Body)
						continue
					}
					var p api.Problem
					if err := json.Unmarshal(res.Body, &p); err != nil || p.Status != 400 || p.Code == "" {
						t.Errorf("%s %s: 400 with a bad problem %.300s (%v)", method, r.Path, res.Body, err)
					}
				}
			})
		}
	}
}

// TestInvalidInputIsRefusedBeforeTheState sends, to every tournament
// command with a body (where its example went, once the example run has
// taken the tournament to its end: published results, where most commands
// are a 409), its example with one field set to a value its schema
// forbids (below a minimum, above a maximum, outside the enum, too long,
// outside the pattern): each is a 400 or 422 naming the field, never the
// state's 409 (bad_transition and the like): input is checked first. The
// caller's rights come before it: someone who may not give the command
// gets 403 whatever the body.
func TestInvalidInputIsRefusedBeforeTheState(t *testing.T) {
	t.Parallel()
	x := runExamples(t)
	rnd := rand.New(rand.NewPCG(29, 1))
	keys := make([]string, 0, len(x.paths))
	for k := range x.paths {
		if strings.Contains(k, " /api/v1/tournaments/{tournamentID}/") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) < 8 {
		t.Fatalf("only %d tournament commands were sent: %v", len(keys), keys)
	}
	t.Run("TheCallerIsRefusedBeforeTheInput", func(t *testing.T) {
		_, outsider := x.user("outsider@example.com", "Outsider")
		key := "POST /api/v1/tournaments/{tournamentID}/penalties"
		set := map[string]any{"vp": -5}
		for k, v := range x.sets[key] {
			set[k] = v
		}
		body := requestExample(t, x.doc, "POST", "/api/v1/tournaments/{tournamentID}/penalties", set)
		problemOf(t, x.must(403, req{Method: "POST", Path: x.paths[key], Token: outsider.AccessToken, Body: body}, nil), "referee_only")
		problemOf(t, x.must(422, req{Method: "POST", Path: x.paths[key], Token: x.tokens[key], Body: body}, nil), "invalid_input")
	})
	for _, key := range keys {
		method, path, _ := strings.Cut(key, " ")
		op := x.doc.Paths.Value(path).GetOperation(method)
		t.Run(key, func(t *testing.T) {
			for name, prop := range bodyProperties(op) {
				for _, pr := range probes(prop.Value, rnd, 0, func(s string) string { return s + "@example.com" }) {
					if pr.valid {
						continue
					}
					set := map[string]any{name: pr.value}
					for k, v := range x.sets[key] {
						if k != name {
							set[k] = v
						}
					}
					body := requestExample(t, x.doc, method, path, set)
					res := x.do(req{Method: method, Path: x.paths[key], Token: x.tokens[key], Body: body})
					if res.Status != http.StatusBadRequest && res.Status != http.StatusUnprocessableEntity {
						t.Errorf("%s = %.40q (forbidden by the schema): status %d, want 400 or 422: %.300s", name, fmt.Sprint(pr.value), res.Status, res.Body)
						continue
					}
					if p := problem(t, res); !fieldNamed(p, name, "") {
						t.Errorf("%s = %.40q: errors %+v do not name it", name, fmt.Sprint(pr.value), p.Errors)
					}
				}
			}
		})
	}
}
