package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTableStateETag: the ETag names the table, version and seat only
// (never the token); If-None-Match gives 304 until something changes.
func TestTableStateETag(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := twoHumans(e)
		_, spec := e.user("vito@example.com", "Vito")
		st, res := e.state(tokens[0], tb.ID)
		etag := res.Header.Get("ETag")
		_, res1 := e.state(tokens[1], tb.ID)
		_, resw := e.state(spec.AccessToken, tb.ID)
		if etag == res1.Header.Get("ETag") || etag == resw.Header.Get("ETag") || res1.Header.Get("ETag") == resw.Header.Get("ETag") {
			t.Errorf("seats share an ETag: %q %q %q", etag, res1.Header.Get("ETag"), resw.Header.Get("ETag"))
		}
		for _, tok := range append(tokens[:], spec.AccessToken) {
			if strings.Contains(etag, tok) || strings.Contains(etag, tok[len(tok)-10:]) {
				t.Errorf("the ETag carries a token")
			}
		}
		state := tablePath(tb.ID, "state")
		r := e.must(304, req{Method: "GET", Path: state, Token: tokens[0], Header: map[string]string{"If-None-Match": etag}}, nil)
		if r.Header.Get("ETag") != etag || len(r.Body) != 0 {
			t.Errorf("304: ETag %q, body %q", r.Header.Get("ETag"), r.Body)
		}
		// Another seat's ETag is not this seat's state.
		e.must(200, req{Method: "GET", Path: state, Token: tokens[0], Header: map[string]string{"If-None-Match": res1.Header.Get("ETag")}}, nil)

		mover := tokens[st.View.Turn]
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: mover, Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, nil)
		e.must(200, req{Method: "GET", Path: state, Token: tokens[0], Header: map[string]string{"If-None-Match": etag}}, nil)
		// A long poll past an old version answers at once.
		var now api.TableState
		e.must(200, req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=30", state, st.Version), Token: tokens[0]}, &now)
		if now.Version != st.Version+1 {
			t.Errorf("version %d after one move from %d", now.Version, st.Version)
		}
		e.must(304, req{Method: "GET", Path: fmt.Sprintf("%s?since=%d", state, now.Version), Token: tokens[0]}, nil)
		e.must(400, req{Method: "GET", Path: state + "?since=-1", Token: tokens[0]}, nil)
		e.must(400, req{Method: "GET", Path: state + "?wait=soon", Token: tokens[0]}, nil)
	})
}

// TestTableLongPoll: a long poll wakes within milliseconds of a move, ends
// with 304 when its wait runs out (even past the request timeout, which
// does not apply to it), and at once when the server shuts down.
func TestTableLongPoll(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		shutdown, stop := context.WithCancel(context.Background())
		defer stop()
		// The request timeout is just short of the 2 s poll below, so that
		// the poll outlives it, and no shorter: the set-up's sign-ups and
		// logins (password hashing) and the moves answered 503 on a loaded
		// machine under the race detector at 300 ms and at 1 s.
		e := newEnv(t, db, func(c *api.Config) { c.RequestTimeout = 1900 * time.Millisecond; c.Shutdown = shutdown })
		tb, tokens := twoHumans(e)
		st, _ := e.state(tokens[0], tb.ID)
		poll := fmt.Sprintf("%s?since=%d&wait=", tablePath(tb.ID, "state"), st.Version)
		type result struct {
			res  response
			took time.Duration
		}
		start := func(wait string, token string) <-chan result {
			ch := make(chan result, 1)
			go func() {
				t0 := time.Now()
				res := e.do(req{Method: "GET", Path: poll + wait, Token: token})
				ch <- result{res, time.Since(t0)}
			}()
			return ch
		}

		// Wakes on a move, for a player and a spectator.
		waiting := start("20", tokens[1])
		watching := start("20", "")
		time.Sleep(100 * time.Millisecond)
		moved := time.Now()
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[st.View.Turn],
			Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, nil)
		for _, ch := range []<-chan result{waiting, watching} {
			select {
			case r := <-ch:
				if r.res.Status != 200 {
					t.Fatalf("woken poll: status %d: %s", r.res.Status, r.res.Body)
				}
				if late := time.Since(moved); late > wokenWithin {
					t.Errorf("the poll answered %v after the move", late)
				} else {
					t.Logf("woken %v after the move's answer began", late)
				}
			case <-time.After(3 * wokenWithin):
				t.Fatal("the long poll did not wake on a move")
			}
		}

		// Times out with 304: longer than the request timeout.
		st, _ = e.state(tokens[0], tb.ID)
		poll = fmt.Sprintf("%s?since=%d&wait=", tablePath(tb.ID, "state"), st.Version)
		r := <-start("2", tokens[0])
		if r.res.Status != 304 || r.took < 2*time.Second || r.took > 4*time.Second {
			t.Errorf("timed-out poll: status %d after %v; body %s", r.res.Status, r.took, r.res.Body)
		}

		// Ends at once on shutdown.
		waiting = start("60", tokens[0])
		time.Sleep(100 * time.Millisecond)
		stop()
		select {
		case r := <-waiting:
			if r.res.Status != 304 {
				t.Errorf("poll at shutdown: status %d", r.res.Status)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("the long poll did not end on shutdown")
		}
	})
}

