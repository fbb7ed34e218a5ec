package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseFiguresCountsTheSeatsRoutes(t *testing.T) {
	for _, c := range []struct {
		name    string
		body    string
		want    serverFigures
		wantErr string
	}{
		{"EveryStatusOfEachRouteCounts", `# HELP burraco_moves_total moves accepted
# TYPE burraco_moves_total counter
burraco_moves_total 41
burraco_http_requests_total{method="GET",route="/api/v1/tables/{tableID}/state",code="200"} 100
burraco_http_requests_total{method="GET",route="/api/v1/tables/{tableID}/state",code="304"} 20
burraco_http_requests_total{method="POST",route="/api/v1/tables/{tableID}/moves",code="200"} 41
burraco_http_requests_total{method="POST",route="/api/v1/tables/{tableID}/moves",code="409"} 2
burraco_http_requests_total{method="POST",route="/api/v1/tables/{tableID}/join",code="200"} 3
burraco_http_request_duration_seconds_count{method="GET",route="/api/v1/tables/{tableID}/state"} 120
`, serverFigures{moves: 41, polls: 120, moveRequests: 43}, ""},
		{"NoMovesCounterIsAnError", `burraco_http_requests_total{method="GET",route="/healthz",code="200"} 1` + "\n", serverFigures{}, "no burraco_moves_total"},
		{"ABadValueIsAnError", "burraco_moves_total many\n", serverFigures{}, "many"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseFigures(c.body)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want one saying %q", err, c.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("parseFigures = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

func TestReportSetsTheServersFiguresBesideTheClients(t *testing.T) {
	r := &result{tables: 1, finished: 1, moves: 80, serverMoves: 80, polls: 400, moveRequests: 82,
		server: serverFigures{moves: 80, polls: 400, moveRequests: 82}, elapsed: 2e9, midwayScrape: 3e6}
	var out strings.Builder
	r.print(&out, 1, options{db: "sqlite", processes: 1})
	for _, want := range []string{"/metrics answered midway in 3.0 ms", "moves 80 | 80 acknowledged, 40 | 40 moves/s", "state requests 400 | 400 answered", "move requests 82 | 82 answered"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not say %q:\n%s", want, out.String())
		}
	}
}
