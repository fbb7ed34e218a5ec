package api

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// admitServer serves h behind parking that admits at most limit
// connections at once (stale: when one served stops counting), until the
// test ends.
func admitServer(t *testing.T, h http.Handler, limit int, stale time.Duration) (*parking, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(h, nil)
	p := parkAdmitting(srv, ln, limit, stale)
	go func() { _ = srv.Serve(p) }()
	t.Cleanup(func() { _ = srv.Close() })
	return p, ln.Addr().String()
}

// blockingHandler counts the requests in it (and the most at once) and
// holds each until release is closed; waitLong ones first say they will
// wait long (WaitsLong).
type blockingHandler struct {
	in, most atomic.Int32
	release  chan struct{}
	waitLong bool
}

func (h *blockingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.waitLong {
		WaitsLong(r)
	}
	n := h.in.Add(1)
	for m := h.most.Load(); n > m && !h.most.CompareAndSwap(m, n); m = h.most.Load() {
	}
	<-h.release
	h.in.Add(-1)
	fmt.Fprint(w, "ok")
}

// getEach sends n GETs at once, each on a connection of its own, and
// returns their statuses once all are answered (on the channel).
func getEach(t *testing.T, addr string, n int) <-chan []int {
	t.Helper()
	out := make(chan []int, 1)
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr := &http.Transport{DisableKeepAlives: true}
			defer tr.CloseIdleConnections()
			resp, err := (&http.Client{Transport: tr}).Get("http://" + addr + "/")
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		}()
	}
	go func() { wg.Wait(); out <- statuses }()
	return out
}

// eventually waits (at most 20 s: a condition, not a speed) until cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

func allOK(t *testing.T, statuses []int) {
	t.Helper()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Fatalf("request %d: status %d, want 200", i, s)
		}
	}
}

// A burst of requests is served a few connections at a time: the others
// wait as bare connections, not in net/http's goroutines and buffers, and
// all are answered.
func TestABurstIsServedAFewConnectionsAtATime(t *testing.T) {
	const limit, burst = 4, 40
	h := &blockingHandler{release: make(chan struct{})}
	p, addr := admitServer(t, h, limit, time.Hour)
	done := getEach(t, addr, burst)
	// Every request is either in the handler or queued for it.
	eventually(t, "every request in the handler or queued", func() bool {
		waiting, _, _ := p.admit.counts()
		return int(h.in.Load())+waiting == burst
	})
	if waiting, _, _ := p.admit.counts(); h.in.Load() != limit || waiting != burst-limit {
		t.Fatalf("%d requests in the handler and %d queued, want %d and %d", h.in.Load(), waiting, limit, burst-limit)
	}
	m := NewMetrics()
	m.Admission(p)
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, want := range []string{fmt.Sprintf("burraco_connections_waiting %d\n", burst-limit), fmt.Sprintf("burraco_connections_served %d\n", limit)} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("/metrics lacks %q:\n%s", want, rec.Body.String())
		}
	}
	close(h.release)
	allOK(t, <-done)
	if most := h.most.Load(); most > limit {
		t.Fatalf("%d requests served at once, want at most %d", most, limit)
	}
}

// A request whose handler says it will wait long (a long poll held in its
// handler, an event stream) does not hold back the others.
func TestARequestThatWaitsLongDoesNotHoldBackOthers(t *testing.T) {
	const limit, burst = 2, 10
	h := &blockingHandler{release: make(chan struct{}), waitLong: true}
	p, addr := admitServer(t, h, limit, time.Hour)
	done := getEach(t, addr, burst)
	eventually(t, "every request in the handler", func() bool {
		waiting, _, _ := p.admit.counts()
		return h.in.Load() == burst && waiting == 0
	})
	close(h.release)
	allOK(t, <-done)
}

// Requests that wait without saying so stop holding back the others once
// stale: the server goes on serving.
func TestAServerFullOfUndeclaredWaitsServesOn(t *testing.T) {
	const limit, burst = 2, 6
	h := &blockingHandler{release: make(chan struct{})}
	p, addr := admitServer(t, h, limit, 50*time.Millisecond)
	done := getEach(t, addr, burst)
	eventually(t, "every request in the handler", func() bool {
		waiting, _, _ := p.admit.counts()
		return h.in.Load() == burst && waiting == 0
	})
	close(h.release)
	allOK(t, <-done)
	if _, _, stales := p.admit.counts(); stales == 0 {
		t.Error("no request counted stale")
	}
}

// A connection kept alive is counted while its request is served only:
// answered, it makes room for another.
func TestAnAnsweredRequestMakesRoom(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") })
	p, addr := admitServer(t, h, 1, time.Hour)
	for range 3 { // each on its own keep-alive connection, left open
		tr := &http.Transport{}
		t.Cleanup(tr.CloseIdleConnections)
		resp, err := (&http.Client{Transport: tr, Timeout: 20 * time.Second}).Get("http://" + addr + "/")
		if err != nil {
			t.Fatal(err) // not served: the first connection still counted
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	eventually(t, "no connection counted once answered", func() bool {
		_, served, _ := p.admit.counts()
		return served == 0
	})
}
