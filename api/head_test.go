package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestHeadOnEveryGetRoute sends HEAD to every documented GET operation
// (and the documents) and requires the GET's status and headers: HEAD is
// never a 405 where GET is served.
func TestHeadOnEveryGetRoute(t *testing.T) {
	doc := loadOpenAPI(t)
	e := newEnv(t, storetest.SQLite(t), func(c *api.Config) { c.OpenAPI = []byte("openapi: 3.0.3\npaths: {}\n") })
	_, tok := e.user("head@example.com", "Head")
	paths := []string{"/openapi.yaml", "/openapi.json", "/docs/index.html"}
	for path, item := range doc.Paths.Map() {
		if item.Get != nil && !strings.HasSuffix(path, "/events") { // a GET of the stream never ends
			paths = append(paths, path)
		}
	}
	ids := strings.NewReplacer("{clubID}", "1", "{userID}", "1", "{playerID}", "1", "{tournamentID}", "1",
		"{tableID}", "1", "{entryID}", "1", "{round}", "1", "{table}", "1", "{number}", "1", "{ruleSet}", "italian")
	for _, path := range paths {
		p := ids.Replace(path)
		t.Run(path, func(t *testing.T) {
			get := e.do(req{Method: "GET", Path: p, Token: tok.AccessToken})
			head := e.do(req{Method: "HEAD", Path: p, Token: tok.AccessToken})
			if head.Status != get.Status {
				t.Fatalf("HEAD %s: status %d, GET %d", p, head.Status, get.Status)
			}
			for _, h := range []string{"Content-Type", "Content-Length", "ETag", "Cache-Control"} {
				if head.Header.Get(h) != get.Header.Get(h) {
					t.Errorf("HEAD %s: %s %q, GET %q", p, h, head.Header.Get(h), get.Header.Get(h))
				}
			}
		})
	}
	// The event stream answers HEAD with its headers and ends (a GET
	// streams until the client goes).
	tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2})
	res := e.do(req{Method: "HEAD", Path: tablePath(tb.ID, "events"), Token: tok.AccessToken, Timeout: 5 * time.Second})
	if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" || len(res.Body) != 0 {
		t.Errorf("HEAD events: status %d, Content-Type %q, %d bytes", res.Status, res.Header.Get("Content-Type"), len(res.Body))
	}
	// A route without GET still refuses HEAD, naming what it allows.
	res = e.do(req{Method: "HEAD", Path: "/api/v1/auth/login"})
	if res.Status != http.StatusMethodNotAllowed {
		t.Errorf("HEAD /api/v1/auth/login: status %d, want 405", res.Status)
	}
}

// TestRootRedirectsToThePages: a person opening the server's address lands
// on the pages for people (/app/), not on Swagger UI.
func TestRootRedirectsToThePages(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	res := e.do(req{Method: "GET", Path: "/"})
	if res.Status != http.StatusFound || res.Header.Get("Location") != "/app/" {
		t.Fatalf("GET /: status %d, Location %q", res.Status, res.Header.Get("Location"))
	}
}

// TestOpenAPIJSONIsTheYAML serves the committed openapi.yaml and requires
// /openapi.json to be the same document.
func TestOpenAPIJSONIsTheYAML(t *testing.T) {
	t.Parallel()
	yml := readFile(t, "../openapi.yaml")
	e := newEnv(t, storetest.SQLite(t), func(c *api.Config) { c.OpenAPI = yml })
	res := e.must(200, req{Method: "GET", Path: "/openapi.json"}, nil)
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	fromJSON, err := openapi3.NewLoader().LoadFromData(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	fromYAML := loadOpenAPI(t) // the same file as yml
	a, _ := json.Marshal(fromJSON)
	b, _ := json.Marshal(fromYAML)
	if !bytes.Equal(a, b) {
		t.Errorf("/openapi.json differs from openapi.yaml")
	}
	if fromJSON.Paths.Value("/api/v1/auth/login") == nil {
		t.Errorf("/openapi.json has no /api/v1/auth/login")
	}
}

// readFile reads a file the test needs.
func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
