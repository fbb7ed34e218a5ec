package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/burraco/burraco/domain"
)

// validRequestID is what an incoming X-Request-ID must look like to be
// kept; anything else is replaced, so logs cannot be forged through it.
var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestID gives each request an id (the client's X-Request-ID when it is
// sane, else a random one), puts it in the context and echoes it back.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-ID")
		if !validRequestID.MatchString(id) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-ID", id)
		next.ServeHTTP(w, r.WithContext(withRequestID(r.Context(), id)))
	})
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// logRequests logs one structured line per request. Health probes, which
// a load balancer sends every few seconds, are logged at Debug unless they
// fail.
func (s *server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		s.logRequest(r, ww, start)
	})
}

// logRequest writes the line of logRequests. It is a function of its own,
// not inlined, so that its attributes' frame is not on the stack while the
// request is served: a long poll waits under logRequests for up to a
// minute, with a stack that shrinks only to four times what is in use.
//
//go:noinline
func (s *server) logRequest(r *http.Request, ww middleware.WrapResponseWriter, start time.Time) {
	level := slog.LevelInfo
	switch {
	case ww.Status() >= 500:
		level = slog.LevelError
	case r.URL.Path == "/healthz" || r.URL.Path == "/readyz":
		level = slog.LevelDebug
	}
	if fast := s.reqLog; fast != nil {
		if level < fast.h.level.Level() {
			return
		}
		now := time.Now() // in year range, as the JSON time must be
		fast.write(now, level, &requestLine{
			requestID: RequestIDFrom(r.Context()),
			method:    r.Method,
			path:      r.URL.Path,
			status:    ww.Status(),
			bytes:     ww.BytesWritten(),
			duration:  now.Sub(start),
			remote:    r.RemoteAddr,
			client:    s.proxies.clientAddr(r),
		})
		return
	}
	if !s.log.Enabled(r.Context(), level) {
		return
	}
	// The same line as requestLogger.write's.
	s.log.LogAttrs(r.Context(), level, "request",
		slog.String("request_id", RequestIDFrom(r.Context())),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", ww.Status()),
		slog.Int("bytes", ww.BytesWritten()),
		slog.Duration("duration", time.Since(start)),
		slog.String("remote", r.RemoteAddr),
		slog.String("client", s.proxies.clientAddr(r)), // differs behind a trusted proxy
	)
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

// timeout gives each request a deadline; services see it through the
// context, and a request that runs out of time is answered 503.
func timeout(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
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
		next.ServeHTTP(w, r.WithContext(withActor(r.Context(), actor)))
	})
}

// actorOf checks an access token and looks up its user, so that a demoted
// or deleted user loses their rights within domain.ActorTTL (at once on the
// process that made the change) rather than when the token expires.
func (s *server) actorOf(ctx context.Context, token string) (domain.Actor, error) {
	id, err := s.tokens.Parse(token)
	if err != nil {
		return domain.Actor{}, err
	}
	a, err := s.svc.Auth.Actor(ctx, id)
	if domain.ErrorCode(err) == domain.ENotFound {
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

// problemFor405 turns chi's bare 405 answer into a problem. chi's own 405
// handler is kept because it alone knows the methods the path allows (it
// sets the Allow header); a custom one would lose them.
func problemFor405(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&notAllowedWriter{ResponseWriter: w, r: r}, r)
	})
}

type notAllowedWriter struct {
	http.ResponseWriter
	r       *http.Request
	written bool // the problem was sent; drop chi's empty body
}

func (w *notAllowedWriter) WriteHeader(status int) {
	if status == http.StatusMethodNotAllowed && w.Header().Get("Content-Type") == "" {
		w.written = true
		// chi lists the allowed methods in map order; sort them, so that
		// the header is the same on every request.
		if allow := w.Header().Values("Allow"); len(allow) > 1 {
			w.Header()["Allow"] = slices.Sorted(slices.Values(allow))
		}
		fail(w.ResponseWriter, w.r, codeMethodNotAllowed, w.r.Method+" is not allowed here; see the Allow header")
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *notAllowedWriter) Write(b []byte) (int, error) {
	if w.written {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *notAllowedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
