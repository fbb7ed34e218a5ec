package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
)

// testSecret is the JWT key of the test servers.
var testSecret = []byte("test-secret-0123456789-0123456789-abcdef")

// clock is a settable clock shared by the services and the API.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is the real router over the real services on a real database.
type env struct {
	t     testing.TB
	db    *store.DB
	h     http.Handler
	svc   domain.Services
	clock *clock
	logs  *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}
func (b *syncBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.b.String() }

// newEnv builds a server on db; tweak adjusts its config (e.g. rate limits).
func newEnv(t testing.TB, db *store.DB, tweak ...func(*api.Config)) *env {
	t.Helper()
	return newEnvServices(t, db, domain.Config{}, tweak...)
}

// newEnvServices is newEnv with services configured by dcfg (its clock and
// password parameters are the test's own).
func newEnvServices(t testing.TB, db *store.DB, dcfg domain.Config, tweak ...func(*api.Config)) *env {
	t.Helper()
	clk := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	dcfg.Now, dcfg.PasswordParams = clk.Now, domain.TestPasswordParams
	svc := domain.NewServices(db, dcfg)
	cfg := api.Config{
		JWTSecret: testSecret,
		// Most tests log in often, and every request comes from one
		// address; the tests of the limits set their own.
		AuthBurst:               1000,
		AuthPerMinute:           1000,
		RefreshPerMinute:        1000,
		LoginFailuresPerAccount: 1000,
		LoginFailuresPerAddress: 1000,
		MaxBodyBytes:            64 << 10,
		OpenAPI:                 []byte("openapi: 3.0.3\n"),
		Now:                     clk.Now,
	}
	for _, f := range tweak {
		f(&cfg)
	}
	// The tables' and tournaments' feeds of other processes' changes, as
	// serve runs them.
	follow(t, svc)
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return &env{t: t, db: db, h: api.NewServer(cfg, svc, db, log), svc: svc, clock: clk, logs: logs}
}

// response is a recorded answer.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// req describes a request; Body is marshalled to JSON unless it is a
// string or []byte, which are sent as they are.
type req struct {
	Method, Path string
	Body         any
	Token        string
	Header       map[string]string
	RemoteAddr   string
	// Timeout cancels the request after this long: for streams.
	Timeout time.Duration
}

func (e *env) do(r req) response {
	e.t.Helper()
	var body io.Reader
	switch b := r.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		body = bytes.NewReader(j)
	}
	hr := httptest.NewRequest(r.Method, r.Path, body)
	if r.Body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if r.Token != "" {
		hr.Header.Set("Authorization", "Bearer "+r.Token)
	}
	for k, v := range r.Header {
		hr.Header.Set(k, v)
	}
	if r.RemoteAddr != "" {
		hr.RemoteAddr = r.RemoteAddr
	}
	if r.Timeout > 0 {
		ctx, cancel := context.WithTimeout(hr.Context(), r.Timeout)
		defer cancel()
		hr = hr.WithContext(ctx)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, hr)
	return response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// must sends r and fails the test unless the status is want; it decodes
// the body into out when out is not nil.
func (e *env) must(want int, r req, out any) response {
	e.t.Helper()
	res := e.do(r)
	if res.Status != want {
		e.t.Fatalf("%s %s: status %d, want %d; body: %s", r.Method, r.Path, res.Status, want, res.Body)
	}
	if out != nil {
		if err := json.Unmarshal(res.Body, out); err != nil {
			e.t.Fatalf("%s %s: decode %s: %v", r.Method, r.Path, res.Body, err)
		}
	}
	return res
}

// user registers an account through the API and logs it in.
func (e *env) user(email, name string) (api.User, api.TokenResponse) {
	e.t.Helper()
	var u api.User
	e.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/auth/register",
		Body: api.RegisterRequest{Email: email, Password: "password-123", Name: name}}, &u)
	return u, e.login(email, "password-123")
}

func (e *env) login(email, password string) api.TokenResponse {
	e.t.Helper()
	var tok api.TokenResponse
	e.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/auth/login",
		Body: api.LoginRequest{Email: email, Password: password}}, &tok)
	return tok
}

// siteAdmin creates the bootstrap site admin and logs it in.
func (e *env) siteAdmin() api.TokenResponse {
	e.t.Helper()
	if _, err := e.svc.Auth.EnsureAdmin(context.Background(), "root@example.com", "root-password-1"); err != nil {
		e.t.Fatal(err)
	}
	return e.login("root@example.com", "root-password-1")
}

// problem decodes a problem response, checking its media type and the
// fields every problem has.
func problem(t *testing.T, res response) api.Problem {
	t.Helper()
	if ct := res.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json; body: %s", ct, res.Body)
	}
	var p api.Problem
	dec := json.NewDecoder(bytes.NewReader(res.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		t.Fatalf("decode problem %s: %v", res.Body, err)
	}
	if p.Status != res.Status || p.Code == "" || p.Title == "" || p.RequestID == "" ||
		p.Type != "urn:burraco:problem:"+p.Code || p.RequestID != res.Header.Get("X-Request-ID") {
		t.Fatalf("incomplete problem (status %d): %+v", res.Status, p)
	}
	return p
}

// follow runs the services' feeds of other processes' changes, as serve
// does, until t ends.
func follow(t testing.TB, svc domain.Services) {
	ctx, cancel := context.WithCancel(context.Background())
	var followed sync.WaitGroup
	followed.Go(func() { _ = svc.Tables.Follow(ctx) })
	followed.Go(func() { _ = svc.Play.Follow(ctx) })
	t.Cleanup(func() { cancel(); followed.Wait() })
}
