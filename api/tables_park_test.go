package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// parkingServer serves e's API over loopback HTTP with parked long polls
// (api.Park), as serve does, and returns its address.
func parkingServer(t *testing.T, e *env) string { return httpServer(t, e, true) }

// httpServer serves e's API on a port of its own, its long polls parked
// or (park false) held in their handlers, until the test ends; it returns
// the address.
func httpServer(t *testing.T, e *env, park bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := api.NewHTTPServer(e.h, nil)
	serving := ln
	if park {
		serving = api.Park(srv, ln)
	}
	go func() { _ = srv.Serve(serving) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// rawConn is one keep-alive client connection, read by hand.
type rawConn struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dialRaw(t *testing.T, addr string) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawConn{t: t, c: c, r: bufio.NewReader(c)}
}

func (c *rawConn) send(reqs ...[]byte) {
	c.t.Helper()
	var all []byte
	for _, r := range reqs {
		all = append(all, r...)
	}
	if _, err := c.c.Write(all); err != nil {
		c.t.Fatal(err)
	}
}

// read reads one answer, failing after within.
func (c *rawConn) read(within time.Duration) (*http.Response, []byte) {
	c.t.Helper()
	_ = c.c.SetReadDeadline(time.Now().Add(within))
	res, err := http.ReadResponse(c.r, nil)
	if err != nil {
		c.t.Fatalf("no answer within %v: %v", within, err)
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return res, body
}

// TestAParkedLongPollIsAnsweredOnItsConnectionWhichServesOn: over real
// HTTP with parking, a long poll whose table moves is answered the new
// state on its connection, the seat counts as present meanwhile, and the
// connection serves the client's next requests (also one sent before the
// answer), as the move's connection does after it; a wait that ends is answered 304 with the ETag; the server's
// shutdown answers a parked poll 304 and closes its connection.
func TestAParkedLongPollIsAnsweredOnItsConnectionWhichServesOn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		shutdown, stop := context.WithCancel(context.Background())
		defer stop()
		e := newEnv(t, db, func(c *api.Config) { c.Shutdown = shutdown })
		addr := parkingServer(t, e)
		tb, tokens := twoHumans(e)
		st, _ := e.state(tokens[0], tb.ID)
		statePath := tablePath(tb.ID, "state")
		poll := func(wait int) []byte {
			return tableRaw("GET", fmt.Sprintf("%s?since=%d&wait=%d", statePath, st.Version, wait), tokens[1], "", map[string]string{"X-Request-ID": "parked-1"})
		}

		// Woken by a move; the client sent its next request already.
		c := dialRaw(t, addr)
		c.send(poll(20), tableRaw("GET", tablePath(tb.ID, ""), tokens[1], "", nil))
		time.Sleep(100 * time.Millisecond) // parked
		var other api.TableState
		e.must(200, req{Method: "GET", Path: statePath, Token: tokens[0]}, &other)
		if len(other.Presence) != 2 || other.Presence[1].State != "present" {
			t.Errorf("the parked poll's seat: presence %+v, want seat 1 present", other.Presence)
		}
		// The move, on a connection of its own, which waits for its
		// client's next request without net/http (parkIdle).
		mover := dialRaw(t, addr)
		mover.send(tableRaw("POST", tablePath(tb.ID, "moves"), tokens[st.View.Turn], fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version), nil))
		if res, body := mover.read(5 * time.Second); res.StatusCode != 200 {
			t.Fatalf("the move: %d %s", res.StatusCode, body)
		}
		res, body := c.read(5 * time.Second)
		var got api.TableState
		if res.StatusCode != 200 || json.Unmarshal(body, &got) != nil || got.Version != st.Version+1 || got.Seat != 1 {
			t.Fatalf("the woken poll: %d %s", res.StatusCode, body)
		}
		if res.Header.Get("ETag") != fmt.Sprintf(`"t%d.v%d.s1"`, tb.ID, got.Version) || res.Header.Get("X-Request-Id") != "parked-1" ||
			res.Header.Get("Content-Type") != "application/json" || res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Date") == "" {
			t.Errorf("the woken poll's headers: %v", res.Header)
		}
		if res, body := c.read(5 * time.Second); res.StatusCode != 200 || !strings.Contains(string(body), fmt.Sprintf(`"id":%d`, tb.ID)) {
			t.Errorf("the request sent after the poll, on its connection: %d %s", res.StatusCode, body)
		}

		time.Sleep(50 * time.Millisecond) // the mover's next request comes later
		mover.send(tableRaw("GET", statePath, tokens[0], "", nil))
		if res, _ := mover.read(5 * time.Second); res.StatusCode != 200 {
			t.Errorf("a request after the move, on its connection: %d", res.StatusCode)
		}

		// The wait ends: 304 with the ETag, and the connection serves on.
		st = got
		c.send(poll(1))
		start := time.Now()
		res, _ = c.read(5 * time.Second)
		if res.StatusCode != 304 || res.Header.Get("ETag") != fmt.Sprintf(`"t%d.v%d.s1"`, tb.ID, st.Version) || time.Since(start) < 900*time.Millisecond {
			t.Errorf("the poll whose wait ended: %d %v after %v", res.StatusCode, res.Header, time.Since(start))
		}
		e.clock.Add(time.Minute) // past the seat's last request's presence
		e.must(200, req{Method: "GET", Path: statePath, Token: tokens[0]}, &other)
		if other.Presence[1].State != "gone" {
			t.Errorf("after the poll: presence %+v, want seat 1 gone", other.Presence)
		}
		// The client's next request, later, on the same connection.
		c.send(tableRaw("GET", statePath, tokens[1], "", nil))
		if res, _ := c.read(5 * time.Second); res.StatusCode != 200 {
			t.Errorf("a request after the ended poll, on its connection: %d", res.StatusCode)
		}

		// The server shuts down: 304, and the connection ends; so does a
		// connection idle after a move.
		c.send(poll(60))
		mover.send(tableRaw("POST", tablePath(tb.ID, "moves"), tokens[0], fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version-1), nil))
		if res, _ := mover.read(5 * time.Second); res.StatusCode != http.StatusConflict {
			t.Errorf("the stale move: %d", res.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
		stop()
		res, _ = c.read(5 * time.Second)
		if res.StatusCode != 304 || !res.Close {
			t.Errorf("the poll at shutdown: %d, close %v", res.StatusCode, res.Close)
		}
		if _, err := c.r.ReadByte(); err != io.EOF {
			t.Errorf("the connection after the shutdown's answer: %v, want EOF", err)
		}
		_ = mover.c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := mover.r.ReadByte(); err != io.EOF {
			t.Errorf("the connection idle after a move, at the shutdown: %v, want EOF", err)
		}
	})
}

