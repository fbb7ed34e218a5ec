package api_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestOpenTablesPerUserLimited: a user may have created at most
// MaxOpenTables tables not finished (issue 19: 300 tables in 0.2 s filled
// the lobby); more are refused with 409 too_many_open_tables, also when
// sent all at once; the limit is per user, and a finished table frees its
// place.
func TestOpenTablesPerUserLimited(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnvServices(t, db, domain.Config{MaxOpenTables: 3})
		playing, tokens := twoHumans(e) // anna's first table, playing
		anna, bruno := tokens[0], tokens[1]
		open := api.TableCreateRequest{Rules: "fibur", Players: 2}
		statuses := make(chan int, 10)
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				res := e.do(req{Method: "POST", Path: "/api/v1/tables", Token: anna, Body: open})
				if res.Status == http.StatusConflict {
					if p := problem(t, res); p.Code != "too_many_open_tables" {
						t.Errorf("code %s", p.Code)
					}
				}
				statuses <- res.Status
			})
		}
		wg.Wait()
		close(statuses)
		count := map[int]int{}
		for s := range statuses {
			count[s]++
		}
		if count[http.StatusCreated] != 2 || count[http.StatusConflict] != 8 {
			t.Fatalf("10 creations at once with 1 of 3 tables open: %v", count)
		}
		e.newTable(bruno, open) // another user's limit is his own
		e.must(http.StatusOK, req{Method: "POST", Path: tablePath(playing.ID, "leave"), Token: anna}, nil)
		var tb api.Table
		e.must(http.StatusOK, req{Method: "GET", Path: tablePath(playing.ID), Token: anna}, &tb)
		if tb.Status != "finished" {
			t.Fatalf("the abandoned match is %s", tb.Status)
		}
		e.newTable(anna, open) // the finished table frees a place
		res := e.do(req{Method: "POST", Path: "/api/v1/tables", Token: anna, Body: open})
		if p := problem(t, res); res.Status != http.StatusConflict || p.Code != "too_many_open_tables" {
			t.Errorf("a fourth open table: %d %s", res.Status, p.Code)
		}
	})
}

// TestLongPollsAndStreamsPerUserLimited: a user may hold at most
// MaxLongPolls long polls and MaxEventStreams event streams open at once
// (issue 19: one user held 200 polls and 150 streams); more are refused
// with 429, a stable code and Retry-After, while polls that answer at once
// are not counted, another user has his own, and a place is free again
// once a poll or stream ends.
func TestLongPollsAndStreamsPerUserLimited(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, func(c *api.Config) { c.MaxLongPolls, c.MaxEventStreams = 2, 1 })
		tb, tokens := twoHumans(e)
		st, _ := e.state(tokens[0], tb.ID)
		poll := func(token string) req {
			return req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=30", tablePath(tb.ID, "state"), st.Version), Token: token}
		}
		stream := func(d time.Duration) req {
			return req{Method: "GET", Path: tablePath(tb.ID, "events"), Token: tokens[0], Timeout: d}
		}
		refused := func(r req, code string) {
			t.Helper()
			res := e.do(r)
			if p := problem(t, res); res.Status != http.StatusTooManyRequests || p.Code != code || res.Header.Get("Retry-After") == "" {
				t.Errorf("status %d, code %s, Retry-After %q; want 429 %s", res.Status, p.Code, res.Header.Get("Retry-After"), code)
			}
		}
		answered := make(chan int, 3)
		for _, tok := range []string{tokens[0], tokens[0], tokens[1]} { // the third is another user's
			go func() { answered <- e.do(poll(tok)).Status }()
		}
		streamEnded := make(chan int, 1)
		go func() { streamEnded <- e.do(stream(time.Second)).Status }()
		time.Sleep(300 * time.Millisecond) // the polls and the stream are waiting

		refused(poll(tokens[0]), "too_many_long_polls")
		refused(stream(time.Second), "too_many_event_streams")
		e.must(http.StatusOK, req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: tokens[0]}, nil) // no wait: not counted

		// A move answers the three polls; the stream ends with its client.
		e.must(http.StatusOK, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[st.View.Turn],
			Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, nil)
		for range 3 {
			if s := <-answered; s != http.StatusOK {
				t.Errorf("a held poll answered %d", s)
			}
		}
		if s := <-streamEnded; s != http.StatusOK {
			t.Errorf("the held stream answered %d", s)
		}
		st, _ = e.state(tokens[0], tb.ID)
		e.must(http.StatusOK, stream(100*time.Millisecond), nil)
		e.must(http.StatusNotModified, req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=1", tablePath(tb.ID, "state"), st.Version), Token: tokens[0]}, nil)
	})
}
