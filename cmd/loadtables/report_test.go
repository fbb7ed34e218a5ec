package main

import (
	"strings"
	"testing"
	"time"
)

func TestReportOfAStuckTableSaysWhatEachSeatWasDoing(t *testing.T) {
	r := &result{tables: 2, finished: 1, stuck: 1, stuckTables: []stuckTable{{id: 7, maxSeen: 41, maxAcked: 41, seats: []string{
		"seat 0: GET /api/v1/tables/7/state?since=41&wait=20 in flight for 30.2s",
		"seat 1: POST /api/v1/tables/7/moves answered 200 (version 41, playing, deal 1, seat 1) 30.4s ago",
	}}}, elapsed: time.Second}
	var out strings.Builder
	r.print(&out, 1, options{db: "sqlite", processes: 1})
	for _, want := range []string{"FAILED", "stuck table 7 (newest version seen 41, acknowledged 41)", "seat 0: GET /api/v1/tables/7/state?since=41&wait=20 in flight", "seat 1: POST"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}
}