// TestParkedLongPollsCostAFewKilobytesEach holds 300 long polls on a
// server with parking and measures, from the runtime's figures before and
// after (heap and stacks in use, after a collection; no timing), what each
// costs: no goroutine, and a few kilobytes (its connection, its record, the
// notifier's and the presence's entries). A poll waiting in its handler
// costs two goroutines (net/http's connection and its background read) and
// about 30 KB, logged from the same server without parking for
// comparison. The client's side holds its connections without a goroutine
// (it writes its requests and reads nothing until the end).
func TestParkedLongPollsCostAFewKilobytesEach(t *testing.T) {
	const polls = 300
	m := api.NewMetrics()
	e := newEnv(t, storetest.SQLite(t), func(c *api.Config) { c.MaxLongPolls, c.Metrics = -1, m })
	tb, tokens := twoHumans(e)
	st, _ := e.state(tokens[0], tb.ID)
	req := tableRaw("GET", fmt.Sprintf("%s?since=%d&wait=60", tablePath(tb.ID, "state"), st.Version), tokens[1], "", nil)
	measure := func(addr string) (goroutines, bytes float64) {
		g0, m0 := heldMemory()
		conns := make([]net.Conn, polls)
		for i := range conns {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := c.Write(req); err != nil {
				t.Fatal(err)
			}
			conns[i] = c
		}
		for deadline := time.Now().Add(10 * time.Second); longPollsOpen(t, m) < polls; {
			if time.Now().After(deadline) {
				t.Fatalf("%d long polls open, want %d", longPollsOpen(t, m), polls)
			}
			time.Sleep(20 * time.Millisecond)
		}
		g1, m1 := heldMemory()
		// The polls are answered (the move) before their connections close,
		// so that the next server starts from none open.
		for _, c := range conns {
			c.Close()
		}
		return float64(g1-g0) / polls, float64(m1-m0) / polls
	}

	parkedG, parkedB := measure(parkingServer(t, e))
	// The same polls held in their handlers: a server without parking.
	plain := httpServer(t, e, false)
	e.must(200, req0(tb, st.View.Turn, tokens, st.Version), nil) // answers the parked polls
	for deadline := time.Now().Add(10 * time.Second); longPollsOpen(t, m) > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	st, _ = e.state(tokens[0], tb.ID)
	req = tableRaw("GET", fmt.Sprintf("%s?since=%d&wait=60", tablePath(tb.ID, "state"), st.Version), tokens[1], "", nil)
	heldG, heldB := measure(plain)
	t.Logf("a parked poll: %.2f goroutines, %.0f bytes; waiting in its handler: %.2f goroutines, %.0f bytes", parkedG, parkedB, heldG, heldB)
	if parkedG > 0.1 || parkedB > 8<<10 {
		t.Errorf("a parked poll costs %.2f goroutines and %.0f bytes, want none and under 8 KiB", parkedG, parkedB)
	}
}

