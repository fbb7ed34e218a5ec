package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain/store/storetest"
)

// TestSwaggerUILoads fetches /docs/index.html like a browser would, then
// every stylesheet, script and icon it references: each must be a 200
// with a content type the browser accepts (nosniff is on), and the page
// must load its spec from /openapi.yaml.
func TestSwaggerUILoads(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	for _, path := range []string{"/docs", "/docs/"} {
		res := e.do(req{Method: "GET", Path: path})
		if res.Status != http.StatusMovedPermanently || res.Header.Get("Location") != "/docs/index.html" {
			t.Errorf("GET %s: %d, Location %q", path, res.Status, res.Header.Get("Location"))
		}
	}
	page := e.must(200, req{Method: "GET", Path: "/docs/index.html"}, nil)
	if ct := page.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("index.html: Content-Type %q", ct)
	}
	html := string(page.Body)
	// html/template writes "/" in a JS string as "\/": the same string.
	if !regexp.MustCompile(`url: "\\?/openapi\.yaml"`).MatchString(html) || !strings.Contains(html, "SwaggerUIBundle(") {
		t.Errorf("index.html does not load /openapi.yaml into Swagger UI:\n%s", html)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(html, -1)
	want := map[string]string{".css": "text/css", ".js": "javascript", ".png": "image/png"}
	seen := map[string]bool{}
	for _, m := range refs {
		ref := m[1]
		if strings.HasPrefix(ref, "http:") || strings.HasPrefix(ref, "https:") || strings.HasPrefix(ref, "//") {
			t.Errorf("index.html loads %s from elsewhere (the UI must work offline)", ref)
			continue
		}
		if strings.HasPrefix(ref, "#") || seen[ref] {
			continue
		}
		seen[ref] = true
		path := "/docs/" + strings.TrimPrefix(ref, "./")
		if strings.HasPrefix(ref, "/") {
			path = ref
		}
		t.Run(path, func(t *testing.T) {
			res := e.must(200, req{Method: "GET", Path: path}, nil)
			ct := res.Header.Get("Content-Type")
			ext := path[strings.LastIndexByte(path, '.'):]
			if sub, ok := want[ext]; !ok || !strings.Contains(ct, sub) {
				t.Errorf("Content-Type %q for %s", ct, path)
			}
			if len(res.Body) < 100 {
				t.Errorf("%d bytes only", len(res.Body))
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("no nosniff")
			}
			// A revalidation costs no body.
			again := e.do(req{Method: "GET", Path: path, Header: map[string]string{"If-None-Match": res.Header.Get("ETag")}})
			if again.Status != http.StatusNotModified || len(again.Body) != 0 {
				t.Errorf("revalidation with ETag %q: %d, %d bytes", res.Header.Get("ETag"), again.Status, len(again.Body))
			}
		})
	}
	for _, asset := range []string{"/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/swagger-ui-standalone-preset.js"} {
		if !seen[strings.Replace(asset, "/docs/", "./", 1)] {
			t.Errorf("index.html does not reference %s", asset)
		}
	}
}

// TestDocsBadInput: every other name under /docs/ is a route_not_found
// problem, never http-swagger's own plain-text answers or a 5xx.
func TestDocsBadInput(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	for _, path := range []string{
		"/docs/doc.json", "/docs/swagger.json", "/docs/no-such-file", "/docs/index.css",
		"/docs/swagger-initializer.js", "/docs/oauth2-redirect.html", "/docs/swagger-ui.js",
		"/docs/swagger-ui-bundle.js.map", "/docs/index.html/", "/docs/index.html/x", "/docs/x/index.html",
		"/docs//index.html", "/docs/./index.html", "/docs/../openapi.yaml", "/docs/../../etc/passwd",
		"/docs/..%2fopenapi.yaml", "/docs/%2e%2e/openapi.yaml", "/docs/%2e%2e%2f%2e%2e%2fgo.mod",
		"/docs/%00", "/docs/index.html%00.js", "/docs/INDEX.HTML", "/docs/dist/index.html",
		"/docs/?../../x", "/docs/..", "/docs/.", "/docs/*",
	} {
		t.Run(path, func(t *testing.T) {
			res := e.do(req{Method: "GET", Path: path})
			if res.Status == http.StatusMovedPermanently && res.Header.Get("Location") == "/docs/index.html" && strings.HasPrefix(path, "/docs/?") {
				return // "/docs/" with a query: the usual redirect
			}
			if res.Status != http.StatusNotFound {
				t.Fatalf("status %d; body %.200s", res.Status, res.Body)
			}
			problemOf(t, res, "route_not_found")
		})
	}
	for _, method := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		t.Run(method+" /docs/index.html", func(t *testing.T) {
			res := e.do(req{Method: method, Path: "/docs/index.html", Body: `{}`})
			problemOf(t, res, "method_not_allowed")
		})
	}
	// A query string does not change which file is served.
	res := e.must(200, req{Method: "GET", Path: "/docs/index.html?url=https://evil.example/x.yaml"}, nil)
	if strings.Contains(string(res.Body), "evil.example") {
		t.Errorf("the query string leaks into the page")
	}
}
