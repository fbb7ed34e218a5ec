package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// bucketCounts is a histogram of the servers' /metrics, summed over the
// servers: the cumulative count at each bucket's upper bound, in seconds
// (+Inf included). The moves route's
// (burraco_http_request_duration_seconds{method="POST",route=movesRoute}),
// set beside the clients' latency, says whether a slow move was slow
// inside the server (from the request's arrival at the API to its answer)
// or outside it: the client, the kernel's queues, a connection, the
// admission (tables_park_admit.go). With forwarding (-leases) a forwarded
// move is counted by both processes, the hop's total by the first.
type bucketCounts map[float64]int64

// serverHistograms are the servers' histograms a run reports: the moves
// route's, and their commits' (burraco_db_commit_seconds: a tail of moves
// held together whose commits were slow was the storage's).
type serverHistograms struct{ moves, commits bucketCounts }

// parseHistograms reads the moves route's and the commits' buckets from a
// Prometheus text exposition.
func parseHistograms(body string) (serverHistograms, error) {
	h := serverHistograms{bucketCounts{}, bucketCounts{}}
	for line := range strings.Lines(body) {
		line = strings.TrimSpace(line)
		var into bucketCounts
		switch {
		case strings.HasPrefix(line, "burraco_http_request_duration_seconds_bucket{"):
			into = h.moves
		case strings.HasPrefix(line, "burraco_db_commit_seconds_bucket{"):
			into = h.commits
		default:
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		name, value := line[:i], line[i+1:]
		if strings.HasPrefix(name, "burraco_http_") && (label(name, "route") != movesRoute || label(name, "method") != "POST") {
			continue
		}
		le, err := strconv.ParseFloat(label(name, "le"), 64) // "+Inf" parses as +Inf
		if err != nil {
			return h, fmt.Errorf("%q: %v", line, err)
		}
		n, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return h, fmt.Errorf("%q: %v", line, err)
		}
		into[le] += int64(n)
	}
	return h, nil
}

// scrapeHistograms reads and sums the servers' histograms; a server
// killed by -failover is left out (its figures died with it).
func scrapeHistograms(ctx context.Context, servers []*server) (serverHistograms, error) {
	total := serverHistograms{bucketCounts{}, bucketCounts{}}
	for _, s := range servers {
		if s.killed.Load() {
			continue
		}
		body, err := get(ctx, s.metrics+"/metrics")
		if err != nil {
			return total, err
		}
		h, err := parseHistograms(body)
		if err != nil {
			return total, fmt.Errorf("scrape %s/metrics: %w", s.metrics, err)
		}
		for le, n := range h.moves {
			total.moves[le] += n
		}
		for le, n := range h.commits {
			total.commits[le] += n
		}
	}
	return total, nil
}

func (h serverHistograms) minus(b serverHistograms) serverHistograms {
	return serverHistograms{h.moves.minus(b.moves), h.commits.minus(b.commits)}
}

func (h bucketCounts) minus(b bucketCounts) bucketCounts {
	d := bucketCounts{}
	for le, n := range h {
		d[le] = n - b[le]
	}
	return d
}

// quantile is the upper bound of the bucket holding the q-quantile (what
// a histogram can say: at most this long), and false when it is empty.
func (h bucketCounts) quantile(q float64) (float64, bool) {
	bounds := slices.Sorted(func(yield func(float64) bool) {
		for le := range h {
			if !yield(le) {
				return
			}
		}
	})
	if len(bounds) == 0 || h[bounds[len(bounds)-1]] == 0 {
		return 0, false
	}
	total := h[bounds[len(bounds)-1]]
	for _, le := range bounds {
		if float64(h[le]) >= q*float64(total) {
			return le, true
		}
	}
	return math.Inf(1), true
}

// over is how many requests took longer than bound (a bucket's upper
// bound) and how many there were.
func (h bucketCounts) over(bound float64) (over, total int64) {
	total = h[math.Inf(1)]
	return total - h[bound], total
}

// printServerTail writes the servers' own time on the moves route.
func printServerTail(w io.Writer, h bucketCounts) {
	p50, ok := h.quantile(0.5)
	if !ok {
		return
	}
	p99, _ := h.quantile(0.99)
	slow, total := h.over(0.1)
	fmt.Fprintf(w, "  the servers' own time on the moves route (their /metrics, to the bucket): p50 ≤ %s, p99 ≤ %s; over 100 ms: %d of %d requests\n",
		bound(p50), bound(p99), slow, total)
}

// printCommitTail writes how long the servers' commits took.
func printCommitTail(w io.Writer, h bucketCounts) {
	p99, ok := h.quantile(0.99)
	if !ok {
		return
	}
	slowest, _ := h.quantile(1)
	slow, total := h.over(0.1)
	fmt.Fprintf(w, "  the servers' commits (their /metrics, to the bucket): p99 ≤ %s, the slowest ≤ %s; over 100 ms: %d of %d\n",
		bound(p99), bound(slowest), slow, total)
}

func bound(le float64) string {
	if math.IsInf(le, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(le*1000, 'f', -1, 64) + " ms"
}
