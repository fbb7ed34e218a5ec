package main

import (
	"strings"
	"testing"
)

func TestRouteByTableSendsEverySeatOfATableToOneServer(t *testing.T) {
	servers := []*server{{base: "http://a"}, {base: "http://b"}}
	seats := map[int64][]*client{}
	for id := int64(1); id <= 40; id++ {
		for i := range 4 { // bound as -route seat binds them
			seats[id] = append(seats[id], &client{base: servers[(int(id)+i)%2].base})
		}
	}
	routeByTable(servers, seats)
	per := map[string]int{}
	for id, clients := range seats {
		want := servers[tableServer(id, 2)].base
		for i, cl := range clients {
			if cl.base != want {
				t.Fatalf("table %d seat %d talks to %s, its table's server is %s", id, i, cl.base, want)
			}
		}
		per[want]++
	}
	// Both servers get tables (not a fixed split: the hash decides).
	if per["http://a"] < 10 || per["http://b"] < 10 {
		t.Errorf("40 tables spread %v over two servers", per)
	}
}

func TestParseFiguresCountsTheForwards(t *testing.T) {
	got, err := parseFigures(`burraco_moves_total 10
burraco_table_forwards_total{outcome="ok"} 7
burraco_table_forwards_total{outcome="owner_gone"} 1
burraco_table_forwards_total{outcome="misdirected"} 2
burraco_table_forwards_total{outcome="timeout"} 0
burraco_table_forwards_total{outcome="local"} 5
`)
	if err != nil || got.forwards != 7 || got.forwardsFailed != 3 {
		t.Fatalf("parseFigures = %+v, %v; want 7 forwarded (local ones are not) and 3 failed", got, err)
	}
}

func TestReportSaysHowManyRequestsWereForwarded(t *testing.T) {
	r := &result{tables: 1, finished: 1, moves: 10, serverMoves: 10, elapsed: 1e9,
		server: serverFigures{moves: 10, polls: 30, moveRequests: 10, forwards: 20, forwardsFailed: 1}}
	var out strings.Builder
	r.print(&out, 1, options{db: "postgres", processes: 2, leases: true, route: routeSeat})
	if want := "-route seat: requests forwarded to the table's owner 20 (50% of the state and move requests), forwards failed 1"; !strings.Contains(out.String(), want) {
		t.Errorf("the report does not say %q:\n%s", want, out.String())
	}
}