// BenchmarkTableState is a full state read (database and engine View);
// BenchmarkTableUnchangedPoll a poll that finds nothing new (memory only).
func BenchmarkTableState(b *testing.B) {
	e := newEnv(b, storetest.SQLite(b))
	tb, tokens := twoHumans(e)
	path := tablePath(tb.ID, "state")
	b.ReportAllocs()
	for b.Loop() {
		if res := e.do(req{Method: "GET", Path: path, Token: tokens[0]}); res.Status != 200 {
			b.Fatal(res.Status)
		}
	}
}

func BenchmarkTableUnchangedPoll(b *testing.B) {
	e := newEnv(b, storetest.SQLite(b))
	tb, tokens := twoHumans(e)
	path := tablePath(tb.ID, "state")
	etag := e.do(req{Method: "GET", Path: path, Token: tokens[0]}).Header.Get("ETag")
	b.ReportAllocs()
	for b.Loop() {
		if res := e.do(req{Method: "GET", Path: path, Token: tokens[0], Header: map[string]string{"If-None-Match": etag}}); res.Status != 304 {
			b.Fatal(res.Status)
		}
	}
}

// TestWaitOverflowIsCapped: a wait whose seconds overflow a time.Duration
// still waits (capped at 60 s) and wakes on a move; it does not answer
// 304 at once, which would turn a long poll into a busy loop (issue 19).
func TestWaitOverflowIsCapped(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := twoHumans(e)
		st, _ := e.state(tokens[0], tb.ID)
		// 9223372037 s overflows a time.Duration; 2^53-1 is openapi.yaml's
		// maximum (past it, 400).
		waits := []string{"61", "9223372037", "9007199254740991"}
		e.must(400, req{Method: "GET", Token: tokens[1],
			Path: fmt.Sprintf("%s?since=%d&wait=9223372036854775807", tablePath(tb.ID, "state"), st.Version)}, nil)
		answers := make(chan response, len(waits))
		for _, wait := range waits {
			go func() {
				answers <- e.do(req{Method: "GET", Token: tokens[1],
					Path: fmt.Sprintf("%s?since=%d&wait=%s", tablePath(tb.ID, "state"), st.Version, wait)})
			}()
		}
		select {
		case r := <-answers:
			t.Fatalf("a poll answered before any move: status %d", r.Status)
		case <-time.After(300 * time.Millisecond):
		}
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[st.View.Turn],
			Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, nil)
		for range waits {
			select {
			case r := <-answers:
				if r.Status != 200 {
					t.Errorf("woken poll: status %d: %s", r.Status, r.Body)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("a long poll did not wake on a move")
			}
		}
	})
}
