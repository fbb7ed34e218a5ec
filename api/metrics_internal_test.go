package api

import (
	"testing"
	"time"
)

// statePatterns are chi's matched patterns of a poll of a table's state.
var statePatterns = []string{"/api/v1/*", "/tables/{tableID}/state"}

// TestMetricsObserveAllocatesNothing: once a route was seen, counting a
// request of it allocates nothing (the request path is hot: frontends
// poll).
func TestMetricsObserveAllocatesNothing(t *testing.T) {
	m := NewMetrics()
	m.observe("GET", statePatterns, 200, time.Millisecond)
	if n := testing.AllocsPerRun(1000, func() { m.observe("GET", statePatterns, 304, time.Millisecond) }); n != 0 {
		t.Errorf("observe allocated %v times a request", n)
	}
	if got := (*m.routes.Load())[routeKey{method: "GET", patterns: [maxPatterns]string{statePatterns[0], statePatterns[1]}}].route; got != "/api/v1/tables/{tableID}/state" {
		t.Errorf("route %q", got)
	}
}

// BenchmarkMetricsObserve is the request path's cost of the metrics.
func BenchmarkMetricsObserve(b *testing.B) {
	m := NewMetrics()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.observe("GET", statePatterns, 200, time.Millisecond)
		}
	})
}
