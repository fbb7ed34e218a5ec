package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/lease"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/internal/metrics"
)

// Table ownership with several serve processes on PostgreSQL (issue 30,
// docs/SCALE-OUT.md §4, §6): with -internal-addr, a process takes a lease
// on each table whose requests it serves, and forwards the requests of
// tables another process owns to that process's internal listener.
// Without it, every process serves every table (the any-process path:
// correct, dearer).

// ownership is serve's flags of table ownership.
type ownership struct {
	internalAddr string        // BURRACO_INTERNAL_ADDR: the listener peers forward to; empty: no leases
	advertise    string        // BURRACO_INTERNAL_ADVERTISE: host:port peers dial; default the listener's address
	ttl          time.Duration // BURRACO_LEASE_TTL
}

// flags registers the ownership flags; an environment variable that is
// not a duration is an error.
func (o *ownership) flags(fs *flag.FlagSet) error {
	fs.StringVar(&o.internalAddr, "internal-addr", os.Getenv("BURRACO_INTERNAL_ADDR"),
		"listen address of the internal API, where other server processes forward the requests of the tables this one owns (env BURRACO_INTERNAL_ADDR); PostgreSQL only; empty: no table leases, every process serves every table")
	fs.StringVar(&o.advertise, "internal-advertise", os.Getenv("BURRACO_INTERNAL_ADVERTISE"),
		"host:port the other processes dial to reach -internal-addr, when the bind address is not it (env BURRACO_INTERNAL_ADVERTISE)")
	def := lease.DefaultTTL
	if v := os.Getenv("BURRACO_LEASE_TTL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("BURRACO_LEASE_TTL=%q is not a positive duration such as 3s", v)
		}
		def = d
	}
	fs.DurationVar(&o.ttl, "lease-ttl", def, "how long a table's lease lasts unrenewed: a killed process's tables are taken over after it (env BURRACO_LEASE_TTL)")
	return nil
}

// ownedDatabaseURL is databaseURL with, when o takes table leases on
// PostgreSQL, idle_in_transaction_session_timeout set to the lease's ttl
// (unless the URL sets it): PostgreSQL then ends a session of this process
// left idle in a transaction that long. A process frozen in the middle of
// a fenced write (SIGSTOP, a hung VM, a long pause) holds its transaction
// open, and with it the share lock on the table's lease row that every
// fenced write takes (§4.3): the takeover, which bumps the epoch under the
// row's exclusive lock, would wait for it until the process resumed, and
// the table would stay stuck however long ago its lease ran out
// (TestFailoverOfTheOwnerOfHalfTheTables/SIGSTOP found both tables of the
// frozen owner so). A live owner's write never idles that long: by then its
// own deadline (ttl − 500 ms) has passed and it serves nothing.
func ownedDatabaseURL(databaseURL string, o ownership) string {
	if o.internalAddr == "" || !(strings.HasPrefix(databaseURL, "postgres://") || strings.HasPrefix(databaseURL, "postgresql://")) {
		return databaseURL
	}
	u, err := url.Parse(databaseURL)
	if err != nil {
		return databaseURL // store.Open says what is wrong with it
	}
	q := u.Query()
	if q.Get(idleInTransaction) != "" {
		return databaseURL
	}
	ttl := o.ttl
	if ttl <= 0 {
		ttl = lease.DefaultTTL
	}
	q.Set(idleInTransaction, strconv.FormatInt(ttl.Milliseconds(), 10))
	u.RawQuery = q.Encode()
	return u.String()
}

// idleInTransaction is PostgreSQL's setting, a run-time parameter pgx
// sends for a query parameter of the URL it does not know.
const idleInTransaction = "idle_in_transaction_session_timeout"

// owned is table ownership running: the handlers of the public and the
// internal listener, and its stop.
type owned struct {
	public   http.Handler
	manager  *lease.Manager
	forwards *api.ForwardStats
	stop     func() // stops the internal listener, releases the leases
}

