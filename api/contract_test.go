package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
)

// loadOpenAPI returns the committed openapi.yaml, loaded once per test
// process and shared: the contract tests only read it, and each load cost
// them about half a second of CPU under the race detector (which would
// also report a test that wrote to it while others read).
func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	openAPIDoc.once.Do(func() {
		openAPIDoc.doc, openAPIDoc.err = openapi3.NewLoader().LoadFromFile("../openapi.yaml")
	})
	if openAPIDoc.err != nil {
		t.Fatal(openAPIDoc.err)
	}
	return openAPIDoc.doc
}

var openAPIDoc struct {
	once sync.Once
	doc  *openapi3.T
	err  error
}

// TestRoutesMatchOpenAPI checks that every route of the router is
// documented and every documented operation is routed.
func TestRoutesMatchOpenAPI(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	e := newEnv(t, storetest.SQLite(t))
	routed := map[string]bool{}
	err := chi.Walk(e.h.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		route = strings.TrimSuffix(strings.ReplaceAll(route, "/*/", "/"), "/")
		if strings.HasPrefix(route, "/docs") || strings.HasPrefix(route, "/app") || route == "/favicon.ico" ||
			route == "/openapi.yaml" || route == "/openapi.json" || route == "" || method == "OPTIONS" {
			return nil
		}
		routed[method+" "+route] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	for r := range routed {
		if !documented[r] {
			t.Errorf("%s is routed but not in openapi.yaml", r)
		}
	}
	for d := range documented {
		if !routed[d] {
			t.Errorf("%s is in openapi.yaml but not routed", d)
		}
	}
}

// TestSecurityMatchesOpenAPI calls every documented operation without a
// token: an operation whose only security is BearerAuth must answer 401,
// any other must not.
func TestSecurityMatchesOpenAPI(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	e := newEnv(t, storetest.SQLite(t))
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			t.Run(method+" "+path, func(t *testing.T) {
				needsToken := len(*op.Security) > 0
				for _, alt := range *op.Security {
					if len(alt) == 0 {
						needsToken = false // {} : anonymous callers welcome
					}
				}
				r := strings.NewReplacer("{clubID}", "1", "{userID}", "1", "{playerID}", "1", "{tournamentID}", "1").Replace(path)
				res := e.do(req{Method: method, Path: r, Body: `{}`})
				// Login and refresh answer 401 to bad credentials: only
				// requireAuth's answer counts here.
				refused := res.Status == http.StatusUnauthorized && problem(t, res).Detail == "this endpoint needs an access token"
				if refused != needsToken {
					t.Errorf("status %d without a token; security %v", res.Status, *op.Security)
				}
				if _, ok := op.Responses.Map()["401"]; needsToken && !ok {
					t.Errorf("401 is not documented")
				}
			})
		}
	}
}

// TestForbiddenCodesListedAre403Codes: every code a route's 403 response
// names is a code the server answers with 403, and every route that lists
// a 403 names at least one.
func TestForbiddenCodesListedAre403Codes(t *testing.T) {
	t.Parallel()
	forbidden := map[string]bool{}
	all := map[string]int{}
	for _, c := range api.ProblemCodes() {
		all[c.Code] = c.Status
		if c.Status == http.StatusForbidden {
			forbidden[c.Code] = true
		}
	}
	word := regexp.MustCompile(`[a-z]+(_[a-z]+)*`)
	doc := loadOpenAPI(t)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			resp := op.Responses.Status(http.StatusForbidden)
			if resp == nil {
				continue
			}
			named := 0
			for _, w := range word.FindAllString(*resp.Value.Description, -1) {
				if status, known := all[w]; known {
					named++
					if !forbidden[w] {
						t.Errorf("%s %s: 403 lists %s, a %d code", method, path, w, status)
					}
				}
			}
			if named == 0 {
				t.Errorf("%s %s: 403 names no code: %q", method, path, *resp.Value.Description)
			}
		}
	}
}
