package api_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
)

// BenchmarkHeldLongPollMemory measures what one waiting long poll costs
// the server, by the runtime's figures (no timing): 1,000 tables of two
// players, each polled by its two players and two anonymous watchers
// (4,000 polls, one keep-alive connection each, from a client process of
// its own), held by
//
//   - bare: a net/http handler that only waits (net/http's own share);
//   - held: the API without parking (the poll waits in its handler);
//   - held-deep: the same, each connection having first read the full
//     state (a request that runs deep code: the connection's goroutine
//     keeps the stack it grew);
//   - parked, parked-deep: the API with parking (api.Park), as serve runs;
//   - events: an event stream (GET …/events) instead of a long poll, for
//     comparison (a stream holds its handler's goroutine).
//
// Each reports, per poll, the bytes of goroutine stacks (stack-B), of heap
// (heap-B) and the goroutines. Run:
//
//	go test ./api -run '^$' -bench HeldLongPollMemory -benchtime 1x
func BenchmarkHeldLongPollMemory(b *testing.B) {
	const tables, perTable = 1000, 4
	waiters := tables * perTable
	if err := raiseFileLimit(waiters + 200); err != nil {
		b.Skipf("%d long polls need %d file descriptors per process: %v", waiters, waiters+200, err)
	}
	f := newTableBench(b, 0)
	// A server per phase, whose parked polls end (304) when it ends.
	newHandler := func() (http.Handler, *api.Metrics, context.CancelFunc) {
		shutdown, stop := context.WithCancel(context.Background())
		m := api.NewMetrics()
		return api.NewServer(api.Config{JWTSecret: testSecret, AccessTokenTTL: time.Hour, Shutdown: shutdown,
			MaxLongPolls: -1, MaxEventStreams: -1, Metrics: m},
			f.svc, f.db, slog.New(slog.NewTextHandler(io.Discard, nil))), m, stop
	}
	for range tables {
		f.tables = append(f.tables, f.newTable(b))
	}
	specs := func(deep, events bool) []pollSpec {
		var polls []pollSpec
		for _, t := range f.tables {
			for i := range perTable {
				p := pollSpec{Table: t.id, Path: fmt.Sprintf("%s?since=%d&wait=60", tablePath(t.id, "state"), t.version)}
				if events {
					p.Path = tablePath(t.id, "events")
				}
				if i < 2 {
					p.Token = f.tokens[i]
				}
				if deep {
					p.First = tablePath(t.id, "state")
				}
				polls = append(polls, p)
			}
		}
		return polls
	}
	phases := []struct {
		name               string
		bare               bool
		park, deep, events bool
	}{
		{"bare", true, false, false, false},
		{"held", false, false, false, false},
		{"held-deep", false, false, true, false},
		{"parked", false, true, false, false},
		{"parked-deep", false, true, true, false},
		{"events", false, true, false, true},
	}
	for _, ph := range phases {
		b.Run(ph.name, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			h, m, stop := newHandler()
			defer stop()
			ready := func() int { return longPollsOpen(b, m) }
			if ph.events {
				ready = func() int { return gaugeOf(b, m, "burraco_event_streams_open") }
			}
			if ph.bare {
				h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
			}
			srv := api.NewHTTPServer(h, nil)
			var l net.Listener = ln
			if ph.park {
				l = api.Park(srv, ln)
			}
			go func() { _ = srv.Serve(l) }()
			runtime.GC()
			debug.FreeOSMemory()
			g0, m0 := memStats()
			client := startPollClient(b, ln.Addr().String(), specs(ph.deep, ph.events))
			if ph.bare {
				for runtime.NumGoroutine() < g0+waiters {
					time.Sleep(50 * time.Millisecond)
				}
				ready = func() int { return waiters }
			}
			for deadline := time.Now().Add(2 * time.Minute); ready() < waiters; {
				if time.Now().After(deadline) {
					b.Fatalf("%d polls waiting, want %d", ready(), waiters)
				}
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(500 * time.Millisecond)
			g1, m1 := memStats()
			b.ReportMetric(float64(int64(m1.StackInuse)-int64(m0.StackInuse))/float64(waiters), "stack-B")
			b.ReportMetric(float64(int64(m1.HeapInuse)-int64(m0.HeapInuse))/float64(waiters), "heap-B")
			b.ReportMetric(float64(g1-g0)/float64(waiters), "goroutines")
			client.stop()
			stop()
			_ = srv.Close()
		})
	}
}

// memStats returns the goroutines and the runtime's memory figures after
// two collections (the second frees what the first's finalizers let go;
// each shrinks the stacks that use under a quarter of their size).
func memStats() (int, runtime.MemStats) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), ms
}
