package main

import (
	"io"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/burraco/burraco/domain/store/storetest"
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
	dir := t.TempDir()
	bin := filepath.Join(dir, "burraco")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// Both processes start before either is waited for, so they race to
	// migrate the database and to store the generated JWT secret.
	var (
		bases [2]string
		logs  [2]*lockedLog
		cmds  [2]*exec.Cmd
		errs  [2]io.Reader
	)
	for i := range 2 {
		cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0")
		cmd.Dir = dir
		cmd.Env = append(cleanEnv(), "DATABASE_URL="+dbURL, "BURRACO_ADMIN_PASSWORD=admin-password-for-tests")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill() })
		cmds[i], logs[i], errs[i] = cmd, &lockedLog{}, stderr
	}
	for i := range 2 {
		bases[i] = "http://" + waitListening(t, errs[i], logs[i])
	}
	a, b := client{t: t, base: bases[0]}, client{t: t, base: bases[1]}

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

	for i, cmd := range cmds {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("server %d exited with %v\n%s", i, err, logs[i])
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("server %d did not stop\n%s", i, logs[i])
		}
	}
}
