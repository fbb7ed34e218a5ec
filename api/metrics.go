package api

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/internal/metrics"
)

// Metrics are the API's figures for an operator's Prometheus (issue 30):
// requests by route pattern, method and status with their latencies, the
// long polls and event streams open, and the moves accepted. Their
// Registry serves /metrics; cmd/burraco adds the database's figures to it.
// The figures are this process's.
//
// The request path pays a lookup of its route's counters in a map that is
// only read (copied on the rare write of a route not seen yet), keyed by
// the method and chi's matched patterns as they are (no string built),
// then four atomic adds: no allocation, no lock.
type Metrics struct {
	Registry metrics.Registry

	routes atomic.Pointer[map[routeKey]*routeMetrics]
	mu     sync.Mutex // adding to routes

	polls, streams metrics.Gauge
	moves          metrics.Counter
}

// NewMetrics returns empty metrics whose registry writes the API's
// families.
func NewMetrics() *Metrics {
	m := &Metrics{}
	m.routes.Store(&map[routeKey]*routeMetrics{})
	m.Registry.Register(m.write)
	return m
}

// requestDurationBounds are the latency buckets, seconds: from a cached
// poll's fraction of a millisecond to a long poll's minute.
var requestDurationBounds = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

// trackedCodes are the statuses counted by code; any other is counted by
// its class ("4xx").
var trackedCodes = [...]int{200, 201, 204, 206, 301, 302, 304, 400, 401, 403, 404, 405, 406, 409, 410, 412, 413, 415, 422, 428, 429, 500, 501, 502, 503, 504}

// codeSlot maps a status to its counter: 1 + its index in trackedCodes, or
// 0 for its class's.
var codeSlot = func() (s [600]uint8) {
	for i, c := range trackedCodes {
		s[c] = uint8(i + 1)
	}
	return s
}()

// maxPatterns is the depth of routers a key holds; deeper (none today)
// are joined into the first.
const maxPatterns = 6

// routeKey names a route as chi matched it: the method and the patterns of
// the routers it went through.
type routeKey struct {
	method   string
	patterns [maxPatterns]string
}

// routeMetrics are one route's counters.
type routeMetrics struct {
	method, route string
	// codes: trackedCodes, then the classes 1xx to 5xx, then any other
	codes    [len(trackedCodes) + 6]metrics.Counter
	duration *metrics.Histogram
}

// slot is the counter index of status.
func slot(status int) int {
	if status >= 100 && status < 600 {
		if s := codeSlot[status]; s > 0 {
			return int(s) - 1
		}
		return len(trackedCodes) + status/100 - 1
	}
	return len(trackedCodes) + 5
}

// slotLabel is the code label of counter index i.
func slotLabel(i int) string {
	switch {
	case i < len(trackedCodes):
		return strconv.Itoa(trackedCodes[i])
	case i < len(trackedCodes)+5:
		return strconv.Itoa(i-len(trackedCodes)+1) + "xx"
	}
	return "other"
}

// methodLabel keeps the method label to the methods the API knows: any
// other would let a client add a series per request.
func methodLabel(m string) string {
	switch m {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS":
		return m
	}
	return "OTHER"
}

// observe counts a request of method matched by patterns (chi's
// RoutePatterns), answered with status after d.
func (m *Metrics) observe(method string, patterns []string, status int, d time.Duration) {
	k := routeKey{method: methodLabel(method)}
	if len(patterns) <= maxPatterns {
		copy(k.patterns[:], patterns)
	} else {
		k.patterns[0] = strings.Join(patterns, "")
	}
	rm := (*m.routes.Load())[k]
	if rm == nil {
		rm = m.add(k)
	}
	rm.codes[slot(status)].Inc()
	rm.duration.Observe(d)
}

// add returns k's counters, made on its first request. The patterns are
// the router's, so the routes are as many as the router has, whatever the
// paths asked.
func (m *Metrics) add(k routeKey) *routeMetrics {
	m.mu.Lock()
	defer m.mu.Unlock()
	old := *m.routes.Load()
	if rm := old[k]; rm != nil {
		return rm
	}
	rm := &routeMetrics{method: k.method, route: routePattern(k.patterns[:]), duration: metrics.NewHistogram(requestDurationBounds)}
	next := make(map[routeKey]*routeMetrics, len(old)+1)
	for kk, v := range old {
		next[kk] = v
	}
	next[k] = rm
	m.routes.Store(&next)
	return rm
}

// routePattern is chi's RoutePattern of patterns (the mounting routers'
// "/*" dropped); a request no route matched has none: "unmatched".
func routePattern(patterns []string) string {
	if p := (&chi.Context{RoutePatterns: patterns}).RoutePattern(); p != "" {
		return p
	}
	return "unmatched"
}

// openGauge counts a held request (a long poll, a stream) on g until
// release.
func openGauge(g *metrics.Gauge, release func()) func() {
	g.Add(1)
	return func() {
		g.Add(-1)
		release()
	}
}

// write writes the API's families.
func (m *Metrics) write(w *metrics.Writer) {
	routes := slices.SortedFunc(maps.Values(*m.routes.Load()), func(a, b *routeMetrics) int {
		return cmp.Or(strings.Compare(a.route, b.route), strings.Compare(a.method, b.method))
	})
	w.Family("burraco_http_requests_total", "counter",
		"Requests answered, by method, chi route pattern and status code (a status not listed by its class, e.g. 4xx).")
	for _, rm := range routes {
		for i := range rm.codes {
			if n := rm.codes[i].Load(); n > 0 {
				w.Sample("burraco_http_requests_total", metrics.Labels("method", rm.method, "route", rm.route, "code", slotLabel(i)), float64(n))
			}
		}
	}
	w.Family("burraco_http_request_duration_seconds", "histogram",
		"Time to answer a request, by method and chi route pattern; a long poll's includes its wait.")
	for _, rm := range routes {
		w.Histogram("burraco_http_request_duration_seconds", metrics.Labels("method", rm.method, "route", rm.route), rm.duration)
	}
	w.Family("burraco_long_polls_open", "gauge", "Long polls of table states waiting now.")
	w.Sample("burraco_long_polls_open", "", float64(m.polls.Load()))
	w.Family("burraco_event_streams_open", "gauge", "Table event streams open now.")
	w.Sample("burraco_event_streams_open", "", float64(m.streams.Load()))
	w.Family("burraco_moves_total", "counter", "Moves accepted through POST /api/v1/tables/{tableID}/moves (a replayed Idempotency-Key counts again; bots' moves do not count).")
	w.Sample("burraco_moves_total", "", float64(m.moves.Load()))
}

// ServeHTTP answers a scrape.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) { m.Registry.ServeHTTP(w, r) }