// req0 is the draw of the player on turn at version.
func req0(tb api.Table, turn int, tokens [2]string, version int64) req {
	return req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[turn], Body: fmt.Sprintf(`{"move":"draw","version":%d}`, version)}
}

// heldMemory returns the goroutines and the Go heap and stacks in use,
// after a collection (which also shrinks the stacks that use little).
func heldMemory() (goroutines int, inUse int64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), int64(ms.HeapInuse + ms.StackInuse)
}

// longPollsOpen reads burraco_long_polls_open from m.
func longPollsOpen(t testing.TB, m *api.Metrics) int {
	t.Helper()
	return gaugeOf(t, m, "burraco_long_polls_open")
}

// gaugeOf reads the gauge name from m.
func gaugeOf(t testing.TB, m *api.Metrics, name string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	t.Fatalf("no %s in the metrics", name)
	return 0
}

// TestAConnectionIdleAfterAnAnswerCostsAFewKilobytes: 300 connections each
// send a request and wait with nothing more to send, as a player thinking
// about their next move: after a move (refused as stale: the handler's
// path all the same), after a state read (a seat's first), after a long
// poll answered at once (its version already past). With parking each
// waits in the process's epoll set, with no goroutine and no buffer (2.7 KB
// measured, under 6 KiB asserted; off Linux a goroutine with a small
// stack, 12 KiB); net/http's own idle connection keeps the goroutine that
// served the request, with the stack it grew, and two 4 KB buffers (20–22
// KB, logged from the same server without parking for comparison).
func TestAConnectionIdleAfterAnAnswerCostsAFewKilobytes(t *testing.T) {
	const idle = 300
	e := newEnv(t, storetest.SQLite(t))
	tb, tokens := twoHumans(e)
	st, _ := e.state(tokens[0], tb.ID)
	// A move sent again with its Idempotency-Key is answered its stored
	// state: an answer over net/http's 2 KB buffer, whose headers go out
	// (and the request's body, read to its end, is closed by net/http)
	// before the handler returns.
	four, fourTokens := fourHumans(e)
	fourSt, _ := e.state(fourTokens[0], four.ID)
	draw := fmt.Sprintf(`{"move":"draw","version":%d}`, fourSt.Version)
	keyed := map[string]string{"Idempotency-Key": "draw-once"}
	e.must(200, req{Method: "POST", Path: tablePath(four.ID, "moves"), Token: fourTokens[fourSt.View.Turn], Body: json.RawMessage(draw), Header: keyed}, nil)
	for _, tc := range []struct {
		name   string
		req    []byte
		status int
	}{
		{"AfterAMove", tableRaw("POST", tablePath(tb.ID, "moves"), tokens[st.View.Turn], fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version-1), nil), http.StatusConflict},
		{"AfterAMoveAnsweredOverTwoKilobytes", tableRaw("POST", tablePath(four.ID, "moves"), fourTokens[fourSt.View.Turn], draw, keyed), http.StatusOK},
		{"AfterAStateRead", tableRaw("GET", tablePath(tb.ID, "state"), tokens[0], "", nil), http.StatusOK},
		{"AfterALongPollAnsweredAtOnce", tableRaw("GET", fmt.Sprintf("%s?since=%d&wait=20", tablePath(tb.ID, "state"), st.Version-1), tokens[1], "", nil), http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			measure := func(addr string) (goroutines, bytes float64) {
				g0, m0 := heldMemory()
				for range idle {
					c := dialRaw(t, addr)
					c.send(tc.req)
					res, body := c.read(10 * time.Second)
					if res.StatusCode != tc.status {
						t.Fatalf("%d %s, want %d", res.StatusCode, body, tc.status)
					}
					if strings.HasSuffix(tc.name, "OverTwoKilobytes") && len(body) <= 2048 {
						t.Fatalf("an answer of %d bytes: the case needs one over net/http's 2 KB buffer", len(body))
					}
					c.r = nil // the client's reader and its buffer go: only the server's side is measured
					defer c.c.Close()
				}
				time.Sleep(100 * time.Millisecond) // every connection back to waiting
				g1, m1 := heldMemory()
				return float64(g1-g0) / idle, float64(m1-m0) / idle
			}
			parkedG, parkedB := measure(parkingServer(t, e))
			plain := httpServer(t, e, false)
			heldG, heldB := measure(plain)
			t.Logf("idle: parked %.2f goroutines, %.0f bytes; net/http's %.2f goroutines, %.0f bytes", parkedG, parkedB, heldG, heldB)
			limit := 12 << 10 // a goroutine with a small stack, where there is no epoll
			if runtime.GOOS == "linux" {
				limit = 6 << 10 // no goroutine: the process's epoll set (goneWatch)
			}
			if parkedB > float64(limit) {
				t.Errorf("an idle connection costs %.0f bytes, want under %d KiB", parkedB, limit>>10)
			}
		})
	}
}

