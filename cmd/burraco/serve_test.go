package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
)

func TestParseTrustedProxies(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		err      bool
	}{
		{name: "EmptyIsNone", in: "", want: nil},
		{name: "CIDRs", in: "10.0.0.0/8, 192.168.1.0/24,fd00::/8", want: []string{"10.0.0.0/8", "192.168.1.0/24", "fd00::/8"}},
		{name: "HostBitsMasked", in: "10.1.2.3/8", want: []string{"10.0.0.0/8"}},
		{name: "BareAddressesAreHosts", in: "127.0.0.1,::1", want: []string{"127.0.0.1/32", "::1/128"}},
		{name: "IPv4MappedUnmapped", in: "::ffff:10.0.0.0/104", want: []string{"10.0.0.0/8"}},
		{name: "EmptyItemsSkipped", in: " , 10.0.0.0/8,, ", want: []string{"10.0.0.0/8"}},
		{name: "ErrNotACIDR", in: "10.0.0.0/8,proxy.local", err: true},
		{name: "ErrBadBits", in: "10.0.0.0/33", err: true},
		{name: "ErrZone", in: "fe80::1%eth0", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseTrustedProxies(tt.in)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			var gotS []string
			for _, p := range got {
				gotS = append(gotS, p.String())
			}
			if diff := cmp.Diff(tt.want, gotS); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestServeRefusesBadTrustedProxies(t *testing.T) {
	t.Setenv("BURRACO_TRUSTED_PROXIES", "")
	var out, errOut bytes.Buffer
	if code := run(t.Context(), []string{"serve", "-trusted-proxies", "10.0.0.0/8,nope"}, &out, &errOut); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(errOut.String(), `"nope" is not a CIDR`) {
		t.Errorf("stderr does not name the bad item: %s", errOut.String())
	}
	t.Setenv("BURRACO_TRUSTED_PROXIES", "nope")
	if code := run(t.Context(), []string{"serve"}, &out, &errOut); code != 2 {
		t.Errorf("from the environment: exit %d, want 2", code)
	}
}

// TestPurgeLoop checks that the loop purges at once, then at every tick,
// goes on after a failure, and stops when its context ends.
func TestPurgeLoop(t *testing.T) {
	calls := make(chan struct{}, 100)
	var n int
	purge := func(ctx context.Context) (domain.Purged, error) {
		n++
		calls <- struct{}{}
		if n == 2 {
			return domain.Purged{}, errors.New("database is locked")
		}
		return domain.Purged{RefreshTokens: 3}, nil
	}
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); purgeLoop(ctx, 5*time.Millisecond, purge, log) }()
	for i := range 4 {
		select {
		case <-calls:
		case <-time.After(10 * time.Second):
			t.Fatalf("purge %d did not run", i+1)
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the loop did not stop when its context ended")
	}
	if s := logs.String(); !strings.Contains(s, `msg="purged expired rows" refresh_tokens=3`) || !strings.Contains(s, "database is locked") {
		t.Errorf("log lacks the purge or the failure:\n%s", s)
	}

	// The first purge runs at start, not after the first interval.
	ctx, cancel = context.WithCancel(t.Context())
	done = make(chan struct{})
	go func() { defer close(done); purgeLoop(ctx, time.Hour, purge, log) }()
	select {
	case <-calls:
	case <-time.After(10 * time.Second):
		t.Fatal("no purge at start")
	}
	cancel()
	<-done
}

// TestServePurgesAndTrustsProxies runs serve in-process: it purges the
// expired refresh tokens at start, reads the client address from
// X-Forwarded-For on connections from a trusted proxy (here loopback) and
// logs it, and stops the purge loop and the server when its context ends.
func TestServePurgesAndTrustsProxies(t *testing.T) {
	for _, name := range []string{"JWT_SECRET", "BURRACO_TRUSTED_PROXIES", "BURRACO_ADMIN_PASSWORD", "BURRACO_CORS_ORIGINS"} {
		t.Setenv(name, "")
	}
	dbPath := filepath.Join(t.TempDir(), "burraco.db")
	seedExpiredToken(t, dbPath)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", "-database", dbPath, "-trusted-proxies", "127.0.0.0/8"}, io.Discard, pw)
		pw.Close()
	}()
	logs := &lockedLog{eof: make(chan struct{})}
	base := "http://" + waitListening(t, pr, logs)

	req, _ := http.NewRequestWithContext(t.Context(), "GET", base+"/api/v1/rules", nil)
	req.Header.Set("X-Forwarded-For", "203.0.113.1, 198.51.100.7")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()

	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("serve exited %d\n%s", code, logs)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not stop\n%s", logs)
	}
	// The reader may not have stored the last lines yet when run returns.
	select {
	case <-logs.eof:
	case <-time.After(20 * time.Second):
		t.Fatalf("the log was not closed\n%s", logs)
	}
	for _, want := range []string{`msg="purged expired rows" refresh_tokens=1`, "trusted_proxies=[127.0.0.0/8]",
		"path=/api/v1/rules", "client=198.51.100.7", "msg=stopped"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
}

