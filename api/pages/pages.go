package pages

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
)

//go:embed static
var staticFS embed.FS

// Prefix is where the pages live.
const Prefix = "/app/"

// ContentSecurityPolicy lets a page run only its own scripts and styles and
// talk only to its own server: no inline script, nothing from elsewhere.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// routes maps a page's path below Prefix to its HTML file. A hall display
// is also /app/hall/{tournamentID}: hall.js reads the id from the path.
var routes = map[string]string{
	"":       "index.html",
	"signin": "signin.html",
	"signup": "signup.html", // issue 28: players join by themselves
	"me":     "me.html",     // a player's own page
	"pad":    "pad.html",
	"hall":   "hall.html",
	// the director console; one tournament is ?t=ID
	"console": "console.html",
}

// file is an embedded file served from memory with its ETag.
type file struct {
	contentType string
	body        []byte
	etag        string
}

// Router is what Mount registers on (chi.Router has this method, with
// chi's patterns), so that this package needs no router of its own.
type Router interface {
	Method(method, pattern string, h http.Handler)
}

// Mount registers the pages under /app/ and the site's /favicon.ico, for
// GET (the server answers HEAD as GET without the body).
func Mount(r Router) {
	h := Handler()
	for _, pattern := range []string{"/app", "/app/*", "/favicon.ico"} {
		r.Method(http.MethodGet, pattern, h)
	}
}

// Handler serves the pages, their assets and /favicon.ico by the request's
// full path.
func Handler() http.Handler {
	files := load()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serve(files, w, r)
	})
}

// load reads every embedded file once.
func load() map[string]file {
	files := map[string]file{}
	err := fs.WalkDir(staticFS, "static", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := staticFS.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		files[strings.TrimPrefix(name, "static/")] = file{
			contentType: contentType(name),
			body:        body,
			etag:        `"` + hex.EncodeToString(sum[:12]) + `"`,
		}
		return nil
	})
	if err != nil {
		panic("pages: reading the embedded files: " + err.Error()) // a build without them is broken
	}
	return files
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".ico":
		return "image/x-icon"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	}
	return "application/octet-stream"
}

// serve answers one request: a page, an asset, or a page saying there is
// no such page (people never get JSON from here).
func serve(files map[string]file, w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == "/app" {
		http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
		return
	}
	name, ok := resolve(r.URL.Path)
	f, found := files[name]
	if !ok || !found {
		f = files["notfound.html"]
		writeFile(w, r, f, http.StatusNotFound)
		return
	}
	writeFile(w, r, f, http.StatusOK)
}

// resolve names the embedded file of a request path.
func resolve(p string) (string, bool) {
	if p == "/favicon.ico" {
		return "favicon.ico", true
	}
	rest, ok := strings.CutPrefix(p, Prefix)
	if !ok {
		return "", false
	}
	if a, ok := strings.CutPrefix(rest, "assets/"); ok && !strings.Contains(a, "/") && !strings.HasSuffix(a, ".html") {
		return a, true
	}
	if page, ok := routes[rest]; ok {
		return page, true
	}
	if id, ok := strings.CutPrefix(rest, "hall/"); ok && isID(id) {
		return "hall.html", true
	}
	if token, ok := strings.CutPrefix(rest, "join/"); ok && isToken(token) {
		return "join.html", true // join.js reads the token from the path
	}
	return "", false
}

// isToken: could s be an invitation's token (base64url, as the API makes
// them; a little longer allowed)?
func isToken(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func isID(s string) bool {
	n, err := strconv.ParseInt(s, 10, 64)
	return err == nil && n > 0
}

// writeFile sends f; If-None-Match naming its ETag gets a bodiless 304.
// Files are revalidated on every load (no-cache): they change with the
// binary and an ETag check costs one small round trip.
func writeFile(w http.ResponseWriter, r *http.Request, f file, status int) {
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	if strings.HasPrefix(f.contentType, "text/html") {
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("Referrer-Policy", "same-origin")
	}
	if status == http.StatusOK {
		h.Set("ETag", f.etag)
		if matches(r.Header.Get("If-None-Match"), f.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Type", f.contentType)
	h.Set("Content-Length", strconv.Itoa(len(f.body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(f.body)
	}
}

func matches(ifNoneMatch, etag string) bool {
	for _, tag := range strings.Split(ifNoneMatch, ",") {
		if tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/"); tag == etag || tag == "*" {
			return true
		}
	}
	return false
}
