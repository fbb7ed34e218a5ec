package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestHistoryKeepsTheLastAnswersOldestFirst(t *testing.T) {
	var h history
	at := time.Date(2026, 11, 28, 6, 13, 8, 0, time.UTC)
	for i := range historyLen + 3 {
		h.add(heard{request: fmt.Sprintf("GET /api/v1/tables/80/state?since=%d&wait=20", i), sent: at, answered: at, code: 304})
	}
	lines := h.lines()
	if len(lines) != historyLen {
		t.Fatalf("%d answers kept, want the last %d", len(lines), historyLen)
	}
	if !strings.Contains(lines[0], "since=3&") || !strings.Contains(lines[historyLen-1], fmt.Sprintf("since=%d&", historyLen+2)) {
		t.Errorf("not the last answers, oldest first: first %q, last %q", lines[0], lines[historyLen-1])
	}
}

func TestHeardSaysWhatTheSeatWasTold(t *testing.T) {
	sent := time.Date(2026, 11, 28, 6, 13, 8, 878_000_000, time.UTC)
	body := []byte(`{"table":{"id":80,"version":6,"status":"playing","deal_number":1},"seat":1,"view":{"turn":0,"phase":"discard","hand":["KS","2H"]}}`)
	for _, c := range []struct {
		name string
		h    heard
		want string
	}{
		{"AState", heardOfBody("GET /api/v1/tables/80/state?since=5&wait=20", sent, sent.Add(12*time.Millisecond), 200, `"t80.v6.s1"`, body),
			`06:13:08.878 +12ms GET /api/v1/tables/80/state?since=5&wait=20 -> 200 ETag "t80.v6.s1" version 6 playing deal 1 seat 1 turn 0 phase discard`},
		{"ANotModified", heardOfBody("GET /api/v1/tables/80/state?since=6&wait=20", sent, sent.Add(20*time.Second), 304, `"t80.v6.s1"`, nil),
			`06:13:08.878 +20s GET /api/v1/tables/80/state?since=6&wait=20 -> 304 ETag "t80.v6.s1"`},
		{"AProblem", heardOfBody("POST /api/v1/tables/80/moves", sent, sent, 409, "", []byte(`{"code":"version_conflict"}`)),
			`06:13:08.878 +0s POST /api/v1/tables/80/moves -> 409`},
		{"NoAnswer", heard{request: "GET /api/v1/tables/80/state", sent: sent, answered: sent, code: -1, status: "context canceled"},
			`06:13:08.878 +0s GET /api/v1/tables/80/state -> no answer: context canceled`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.h.String(); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestReportOfAStuckTablePrintsEachSeatsLastAnswers(t *testing.T) {
	r := &result{tables: 1, stuck: 1, stuckTables: []stuckTable{{id: 80, maxSeen: 6, maxAcked: 6,
		seats: []string{"seat 0: GET /api/v1/tables/80/state?since=6&wait=20 in flight for 10s", "seat 1: GET /api/v1/tables/80/state?since=6&wait=20 in flight for 9s"},
		heard: [][]string{{"06:13:08.878 +0s POST /api/v1/tables/80/moves -> 200"}, {"06:13:08.900 +3ms GET /api/v1/tables/80/state?since=5&wait=20 -> 200 ETag \"t80.v6.s1\" version 6 playing deal 1 seat 1 turn 0 phase discard"}},
		now:   []string{"", "06:14:00.000 +2ms GET /api/v1/tables/80/state -> 200 ETag \"t80.v6.s1\" version 6 playing deal 1 seat 1 turn 1 phase take"},
	}}, elapsed: time.Second}
	var out strings.Builder
	r.print(&out, 1, options{db: "sqlite", processes: 1})
	for _, want := range []string{"seat 1: GET", "its last 1 answers", `-> 200 ETag "t80.v6.s1" version 6 playing deal 1 seat 1 turn 0 phase discard`,
		`asked again after the run: 06:14:00.000 +2ms GET /api/v1/tables/80/state -> 200 ETag "t80.v6.s1" version 6 playing deal 1 seat 1 turn 1 phase take`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}
}

// heardOfBody is what doOnce keeps of an answer with body b.
func heardOfBody(request string, sent, answered time.Time, code int, etag string, b []byte) heard {
	st, err := answerState(code, b)
	return heardOf(request, sent, answered, code, etag, &st, err == nil)
}
