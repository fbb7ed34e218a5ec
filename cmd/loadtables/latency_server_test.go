package main

import (
	"fmt"
	"strings"
	"testing"
)

const exposition = `# HELP burraco_http_request_duration_seconds time
burraco_http_request_duration_seconds_bucket{method="POST",route="/api/v1/tables/{tableID}/moves",le="0.001"} %d
burraco_http_request_duration_seconds_bucket{method="POST",route="/api/v1/tables/{tableID}/moves",le="0.05"} %d
burraco_http_request_duration_seconds_bucket{method="POST",route="/api/v1/tables/{tableID}/moves",le="0.1"} %d
burraco_http_request_duration_seconds_bucket{method="POST",route="/api/v1/tables/{tableID}/moves",le="+Inf"} %d
burraco_http_request_duration_seconds_bucket{method="GET",route="/api/v1/tables/{tableID}/state",le="0.001"} 999
burraco_http_request_duration_seconds_bucket{method="GET",route="/api/v1/tables/{tableID}/state",le="+Inf"} 999
`

func histogram(t *testing.T, counts ...any) bucketCounts {
	t.Helper()
	h, err := parseHistograms(fmt.Sprintf(exposition, counts...))
	if err != nil {
		t.Fatal(err)
	}
	return h.moves
}

func TestTheServersMoveHistogramSaysTheirOwnTail(t *testing.T) {
	before := histogram(t, 10, 10, 10, 10) // the sign-ups' and seating's moves: none, say 10 of anything
	after := histogram(t, 60, 108, 109, 110)
	play := after.minus(before) // 100 moves: 50 under 1 ms, 48 more under 50 ms, 1 under 100 ms, 1 over
	for _, c := range []struct {
		name string
		q    float64
		want string
	}{
		{"HalfUnder1ms", 0.5, "1 ms"},
		{"P98Under50ms", 0.98, "50 ms"},
		{"P99Under100ms", 0.99, "100 ms"},
		{"TheSlowestOverEveryBound", 1, "+Inf"},
	} {
		t.Run(c.name, func(t *testing.T) {
			le, ok := play.quantile(c.q)
			if !ok || bound(le) != c.want {
				t.Errorf("quantile(%v) = %s, %v; want %s", c.q, bound(le), ok, c.want)
			}
		})
	}
	var out strings.Builder
	printServerTail(&out, play)
	if want := "p50 ≤ 1 ms, p99 ≤ 100 ms; over 100 ms: 1 of 100 requests"; !strings.Contains(out.String(), want) {
		t.Errorf("the report does not say %q:\n%s", want, out.String())
	}
	out.Reset()
	printServerTail(&out, bucketCounts{})
	if out.Len() != 0 {
		t.Errorf("an empty histogram printed %q", out.String())
	}
}

func TestTheServersCommitHistogramSaysTheStoragesTail(t *testing.T) {
	const commits = `# TYPE burraco_db_commit_seconds histogram
burraco_db_commit_seconds_bucket{le="0.001"} 90
burraco_db_commit_seconds_bucket{le="0.1"} 99
burraco_db_commit_seconds_bucket{le="2.5"} 100
burraco_db_commit_seconds_bucket{le="+Inf"} 100
burraco_db_commit_seconds_sum 1.2
burraco_db_commit_seconds_count 100
`
	h, err := parseHistograms(fmt.Sprintf(exposition, 1, 1, 1, 1) + commits)
	if err != nil {
		t.Fatal(err)
	}
	if h.moves[0.1] != 1 || h.commits[0.1] != 99 {
		t.Fatalf("moves %v, commits %v: each histogram must read its own buckets", h.moves, h.commits)
	}
	var out strings.Builder
	printCommitTail(&out, h.commits)
	if want := "commits (their /metrics, to the bucket): p99 ≤ 100 ms, the slowest ≤ 2500 ms; over 100 ms: 1 of 100"; !strings.Contains(out.String(), want) {
		t.Errorf("the report does not say %q:\n%s", want, out.String())
	}
}
