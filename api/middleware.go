package api

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/clientaddr"
	"github.com/burraco/burraco/internal/logs"
	"github.com/burraco/burraco/internal/ratelimit"
)

// front is the API's handler: serveTracked in front of the router. The
// request's state also carries the router's routing context
// (chi.RouteCtxKey), which the router then uses as a parent router's: one
// copy of the request for both rather than one each. front is the router's
// chi.Routes too, for what walks them.
type front struct {
	chi.Router
	s *server
}

func (f front) ServeHTTP(w http.ResponseWriter, r *http.Request) { f.s.serveTracked(f.Router, w, r) }

// nosniff is the X-Content-Type-Options of every answer.
var nosniff = []string{"nosniff"}

// routeContexts are chi's routing contexts, reused as chi's own pool does.
var routeContexts = sync.Pool{New: func() any { return chi.NewRouteContext() }}

// serveTracked is what comes before any route: it gives the request its
// state (see requestState) with an id (the client's X-Request-ID when it is
// sane, else a random one, echoed back), serves it with next, and logs one
// structured line when the answer is sent. Health probes, which a load
// balancer sends every few seconds, are logged at Debug unless they fail.
func (s *server) serveTracked(next http.Handler, w http.ResponseWriter, r *http.Request) {
	t := &tracked{}
	t.start = time.Now()
	t.parent = r.Context()
	if v := r.Header["X-Request-Id"]; len(v) > 0 { // Header.Get would allocate the canonical key
		t.id = v[0]
	}
	if !validRequestID(t.id) {
		t.id = newRequestID()
	}
	w.Header()["X-Request-Id"] = []string{t.id} // X-Request-ID, canonical: Set would allocate its key
	// Every answer is what its Content-Type says: a browser must not sniff
	// a CSV or JSON into HTML (issue 19). One shared value: Set replaces
	// it, and Add appends past its capacity.
	w.Header()["X-Content-Type-Options"] = nosniff
	t.ResponseWriter = w
	t.route = routeContexts.Get().(*chi.Context)
	t.route.Reset()
	t.route.Routes, _ = next.(chi.Routes)
	defer func() {
		t.stop()
		routeContexts.Put(t.route)
	}()
	r = r.WithContext(&t.requestState)
	if r.Body != nil && r.Body != http.NoBody {
		t.body.ReadCloser = r.Body
		r.Body = &t.body // parkIdle asks it whether it was read to its end
	}
	t.r = r
	next.ServeHTTP(&t.statusWriter, r)
	if t.parked {
		return
	}
	s.cfg.Metrics.observe(r.Method, t.route.RoutePatterns, t.Status(), time.Since(t.start))
	s.logRequest(r, &t.requestState, &t.statusWriter)
	s.parkIdle(&t.statusWriter, r)
}

// validRequestID reports whether an incoming X-Request-ID may be kept:
// 1 to 64 of A-Z a-z 0-9 . _ -; anything else is replaced, so that logs
// cannot be forged through it.
func validRequestID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := range len(id) {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// newRequestID returns 16 random hex digits. The id ties a problem answer
// to its log line and secures nothing, so it comes from the runtime's fast
// generator (math/rand/v2), not crypto/rand.
func newRequestID() string {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], rand.Uint64())
	return hex.EncodeToString(b[:])
}

