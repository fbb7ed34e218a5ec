package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// sseEvent is one server-sent event, or a comment (heartbeat).
type sseEvent struct {
	ID, Event, Data string
	Comment         bool
}

// sseStream reads events from a response body in a goroutine.
type sseStream struct {
	res    *http.Response
	events chan sseEvent
}

func openEvents(t *testing.T, ctx context.Context, url, token, lastID string) *sseStream {
	t.Helper()
	hr, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if token != "" {
		hr.Header.Set("Authorization", "Bearer "+token)
	}
	if lastID != "" {
		hr.Header.Set("Last-Event-ID", lastID)
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	s := &sseStream{res: res, events: make(chan sseEvent, 100)}
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev != (sseEvent{}) {
					s.events <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, ":"):
				ev.Comment = true
			case strings.HasPrefix(line, "id: "):
				ev.ID = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "event: "):
				ev.Event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.Data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	return s
}

// next returns the next event, skipping heartbeats unless wanted.
func (s *sseStream) next(t *testing.T, heartbeat bool) sseEvent {
	t.Helper()
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if ev.Comment && !heartbeat {
				continue
			}
			return ev
		case <-time.After(5 * time.Second):
			t.Fatal("no event in 5 s")
		}
	}
}

// stateOf checks an event and decodes its state.
func stateOfEvent(t *testing.T, ev sseEvent) api.TableState {
	t.Helper()
	var st api.TableState
	if ev.Event != "state" || json.Unmarshal([]byte(ev.Data), &st) != nil || ev.ID != strconv.FormatInt(st.Version, 10) {
		t.Fatalf("event %+v", ev)
	}
	return st
}

// nextState reads the move events up to the next state event, checking
// that each move event's id is its version and that the versions follow
// one another, and returns the moves and the state.
func (s *sseStream) nextState(t *testing.T) ([]api.PlayedMove, api.TableState) {
	t.Helper()
	var moves []api.PlayedMove
	for {
		ev := s.next(t, false)
		if ev.Event == "state" {
			return moves, stateOfEvent(t, ev)
		}
		var m api.PlayedMove
		if ev.Event != "move" || json.Unmarshal([]byte(ev.Data), &m) != nil || ev.ID != strconv.FormatInt(m.Version, 10) {
			t.Fatalf("event %+v", ev)
		}
		if n := len(moves); n > 0 && m.Version <= moves[n-1].Version {
			t.Fatalf("move event version %d after %d", m.Version, moves[n-1].Version)
		}
		moves = append(moves, m)
	}
}

// TestTableEvents: the event stream starts with the current state, sends
// a move event and a state event per move, in order, each the caller's own
// view; heartbeats come when nothing changes; Last-Event-ID resumes (the
// moves since and the current state when behind, nothing when current); a private table's
// stream is not found for others; the stream ends at shutdown.
func TestTableEvents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		shutdown, stop := context.WithCancel(context.Background())
		defer stop()
		e := newEnv(t, db, func(c *api.Config) { c.EventsHeartbeat = 100 * time.Millisecond; c.Shutdown = shutdown })
		srv := httptest.NewServer(e.h)
		defer srv.Close()
		tb, tokens := twoHumans(e)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		url := srv.URL + tablePath(tb.ID, "events")
		s := openEvents(t, ctx, url, tokens[0], "")
		if ct := s.res.Header.Get("Content-Type"); s.res.StatusCode != 200 || ct != "text/event-stream" {
			t.Fatalf("status %d, Content-Type %q", s.res.StatusCode, ct)
		}
		first := stateOfEvent(t, s.next(t, false))
		if first.Seat != 0 || first.View == nil || len(first.View.Hand) == 0 {
			t.Fatalf("the first event is not seat 0's state: %+v", first)
		}
		if ev := s.next(t, true); !ev.Comment {
			t.Fatalf("no heartbeat while nothing changed: %+v", ev)
		}
		c := chooser{rand.New(rand.NewPCG(7, 8))}
		last := first.Version
		for range 6 {
			st, _ := e.state(tokens[0], tb.ID)
			if st.Table.Status != "playing" {
				break
			}
			g, _ := serverGame(t, db, tb.ID)
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[g.Turn()],
				Body: moveBody(t, c.choose(g, g.Turn()), st.Version)}, nil)
			moves, ev := s.nextState(t)
			if ev.Version != st.Version+1 || ev.Version <= last || ev.Seat != 0 || len(moves) != 1 || moves[0].Version != ev.Version {
				t.Fatalf("event version %d (seat %d) after a move at version %d, move events %+v", ev.Version, ev.Seat, st.Version, moves)
			}
			if ev.Table.Status == "playing" {
				g, _ = serverGame(t, db, tb.ID)
				checkNoLeak(t, []byte(`{"view":`+mustJSON(ev.View)+`}`), g, 0)
			}
			last = ev.Version
		}

		// Resuming behind the current version: the moves past it, then the
		// current state.
		behind := openEvents(t, ctx, url, tokens[1], strconv.FormatInt(first.Version, 10))
		if moves, st := behind.nextState(t); st.Version != last || st.Seat != 1 || len(moves) == 0 ||
			moves[0].Version != first.Version+1 || moves[len(moves)-1].Version != last {
			t.Fatalf("resumed from %d: version %d seat %d, want %d seat 1; moves %+v", first.Version, st.Version, st.Seat, last, moves)
		}
		// Resuming at the current version: only heartbeats until a change.
		current := openEvents(t, ctx, url, tokens[1], strconv.FormatInt(last, 10))
		if ev := current.next(t, true); !ev.Comment {
			t.Fatalf("resumed at the current version, got %+v", ev)
		}

		private := e.newTable(tokens[0], api.TableCreateRequest{Rules: "fibur", Players: 2, Private: true})
		res, err := http.Get(srv.URL + tablePath(private.ID, "events"))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 404 {
			t.Errorf("a stranger's stream of a private table: %d", res.StatusCode)
		}

		stop() // the server shuts down: every stream ends
		for _, st := range []*sseStream{s, behind, current} {
			deadline := time.After(5 * time.Second)
		drain:
			for {
				select {
				case _, ok := <-st.events:
					if !ok {
						break drain
					}
				case <-deadline:
					t.Fatal("a stream outlived the shutdown")
				}
			}
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestFutureLastEventIDGetsState: a stream resumed with a Last-Event-ID
// past the current version (made up, or from before a restore) starts
// with the current state, as one behind it does; it is not left silent
// until the table catches up with the id (issue 19).
func TestFutureLastEventIDGetsState(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, func(c *api.Config) { c.EventsHeartbeat = 100 * time.Millisecond })
		srv := httptest.NewServer(e.h)
		defer srv.Close()
		tb, tokens := twoHumans(e)
		now, _ := e.state(tokens[0], tb.ID)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		for _, id := range []int64{now.Version + 1, now.Version + 1000, 1<<63 - 1} {
			s := openEvents(t, ctx, srv.URL+tablePath(tb.ID, "events"), tokens[0], strconv.FormatInt(id, 10))
			if st := stateOfEvent(t, s.next(t, true)); st.Version != now.Version || st.Seat != 0 {
				t.Errorf("Last-Event-ID %d: version %d seat %d, want %d seat 0", id, st.Version, st.Seat, now.Version)
			}
		}
	})
}
