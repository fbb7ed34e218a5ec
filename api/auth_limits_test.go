package api_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
)

// serveDefaults puts back the limits of auth that serve runs with, which
// newEnv raises for the tests that log in often.
func serveDefaults(c *api.Config) {
	c.AuthBurst, c.AuthPerMinute, c.RefreshPerMinute = 0, 0, 0
	c.LoginFailuresPerAccount, c.LoginFailuresPerAddress = 0, 0
}

// hall is the address of a club's hall: every phone is behind its Wi-Fi.
const hall = "203.0.113.50:40000"

// TestHallOfFortyPhonesSignsInFromOneAddress: on serve's default limits,
// forty players sign up, sign in (a few mistyping their password first)
// and refresh their tokens from one address within two minutes, and every
// request succeeds.
func TestHallOfFortyPhonesSignsInFromOneAddress(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), serveDefaults)
	const phones = 40
	step := 2 * time.Minute / phones
	refresh := make([]string, phones)
	for i := range phones {
		email := fmt.Sprintf("player%02d@club.example", i)
		e.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/auth/register", RemoteAddr: hall,
			Body: api.RegisterRequest{Email: email, Password: "password-123", Name: fmt.Sprintf("Player %d", i)}}, nil)
		if i%4 == 0 { // a typo on a phone's keyboard
			problemOf(t, e.must(http.StatusUnauthorized, req{Method: "POST", Path: "/api/v1/auth/login", RemoteAddr: hall,
				Body: api.LoginRequest{Email: email, Password: "pasword-123"}}, nil), "unauthenticated")
		}
		var tok api.TokenResponse
		e.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/auth/login", RemoteAddr: hall,
			Body: api.LoginRequest{Email: email, Password: "password-123"}}, &tok)
		refresh[i] = tok.RefreshToken
		e.clock.Add(step)
	}
	for i := range phones { // the pads refresh: no sign-ins
		var tok api.TokenResponse
		e.must(http.StatusOK, req{Method: "POST", Path: "/api/v1/auth/refresh", RemoteAddr: hall,
			Body: api.RefreshRequest{RefreshToken: refresh[i]}}, &tok)
		e.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/me", Token: tok.AccessToken, RemoteAddr: hall}, nil)
	}
}

// TestPasswordGuessingIsLimitedPerAccountAndPerAddress: on serve's default
// limits, failed logins are limited per account, whichever addresses they
// come from, and per address, whichever accounts they try; a refused
// login's password is not checked (even the right one is refused) and
// the answer says when to retry; successful logins count for neither.
func TestPasswordGuessingIsLimitedPerAccountAndPerAddress(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), serveDefaults)
	login := func(addr, email, password string) response {
		return e.do(req{Method: "POST", Path: "/api/v1/auth/login", RemoteAddr: addr,
			Body: api.LoginRequest{Email: email, Password: password}})
	}
	e.user("anna@example.com", "Anna")
	e.user("bruno@example.com", "Bruno")
	refused := func(res response, retryAfter string) {
		t.Helper()
		problemOf(t, res, "too_many_failed_logins")
		if res.Status != http.StatusTooManyRequests || res.Header.Get("Retry-After") != retryAfter {
			t.Errorf("status %d, Retry-After %q; want 429, %s", res.Status, res.Header.Get("Retry-After"), retryAfter)
		}
	}

	t.Run("PerAccount", func(t *testing.T) {
		for range 20 { // successes do not count
			if res := login("198.51.100.1:1", "anna@example.com", "password-123"); res.Status != http.StatusOK {
				t.Fatalf("a right password: status %d", res.Status)
			}
		}
		for i := range 10 { // a botnet: each guess from another address
			if res := login(fmt.Sprintf("198.51.100.%d:1", 10+i), "Anna@Example.com", fmt.Sprintf("guess-%d-xyz", i)); res.Status != http.StatusUnauthorized {
				t.Fatalf("guess %d: status %d, want 401", i+1, res.Status)
			}
		}
		refused(login("198.51.100.99:1", "anna@example.com", "guess-10-xyz"), "360") // 10 an hour
		refused(login("198.51.100.99:1", "anna@example.com", "password-123"), "360")
		if res := login("198.51.100.99:1", "bruno@example.com", "password-123"); res.Status != http.StatusOK {
			t.Errorf("another account from the same address: status %d", res.Status)
		}
		e.clock.Add(6 * time.Minute)
		if res := login("198.51.100.99:1", "anna@example.com", "password-123"); res.Status != http.StatusOK {
			t.Errorf("after Retry-After, the right password: status %d", res.Status)
		}
	})
	t.Run("PerAddress", func(t *testing.T) {
		const guesser = "192.0.2.77:1"
		for i := range 50 { // password spraying: one guess per account
			if res := login(guesser, fmt.Sprintf("user%d@example.com", i), "password-123"); res.Status != http.StatusUnauthorized {
				t.Fatalf("guess %d: status %d, want 401", i+1, res.Status)
			}
		}
		refused(login(guesser, "user50@example.com", "password-123"), "72") // 50 an hour
		refused(login(guesser, "bruno@example.com", "password-123"), "72")
		if res := login("192.0.2.78:1", "bruno@example.com", "password-123"); res.Status != http.StatusOK {
			t.Errorf("another address: status %d", res.Status)
		}
	})
}
