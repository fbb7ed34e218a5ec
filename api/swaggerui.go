package api

// Swagger UI at /docs: the page and its assets, bundled in the binary and
// served from memory, showing /openapi.yaml.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
	swaggerFS "github.com/swaggo/files/v2"
	httpSwagger "github.com/swaggo/http-swagger/v2"
)

// swaggerAssets are the files Swagger UI's page (/docs/index.html) loads,
// with their media types. Only these and the page are served under /docs/:
// any other name is a route_not_found problem, like every unknown path.
var swaggerAssets = map[string]string{
	"swagger-ui.css":                  "text/css; charset=utf-8",
	"swagger-ui-bundle.js":            "text/javascript; charset=utf-8",
	"swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
	"favicon-32x32.png":               "image/png",
	"favicon-16x16.png":               "image/png",
}

// staticFile is a file served from memory.
type staticFile struct {
	contentType string
	body        []byte
	etag        string
}

// swaggerFiles reads Swagger UI (bundled in the binary, no CDN) once: the
// page, rendered by http-swagger to load /openapi.yaml, and its assets.
var swaggerFiles = sync.OnceValue(func() map[string]staticFile {
	files := map[string]staticFile{}
	add := func(name, contentType string, body []byte) {
		sum := sha256.Sum256(body)
		files[name] = staticFile{contentType: contentType, body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	}
	page := &pageRecorder{header: http.Header{}}
	r := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/docs/index.html"}, RequestURI: "/docs/index.html"}
	httpSwagger.Handler(httpSwagger.URL("/openapi.yaml"))(page, r)
	if page.status != http.StatusOK || page.body.Len() == 0 {
		panic(fmt.Sprintf("api: rendering Swagger UI's page: status %d", page.status))
	}
	add("index.html", "text/html; charset=utf-8", page.body.Bytes())
	for name, contentType := range swaggerAssets {
		body, err := fs.ReadFile(swaggerFS.FS, name)
		if err != nil {
			panic("api: Swagger UI asset missing: " + err.Error())
		}
		add(name, contentType, body)
	}
	return files
})

// pageRecorder keeps what a handler writes.
type pageRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (p *pageRecorder) Header() http.Header { return p.header }
func (p *pageRecorder) WriteHeader(status int) {
	if p.status == 0 {
		p.status = status
	}
}
func (p *pageRecorder) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return p.body.Write(b)
}

// docsRoutes serves Swagger UI at /docs/index.html showing /openapi.yaml.
// Each file has its own route, so that any other path under /docs/ (doc.json,
// ../ tricks, typos) falls to the router's problem-style 404.
func docsRoutes(r chi.Router) {
	toIndex := http.RedirectHandler("/docs/index.html", http.StatusMovedPermanently).ServeHTTP
	r.Get("/docs", toIndex)
	r.Get("/docs/", toIndex)
	for name, f := range swaggerFiles() {
		r.Get("/docs/"+name, f.serve)
	}
}

// serve sends the file; a request whose If-None-Match names its ETag gets
// a bodiless 304. There is no Range support: every answer is the whole file.
func (f staticFile) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("ETag", f.etag)
	h.Set("Cache-Control", "no-cache") // revalidate: the files change with the binary
	h.Set("X-Content-Type-Options", "nosniff")
	for _, tag := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/"); tag == f.etag || tag == "*" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Type", f.contentType)
	h.Set("Content-Length", strconv.Itoa(len(f.body)))
	_, _ = w.Write(f.body)
}
