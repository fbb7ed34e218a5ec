package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// routes registers routes under a path prefix in one chi router, as
// chi.Route would in a router of its own, but without it: every nested
// router routes the request again (its tree, its route pattern, its path
// values), which was a tenth of the work of a poll, and adds frames under
// the handler that a long poll holds for up to a minute.
//
// As in a nested router, the prefix's own route ("/") is served with and
// without a trailing slash; every other pattern exactly as written.
//
// Routes take handlers of the one shape (handler), adapted by the server's
// serve.
type routes struct {
	r      chi.Router
	s      *server
	prefix string
}

// with returns the routes with middlewares that run on matched routes only
// (chi.With), so that a wrong path or method is a 404 or 405 first.
func (rt routes) with(mw ...func(http.Handler) http.Handler) routes {
	return routes{r: rt.r.With(mw...), s: rt.s, prefix: rt.prefix}
}

// under registers fn's routes below prefix.
func (rt routes) under(prefix string, fn func(routes)) {
	fn(routes{r: rt.r, s: rt.s, prefix: rt.prefix + prefix})
}

func (rt routes) get(pattern string, h handler)    { rt.handle(http.MethodGet, pattern, h) }
func (rt routes) post(pattern string, h handler)   { rt.handle(http.MethodPost, pattern, h) }
func (rt routes) put(pattern string, h handler)    { rt.handle(http.MethodPut, pattern, h) }
func (rt routes) patch(pattern string, h handler)  { rt.handle(http.MethodPatch, pattern, h) }
func (rt routes) delete(pattern string, h handler) { rt.handle(http.MethodDelete, pattern, h) }

func (rt routes) handle(method, pattern string, h handler) {
	f := rt.s.serve(h)
	if pattern == "/" && rt.prefix != "" {
		rt.r.Method(method, rt.prefix, f)
	}
	rt.r.Method(method, rt.prefix+pattern, f)
}
