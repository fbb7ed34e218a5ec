package main

import (
	"strings"
	"testing"
	"time"
)

func TestAComparisonSaysEachRoundsRatioAndTheirMedian(t *testing.T) {
	run := func(server, backends, clients time.Duration) *result {
		return &result{moves: 1000, serverCPU: server * 1000, backendsCPU: backends * 1000, databaseCPU: backends * 1000, clientsCPU: clients * 1000}
	}
	us := time.Microsecond
	rounds := []round{
		{run(1000*us, 0, 500*us), run(1200*us, 600*us, 500*us)}, // 1.80×, the same machine speed: 1.80×
		{run(1000*us, 0, 500*us), run(1000*us, 500*us, 400*us)}, // 1.50×, the PostgreSQL run on a faster machine: 1.88×
		{run(1200*us, 0, 600*us), run(1300*us, 700*us, 600*us)}, // 1.67×, 1.67×
	}
	var out strings.Builder
	printComparison(&out, rounds, options{processes: 2})
	for _, want := range []string{
		"round 1: SQLite 1000 µs (clients 500), PostgreSQL 1800 µs (clients 500): 1.80×, normalised by the clients' CPU 1.80×",
		"round 2: SQLite 1000 µs (clients 500), PostgreSQL 1500 µs (clients 400): 1.50×, normalised by the clients' CPU 1.88×",
		"median 1.67×, normalised 1.80× (plain ratios 1.50–1.80)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the comparison does not say %q:\n%s", want, out.String())
		}
	}
}

func TestAComparisonsSQLiteTwinPlaysTheSameLoadOnOneProcess(t *testing.T) {
	o := options{db: "postgres", processes: 2, leases: true, route: routeTable, tables: 100, deals: 2, think: time.Second, keys: true, compare: true}
	s := sqliteTwin(o)
	if s.db != "sqlite" || s.processes != 1 || s.leases || s.route != routeSeat {
		t.Errorf("the twin runs %s on %d process(es), leases %v, route %s; want sqlite on one, no leases, route seat", s.db, s.processes, s.leases, s.route)
	}
	if s.tables != o.tables || s.deals != o.deals || s.think != o.think || s.keys != o.keys {
		t.Errorf("the twin plays %d tables, %d deals, think %s, keys %v; want the run's own", s.tables, s.deals, s.think, s.keys)
	}
}

func TestMedianOfEvenAndOddCounts(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{2}, 2}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}
