package main

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func state(deal int, status string) tableState {
	var st tableState
	st.Table.DealNumber, st.Table.Status = deal, status
	return st
}

func TestAMoveIsClassifiedByWhatItDid(t *testing.T) {
	for _, c := range []struct {
		name          string
		move          string
		first         bool
		before, after tableState
		want          moveKind
	}{
		{"Draw", "draw", false, state(1, "playing"), state(1, "playing"), kindDraw},
		{"Discard", "discard", false, state(1, "playing"), state(1, "playing"), kindDiscard},
		{"DiscardThatDealsTheNextDeal", "discard", false, state(1, "playing"), state(2, "playing"), kindDealEnd},
		{"DiscardThatEndsTheMatch", "discard", false, state(1, "playing"), state(1, "finished"), kindDealEnd},
		{"TheTablesFirstMove", "draw", true, state(1, "playing"), state(1, "playing"), kindFirst},
		{"AMoveTheGeneratorDoesNotMake", "meld", false, state(1, "playing"), state(1, "playing"), kindOther},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := classify(c.move, c.first, c.before, c.after); got != c.want {
				t.Errorf("classify = %s, want %s", got, c.want)
			}
		})
	}
}

func TestTheBreakdownGroupsTheMovesByKindAndConnection(t *testing.T) {
	var samples []moveSample
	for i := range 100 { // draws of 1..100 ms on reused connections
		samples = append(samples, moveSample{table: 1, version: int64(i), kind: kindDraw, latency: time.Duration(i+1) * time.Millisecond})
	}
	samples = append(samples,
		moveSample{table: 2, version: 1, kind: kindFirst, newConn: true, latency: 900 * time.Millisecond},
		moveSample{table: 3, version: 80, kind: kindDealEnd, latency: 500 * time.Millisecond})
	got := breakdown(samples)
	want := []latencyRow{
		{name: "draw", n: 100, p50: 50 * time.Millisecond, p99: 99 * time.Millisecond, max: 100 * time.Millisecond},
		{name: "deal's end", n: 1, p50: 500 * time.Millisecond, p99: 500 * time.Millisecond, max: 500 * time.Millisecond},
		{name: "table's first", n: 1, p50: 900 * time.Millisecond, p99: 900 * time.Millisecond, max: 900 * time.Millisecond},
		{name: "on a reused connection", n: 101, p50: 51 * time.Millisecond, p99: 100 * time.Millisecond, max: 500 * time.Millisecond},
		{name: "on a new connection", n: 1, p50: 900 * time.Millisecond, p99: 900 * time.Millisecond, max: 900 * time.Millisecond},
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(latencyRow{})); d != "" {
		t.Errorf("breakdown (-want +got):\n%s", d)
	}
}

func TestTheReportListsTheSlowestMovesSlowestFirst(t *testing.T) {
	samples := []moveSample{
		{table: 1, version: 3, kind: kindDraw, at: time.Second, latency: 2 * time.Millisecond},
		{table: 2, version: 81, kind: kindDealEnd, at: 40 * time.Second, when: time.Date(2026, 11, 28, 8, 0, 1, 5e6, time.UTC), latency: 930 * time.Millisecond},
		{table: 3, version: 1, kind: kindFirst, newConn: true, at: 2 * time.Second, latency: 400 * time.Millisecond},
	}
	top := slowest(samples, 2)
	if len(top) != 2 || top[0].table != 2 || top[1].table != 3 {
		t.Fatalf("slowest: %+v, want tables 2 then 3", top)
	}
	r := &result{tables: 3, finished: 3, elapsed: time.Minute, moveSamples: samples, serverMoves: 0}
	var out strings.Builder
	r.print(&out, 1, options{db: "sqlite", processes: 1})
	for _, want := range []string{
		"deal's end                    1 moves  p50 930.0 ms",
		"table 2 version 81, deal's end, 40s into play (08:00:01.005 UTC), 930.0 ms (reused connection)",
		"table 3 version 1, table's first, 2s into play (",
		"400.0 ms (new connection)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}
}

func TestTheTailIsToldByPeriodOfPlay(t *testing.T) {
	var samples []moveSample
	for i := range 100 { // an opening second of slow moves, then fast ones
		samples = append(samples, moveSample{at: time.Duration(i) * 10 * time.Millisecond, latency: 400 * time.Millisecond})
		samples = append(samples, moveSample{at: time.Second + time.Duration(i)*90*time.Millisecond, latency: 5 * time.Millisecond})
	}
	got := byPeriod(samples, periodWidth(10*time.Second))
	want := []periodRow{
		{from: 0, n: 100, p50: 400 * time.Millisecond, p99: 400 * time.Millisecond},
		{from: time.Second, n: 12, p50: 5 * time.Millisecond, p99: 5 * time.Millisecond},
	}
	if len(got) != 10 {
		t.Fatalf("byPeriod gave %d periods, want 10 (a second each over ten seconds): %+v", len(got), got)
	}
	if d := cmp.Diff(want, got[:2], cmp.AllowUnexported(periodRow{})); d != "" {
		t.Errorf("byPeriod's first periods (-want +got):\n%s", d)
	}
	r := &result{tables: 1, finished: 1, elapsed: time.Minute, moveSamples: samples}
	var out strings.Builder
	r.print(&out, 1, options{db: "sqlite", processes: 1})
	if want := "move latency by 1s of play (from, moves, p50, p99):\n     0s: 100, 400.0 ms, 400.0 ms;  1s: 12, 5.0 ms, 5.0 ms;"; !strings.Contains(out.String(), want) {
		t.Errorf("the report does not say %q:\n%s", want, out.String())
	}
}