// logRequest writes the line of serveTracked. It is a function of its own, not
// inlined, so that its attributes' frame is not on the stack while the
// request is served: a long poll waits under serveTracked for up to a minute,
// with a stack that shrinks only to four times what is in use.
//
//go:noinline
func (s *server) logRequest(r *http.Request, st *requestState, ww *statusWriter) {
	level := slog.LevelInfo
	switch {
	case ww.Status() >= 500:
		level = slog.LevelError
	case r.URL.Path == "/healthz" || r.URL.Path == "/readyz":
		level = slog.LevelDebug
	}
	if fast := s.reqLog; fast != nil {
		if !fast.Enabled(level) {
			return
		}
		now := time.Now() // in year range, as the JSON time must be
		fast.Write(now, level, &logs.RequestLine{
			RequestID: st.id,
			Method:    r.Method,
			Path:      r.URL.Path,
			Status:    ww.Status(),
			Bytes:     ww.bytes,
			Duration:  now.Sub(st.start),
			Remote:    r.RemoteAddr,
			Client:    s.proxies.ClientAddr(r),
		})
		return
	}
	if !s.log.Enabled(r.Context(), level) {
		return
	}
	// The same line as logs.RequestLogger's.
	s.log.LogAttrs(r.Context(), level, "request",
		slog.String("request_id", st.id),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", ww.Status()),
		slog.Int("bytes", ww.bytes),
		slog.Duration("duration", time.Since(st.start)),
		slog.String("remote", r.RemoteAddr),
		slog.String("client", s.proxies.ClientAddr(r)), // differs behind a trusted proxy
	)
}

// rateLimit limits requests per client address (the connection's peer,
// or, on a connection from a trusted proxy, the address the proxy forwards
// for) with l, answering 429 rate_limited with Retry-After; a nil l is no
// limit.
func (s *server) rateLimit(l *ratelimit.Limiter) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if l == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ok, wait := l.Allow(clientaddr.Key(s.proxies.ClientAddr(r)))
			if !ok {
				secs := retryAfter(wait)
				w.Header().Set("Retry-After", secs)
				fail(w, r, string(domain.ERateLimited), "too many requests; retry after "+secs+" s")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// recoverPanics turns a panic in a handler into a logged 500 problem.
func (s *server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(v)
			}
			s.log.ErrorContext(r.Context(), "panic", "request_id", RequestIDFrom(r.Context()),
				"panic", v, "stack", string(debug.Stack()))
			fail(w, r, string(domain.EInternal), "an internal error occurred; quote the request id when reporting it")
		}()
		next.ServeHTTP(w, r)
	})
}

// timeout gives each request a deadline d after it began; services see it
// through the context, and a request that runs out of time is answered
// 503. The deadline is the request state's (no timer unless somebody waits
// on it).
func timeout(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mustState(r).setTimeout(d)
			next.ServeHTTP(w, r)
		})
	}
}

// authenticate reads a Bearer access token, when there is one, and puts
// its actor in the context. A token that is present but invalid, or whose
// user no longer exists, is refused with 401 even on public routes: the
// client should know its token is bad.
func (s *server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		if h == "" {
			next.ServeHTTP(w, r)
			return
		}
		scheme, token, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
			fail(w, r, string(domain.EUnauthenticated), "the Authorization header must be \"Bearer <access token>\"")
			return
		}
		actor, err := s.actorOf(r.Context(), token)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		withActor(r, actor)
		next.ServeHTTP(w, r)
	})
}

// actorOf checks an access token and looks up its user, so that a demoted
// or deleted user, or one whose password was reset, loses their rights at
// once on the process that made the change and on the processes that hear
// it (domain.UserFeed: PostgreSQL's notices, a SQLite file's commits by
// another process), within domain.ActorTTL on the others, rather than
// when the token expires.
func (s *server) actorOf(ctx context.Context, token string) (domain.Actor, error) {
	id, session, err := s.tokens.Parse(token)
	if err != nil {
		return domain.Actor{}, err
	}
	a, err := s.svc.Auth.Authenticate(ctx, id, session)
	if err != nil && domain.ErrorCode(err) == domain.ENotFound {
		return domain.Actor{}, errBadToken
	}
	return a, err
}

// requireAuth refuses anonymous requests with 401.
func (s *server) requireAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ActorFrom(r.Context()).Anonymous() {
			fail(w, r, string(domain.EUnauthenticated), "this endpoint needs an access token")
			return
		}
		next.ServeHTTP(w, r)
	})
}
