package pages_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/burraco/burraco/api/pages"
	"github.com/go-chi/chi/v5"
)

// router mounts the pages the way the server does.
func router() http.Handler {
	r := chi.NewRouter()
	pages.Mount(r)
	return r
}

func TestPagesAnswerWithTheirFiles(t *testing.T) {
	h := router()
	cases := []struct {
		name, path  string
		status      int
		contentType string
		contains    string
	}{
		{"FaviconIsAnIcon", "/favicon.ico", 200, "image/x-icon", "\x00\x00\x01\x00"},
		{"HomeIsHTML", "/app/", 200, "text/html; charset=utf-8", "<main"},
		{"SignInIsHTML", "/app/signin", 200, "text/html; charset=utf-8", `id="signin"`},
		{"ModuleIsJavaScript", "/app/assets/api.js", 200, "text/javascript; charset=utf-8", "export"},
		{"StyleIsCSS", "/app/assets/app.css", 200, "text/css; charset=utf-8", ":root"},
		{"UnknownPageIsAPageNotJSON", "/app/nothing-here", 404, "text/html; charset=utf-8", "notfound.title"},
		{"HTMLIsNotAnAsset", "/app/assets/index.html", 404, "text/html; charset=utf-8", "notfound.title"},
		{"NoPathsAboveAssets", "/app/assets/../pages.go", 404, "text/html; charset=utf-8", "notfound.title"},
		{"ConsoleIsHTML", "/app/console", 200, "text/html; charset=utf-8", `id="console-home"`},
		{"HallOfNoNumberIsNotFound", "/app/hall/abc", 404, "text/html; charset=utf-8", "notfound.title"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", c.path, nil))
			if w.Code != c.status {
				t.Fatalf("status %d, want %d", w.Code, c.status)
			}
			if got := w.Header().Get("Content-Type"); got != c.contentType {
				t.Errorf("Content-Type %q, want %q", got, c.contentType)
			}
			if !strings.Contains(w.Body.String(), c.contains) {
				t.Errorf("the body does not contain %q", c.contains)
			}
		})
	}
}

func TestPagesAreRevalidatedByETag(t *testing.T) {
	h := router()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/app/assets/app.css", nil))
	etag := w.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	r := httptest.NewRequest("GET", "/app/assets/app.css", nil)
	r.Header.Set("If-None-Match", etag)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Errorf("If-None-Match of its ETag: status %d with %d bytes, want a bodiless 304", w.Code, w.Body.Len())
	}
}

func TestPagesRunOnlyTheirOwnScripts(t *testing.T) {
	w := httptest.NewRecorder()
	router().ServeHTTP(w, httptest.NewRequest("GET", "/app/signin", nil))
	csp := w.Header().Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "connect-src 'self'", "default-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(w.Body.String(), "<script>") {
		t.Error("the page has an inline script, which its policy refuses")
	}
}

func TestAppWithoutSlashRedirects(t *testing.T) {
	w := httptest.NewRecorder()
	router().ServeHTTP(w, httptest.NewRequest("GET", "/app", nil))
	if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "/app/" {
		t.Errorf("/app: status %d to %q, want 301 to /app/", w.Code, w.Header().Get("Location"))
	}
}