// fourHumans starts a 4-player fibur table of four humans with long names
// (a state of over 2 KB) and returns it with the tokens of seats 0 to 3.
func fourHumans(e *env) (api.Table, [4]string) {
	e.t.Helper()
	var tokens [4]string
	for i, name := range []string{"Dora", "Elio", "Fede", "Gino"} {
		_, u := e.user(strings.ToLower(name)+"@example.com", name+" "+strings.Repeat("Maria ", 12)+"della Valle")
		tokens[i] = u.AccessToken
	}
	tb := e.newTable(tokens[0], api.TableCreateRequest{Rules: "fibur", Players: 4, Match: &api.MatchFormat{Deals: 1}, GraceSeconds: ptr(0)})
	for _, token := range tokens[1:] {
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: token}, nil)
	}
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: tokens[0]}, &tb)
	return tb, tokens
}

// TestAParkedPollWhoseClientGoesEnds: a client that closes its
// connection while its poll is parked ends the poll then, not at the end
// of its minute's wait: it no longer counts among the long polls open, nor
// as its seat's presence (as a poll waiting in its handler ended when
// net/http's background read saw the client go).
func TestAParkedPollWhoseClientGoesEnds(t *testing.T) {
	m := api.NewMetrics()
	e := newEnv(t, storetest.SQLite(t), func(c *api.Config) { c.Metrics = m })
	addr := parkingServer(t, e)
	tb, tokens := twoHumans(e)
	st, _ := e.state(tokens[0], tb.ID)
	c := dialRaw(t, addr)
	c.send(tableRaw("GET", fmt.Sprintf("%s?since=%d&wait=60", tablePath(tb.ID, "state"), st.Version), tokens[1], "", nil))
	for deadline := time.Now().Add(5 * time.Second); longPollsOpen(t, m) != 1; {
		if time.Now().After(deadline) {
			t.Fatal("the poll was not parked")
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.c.Close()
	for deadline := time.Now().Add(20 * time.Second); longPollsOpen(t, m) != 0; {
		if time.Now().After(deadline) {
			t.Fatal("the poll whose client went still counts as open")
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.clock.Add(time.Minute) // past the seat's last request's presence
	var other api.TableState
	e.must(200, req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: tokens[0]}, &other)
	if other.Presence[1].State != "gone" {
		t.Errorf("the seat of the poll whose client went: %+v, want gone", other.Presence[1])
	}
}

// TestABriskTablesConnectionsStayWithNetHTTP: with a grace (serve's
// -park-grace), a long poll of a table that moves briskly waits in its
// handler and is answered there when the table moves, and its connection
// and the mover's stay with net/http for their clients' next requests;
// without one, each is parked and handed back through the listener, which
// net/http sees as a new connection. Either way every answer is the same.
func TestABriskTablesConnectionsStayWithNetHTTP(t *testing.T) {
	for _, c := range []struct {
		name      string
		grace     time.Duration
		wantConns int // connections net/http saw begin: two dialled, plus each hand-back
	}{
		{"WithAGraceBothStay", time.Minute, 2},
		{"WithoutAGraceBothAreHandedBack", 0, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, storetest.SQLite(t), func(cfg *api.Config) { cfg.ParkGrace = c.grace })
			var begun atomic.Int64
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv := api.NewHTTPServer(e.h, nil)
			srv.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					begun.Add(1)
				}
			}
			serving := api.Park(srv, ln)
			go func() { _ = srv.Serve(serving) }()
			t.Cleanup(func() { _ = srv.Close() })
			addr := ln.Addr().String()

			// Two moves at once: the table moves briskly.
			tb, tokens := twoHumans(e)
			st, _ := e.state(tokens[0], tb.ID)
			first := st.View.Turn
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[first], Body: json.RawMessage(fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version))}, nil)
			st, _ = e.state(tokens[first], tb.ID)
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[first], Body: json.RawMessage(fmt.Sprintf(`{"move":"discard","card":%q,"version":%d}`, st.View.Hand[0], st.Version))}, nil)
			st, _ = e.state(tokens[first], tb.ID)

			poller := dialRaw(t, addr)
			poller.send(tableRaw("GET", fmt.Sprintf("%s?since=%d&wait=20", tablePath(tb.ID, "state"), st.Version), tokens[first], "", nil))
			time.Sleep(100 * time.Millisecond) // waiting, in its handler or parked
			mover := dialRaw(t, addr)
			mover.send(tableRaw("POST", tablePath(tb.ID, "moves"), tokens[1-first], fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version), nil))
			if res, body := mover.read(5 * time.Second); res.StatusCode != 200 {
				t.Fatalf("the move: %d %s", res.StatusCode, body)
			}
			res, body := poller.read(5 * time.Second)
			var got api.TableState
			if res.StatusCode != 200 || json.Unmarshal(body, &got) != nil || got.Version != st.Version+1 || got.Seat != first {
				t.Fatalf("the poll: %d %s, want version %d for seat %d", res.StatusCode, body, st.Version+1, first)
			}
			for _, conn := range []*rawConn{poller, mover} { // each client's next request
				conn.send(tableRaw("GET", tablePath(tb.ID, "state"), tokens[first], "", nil))
				if res, body := conn.read(5 * time.Second); res.StatusCode != 200 {
					t.Fatalf("the next request: %d %s", res.StatusCode, body)
				}
			}
			if n := begun.Load(); n != int64(c.wantConns) {
				t.Errorf("net/http saw %d connections begin, want %d", n, c.wantConns)
			}
		})
	}
}
