package api

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
)

// newState is a request state as begin makes it, on parent.
func newState(parent context.Context) *requestState {
	return &requestState{parent: parent, start: time.Now(), id: "r1"}
}

// testKey is a context key of the tests.
type testKey struct{}

func TestRequestStateWithoutDeadlineIsItsParent(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), testKey{}, "x"))
	st := newState(parent)
	if st.Done() != parent.Done() {
		t.Fatal("Done is not the parent's")
	}
	if _, ok := st.Deadline(); ok {
		t.Fatal("a deadline without a timeout")
	}
	if st.Value(testKey{}) != "x" || stateOf(st) != st {
		t.Fatal("values do not reach through")
	}
	cancel()
	if !errors.Is(st.Err(), context.Canceled) {
		t.Fatalf("Err = %v after the parent was cancelled", st.Err())
	}
}

func TestRequestStateDeadlinePassesWithoutATimer(t *testing.T) {
	st := newState(context.Background())
	st.setTimeout(20 * time.Millisecond)
	if d, ok := st.Deadline(); !ok || !d.Equal(st.start.Add(20*time.Millisecond)) {
		t.Fatalf("Deadline = %v %v", d, ok)
	}
	if st.Err() != nil {
		t.Fatal("expired at once")
	}
	time.Sleep(30 * time.Millisecond)
	if !errors.Is(st.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err = %v past the deadline", st.Err())
	}
	if st.timed.Load() != nil {
		t.Fatal("Err made a timer")
	}
	select { // Done made now is closed at once, as Err says
	case <-st.Done():
	case <-time.After(time.Second):
		t.Fatal("Done not closed past the deadline")
	}
	if context.Cause(st) != context.DeadlineExceeded {
		t.Fatalf("Cause = %v", context.Cause(st))
	}
}

func TestRequestStateDoneClosesAtTheDeadline(t *testing.T) {
	st := newState(context.Background())
	st.setTimeout(10 * time.Millisecond)
	child, cancel := context.WithCancel(st) // as database/sql and long polls derive
	defer cancel()
	select {
	case <-child.Done():
	case <-time.After(time.Second):
		t.Fatal("the child was not cancelled at the deadline")
	}
	if !errors.Is(st.Err(), context.DeadlineExceeded) || !errors.Is(child.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err = %v, child %v", st.Err(), child.Err())
	}
	st.stop()
}

func TestRequestStateKeepsTheEarlierDeadline(t *testing.T) {
	parent, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	st := newState(parent)
	st.setTimeout(time.Hour)
	if d, _ := st.Deadline(); !d.Before(time.Now().Add(time.Minute)) {
		t.Fatalf("Deadline = %v, not the parent's", d)
	}
	st.setTimeout(2 * time.Hour) // a later timeout does not extend it
	if got := st.deadline.Load(); got != st.start.Add(time.Hour).UnixNano() {
		t.Fatalf("deadline moved to %v", time.Unix(0, got))
	}
	<-st.Done()
}

// TestMiddlewareCarriesActorAndIDWithoutCopies: behind begin, the actor
// and the request id travel in the one request state, and the handler sees
// the status writer.
func TestMiddlewareCarriesActorAndIDWithoutCopies(t *testing.T) {
	s := testServer(&bytes.Buffer{})
	var seen domain.Actor
	var id string
	h := s.begin(timeout(time.Minute)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		withActor(r, domain.Actor{UserID: 7})
		seen, id = ActorFrom(r.Context()), RequestIDFrom(r.Context())
		if _, ok := r.Context().Deadline(); !ok {
			t.Error("no deadline under timeout")
		}
		w.WriteHeader(http.StatusTeapot)
	})))
	req := httptest.NewRequest("GET", "/x", nil)
	req.Header.Set("X-Request-ID", "abc.1_2-3")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if seen.UserID != 7 || id != "abc.1_2-3" || rec.Header().Get("X-Request-ID") != id || rec.Code != http.StatusTeapot {
		t.Fatalf("actor %+v id %q header %q code %d", seen, id, rec.Header().Get("X-Request-ID"), rec.Code)
	}
}

func TestValidRequestID(t *testing.T) {
	for id, want := range map[string]bool{
		"abc-123": true, "A.b_C-9": true, strings.Repeat("a", 64): true,
		"": false, strings.Repeat("a", 65): false, "bad id": false, "x\nlevel=ERROR": false, "é": false, "a/b": false,
	} {
		if validRequestID(id) != want {
			t.Errorf("validRequestID(%q) = %v", id, !want)
		}
	}
}

// TestRequestStateRunsAfterFuncsAtTheDeadline: context.AfterFunc, which
// the standard library's helpers use, fires at the lazy deadline.
func TestRequestStateRunsAfterFuncsAtTheDeadline(t *testing.T) {
	st := newState(context.Background())
	st.setTimeout(10 * time.Millisecond)
	fired := make(chan struct{})
	context.AfterFunc(st, func() { close(fired) })
	select {
	case <-fired:
	case <-time.After(time.Second):
		t.Fatal("AfterFunc did not run at the deadline")
	}
	st.stop()
}

// TestDoneAskedFromAnotherGoroutineWhileTheTimeoutIsSet: database/sql
// watches a query's context from a goroutine of its own, so Done may be
// asked while the request's goroutine sets the deadline (the race
// detector fails this test on a plain field).
func TestDoneAskedFromAnotherGoroutineWhileTheTimeoutIsSet(t *testing.T) {
	st := newState(context.Background())
	asked := make(chan (<-chan struct{}))
	go func() { asked <- st.Done() }()
	st.setTimeout(time.Millisecond)
	<-asked
	select {
	case <-st.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the deadline set never ended Done")
	}
	if !errors.Is(st.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err = %v", st.Err())
	}
}
