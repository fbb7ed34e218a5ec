package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/logs"
)

func testServer(logs *bytes.Buffer) *server {
	return &server{log: slog.New(slog.NewTextHandler(logs, nil)), cfg: Config{}.withDefaults()}
}

// begin is serveTracked as a middleware, for handlers under test.
func (s *server) begin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serveTracked(next, w, r) })
}

// serve runs h behind serveTracked and the panic recovery.
func serve(s *server, h http.HandlerFunc) (*httptest.ResponseRecorder, Problem) {
	rec := httptest.NewRecorder()
	s.begin(s.recoverPanics(h)).ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	var p Problem
	_ = json.Unmarshal(rec.Body.Bytes(), &p)
	return rec, p
}

// TestUnknownErrorsAreHidden checks that an error that is not a domain
// error becomes a generic 500, logged with the request id and the cause.
func TestUnknownErrorsAreHidden(t *testing.T) {
	for name, err := range map[string]error{
		"plain":    errors.New("pq: password authentication failed for user secret"),
		"internal": &domain.Error{Code: domain.EInternal, Message: "secret detail", Err: errors.New("secret cause")},
	} {
		t.Run(name, func(t *testing.T) {
			var logs bytes.Buffer
			s := testServer(&logs)
			rec, p := serve(s, func(w http.ResponseWriter, r *http.Request) { s.failErr(w, r, err) })
			if rec.Code != 500 || p.Code != "internal" || strings.Contains(rec.Body.String(), "secret") {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			if !strings.Contains(logs.String(), "request_id="+p.RequestID) || !strings.Contains(logs.String(), "secret") {
				t.Fatalf("not logged with the request id and cause: %s", logs.String())
			}
		})
	}
}

// TestErrorTable checks every domain code maps to its status.
func TestErrorTable(t *testing.T) {
	want := map[domain.Code]int{
		domain.EInvalid: 422, domain.EUnauthenticated: 401, domain.EForbidden: 403, domain.ENotFound: 404,
		domain.EConflict: 409, domain.EVersionConflict: 409, domain.ETokenReused: 401, domain.ERateLimited: 429,
		domain.EUnavailable: 503, domain.EInternal: 500, "some_new_code": 500,
	}
	for code, status := range want {
		s := testServer(&bytes.Buffer{})
		err := fmt.Errorf("wrapped: %w", &domain.Error{Code: code, Message: "m", Fields: []domain.FieldError{{Field: "f", Code: "c", Message: "m"}}})
		rec, p := serve(s, func(w http.ResponseWriter, r *http.Request) { s.failErr(w, r, err) })
		if rec.Code != status || p.Status != status {
			t.Errorf("%s: status %d, want %d", code, rec.Code, status)
		}
		if code == domain.EInvalid && (len(p.Errors) != 1 || p.Errors[0].Field != "f") {
			t.Errorf("field errors lost: %+v", p)
		}
		if status == 503 && rec.Header().Get("Retry-After") == "" {
			t.Errorf("%s: 503 without Retry-After", code)
		}
	}
}

// TestPanicRecovery checks that a panic is a logged 500 problem.
func TestPanicRecovery(t *testing.T) {
	var logs bytes.Buffer
	s := testServer(&logs)
	rec, p := serve(s, func(w http.ResponseWriter, r *http.Request) { panic("boom") })
	if rec.Code != 500 || p.Code != "internal" || rec.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(logs.String(), "boom") || !strings.Contains(logs.String(), p.RequestID) {
		t.Fatalf("panic not logged: %s", logs.String())
	}
}

// TestTimeout checks that a service running out of time is a 503.
func TestTimeout(t *testing.T) {
	s := testServer(&bytes.Buffer{})
	h := timeout(time.Millisecond)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		s.failErr(w, r, fmt.Errorf("query: %w", r.Context().Err()))
	}))
	rec, p := serve(s, h.ServeHTTP)
	if rec.Code != 503 || p.Code != "timeout" {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}

// TestProbesLoggedAtDebug: health probes are left out of an Info log unless
// they fail; other requests are logged, by slog or by the fast request
// logger of logs.NewHandler's log.
func TestProbesLoggedAtDebug(t *testing.T) {
	for _, fast := range []bool{false, true} {
		var out bytes.Buffer
		s := testServer(&out)
		if fast {
			s.log = slog.New(logs.NewHandler(&out, logs.Text, slog.LevelInfo))
			s.reqLog = logs.RequestLoggerOf(s.log.Handler())
		}
		h := s.begin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("fail") != "" {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			_, _ = w.Write([]byte("ok"))
		}))
		for _, path := range []string{"/healthz", "/readyz", "/api/v1/players", "/readyz?fail=1"} {
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
		}
		got := out.String()
		for _, want := range []string{"path=/api/v1/players status=200 bytes=2 duration=", "level=ERROR msg=request request_id=", "method=GET path=/readyz status=503 bytes=0 duration="} {
			if !strings.Contains(got, want) {
				t.Errorf("fast=%v: log lacks %q:\n%s", fast, want, got)
			}
		}
		if strings.Contains(got, "path=/healthz") || strings.Contains(got, "path=/readyz status=200") {
			t.Errorf("fast=%v: a passing probe was logged at Info:\n%s", fast, got)
		}
		if n := strings.Count(got, "\n"); n != 2 {
			t.Errorf("fast=%v: %d lines, want 2:\n%s", fast, n, got)
		}
	}
}