// seedExpiredToken creates the database at path with a user and one
// refresh token that expired an hour ago.
func seedExpiredToken(t *testing.T, path string) {
	t.Helper()
	db, err := openDB(t.Context(), path, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Now()
	err = db.InTx(t.Context(), func(tx domain.Tx) error {
		u := domain.User{Email: "old@example.com", Name: "Old", CreatedAt: now, UpdatedAt: now}
		if err := tx.Users().Create(&u, "hash"); err != nil {
			return err
		}
		return tx.RefreshTokens().Create(&domain.RefreshToken{UserID: u.ID, FamilyID: "f", TokenHash: "h",
			CreatedAt: now.Add(-31 * 24 * time.Hour), ExpiresAt: now.Add(-time.Hour)})
	})
	if err != nil {
		t.Fatal(err)
	}
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

var listeningLine = regexp.MustCompile(`msg=listening addr=(\S+)`)

// waitListening reads the in-process server's log until it says where it
// listens, and keeps copying the rest into logs.
func waitListening(t *testing.T, r io.Reader, logs *lockedLog) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			logs.add(sc.Text())
			if m := listeningLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		if logs.eof != nil {
			close(logs.eof)
		}
	}()
	select {
	case addr := <-found:
		return addr
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not log its address:\n%s", logs)
	}
	return ""
}

// lockedLog collects log lines written by another goroutine.
type lockedLog struct {
	mu    sync.Mutex
	lines []string
	eof   chan struct{} // when not nil, closed once the whole log is read
}

func (l *lockedLog) add(s string) { l.mu.Lock(); defer l.mu.Unlock(); l.lines = append(l.lines, s) }

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// TestServeRefusesBadLimits: a per-user or auth limit from the environment
// that is not an integer, an open-table TTL or a park grace that is not a
// duration, or a parking switch that is not a boolean, stops serve with
// exit 2, naming the variable.
func TestServeRefusesBadLimits(t *testing.T) {
	for _, env := range []string{"BURRACO_MAX_OPEN_TABLES", "BURRACO_MAX_LONG_POLLS", "BURRACO_MAX_EVENT_STREAMS",
		"BURRACO_OPEN_TABLE_TTL", "BURRACO_AUTH_PER_MINUTE", "BURRACO_AUTH_BURST", "BURRACO_REFRESH_PER_MINUTE",
		"BURRACO_LOGIN_FAILURES_PER_ACCOUNT", "BURRACO_LOGIN_FAILURES_PER_ADDRESS", "BURRACO_LEASE_TTL", "BURRACO_PARK_POLLS", "BURRACO_PARK_GRACE"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, "many")
			var out, errOut bytes.Buffer
			if code := run(t.Context(), []string{"serve"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), env) {
				t.Errorf("exit %d, stderr %q", code, errOut.String())
			}
		})
	}
}

// staleTables is a TableService whose CloseStale reports each call; the
// rest is not called.
type staleTables struct {
	domain.TableService
	calls chan time.Time
}

func (s staleTables) CloseStale(_ context.Context, now time.Time) (int, error) {
	s.calls <- now
	return 2, nil
}

// TestClosingStaleTablesRunsAtStartAndStopsWithServe: serve's sweep of the
// tables left open runs at once, logs what it cancelled, and stops when
// asked; with no TTL it never runs. Its interval is the purge's, or a
// quarter of a shorter TTL, never under a minute.
func TestClosingStaleTablesRunsAtStartAndStopsWithServe(t *testing.T) {
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	tables := staleTables{calls: make(chan time.Time, 10)}
	stop := startClosingStaleTables(t.Context(), tables, time.Hour, log)
	select {
	case <-tables.calls:
	case <-time.After(10 * time.Second):
		t.Fatal("no sweep at start")
	}
	stop()
	if s := logs.String(); !strings.Contains(s, "tables=2") {
		t.Errorf("the log lacks the sweep:\n%s", s)
	}
	startClosingStaleTables(t.Context(), tables, -1, log)()
	select {
	case <-tables.calls:
		t.Fatal("a sweep ran with no TTL")
	case <-time.After(50 * time.Millisecond):
	}
	for _, c := range []struct{ ttl, every time.Duration }{
		{24 * time.Hour, time.Hour}, {4 * time.Hour, time.Hour}, {time.Hour, 15 * time.Minute}, {time.Minute, time.Minute},
	} {
		if got := staleSweepEvery(c.ttl); got != c.every {
			t.Errorf("TTL %v: every %v, want %v", c.ttl, got, c.every)
		}
	}
}
