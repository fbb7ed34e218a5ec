package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/internal/servertest"
)

func TestMain(m *testing.M) { os.Exit(servertest.Run(m)) }

// TestServeEndToEnd builds the real binary, starts `burraco serve` on a
// free port with a fresh SQLite file in its working directory, registers,
// logs in, creates a club, reads it back, and stops it with SIGTERM.
func TestServeEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	srv := servertest.Start(t, servertest.Options{})
	if _, err := os.Stat(filepath.Join(srv.Dir, "burraco.db")); err != nil {
		t.Fatalf("the default SQLite file was not created in the working directory: %v", err)
	}
	for _, want := range []string{"JWT_SECRET is not set", "generated password"} {
		if !strings.Contains(srv.Logs(), want) {
			t.Errorf("start-up log lacks %q:\n%s", want, srv.Logs())
		}
	}

	c := client{t: t, base: srv.URL}
	c.call("GET", "/readyz", "", nil, 200, nil)
	c.call("POST", "/api/v1/auth/register", "", map[string]string{"email": "e2e@example.com", "password": "long-enough-pw", "name": "E2E"}, 201, nil)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	c.call("POST", "/api/v1/auth/login", "", map[string]string{"email": "e2e@example.com", "password": "long-enough-pw"}, 200, &tok)
	var club struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	loc := c.call("POST", "/api/v1/clubs", tok.AccessToken, map[string]string{"name": "E2E Club", "city": "Torino"}, 201, &club)
	var got struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		City string `json:"city"`
	}
	c.call("GET", loc, "", nil, 200, &got)
	if got.ID != club.ID || got.Name != "E2E Club" || got.City != "Torino" {
		t.Fatalf("read back %+v, created %+v", got, club)
	}
	c.call("GET", "/openapi.yaml", "", nil, 200, nil)

	if code := srv.Stop(); code != 0 {
		t.Fatalf("serve exited with %d\n%s", code, srv.Logs())
	}
	if !strings.Contains(srv.Logs(), "msg=stopped") {
		t.Errorf("no graceful stop in the log:\n%s", srv.Logs())
	}
}

// TestServeRestartKeepsData kills the server as a crash would, restarts it
// on the same address and database, and finds the account it had.
func TestServeRestartKeepsData(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	srv := servertest.Start(t, servertest.Options{Env: []string{"JWT_SECRET=" + strings.Repeat("k", 32)}})
	c := client{t: t, base: srv.URL}
	c.call("POST", "/api/v1/auth/register", "", map[string]string{"email": "crash@example.com", "password": "long-enough-pw", "name": "Crash"}, 201, nil)
	srv.Kill()
	url := srv.URL
	srv.Restart()
	if srv.URL != url {
		t.Errorf("restarted on %s, was %s", srv.URL, url)
	}
	c.call("POST", "/api/v1/auth/login", "", map[string]string{"email": "crash@example.com", "password": "long-enough-pw"}, 200, nil)
	if code := srv.Stop(); code != 0 {
		t.Fatalf("serve exited with %d\n%s", code, srv.Logs())
	}
}

// client calls the running server.
type client struct {
	t    *testing.T
	base string
}

// call sends a request and checks the status; it returns the Location.
func (c client) call(method, path, token string, body any, want int, out any) string {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		c.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.StatusCode, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			c.t.Fatalf("%s %s: %v: %s", method, path, err, b)
		}
	}
	return res.Header.Get("Location")
}

// TestSeedDemoAndMigrate runs seed-demo twice (the second run changes
// nothing) and the migrate subcommands on a fresh SQLite file.
func TestSeedDemoAndMigrate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	ctx := context.Background()
	runOK := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := run(ctx, args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out.String(), errOut.String())
		}
		return out.String()
	}
	out := runOK("seed-demo", "-database", db, "-log-level", "warn")
	for _, want := range []string{"owner@demo.burraco.local", "referee", "Created the draft tournament", "fibur, 4 players per table, pairs, modified_danish of 4 rounds of 3 deals", "its referee is Rita Referee"} {
		if !strings.Contains(out, want) {
			t.Errorf("seed-demo output lacks %q:\n%s", want, out)
		}
	}
	if out := runOK("seed-demo", "-database", db, "-log-level", "warn"); !strings.Contains(out, "exists already") {
		t.Errorf("second seed-demo: %s", out)
	}
	if out := runOK("migrate", "-database", db, "status"); !strings.Contains(out, "0001") || strings.Contains(out, " no\n") {
		t.Errorf("status after seed: %s", out)
	}
	if out := runOK("migrate", "-database", db, "up"); !strings.Contains(out, "nothing applied") {
		t.Errorf("second up: %s", out)
	}
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	if out := runOK("migrate", "-database", fresh, "up"); !strings.Contains(out, "applied 0001") {
		t.Errorf("up: %s", out)
	}
	if out := runOK("migrate", "-database", fresh, "down"); !strings.Contains(out, "reverted") {
		t.Errorf("down: %s", out)
	}
	var out2, errOut bytes.Buffer
	if code := run(ctx, []string{"migrate", "-database", fresh, "sideways"}, &out2, &errOut); code != 2 {
		t.Errorf("bad action: exit %d", code)
	}
	if code := run(ctx, []string{"serve", "-log-level", "loud"}, &out2, &errOut); code != 2 {
		t.Errorf("bad log level: exit %d", code)
	}
}
