package main

import (
	"bytes"
	"context"
	"encoding/json"
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
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestResetPasswordEndsAccessTokens: `burraco admin reset-password`, a
// process of its own, ends the user's sessions on every server process
// sharing the database, access tokens included: the access tokens minted
// before are refused as soon as the servers hear of the reset, their
// clocks standing still (PostgreSQL: its notice; SQLite: the write
// connection sees another process's commit); a login with the new
// password works at once on every server.
// An unknown address is said plainly, with a failing exit.
func TestResetPasswordEndsAccessTokens(t *testing.T) {
	for dialect, url := range map[string]func(testing.TB) string{store.SQLite: storetest.SQLiteURL, store.Postgres: storetest.PostgresURL} {
		t.Run(dialect, func(t *testing.T) {
			url := url(t)
			clk := &testClock{t: time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)}
			a, b := newTestServer(t, url, clk), newTestServer(t, url, clk) // two server processes
			a.call(201, "POST", "/api/v1/auth/register", "", `{"email":"anna@example.com","password":"the old password","name":"Anna"}`)
			fromA, fromB := a.login("the old password"), b.login("the old password")
			for _, s := range []*testServer{a, b} { // each caches Anna
				s.call(200, "GET", "/api/v1/me", fromA.AccessToken, "")
				s.call(200, "GET", "/api/v1/me", fromB.AccessToken, "")
			}

			var out, errs bytes.Buffer
			if code := runAdminWith(t.Context(), []string{"reset-password", "-database", url, "-email", "anna@example.com", "-password-stdin"},
				strings.NewReader("the new password\n"), &out, &errs); code != 0 {
				t.Fatalf("reset-password: exit %d: %s%s", code, out.String(), errs.String())
			}
			// A login with the new password works on both servers at once,
			// although b's cache still holds Anna from before the reset.
			fresh := a.login("the new password")
			b.call(200, "GET", "/api/v1/me", fresh.AccessToken, "")

			for _, s := range []*testServer{a, b} {
				s.refusedSoon(fromA.AccessToken)
			}
			for _, s := range []*testServer{a, b} {
				for _, old := range []string{fromA.AccessToken, fromB.AccessToken} {
					if p := s.call(401, "GET", "/api/v1/me", old, ""); p["code"] != "unauthenticated" {
						t.Errorf("an access token from before the reset: %v, want unauthenticated", p)
					}
				}
				s.call(200, "GET", "/api/v1/me", fresh.AccessToken, "")
			}
			a.call(401, "POST", "/api/v1/auth/refresh", "", `{"refresh_token":"`+fromB.RefreshToken+`"}`)

			errs.Reset()
			code := runAdminWith(t.Context(), []string{"reset-password", "-database", url, "-email", "nobody@example.com"}, strings.NewReader(""), &out, &errs)
			if want := "burraco admin: no user with the e-mail address nobody@example.com\n"; code == 0 || errs.String() != want {
				t.Errorf("an unknown address: exit %d, %q; want non-zero, %q", code, errs.String(), want)
			}
		})
	}
}

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testServer is what one `serve` process runs, in the test's process: its
// own services (with their caches) and router on the shared database.
type testServer struct {
	t *testing.T
	h http.Handler
}

func newTestServer(t *testing.T, url string, clk *testClock) *testServer {
	log := slog.New(slog.DiscardHandler)
	db, err := openDB(t.Context(), url, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := domain.NewServices(db, domain.Config{Now: clk.Now, PasswordParams: domain.TestPasswordParams})
	cfg := api.Config{JWTSecret: []byte(strings.Repeat("s", 32)), Now: clk.Now, OpenAPI: []byte("openapi: 3.0.3\n")}
	ctx, cancel := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() { // as serve does
		defer close(followed)
		_ = svc.Auth.Follow(ctx)
	}()
	t.Cleanup(func() { cancel(); <-followed })
	return &testServer{t: t, h: api.NewServer(cfg, svc, db, log)}
}

// refusedSoon waits until s refuses token (401), its clock standing still:
// what it waits for is a notice on its way, not an expiry.
func (s *testServer) refusedSoon(token string) {
	s.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		r := httptest.NewRequest("GET", "/api/v1/me", nil)
		r.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		s.h.ServeHTTP(w, r)
		if w.Code == http.StatusUnauthorized {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("an access token from before the reset still answered %d after 10 s, the clock standing still", w.Code)
		}
	}
}

// call sends a request and checks its status; it returns the decoded body.
func (s *testServer) call(status int, method, path, token, body string) map[string]any {
	s.t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, r)
	if w.Code != status {
		s.t.Fatalf("%s %s: status %d, want %d: %s", method, path, w.Code, status, w.Body)
	}
	var out map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &out)
	return out
}

type sessionTokens struct{ AccessToken, RefreshToken string }

func (s *testServer) login(password string) sessionTokens {
	s.t.Helper()
	out := s.call(200, "POST", "/api/v1/auth/login", "", `{"email":"anna@example.com","password":"`+password+`"}`)
	a, _ := out["access_token"].(string)
	r, _ := out["refresh_token"].(string)
	return sessionTokens{AccessToken: a, RefreshToken: r}
}
