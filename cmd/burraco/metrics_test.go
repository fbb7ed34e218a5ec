package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/internal/metrics"
)

var metricsLine = regexp.MustCompile(`msg="metrics listening" addr=(\S+)`)

// TestMetricsAreServedOnlyOnTheirOwnAddress: serve with -metrics-addr
// answers /metrics (the API's requests, the database's pools and group
// commits, the tables playing) and /debug/pprof/ on that address, and
// neither on the API's.
func TestMetricsAreServedOnlyOnTheirOwnAddress(t *testing.T) {
	for _, name := range []string{"JWT_SECRET", "BURRACO_TRUSTED_PROXIES", "BURRACO_ADMIN_PASSWORD", "BURRACO_CORS_ORIGINS", "BURRACO_METRICS_ADDR"} {
		t.Setenv(name, "")
	}
	dbPath := filepath.Join(t.TempDir(), "burraco.db")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", "-metrics-addr", "127.0.0.1:0", "-database", dbPath}, io.Discard, pw)
		pw.Close()
	}()
	logs := &lockedLog{eof: make(chan struct{})}
	base := "http://" + waitListening(t, pr, logs)
	m := metricsLine.FindStringSubmatch(logs.String()) // logged before the API listens
	if m == nil {
		t.Fatalf("no metrics address in the log:\n%s", logs)
	}
	metricsBase := "http://" + m[1]

	get := func(url string) (int, string) {
		t.Helper()
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, _ := get(base + "/api/v1/rules"); code != 200 {
		t.Fatalf("GET /api/v1/rules: %d", code)
	}
	// A request is counted once its handler returns, which may be after
	// the client has read an answer larger than net/http's buffer (the
	// rules are): scrape until it is, for a few seconds.
	counted := `burraco_http_requests_total{method="GET",route="/api/v1/rules",code="200"} 1`
	var code int
	var body string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		code, body = get(metricsBase + "/metrics")
		if code != 200 {
			t.Fatalf("GET /metrics on the metrics address: %d", code)
		}
		if strings.Contains(body, counted) || time.Now().After(deadline) {
			break
		}
	}
	for _, want := range []string{
		counted,
		`burraco_db_connections_open{pool="write"}`,
		`burraco_db_wait_count_total{pool="read"}`,
		`# TYPE burraco_db_group_commit_writers histogram`,
		`burraco_db_group_commit_writers_count `,
		`# TYPE burraco_db_commit_seconds histogram`,
		`burraco_db_commit_seconds_count `,
		"burraco_tables_playing 0",
		"burraco_long_polls_open 0",
		"burraco_moves_total 0",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %q:\n%s", want, body)
		}
	}
	if code, body := get(metricsBase + "/debug/pprof/"); code != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("GET /debug/pprof/ on the metrics address: %d\n%s", code, body)
	}
	if code, _ := get(metricsBase + "/debug/statements"); code != 200 {
		t.Errorf("GET /debug/statements on the metrics address: %d", code)
	}
	for _, path := range []string{"/metrics", "/debug/pprof/", "/debug/pprof/goroutine", "/debug/statements"} {
		if code, _ := get(base + path); code != 404 {
			t.Errorf("GET %s on the API's address: %d, want 404", path, code)
		}
	}

	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("serve exited %d\n%s", code, logs)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not stop\n%s", logs)
	}
	if code, err := http.Get(metricsBase + "/metrics"); err == nil {
		code.Body.Close()
		t.Errorf("the metrics address still answers after serve stopped")
	}
}

func TestCommitTimesAreWrittenAsAHistogramInSeconds(t *testing.T) {
	var r metrics.Registry
	c := store.CommitTimes{Count: 5, Sum: 1500 * time.Millisecond}
	for i := range c.Within { // 2 within 1 ms, 4 within 100 ms, one over 2.5 s
		switch {
		case store.CommitBounds[i] < 100*time.Millisecond:
			c.Within[i] = 2
		default:
			c.Within[i] = 4
		}
	}
	r.Register(func(w *metrics.Writer) { writeCommitTimes(w, c) })
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		"# TYPE burraco_db_commit_seconds histogram\n",
		`burraco_db_commit_seconds_bucket{le="0.001"} 2` + "\n",
		`burraco_db_commit_seconds_bucket{le="0.05"} 2` + "\n",
		`burraco_db_commit_seconds_bucket{le="0.1"} 4` + "\n",
		`burraco_db_commit_seconds_bucket{le="2.5"} 4` + "\n",
		`burraco_db_commit_seconds_bucket{le="+Inf"} 5` + "\n",
		"burraco_db_commit_seconds_sum 1.5\n",
		"burraco_db_commit_seconds_count 5\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %q:\n%s", want, body)
		}
	}
}

func TestWhatTheProcessSentPostgreSQLIsWrittenByKind(t *testing.T) {
	var r metrics.Registry
	r.Register(func(w *metrics.Writer) {
		writeDBCounts(w, store.DBCounts{Statements: []store.StatementCount{{Op: "select", Table: "users", Count: 7}, {Op: "begin", Count: 3}},
			Prepared: 2, Connects: 4, Pings: 1})
	})
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		"# TYPE burraco_db_statements_total counter\n" +
			`burraco_db_statements_total{op="begin",table=""} 3` + "\n" +
			`burraco_db_statements_total{op="select",table="users"} 7` + "\n",
		"burraco_db_prepares_total 2\n",
		"burraco_db_connects_total 4\n",
		"burraco_db_pings_total 1\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %q:\n%s", want, body)
		}
	}
}
