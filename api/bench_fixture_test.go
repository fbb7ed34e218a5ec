package api_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/internal/logs"
)

// The fixture of the single-route benchmarks (BenchmarkTournamentStandings):
// the real server (router, middleware, services, GORM) on a real SQLite
// file, answering real HTTP over loopback on loadConns keep-alive
// connections, on serve's http.Server settings, and a bare net/http
// handler on the same settings that answers the same bytes, measured in
// alternating rounds so that a burst of other work on the machine hits
// both. What a club evening sends, all routes at once, is BenchmarkMix
// (mix_bench_test.go).
//
// Metrics: ratio is the server's throughput over the baseline's (1 = as fast
// as the baseline); cpu-ratio the baseline's CPU time per request over the
// server's (the process's CPU time, load generator included); req/s,
// p50-ms and p99-ms are the server's, base/s the baseline's.

// benchFixture is the server under test and its baselines.
type benchFixture struct {
	server     *httptest.Server
	bare       *httptest.Server
	bareBodies map[string][]byte // path → the server's answer, which bare repeats
	userToken  string
	adminToken string
	playerPath string
}

func newBenchFixture(b *testing.B) *benchFixture {
	b.Helper()
	db := storetest.SQLite(b)
	svc := domain.NewServices(db, domain.Config{PasswordParams: domain.TestPasswordParams, MaxOpenTables: -1}) // one user's many tables
	handler := api.NewServer(api.Config{JWTSecret: testSecret}, svc, db, benchLogger(b))
	follow(b, svc)
	f := &benchFixture{server: startBenchServer(b, handler), bareBodies: map[string][]byte{}}
	f.bare = startBenchServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(f.bareBodies[r.URL.Path])
	}))

	ctx := context.Background()
	if _, err := svc.Auth.EnsureAdmin(ctx, "root@example.com", "root-password-1"); err != nil {
		b.Fatal(err)
	}
	sess, err := svc.Auth.Login(ctx, "root@example.com", "root-password-1")
	if err != nil {
		b.Fatal(err)
	}
	root := domain.Actor{UserID: sess.User.ID, SiteAdmin: true}
	f.adminToken = f.login(b, "root@example.com", "root-password-1")
	if _, err := svc.Auth.Register(ctx, domain.RegisterInput{Email: "anna@example.com", Password: "password-123", Name: "Anna"}); err != nil {
		b.Fatal(err)
	}
	f.userToken = f.login(b, "anna@example.com", "password-123")
	for i := range 100 { // a list has more rows than a page
		p, err := svc.Players.Create(ctx, root, domain.PlayerInput{Name: fmt.Sprintf("Player %03d", i)})
		if err != nil {
			b.Fatal(err)
		}
		f.playerPath = fmt.Sprintf("/api/v1/players/%d", p.ID)
	}
	return f
}

// startBenchServer serves h on loopback on the http.Server serve runs
// (api.NewHTTPServer: its time-outs cost every request a little), the
// server and its bare baseline alike.
func startBenchServer(b *testing.B, h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.Config = api.NewHTTPServer(h, nil)
	srv.Start()
	b.Cleanup(srv.Close)
	return srv
}

// benchLogger is the server's log as serve wires it, on a real file.
func benchLogger(b *testing.B) *slog.Logger {
	file, err := os.Create(filepath.Join(b.TempDir(), "server.log"))
	if err != nil {
		b.Fatal(err)
	}
	buf := logs.NewBuffer(file)
	b.Cleanup(func() { buf.Close(); file.Close() })
	return slog.New(buf.Handler(logs.NewHandler(buf, logs.Text, slog.LevelInfo)))
}

func (f *benchFixture) login(b *testing.B, email, password string) string {
	return benchLoginAs(b, f.server.URL, email, password)
}

// bareBaseline serves, from the bare handler, what the server answers to
// req, and returns the baseline: n such requests to the bare handler.
func (f *benchFixture) bareBaseline(b *testing.B, path string, req []byte) func(n int) time.Duration {
	l, err := newLoader(f.server.Listener.Addr().String(), 1)
	if err != nil {
		b.Fatal(err)
	}
	defer l.close()
	body, err := l.conns[0].roundTrip(req, 200)
	if err != nil {
		b.Fatal(err)
	}
	f.bareBodies[path] = body

	bare := newBenchLoader(b, f.bare)
	b.Cleanup(bare.close)
	return func(n int) time.Duration {
		d, _, err := bare.run(n, req, 200)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
}

// rawInsertBaseline is the baseline of the write benchmarks: n single-row
// INSERT transactions on db, one after another, with a prepared statement.
func rawInsertBaseline(b *testing.B, db *sql.DB) func(n int) time.Duration {
	stmt, err := db.Prepare("INSERT INTO players (name, created_at, updated_at) VALUES (?, ?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stmt.Close() })
	return func(n int) time.Duration {
		start := time.Now()
		for range n {
			tx, err := db.Begin()
			if err != nil {
				b.Fatal(err)
			}
			now := time.Now().UTC()
			if _, err := tx.Stmt(stmt).Exec("Bench Player", now, now); err != nil {
				b.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
}

func newBenchLoader(b *testing.B, srv *httptest.Server) *loader {
	l, err := newLoader(srv.Listener.Addr().String(), loadConns)
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// benchRounds is how many times measure alternates baseline and server.
const benchRounds = 10

// measure sends b.N requests to the server and b.N to the baseline, in
// alternating rounds after a warm-up, and reports the ratio and latencies.
func (f *benchFixture) measure(b *testing.B, req []byte, status int, baseline func(n int) time.Duration) {
	l := newBenchLoader(b, f.server)
	defer l.close()
	warm := min(b.N, 200)
	baseline(warm)
	if _, _, err := l.run(warm, req, status); err != nil {
		b.Fatal(err)
	}
	var tBase, tServer, cpuBase, cpuServer time.Duration
	var lats []time.Duration
	b.ResetTimer()
	for r := range benchRounds {
		n := b.N / benchRounds
		if r == benchRounds-1 {
			n = b.N - n*(benchRounds-1)
		}
		b.StopTimer()
		cpu := cpuTime()
		tBase += baseline(n)
		cpuBase += cpuTime() - cpu
		b.StartTimer()
		cpu = cpuTime()
		d, ls, err := l.run(n, req, status)
		if err != nil {
			b.Fatal(err)
		}
		cpuServer += cpuTime() - cpu
		tServer += d
		lats = append(lats, ls...)
	}
	b.StopTimer()
	slices.Sort(lats)
	b.ReportMetric(float64(tBase)/float64(tServer), "ratio")
	b.ReportMetric(float64(cpuBase)/float64(cpuServer), "cpu-ratio")
	b.ReportMetric(float64(b.N)/tServer.Seconds(), "req/s")
	b.ReportMetric(float64(b.N)/tBase.Seconds(), "base/s")
	b.ReportMetric(float64(percentile(lats, 0.50))/1e6, "p50-ms")
	b.ReportMetric(float64(percentile(lats, 0.99))/1e6, "p99-ms")
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
