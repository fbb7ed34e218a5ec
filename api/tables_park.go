package api

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/lease"
)

// Parked long polls (issue 30: 1,000 playing tables under 150 MB).
//
// A long poll that waits in its handler holds, for up to a minute,
// net/http's connection goroutine (its stack as deep as the deepest request
// the connection served: 8–32 KB), the background read net/http starts for
// every request, the connection's 4 KB reader and writer, the response's
// 2 KB buffer and the request: about 35 KB, most of what a playing table
// cost (docs/performance.md, *Memory per table*). A parked poll holds its
// connection and a small record instead: the handler takes the connection
// from net/http (Hijack), registers a function at the table's next change,
// a timer at the end of its wait and one at the server's shutdown, and
// returns. Whichever comes first looks at the table again in a goroutine of
// its own, answers on the connection as the handler would have, and hands
// the connection back to the http.Server through the listener (parking) for
// the client's next request, after a goroutine with a small stack has seen
// the request's first byte (as net/http's idle connection waits, up to the
// server's IdleTimeout).
//
// A client that closes its connection while its poll is parked ends the
// wait, as net/http's background read did, through one epoll set for the
// process on Linux (goneWatch); elsewhere the connection is closed, and the
// seat's presence ends, when the wait does (at most maxWait).

// parkingKey is the base context's key of the server's parking (Park).
type parkingKey struct{}

// parking is a listener of an http.Server that also returns the
// connections of answered parked polls, so that the server serves their
// next requests.
type parking struct {
	net.Listener
	srv   *http.Server
	admit admission // the connections waiting for net/http (tables_park_admit.go)
	kept  keptConns // idle connections left to net/http (keepIfBrisk)
	done  chan struct{}
	start sync.Once
	close sync.Once
}

type accepted struct {
	c   net.Conn
	err error
}

// Park returns ln as srv must serve it (srv.Serve(Park(srv, ln))) for the
// API's long polls of table states to be parked: held without a goroutine
// while they wait. It also admits connections to net/http a few at a time
// (admission, tables_park_admit.go: at most AdmitPerCPU × GOMAXPROCS
// requests served at once, the others waiting as bare connections). It
// sets srv.BaseContext, ConnContext and ConnState (calling srv's own, when
// set). A server without it, or a request over HTTP/2, has its long polls
// wait in their handlers.
func Park(srv *http.Server, ln net.Listener) net.Listener {
	return parkAdmitting(srv, ln, AdmitPerCPU*runtime.GOMAXPROCS(0), admitStale)
}

// parkAdmitting is Park serving at most limit connections at once (0: no
// limit), a connection served for longer than stale no longer counted.
func parkAdmitting(srv *http.Server, ln net.Listener, limit int, stale time.Duration) *parking {
	p := &parking{Listener: ln, srv: srv, done: make(chan struct{})}
	p.admit.init(limit, stale)
	base := srv.BaseContext
	srv.BaseContext = func(l net.Listener) context.Context {
		ctx := context.Background()
		if base != nil {
			ctx = base(l)
		}
		return context.WithValue(ctx, parkingKey{}, p)
	}
	connContext := srv.ConnContext
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if connContext != nil {
			ctx = connContext(ctx, c)
		}
		return context.WithValue(ctx, servedConnKey{}, c) // for WaitsLong
	}
	connState := srv.ConnState
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateIdle || s == http.StateHijacked || s == http.StateClosed {
			p.admit.release(c) // its request is answered, or it is taken or gone
		}
		if s != http.StateIdle {
			p.kept.drop(c) // no longer idle, if it was kept
		}
		if connState != nil {
			connState(c, s)
		}
	}
	return p
}

// Accept returns the next connection net/http may serve: a new one, or
// one given back, once fewer than the admission's limit are served.
func (p *parking) Accept() (net.Conn, error) {
	p.start.Do(func() { go p.acceptNew() })
	return p.admit.next(p.done)
}

// acceptNew accepts the listener's connections for Accept until it is
// closed (its errors too: http.Server backs off on a temporary one, and so
// does acceptNew, which does not wait for Accept to take them).
func (p *parking) acceptNew() {
	var backoff time.Duration
	for {
		c, err := p.Listener.Accept()
		if !p.admit.push(accepted{c, err}, p.done) {
			if c != nil {
				c.Close()
			}
			return
		}
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err == nil {
			backoff = 0
			continue
		}
		backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
		select {
		case <-time.After(backoff):
		case <-p.done:
			return
		}
	}
}

