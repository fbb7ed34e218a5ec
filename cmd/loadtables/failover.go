package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// -failover (issue 30, docs/SCALE-OUT.md §12): the servers run with table
// leases (-internal-addr), and mid-run the one that owns the most tables
// is killed with SIGKILL. Its clients then send their requests to the
// next server, as a balancer that health-checks would, and the run
// reports how long each table took to show a new version after the kill.

// reroute sends the requests of the killed server's clients to a
// survivor; nil until the kill.
var reroute atomic.Pointer[struct{ from, to string }]

// baseOf is the server a client's request goes to.
func baseOf(base string) string {
	if r := reroute.Load(); r != nil && r.from == base {
		return r.to
	}
	return base
}

// failover is what the kill left to report.
type failover struct {
	at      time.Time
	victim  int   // index of the server killed
	owned   int64 // its burraco_tables_owned just before the kill
	resumed []time.Duration
	// stalled are the tables that had no new version within a second of
	// the kill (those the victim served); takeover their first after it.
	stalled  int
	takeover []time.Duration
	never    int // tables playing at the kill that showed no new version after it (stuck)
	over     int // tables whose match was over before the kill
	// slack is the moves the clients were acknowledged between the
	// victim's last scrape and its kill: moves it may have accepted and
	// never counted in a /metrics anyone read.
	slack int64
}

// killOwner waits after, then kills the server owning the most tables,
// remembering its figures and CPU as of the kill, and sends its clients
// to the next server.
func killOwner(ctx context.Context, after time.Duration, servers []*server, tables []*table, acked func() int64) (*failover, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(after):
	}
	victim, most := 0, int64(-1)
	for i, s := range servers {
		body, err := get(ctx, s.metrics+"/metrics")
		if err != nil {
			return nil, err
		}
		if n := ownedOf(body); n > most {
			victim, most = i, n
		}
	}
	s := servers[victim]
	before := acked()
	f, _, err := scrape(ctx, []*server{s})
	if err != nil {
		return nil, err
	}
	cpu, err := readProc(s.cmd.Process.Pid)
	if err != nil {
		return nil, err
	}
	for _, tb := range tables {
		tb.atKill.Store(tb.maxSeen.Load())
		tb.doneAtKill.Store(tb.finished.Load())
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	at := time.Now()
	slack := acked() - before
	s.atKill, s.cpuAtKill = f, cpu
	s.killed.Store(true)
	reroute.Store(&struct{ from, to string }{s.base, servers[(victim+1)%len(servers)].base})
	for _, tb := range tables {
		tb.killedAt.Store(at.UnixNano())
	}
	return &failover{at: at, victim: victim, owned: most, slack: slack}, nil
}

// ownedOf is burraco_tables_owned in a /metrics body; -1 when absent.
func ownedOf(body string) int64 {
	for line := range strings.Lines(body) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "burraco_tables_owned "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return int64(n)
		}
	}
	return -1
}

// measure reads each table's first new version after the kill.
func (f *failover) measure(tables []*table) {
	for _, tb := range tables {
		at := tb.resumedAt.Load()
		if tb.doneAtKill.Load() {
			f.over++
			continue
		}
		if at == 0 {
			f.never++
			continue
		}
		d := time.Duration(at - f.at.UnixNano())
		f.resumed = append(f.resumed, d)
		if d > time.Second {
			f.stalled++
			f.takeover = append(f.takeover, d)
		}
	}
}

func (f *failover) print(w io.Writer, servers int) {
	fmt.Fprintf(w, "  failover: serve %d of %d (owner of %d tables) killed with SIGKILL; %d moves acknowledged between its last /metrics and the kill\n",
		f.victim+1, servers, f.owned, f.slack)
	fmt.Fprintf(w, "  tables' first new version after the kill: p50 %s p99 %s max %s; %d had none within 1 s (taken over: p50 %s max %s); %d none at all; %d over before the kill\n",
		ms(percentile(f.resumed, 0.5)), ms(percentile(f.resumed, 0.99)), ms(slices.Max(append([]time.Duration{0}, f.resumed...))),
		f.stalled, ms(percentile(f.takeover, 0.5)), ms(slices.Max(append([]time.Duration{0}, f.takeover...))), f.never, f.over)
}
