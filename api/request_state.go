package api

import (
	"context"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/domain"
)

// requestState is what the middleware learns about a request on its way
// in (its id, its actor, its deadline) and what it answered (status,
// bytes), in one allocation. It is the request's context: serveTracked
// puts it in place, and the middleware fills it in rather than
// each wrapping the context in a value of its own and copying the request
// to carry it (a copy of an http.Request is a quarter of a kilobyte; on a
// poll that costs what a query does).
//
// Its deadline is context.WithTimeout's, made lazily: the timer and the
// channel of Done are made when somebody first asks for Done. Err and
// Deadline answer from the clock meanwhile. Most requests never ask (the
// SQLite store checks Err between statements), and a timer per request
// costs as much as a point query under load.
type requestState struct {
	parent context.Context
	id     string
	actor  domain.Actor
	start  time.Time
	// deadline is in Unix nanoseconds, 0 for the parent's only. It is
	// atomic, and the timed context is made under mu, because Done may be
	// asked from another goroutine while the request's own sets the
	// deadline: database/sql watches a query's context from a goroutine of
	// its own (Rows.awaitDone), and authenticate queries before the tables'
	// routes set their timeout.
	deadline atomic.Int64
	mu       sync.Mutex
	timed    atomic.Pointer[timedContext] // made by Done when there is a deadline

	route *chi.Context // the router's routing context (front)
	// parked: the handler took the connection to answer later (a parked
	// long poll, tables_park.go), which logs and counts the request then.
	parked bool
	// keepConn: the connection's next request is likely soon (a table
	// moving briskly, keepIfBrisk): net/http keeps it once answered, it is
	// not parked idle.
	keepConn bool
}

// timedContext is the context.WithDeadline a requestState makes on demand.
type timedContext struct {
	context.Context
	cancel   context.CancelFunc
	deadline int64 // the requestState's deadline it was made for
}

type requestStateKey struct{}

// stateOf returns the request's state, or nil outside the middleware
// (handlers under test, contexts made elsewhere).
func stateOf(ctx context.Context) *requestState {
	st, _ := ctx.Value(requestStateKey{}).(*requestState)
	return st
}

// mustState returns the request's state. Every route is served under
// serveTracked (front), which puts it in place; a handler chain built
// without it is a programming error, answered 500 by recoverPanics.
func mustState(r *http.Request) *requestState {
	st := stateOf(r.Context())
	if st == nil {
		panic("api: a request without its state: serve it through serveTracked")
	}
	return st
}

func (st *requestState) Value(key any) any {
	switch key {
	case requestStateKey{}:
		return st
	case chi.RouteCtxKey:
		if st.route != nil {
			return st.route
		}
	}
	if t := st.timed.Load(); t != nil {
		return t.Value(key) // its cancelCtx, for context.Cause and children
	}
	return st.parent.Value(key)
}

func (st *requestState) Deadline() (time.Time, bool) {
	d, ok := st.parent.Deadline()
	if own := st.deadline.Load(); own != 0 && (!ok || own < d.UnixNano()) {
		return time.Unix(0, own), true
	}
	return d, ok
}

func (st *requestState) Done() <-chan struct{} {
	own := st.deadline.Load()
	if own == 0 {
		return st.parent.Done()
	}
	if t := st.timed.Load(); t != nil && t.deadline == own {
		return t.Done()
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	own = st.deadline.Load()
	if t := st.timed.Load(); t != nil && t.deadline == own {
		return t.Done()
	}
	ctx, cancel := context.WithDeadline(st.parent, time.Unix(0, own))
	st.timed.Store(&timedContext{ctx, cancel, own})
	return ctx.Done()
}

func (st *requestState) Err() error {
	if t := st.timed.Load(); t != nil {
		return t.Err()
	}
	if err := st.parent.Err(); err != nil {
		return err
	}
	if own := st.deadline.Load(); own != 0 && time.Now().UnixNano() >= own {
		return context.DeadlineExceeded
	}
	return nil
}

// setTimeout gives the request a deadline d after it started. It is called
// by the timeout middleware before the handler runs, in the request's own
// goroutine; a Done asked for earlier gets the new deadline's channel from
// then on (database/sql asks from its own goroutine for the queries of
// authenticate, which runs before the tables' routes set their timeout).
func (st *requestState) setTimeout(d time.Duration) {
	deadline := st.start.Add(d).UnixNano()
	st.mu.Lock()
	defer st.mu.Unlock()
	if own := st.deadline.Load(); own != 0 && own < deadline {
		return
	}
	st.deadline.Store(deadline)
	if t := st.timed.Swap(nil); t != nil {
		t.cancel()
	}
}

// stop releases the deadline's timer, if one was made.
func (st *requestState) stop() {
	if t := st.timed.Load(); t != nil {
		t.cancel()
	}
}

// statusWriter records the status and size of an answer for the request
// log, and turns chi's bare 405 answer into a problem: chi's own 405
// handler is kept because it alone knows the methods the path allows (it
// sets the Allow header); a handler of ours would lose them. Flush and the
// rest reach the connection's writer through Unwrap
// (http.ResponseController).
type statusWriter struct {
	http.ResponseWriter
	r        *http.Request // the request, for the problem of a 405
	status   int           // 0 until the header is written
	bytes    int
	dropBody bool // chi's empty 405 body, replaced by the problem
}

func (w *statusWriter) WriteHeader(status int) {
	if status == http.StatusMethodNotAllowed && w.status == 0 && w.Header().Get("Content-Type") == "" {
		// chi lists the allowed methods in map order; sort them, so that
		// the header is the same on every request.
		if allow := w.Header().Values("Allow"); len(allow) > 1 {
			w.Header()["Allow"] = slices.Sorted(slices.Values(allow))
		}
		fail(w, w.r, codeMethodNotAllowed, w.r.Method+" is not allowed here; see the Allow header")
		w.dropBody = true
		return
	}
	if w.status == 0 && status >= 200 { // 1xx answers are not the answer
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.dropBody {
		return len(b), nil
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Status is the status sent, 200 when the handler wrote nothing (as
// net/http then answers).
func (w *statusWriter) Status() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

// tracked is a request's state, answer writer and body, allocated
// together.
type tracked struct {
	requestState
	statusWriter
	body readToEnd
}

// readToEnd is a request's body that notes whether it was read to its
// end, for parkIdle: net/http closes a body read to its end when the
// answer's headers go out, which is before the handler returns when the
// answer is over its 2 KB buffer (a state late in a deal), so that a read
// after the handler cannot tell a body read to its end from one closed
// unread.
type readToEnd struct {
	io.ReadCloser
	ended bool
}

func (b *readToEnd) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.ended = true
	}
	return n, err
}