// startOwnership opens the internal listener, registers this process and
// starts renewing its leases; with no -internal-addr it returns handler
// as it is and nil. moved is told each table whose lease comes or goes
// (the table service's Forget).
func startOwnership(ctx context.Context, o ownership, db *store.DB, handler http.Handler, moved func(int64), log *slog.Logger) (*owned, error) {
	if o.internalAddr == "" {
		if db.Dialect() == store.Postgres {
			log.Info("no -internal-addr: every server process serves every table (no table leases, no forwarding)")
		}
		return nil, nil
	}
	leases, err := db.Leases()
	if err != nil {
		return nil, fmt.Errorf("-internal-addr: %w", err)
	}
	ln, err := net.Listen("tcp", o.internalAddr)
	if err != nil {
		return nil, fmt.Errorf("internal listener: %w", err)
	}
	addr := o.advertise
	if addr == "" {
		addr = ln.Addr().String()
	}
	m, err := lease.NewManager(lease.Config{Store: leases, Addr: addr, TTL: o.ttl, Moved: moved})
	if err == nil {
		err = m.Register(ctx)
	}
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("table leases: %w", err)
	}
	stats := &api.ForwardStats{}
	cfg := api.ForwardConfig{Owners: m, Stats: stats, Log: log, Shutdown: ctx}
	internal := cfg
	internal.Internal = true
	srv := api.NewHTTPServer(api.RouteTables(handler, internal), slog.NewLogLogger(log.Handler(), slog.LevelWarn))
	go func() { _ = srv.Serve(ln) }()
	log.Info("internal listening", "addr", ln.Addr().String(), "advertised", addr, "process", m.Self(), "lease_ttl", o.ttl)
	leaseCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() {
		done <- m.Run(leaseCtx, func(err error) { log.Warn("table leases: renewal failed", "err", err) })
	}()
	stop := func() {
		// Forwarded requests in flight end as the public ones do; then the
		// leases go, so that the others take the tables at once.
		sctx, scancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer scancel()
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("internal listener shutdown", "err", err)
		}
		cancel()
		if err := <-done; err != nil {
			log.Warn("table leases: release failed", "err", err)
		}
	}
	return &owned{public: api.RouteTables(handler, cfg), manager: m, forwards: stats, stop: stop}, nil
}

// clocks is whose tables' clocks this process ticks: with leases, the
// tables it owns or takes over (lease.Manager.Clock); nil without them,
// every table.
func (o *owned) clocks() domain.ClockOwner {
	if o == nil {
		return nil
	}
	return o.manager.Clock
}

// registerOwnershipMetrics adds the figures of §10 this process has:
// tables owned, takeovers, depositions, forwards by outcome.
func registerOwnershipMetrics(m *api.Metrics, own *owned) {
	m.Registry.Register(func(w *metrics.Writer) {
		s := own.manager.Stats()
		w.Family("burraco_tables_owned", "gauge", "Tables whose lease this process holds (PostgreSQL with -internal-addr).")
		w.Sample("burraco_tables_owned", "", float64(s.Owned))
		w.Family("burraco_table_takeovers_total", "counter", "Table leases this process took, by reason: new (a table nobody held), expired (another process's lease ran out or was released).")
		w.Sample("burraco_table_takeovers_total", metrics.Labels("reason", "new"), float64(s.Acquired))
		w.Sample("burraco_table_takeovers_total", metrics.Labels("reason", "expired"), float64(s.Takeovers))
		w.Family("burraco_lease_deposed_total", "counter", "Tables this process lost to another while it lived (a renewal late): should stay 0.")
		w.Sample("burraco_lease_deposed_total", "", float64(s.Deposed))
		w.Family("burraco_lease_lapsed_total", "counter", "Leases this process took again at their own epoch: its local deadline had passed (a renewal late) while the database still held them for it; the table stays in memory.")
		w.Sample("burraco_lease_lapsed_total", "", float64(s.Lapsed))
		w.Family("burraco_table_fenced_writes_total", "counter", "Writes of a table refused because this process's lease on it had moved (the fence): 0 but after a deposition.")
		w.Sample("burraco_table_fenced_writes_total", "", float64(s.FencedWrites))
		w.Family("burraco_lease_renewal_errors_total", "counter", "Lease renewals that failed (database unreachable or slow).")
		w.Sample("burraco_lease_renewal_errors_total", "", float64(s.RenewalErrors))
		f := own.forwards
		w.Family("burraco_table_forwards_total", "counter", "Table requests this process did not own, by outcome: ok (forwarded, the owner answered), owner_gone (an attempt could not reach the owner), misdirected (the receiver no longer owned the table: 421), timeout (answered 503 table_owner_moved), local (the lease was free: taken, served here).")
		for _, o := range []struct {
			outcome string
			n       uint64
		}{{"ok", f.OK.Load()}, {"owner_gone", f.OwnerGone.Load()}, {"misdirected", f.Misdirected.Load()}, {"timeout", f.Timeout.Load()}, {"local", f.Local.Load()}} {
			w.Sample("burraco_table_forwards_total", metrics.Labels("outcome", o.outcome), float64(o.n))
		}
		w.Family("burraco_table_forward_duration_seconds", "histogram", "Requests this process forwarded to their table's owner and the owner answered: time from the hop's start to the answer's end, long polls and event streams left out (they wait on purpose).")
		w.Histogram("burraco_table_forward_duration_seconds", "", f.Durations())
	})
}
