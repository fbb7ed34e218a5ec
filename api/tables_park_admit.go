package api

import (
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/burraco/burraco/internal/metrics"
)

// Admission (issue 30: 1,000 playing tables under 150 MB).
//
// A request that net/http serves holds its connection's goroutine (a stack
// of 8–32 KB), net/http's background read of the connection, the
// connection's 4 KB reader and writer, the response's 2 KB buffer and the
// request: 30–40 KB while it runs. When a thousand tables open at once, each
// seat's first state and each table's first move arrive together, and a
// 2-core server had 4,000–5,000 of them in flight at the peak, queued
// behind the CPU and the one SQLite writer: 45 MB of stacks and 42 MB of
// bufio buffers, the peak of the run's RSS (docs/performance.md, *Memory
// per table*). They wait as long with a limit, but not in net/http: the
// parking's listener hands net/http at most limit connections to serve at
// once, and keeps the others (new ones and those given back by parked polls
// and idle connections) as bare connections in a queue, first come first
// served, a few hundred bytes each.
//
// A connection stops counting when its request is answered (net/http's
// StateIdle), when it is taken (StateHijacked: a parked poll, an idle
// connection handed to the epoll set) or closed, when its handler says it
// will wait long (WaitsLong: a long poll waiting in its handler, an event
// stream), and in any case once it has been served for longer than stale,
// so that requests that wait in a way nobody declared (a forwarded long
// poll, a client that sends its request slowly) cannot stop the server
// from serving: at worst limit new connections are served every stale.

// AdmitPerCPU is how many connections per GOMAXPROCS net/http serves at once
// behind Park. A move or a state read takes a millisecond or two of CPU,
// so a few dozen at once keep both cores and the SQLite writer's queue
// (whose batches it shares) busy; more only wait inside the server at
// 30–40 KB each instead of outside at a few hundred bytes. 1,000 tables at
// human pace (2026-11-28): 256 a CPU, RSS 157–174 MB and the tables' first
// moves' p99 89–250 ms; 32, 149 MB and 50 ms; 16, 154 MB and 46 ms; bots'
// pace (100 tables) the same at 32 and 256. A stall of the writer holds
// its moves' connections at most admitStale.
const AdmitPerCPU = 32

// admitStale is how long a connection served counts against the limit.
const admitStale = time.Second

// servedConnKey is the key of the connection a request came on, in its
// context (Park's ConnContext).
type servedConnKey struct{}

// WaitsLong tells the parking that r's handler will now wait long (a long
// poll held in its handler, an event stream, a forwarded one): its
// connection no longer counts against the admission's limit. Without Park,
// it does nothing.
func WaitsLong(r *http.Request) {
	p, _ := r.Context().Value(parkingKey{}).(*parking)
	c, _ := r.Context().Value(servedConnKey{}).(net.Conn)
	if p != nil && c != nil {
		p.admit.release(c)
	}
}

// admission is the queue of connections waiting for net/http, and the
// connections it serves that count against the limit.
type admission struct {
	limit int           // connections served at once; 0: no limit
	stale time.Duration // served longer than this: no longer counted

	mu      sync.Mutex
	pending []accepted             // first come, first served
	served  map[net.Conn]time.Time // counted, with when they were admitted
	stales  int64                  // connections no longer counted for being stale
	closed  bool
	ready   chan struct{} // (cap 1) a connection came or a place freed
}

func (a *admission) init(limit int, stale time.Duration) {
	a.limit, a.stale = limit, stale
	a.served = map[net.Conn]time.Time{}
	a.ready = make(chan struct{}, 1)
}

// push queues a connection (or the listener's error) for next; false when
// the parking is closed.
func (a *admission) push(c accepted, done <-chan struct{}) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return false
	}
	select {
	case <-done:
		return false
	default:
	}
	a.pending = append(a.pending, c)
	a.signal()
	return true
}

// signal wakes next (under mu).
func (a *admission) signal() {
	select {
	case a.ready <- struct{}{}:
	default:
	}
}

// release stops counting c (idempotent).
func (a *admission) release(c net.Conn) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.served[c]; ok {
		delete(a.served, c)
		a.signal()
	}
}

// next returns the first connection queued once there is room for it.
func (a *admission) next(done <-chan struct{}) (net.Conn, error) {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		c, wait, ok := a.take()
		if ok {
			return c.c, c.err
		}
		var later <-chan time.Time
		if wait > 0 {
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			later = timer.C
		}
		select {
		case <-a.ready:
		case <-later:
		case <-done:
			return nil, net.ErrClosed
		}
	}
}

// take pops the first connection queued when there is room for it (an
// error of the listener at once), counting it; else it says how long
// until a connection served becomes stale (0: wait for a change).
func (a *admission) take() (c accepted, wait time.Duration, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.pending) == 0 {
		return accepted{}, 0, false
	}
	head := a.pending[0]
	if head.err == nil {
		if wait = a.room(time.Now()); wait > 0 {
			return accepted{}, wait, false
		}
		a.served[head.c] = time.Now()
	}
	a.pending[0] = accepted{}
	a.pending = a.pending[1:]
	return head, 0, true
}

// room is 0 when one more connection may be served now, else how long
// until the oldest one served becomes stale (under mu). The stale ones are
// no longer counted.
func (a *admission) room(now time.Time) time.Duration {
	if a.limit <= 0 || len(a.served) < a.limit {
		return 0
	}
	oldest := now
	for c, at := range a.served {
		if now.Sub(at) >= a.stale {
			delete(a.served, c)
			a.stales++
		} else if at.Before(oldest) {
			oldest = at
		}
	}
	if len(a.served) < a.limit {
		return 0
	}
	return max(a.stale-now.Sub(oldest), time.Millisecond)
}

// closePending closes the connections still queued (the server is closed).
func (a *admission) closePending() {
	a.mu.Lock()
	pending := a.pending
	a.pending, a.closed = nil, true
	a.mu.Unlock()
	for _, c := range pending {
		if c.c != nil {
			c.c.Close()
		}
	}
}

// counts is how many connections wait for net/http, how many it serves
// that count, and how many stopped counting for being stale.
func (a *admission) counts() (waiting, served int, stales int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.pending), len(a.served), a.stales
}

// Admission adds the admission's figures of ln, a listener of Park, to
// m's registry (docs/metrics.md); any other listener has none.
func (m *Metrics) Admission(ln net.Listener) {
	p, ok := ln.(*parking)
	if !ok {
		return
	}
	m.Registry.Register(func(w *metrics.Writer) {
		waiting, served, stales := p.admit.counts()
		w.Family("burraco_connections_waiting", "gauge",
			"Connections whose request waits for the server to serve it (Park's admission): new ones, and those back from a parked poll or an idle wait.")
		w.Sample("burraco_connections_waiting", "", float64(waiting))
		w.Family("burraco_connections_served", "gauge", "Connections whose request the server serves now, counted against the admission's limit.")
		w.Sample("burraco_connections_served", "", float64(served))
		w.Family("burraco_connections_stale_total", "counter",
			"Requests that stopped counting against the admission's limit after a second served without saying they wait long.")
		w.Sample("burraco_connections_stale_total", "", float64(stales))
	})
}
