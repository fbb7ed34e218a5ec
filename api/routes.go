package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/cors"

	"github.com/burraco/burraco/api/pages"
)

// routes is the whole map of routes, which front serves: each resource's
// handlers are mounted under their prefix here, with the middlewares that
// wrap them (authentication, the request timeout, the rate limits); the
// routes of a resource are listed by its routes method, beside its
// handlers (handlers_<resource>*.go). Within a resource, requireAuth wraps
// matched routes only (routes.with), so that a wrong path or method is a
// 404 or 405 before it is a 401.
func (s *server) routes() chi.Router {
	var (
		meta        = metaHandlers{s}
		auth        = authHandlers{s}
		me          = meHandlers{s}
		clubs       = clubHandlers{s}
		joining     = joiningHandlers{s}
		seasons     = seasonHandlers{s}
		players     = playerHandlers{s}
		ratings     = ratingHandlers{s}
		tables      = tableHandlers{s}
		tournaments = tournamentHandlers{s}
		entries     = entryHandlers{s}
		rounds      = roundHandlers{s}
		results     = resultHandlers{s}
	)
	r := chi.NewRouter()
	r.Use(s.recoverPanics)
	// HEAD is GET without the body (RFC 9110 9.3.2) on every GET route:
	// the server discards what the handler writes.
	r.Use(middleware.GetHead)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		fail(w, r, codeRouteNotFound, "there is no such endpoint; see /openapi.yaml")
	})

	meta.routes(routes{r: r, s: s}) // /healthz, /readyz, /openapi.yaml, /openapi.json
	docsRoutes(r)                   // /docs
	pages.Mount(r)                  // the pages for people (/app/, /favicon.ico): clients of /api/v1 like any other
	// A person who opens the server's address wants the pages (a developer
	// knows /docs); a temporary redirect, so that / may serve something
	// else one day.
	r.Get("/", http.RedirectHandler(pages.Prefix, http.StatusFound).ServeHTTP)

	r.Route("/api/v1", func(r chi.Router) {
		r.Use(cors.Handler(cors.Options{
			AllowedOrigins: s.cfg.CORSOrigins,
			AllowedMethods: []string{"GET", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"},
			AllowedHeaders: []string{"Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match", "X-Request-ID"},
			ExposedHeaders: []string{"Location", "Retry-After", "X-Request-ID", "ETag"},
			MaxAge:         600,
		}))
		// Tables time their routes themselves (tableHandlers.routes): a
		// long poll of a state waits up to a minute, longer than the
		// request timeout.
		r.Group(func(r chi.Router) {
			r.Use(s.authenticate)
			routes{r: r, s: s}.under("/tables", tables.routes)
		})
		r = r.With(timeout(s.cfg.RequestTimeout))
		// The auth endpoints ignore the Authorization header: a client that
		// sends its expired access token along with its refresh token must
		// still be able to refresh.
		r.Route("/auth", func(r chi.Router) {
			rt := routes{r: r, s: s}
			auth.signInRoutes(rt.with(s.rateLimit(s.signIns)))
			auth.refreshRoutes(rt.with(s.rateLimit(s.refreshes)))
		})
		meta.ruleRoutes(routes{r: r, s: s}) // /rules
		r.Group(func(r chi.Router) {
			r.Use(s.authenticate)
			rt := routes{r: r, s: s}
			me.routes(rt) // /me…
			rt.under("/invitations/{token}", joining.invitationRoutes)
			rt.under("/clubs", clubs.routes)
			rt.under("/clubs/{clubID}", joining.clubRoutes)
			rt.under("/clubs/{clubID}/seasons", seasons.routes)
			rt.under("/clubs/{clubID}", tournaments.clubRoutes)
			rt.under("/players", players.routes)
			rt.under("/players", joining.playerRoutes)
			rt.under("/tournaments", tournaments.routes)
			rt.under("/tournaments/{tournamentID}", entries.routes)
			rt.under("/tournaments/{tournamentID}", rounds.routes)
			rt.under("/tournaments/{tournamentID}", results.routes)
			ratings.routes(rt) // /ratings, /users/{userID}/ratings
		})
	})
	return r
}

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
