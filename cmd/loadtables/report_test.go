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

func TestTheCPULinesSayTheClientsShareBesideTheServers(t *testing.T) {
	for _, c := range []struct {
		name string
		r    result
		want []string
	}{
		{"SQLite", result{moves: 1000, serverCPU: 950 * time.Millisecond, clientsCPU: 540 * time.Millisecond},
			[]string{"CPU per move, µs: server 950\n", "the clients' CPU per move (this load generator, on the same cores), µs: 540\n"}},
		{"PostgreSQL", result{moves: 1000, serverCPU: 1300 * time.Millisecond, databaseCPU: 700 * time.Millisecond, backendsCPU: 650 * time.Millisecond, clientsCPU: 600 * time.Millisecond},
			[]string{"server 1300, PostgreSQL 700 (every postgres process) or 650 (this run's backends alone); server and backends 1950\n", "µs: 600\n"}},
		{"ClientsNotMeasured", result{moves: 1000, serverCPU: 950 * time.Millisecond}, []string{"server 950\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			c.r.printCPU(&out)
			for _, want := range c.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("the CPU lines do not say %q:\n%s", want, out.String())
				}
			}
			if c.r.clientsCPU == 0 && strings.Contains(out.String(), "clients") {
				t.Errorf("a run whose clients' CPU was not read says a figure for it:\n%s", out.String())
			}
			if lines := strings.Count(out.String(), "\n"); c.r.clientsCPU > 0 && lines != 2 {
				t.Errorf("%d lines; want the servers' then the clients':\n%s", lines, out.String())
			}
		})
	}
}
