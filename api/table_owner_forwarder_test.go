package api_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestAForwardIsTimedAndLoggedByTheForwarder: a request for a table that
// reaches a process not its owner is, at that process, counted, timed
// (burraco_table_forward_duration_seconds) unless it waits on purpose (a
// long poll's wait is not the hop's), and logged with the request id the
// owner's access log has too (the forwarder gives one when the client did
// not).
func TestAForwardIsTimedAndLoggedByTheForwarder(t *testing.T) {
	ps := newProcs(t, 2, time.Minute, 5*time.Second)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	st, _ := a.state(tokens[0], tb.ID)
	for _, c := range []struct {
		name   string
		query  string
		status int
		timed  uint64
	}{
		{"AStateReadIsTimed", "", 200, 1},
		{"ALongPollIsNotTimed", fmt.Sprintf("?since=%d&wait=1", st.Version), 304, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			ok, timed := b.stats.OK.Load(), b.stats.Durations().Count()
			res := b.do(req{Method: "GET", Path: tablePath(tb.ID, "state") + c.query, Token: tokens[0]})
			if res.Status != c.status {
				t.Fatalf("answered %d, want %d: %s", res.Status, c.status, res.Body)
			}
			if got := b.stats.OK.Load() - ok; got != 1 {
				t.Errorf("%d forwards counted, want 1", got)
			}
			if got := b.stats.Durations().Count() - timed; got != c.timed {
				t.Errorf("%d forwards timed, want %d", got, c.timed)
			}
			id := res.Header.Get("X-Request-Id")
			if id == "" {
				t.Fatal("no request id answered")
			}
			logged := "request_id=" + id
			if line := lineWith(b.logs.String(), logged); !strings.Contains(line, "msg=forwarded") || !strings.Contains(line, fmt.Sprintf("status=%d", c.status)) {
				t.Errorf("the forwarder's log line of %s: %q", id, line)
			}
			if line := lineWith(a.logs.String(), logged); !strings.Contains(line, "msg=request") {
				t.Errorf("the owner's log line of %s: %q", id, line)
			}
		})
	}
}

// lineWith is the first line of logs that contains s.
func lineWith(logs, s string) string {
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
