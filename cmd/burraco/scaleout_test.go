package main

import (
	"testing"

	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/internal/servertest"
)

// TestTwoServersShareOnePostgres is the scale-out path: two real `serve`
// processes start at the same moment on one PostgreSQL database (racing to
// migrate it and to generate the JWT secret), and then act as one service:
// an account registered on one logs in on the other, an access token from
// either works on both, and a refresh token rotated on one is detected as
// reused on the other.
func TestTwoServersShareOnePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dbURL := storetest.PostgresURL(t) // skips locally without PostgreSQL; fails in CI
	env := []string{"DATABASE_URL=" + dbURL, "BURRACO_ADMIN_PASSWORD=admin-password-for-tests"}

	// Both processes start before either is waited for, so they race to
	// migrate the database and to store the generated JWT secret.
	srvs := []*servertest.Server{servertest.Launch(t, servertest.Options{Env: env}), servertest.Launch(t, servertest.Options{Env: env})}
	for _, s := range srvs {
		s.WaitReady()
	}
	a, b := client{t: t, base: srvs[0].URL}, client{t: t, base: srvs[1].URL}

	a.call("POST", "/api/v1/auth/register", "", map[string]string{"email": "two@example.com", "password": "long-enough-pw", "name": "Two"}, 201, nil)
	type tokens struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	var fromB tokens
	b.call("POST", "/api/v1/auth/login", "", map[string]string{"email": "two@example.com", "password": "long-enough-pw"}, 200, &fromB)
	a.call("GET", "/api/v1/me", fromB.AccessToken, nil, 200, nil) // one shared signing key

	var fromA tokens
	a.call("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": fromB.RefreshToken}, 200, &fromA)
	b.call("GET", "/api/v1/me", fromA.AccessToken, nil, 200, nil)
	b.call("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": fromB.RefreshToken}, 401, nil) // reused
	a.call("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": fromA.RefreshToken}, 401, nil) // family revoked

	var club struct {
		ID int64 `json:"id"`
	}
	var admin tokens
	b.call("POST", "/api/v1/auth/login", "", map[string]string{"email": "admin@burraco.local", "password": "admin-password-for-tests"}, 200, &admin)
	loc := a.call("POST", "/api/v1/clubs", admin.AccessToken, map[string]string{"name": "Shared Club", "city": "Bari"}, 201, &club)
	b.call("GET", loc, "", nil, 200, nil)

	for i, s := range srvs {
		if code := s.Stop(); code != 0 {
			t.Fatalf("server %d exited with %d\n%s", i, code, s.Logs())
		}
	}
}