func (p *parking) Close() error {
	p.close.Do(func() {
		close(p.done)
		p.admit.closePending()
	})
	return p.Listener.Close()
}

// giveBack hands c to the server, or closes it once the server is closed.
// It does not wait for the server to take it.
func (p *parking) giveBack(c net.Conn) {
	if !p.admit.push(accepted{c: c}, p.done) {
		c.Close()
	}
}

// resumedConn is a connection given back with the bytes already read from
// it (the first byte of the next request, or what a client sent on
// after its poll).
type resumedConn struct {
	net.Conn
	read []byte
}

func (c *resumedConn) Read(b []byte) (int, error) {
	if len(c.read) > 0 {
		n := copy(b, c.read)
		c.read = c.read[n:]
		return n, nil
	}
	return c.Conn.Read(b)
}

// parkingOf returns the server's parking when r may be parked: an HTTP/1.1
// GET that keeps its connection, without a body, on a server with parking
// whose connection net/http lets the handler take.
func parkingOf(w http.ResponseWriter, r *http.Request) *parking {
	if r.Method != http.MethodGet || !r.ProtoAtLeast(1, 1) || r.Close || r.ContentLength != 0 || len(r.TransferEncoding) > 0 {
		return nil
	}
	p, _ := r.Context().Value(parkingKey{}).(*parking)
	if p == nil {
		return nil
	}
	for {
		if _, ok := w.(http.Hijacker); ok {
			return p
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
}

// parkedPoll is a long poll waiting without a goroutine: what it needs to
// look again and answer, and no more (the request itself is not kept).
type parkedPoll struct {
	h        tableHandlers
	p        *parking
	poll     *domain.ParkedPoll
	release  func() // the caller's count of long polls open
	deadline time.Time

	// The request, as the answer and its log line need it.
	id       int64
	invite   string
	since    int64
	actor    domain.Actor
	reqID    string
	start    time.Time
	method   string
	url      *url.URL
	remote   string
	forward  http.Header     // X-Forwarded-For and Forwarded, for the log's client address
	inm      string          // If-None-Match
	header   http.Header     // what the middleware set on the answer (request id, CORS…)
	patterns []string        // the route's, for the metrics
	base     context.Context // the later looks' context: the table's lease fence, when the request had one

	mu       sync.Mutex // one look at a time
	conn     net.Conn
	read     []byte // bytes the client sent after its request
	timer    *time.Timer
	shutdown func() bool
	unwatch  func() bool // the watch of the client's going (goneWatch), when there is one
	ended    bool
}

// park holds the long poll r without a goroutine when it must wait, and
// reports whether it did; otherwise (the version is already past since, an
// error) it returns what Watch would have, and the handler answers as
// usual. release is the caller's count of long polls open: park's when it
// parked.
func (h tableHandlers) park(w http.ResponseWriter, r *http.Request, p *parking, id int64, invite string, since int64, wait time.Duration, release func()) (parked bool, version int64, seat int, err error) {
	t := mustState(r)
	pp := &parkedPoll{h: h, p: p, release: release, deadline: time.Now().Add(min(wait, maxWait)),
		id: id, invite: invite, since: since, actor: t.actor, reqID: t.id, start: t.start}
	pp.poll = h.s.svc.Tables.Park(pp.actor, id, invite, since)
	if g := min(h.s.cfg.ParkGrace, wait); g > 0 && h.s.svc.Tables.Brisk(id, g) {
		// A table moving briskly (bots' pace) is likely to answer within
		// the grace: waiting for it here saves a parked poll's hijack, the
		// connection's hand-back through the listener and net/http's new
		// goroutine for it (with keepIfBrisk, a fifth of the server's CPU a
		// move at bots' pace), and holds a connection's memory only that
		// long.
		if version, seat, err := h.watch(r, id, invite, since, g); err != nil || version > since {
			return false, version, seat, err
		} // else parked for the rest of its wait (deadline)
	}
	pp.mu.Lock() // a change before the connection is taken waits for it
	defer pp.mu.Unlock()
	version, seat, answered, err := pp.poll.Look(r.Context(), pp.wake)
	if answered || err != nil {
		pp.poll.End()
		return false, version, seat, err
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil { // parkingOf said it could: wait in the handler after all
		pp.ended = true // a change that came meanwhile does nothing
		pp.poll.End()
		return false, version, seat, errNotParked
	}
	if n := brw.Reader.Buffered(); n > 0 { // a client that sent on (pipelining)
		pp.read, _ = brw.Reader.Peek(n)
		pp.read = bytes.Clone(pp.read)
	}
	pp.conn = conn
	pp.method, pp.url, pp.remote = r.Method, r.URL, r.RemoteAddr
	pp.inm = r.Header.Get("If-None-Match")
	for _, k := range []string{"X-Forwarded-For", "Forwarded"} {
		if v := r.Header.Values(k); len(v) > 0 {
			if pp.forward == nil {
				pp.forward = http.Header{}
			}
			pp.forward[k] = v
		}
	}
	pp.header = w.Header()                            // net/http is done with it: no copy
	pp.patterns = slices.Clone(t.route.RoutePatterns) // the router reuses its context
	pp.base = context.Background()
	if f, ok := lease.FenceFrom(r.Context()); ok { // a write of a later look (a seat reclaimed) is fenced as the request's
		pp.base = lease.WithFence(pp.base, f)
	}
	t.parked = true // serveTracked logs and counts it when it is answered
	pp.timer = time.AfterFunc(time.Until(pp.deadline), pp.end)
	pp.shutdown = context.AfterFunc(h.s.cfg.Shutdown, pp.end)
	pp.unwatch, _ = watchGone.add(conn, pp.end) // a client that goes ends the wait, as with net/http
	return true, 0, 0, nil
}

// keepIfBrisk marks r's connection to be kept by net/http once answered
// (not parked idle) when table id moves briskly (ParkGrace): its client's
// next request, a poll or a move, is likely to come within the grace, and
// would otherwise come back through the listener as a new connection.
func (h tableHandlers) keepIfBrisk(r *http.Request, id int64) {
	if g := h.s.cfg.ParkGrace; g > 0 && h.s.svc.Tables.Brisk(id, g) {
		mustState(r).keepConn = true
	}
}

// keptConns are the idle connections net/http keeps because their table
// moves briskly (keepIfBrisk), at most maxKeptConns: each holds its
// goroutine's stack and its buffers (20–40 KB), and its next request is
// served without the admission's limit.
type keptConns struct {
	mu    sync.Mutex
	conns map[any]struct{}
}

// maxKeptConns bounds keptConns: about 40 MB at most; 100 tables at bots'
// pace keep about 800 (two connections per client).
const maxKeptConns = 1024

// add counts c (a net.Conn) as kept idle, and reports whether it may be:
// false when maxKeptConns are.
func (k *keptConns) add(c any) bool {
	if c == nil {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.conns == nil {
		k.conns = map[any]struct{}{}
	}
	if _, ok := k.conns[c]; !ok && len(k.conns) >= maxKeptConns {
		return false
	}
	k.conns[c] = struct{}{}
	return true
}

// drop stops counting c.
func (k *keptConns) drop(c net.Conn) {
	k.mu.Lock()
	delete(k.conns, c)
	k.mu.Unlock()
}

// errNotParked: the connection could not be taken; the poll waits in its
// handler.
var errNotParked = errors.New("api: long poll not parked")

// wake is run at the table's change: it looks again.
func (pp *parkedPoll) wake() { resumeIn(pp.lookAgain) }

// end is run at the end of the wait, the server's shutdown, or when the
// client closes its connection.
func (pp *parkedPoll) end() { resumeIn(pp.lookLast) }

func (pp *parkedPoll) lookAgain() { pp.resume(false) }
func (pp *parkedPoll) lookLast()  { pp.resume(true) }

// resumers are goroutines that stay, which run the parked polls' looks and
// answers: a goroutine of its own for each (as the functions of
// context.AfterFunc and time.AfterFunc run) started with a small stack and
// grew it reading and encoding the state, each time (runtime.copystack
// was 7% of the server's CPU in a load run of 300 tables). When none is
// free, the answer runs in the goroutine that woke it.
var resumers = make(chan func())

// maxResumers bounds the resumers: each holds the stack it grew while
// idle, until the collector shrinks it.
var maxResumers = 4 * runtime.GOMAXPROCS(0)

var startResumers sync.Once

// resumeIn runs f in a free resumer, else in the calling goroutine (the
// one AfterFunc started for it).
func resumeIn(f func()) {
	startResumers.Do(func() {
		for range maxResumers {
			go func() {
				for f := range resumers {
					f()
				}
			}()
		}
	})
	select {
	case resumers <- f:
	default:
		f()
	}
}

// resume looks at the table again and answers, unless it must wait on and
// may (not the end of the wait).
func (pp *parkedPoll) resume(last bool) {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if pp.ended {
		return
	}
	shutdown := pp.h.s.cfg.Shutdown.Err() != nil
	last = last || shutdown || !time.Now().Before(pp.deadline)
	st := &requestState{parent: pp.base, id: pp.reqID, actor: pp.actor, start: pp.start}
	ctx, cancel := context.WithTimeout(st, pp.h.s.cfg.RequestTimeout)
	defer cancel()
	wake := pp.wake
	if last {
		wake = nil
	}
	version, seat, answered, err := pp.poll.Look(ctx, wake)
	if !answered && err == nil && !last {
		return // the change did not move the version past since: parked on
	}
	pp.ended = true
	pp.timer.Stop()
	pp.shutdown()
	if pp.unwatch != nil {
		pp.unwatch()
	}
	pp.poll.End()
	pp.release()
	pp.answer(st, version, seat, err, shutdown)
}

// answer writes the poll's answer on its connection, as tableState would
// have, logs and counts it, and gives the connection back to the server
// (or closes it when the server shuts down).
func (pp *parkedPoll) answer(st *requestState, version int64, seat int, err error, closing bool) {
	h := pp.h
	r := &http.Request{Method: pp.method, URL: pp.url, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, RemoteAddr: pp.remote, Host: pp.url.Host}
	for k, v := range pp.forward {
		r.Header[k] = v
	}
	if pp.inm != "" {
		r.Header.Set("If-None-Match", pp.inm)
	}
	r = r.WithContext(st)
	rec := &recordedAnswer{header: pp.header}
	sw := &statusWriter{ResponseWriter: rec, r: r}
	if err == nil {
		err = h.answerPoll(sw, r, pp.id, pp.invite, pp.since, true, true, version, seat)
	}
	if err != nil {
		h.s.failErr(sw, r, err)
	}
	if werr := rec.writeTo(pp.conn, closing); werr != nil {
		closing = true
	}
	h.s.cfg.Metrics.observe(r.Method, pp.patterns, sw.Status(), time.Since(pp.start))
	h.s.logRequest(r, st, sw)
	if closing {
		pp.conn.Close()
		return
	}
	conn, read := pp.conn, pp.read
	pp.conn, pp.read = nil, nil
	if len(read) > 0 {
		pp.p.giveBack(&resumedConn{Conn: conn, read: read})
		return
	}
	pp.p.awaitRequest(conn, h.s.cfg.Shutdown)
}

// awaitRequest gives c back to the server once the client's next request
// begins, or closes it after the server's IdleTimeout (as net/http's idle
// connections wait) or at the server's shutdown. On Linux it waits in the
// process's epoll set (goneWatch), without a goroutine; elsewhere in a
// goroutine whose stack stays small (awaitByte). It is not a method of
// parkedPoll so that the poll is not kept meanwhile.
func (p *parking) awaitRequest(c net.Conn, shutdown context.Context) {
	var mu sync.Mutex // the first of readable, the idle time-out and the shutdown wins
	var timer *time.Timer
	var stop func() bool
	done := false
	end := func() bool { // under mu
		if done {
			return false
		}
		done = true
		if timer != nil {
			timer.Stop()
		}
		if stop != nil {
			stop()
		}
		return true
	}
	mu.Lock() // the watch may answer at once: after the timers are set
	defer mu.Unlock()
	remove, ok := watchGone.addReadable(c, func() {
		mu.Lock()
		won := end()
		mu.Unlock()
		if won {
			p.giveBack(unwrapResumed(c)) // net/http reads the request, or the end
		}
	})
	if !ok {
		go p.awaitByte(c, shutdown)
		return
	}
	closeIdle := func() {
		mu.Lock()
		won := remove() && end()
		mu.Unlock()
		if won {
			c.Close()
		}
	}
	timer = time.AfterFunc(p.idleTimeout(), closeIdle)
	stop = context.AfterFunc(shutdown, closeIdle)
}

// awaitByte waits, in a goroutine whose stack stays small, for the first
// byte of the client's next request on c (at most the server's
// IdleTimeout), then gives c back to the server with it.
func (p *parking) awaitByte(c net.Conn, shutdown context.Context) {
	if d := p.idleTimeout(); d > 0 {
		_ = c.SetReadDeadline(time.Now().Add(d))
	}
	stop := context.AfterFunc(shutdown, func() { _ = c.SetReadDeadline(time.Unix(1, 0)) })
	var b [1]byte
	n, err := c.Read(b[:])
	stop()
	if n == 0 || err != nil {
		c.Close()
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	p.giveBack(&resumedConn{Conn: unwrapResumed(c), read: []byte{b[0]}})
}

// unwrapResumed returns the connection under a resumedConn whose bytes
// were all read, so that a connection parked many times is not wrapped as
// many.
func unwrapResumed(c net.Conn) net.Conn {
	if rc, ok := c.(*resumedConn); ok && len(rc.read) == 0 {
		return rc.Conn
	}
	return c
}

func (p *parking) idleTimeout() time.Duration {
	if p.srv.IdleTimeout != 0 {
		return p.srv.IdleTimeout
	}
	return p.srv.ReadTimeout
}

// answerWriteTimeout bounds the write of a parked poll's answer.
const answerWriteTimeout = 10 * time.Second

// recordedAnswer is the ResponseWriter of a parked poll's answer: it
// keeps the status, headers and body, which writeTo sends.
type recordedAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *recordedAnswer) Header() http.Header { return a.header }

func (a *recordedAnswer) WriteHeader(status int) {
	if a.status == 0 {
		a.status = status
	}
}

func (a *recordedAnswer) Write(b []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	return a.body.Write(b)
}

// writeTo sends the answer as HTTP/1.1, as net/http would have: the
// status line, the headers with Date and Content-Length (none on a 304),
// Connection: close when the connection ends after it.
func (a *recordedAnswer) writeTo(c net.Conn, closing bool) error {
	status := a.status
	if status == 0 {
		status = http.StatusOK
	}
	h := a.header
	h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	if status == http.StatusNotModified {
		h.Del("Content-Length")
		h.Del("Content-Type")
	} else {
		h.Set("Content-Length", strconv.Itoa(a.body.Len()))
	}
	if closing {
		h.Set("Connection", "close")
	}
	_ = c.SetWriteDeadline(time.Now().Add(answerWriteTimeout))
	out := pooledBody() // a parked poll's answer is written for every wake-up
	out.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n")
	_ = h.Write(out)
	out.WriteString("\r\n")
	if status != http.StatusNotModified {
		out.Write(a.body.Bytes())
	}
	_, err := c.Write(out.Bytes())
	releaseBody(out)
	_ = c.SetWriteDeadline(time.Time{})
	return err
}

// parkIdle hands r's connection, its answer written, to awaitRequest when
// the server has parking and the connection is kept: an HTTP/1.1 request
// whose body was read to its end, answered with a length. Otherwise
// net/http keeps the connection as usual.
//
// Every answered request's connection is handed over, not only a move's
// (a player's next move comes seconds later): net/http would keep an idle
// connection in the goroutine that served its last request, with the
// stack that grew and the connection's two 4 KB buffers (20–22 KB), and
// the connections idle after a table's creation, its joins and each
// seat's first state were most of a 1,000-table run's goroutines at its
// peak (7,441 of 7,479, docs/performance.md). Handed over, one waits in
// the process's epoll set (2.7 KB), and its next request passes the
// admission (tables_park_admit.go) like a new connection's. The exception
// is a table that moves briskly (keepIfBrisk): its clients' next requests
// come within moments, and net/http keeps their connections.
func (s *server) parkIdle(w *statusWriter, r *http.Request) {
	p, _ := r.Context().Value(parkingKey{}).(*parking)
	if p == nil || !r.ProtoAtLeast(1, 1) || r.Close || w.dropBody || w.Header().Get("Connection") != "" ||
		w.Header().Get("Content-Length") == "" && w.Status() != http.StatusNotModified ||
		mustState(r).keepConn && p.kept.add(r.Context().Value(servedConnKey{})) {
		return
	}
	if body, _ := r.Body.(*readToEnd); r.Body != http.NoBody && (body == nil || !body.ended) {
		var b [1]byte // a handler may have read its last byte without the EOF after it
		if n, err := r.Body.Read(b[:]); n != 0 || err != io.EOF {
			return // a body not read to its end: net/http discards the rest
		}
	}
	rc := http.NewResponseController(w)
	if rc.Flush() != nil {
		return
	}
	conn, brw, err := rc.Hijack()
	if err != nil {
		return
	}
	if n := brw.Reader.Buffered(); n > 0 { // the client's next request, already sent
		read, _ := brw.Reader.Peek(n)
		p.giveBack(&resumedConn{Conn: conn, read: bytes.Clone(read)})
		return
	}
	p.awaitRequest(conn, s.cfg.Shutdown)
}
