// Package metrics is a small registry of counters, gauges and histograms,
// exposed in Prometheus's text format (version 0.0.4) for an operator's
// scraper.
//
// Why not github.com/prometheus/client_golang (it is on the module proxy):
// what the request path needs is a few atomic adds on a structure found
// once per route, and that is all this package does; client_golang's
// vectors find their child by hashing the label values on each call
// (unless one keeps the children, which is what this package does anyway),
// and the module brings protobuf, procfs and the common packages into the
// build for a text format of a page. The exposition here is written by
// hand and checked by the tests against the format's rules (HELP, TYPE,
// cumulative buckets ending in +Inf, _sum and _count).
package metrics

import (
	"bytes"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Counter counts up. Its zero value is ready.
type Counter struct{ n atomic.Uint64 }

// Inc adds one.
func (c *Counter) Inc() { c.n.Add(1) }

// Add adds n.
func (c *Counter) Add(n uint64) { c.n.Add(n) }

// Load is the count.
func (c *Counter) Load() uint64 { return c.n.Load() }

// Gauge goes up and down. Its zero value is ready.
type Gauge struct{ n atomic.Int64 }

// Add adds n (negative: takes away).
func (g *Gauge) Add(n int64) { g.n.Add(n) }

// Load is the value.
func (g *Gauge) Load() int64 { return g.n.Load() }

// Histogram counts observed durations into fixed buckets. Observe is a
// search of the bounds and three atomic adds.
type Histogram struct {
	bounds []float64       // upper bounds, seconds, increasing
	counts []atomic.Uint64 // per bucket, not cumulative; the last is +Inf
	sumNs  atomic.Int64
	count  atomic.Uint64
}

// NewHistogram returns a histogram of durations with the bucket upper
// bounds (seconds, increasing).
func NewHistogram(bounds []float64) *Histogram {
	return &Histogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
}

// Observe counts one duration.
func (h *Histogram) Observe(d time.Duration) {
	s := d.Seconds()
	i := 0
	for i < len(h.bounds) && s > h.bounds[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sumNs.Add(int64(d))
	h.count.Add(1)
}

// Count is how many durations were observed.
func (h *Histogram) Count() uint64 { return h.count.Load() }

// Writer writes one scrape's exposition.
type Writer struct {
	b    bytes.Buffer
	seen map[string]bool
}

// Family starts the samples of the metric name: its HELP and TYPE lines
// (once per scrape, however many times it is called).
func (w *Writer) Family(name, typ, help string) {
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	if w.seen[name] {
		return
	}
	w.seen[name] = true
	w.b.WriteString("# HELP " + name + " " + escapeHelp(help) + "\n")
	w.b.WriteString("# TYPE " + name + " " + typ + "\n")
}

// Sample writes one sample: labels is "" or `{a="x",b="y"}` (see Labels).
func (w *Writer) Sample(name, labels string, v float64) {
	w.b.WriteString(name)
	w.b.WriteString(labels)
	w.b.WriteByte(' ')
	w.b.WriteString(formatFloat(v))
	w.b.WriteByte('\n')
}

// Histogram writes h's buckets (cumulative), sum and count under name,
// with labels (as Sample's) before le.
func (w *Writer) Histogram(name, labels string, h *Histogram) {
	inner := strings.TrimSuffix(strings.TrimPrefix(labels, "{"), "}")
	if inner != "" {
		inner += ","
	}
	// The count is read first and the buckets may have moved on since:
	// the +Inf bucket is written as the sum of the buckets read, so that
	// the buckets stay cumulative and +Inf equals _count.
	var cum uint64
	for i, le := range h.bounds {
		cum += h.counts[i].Load()
		w.Sample(name+"_bucket", "{"+inner+`le="`+formatFloat(le)+`"}`, float64(cum))
	}
	cum += h.counts[len(h.bounds)].Load()
	w.Sample(name+"_bucket", "{"+inner+`le="+Inf"}`, float64(cum))
	w.Sample(name+"_sum", labels, time.Duration(h.sumNs.Load()).Seconds())
	w.Sample(name+"_count", labels, float64(cum))
}

// Labels formats label pairs (name, value, name, value…) as a sample's
// label set, the values escaped.
func Labels(pairs ...string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(pairs[i] + `="` + escapeValue(pairs[i+1]) + `"`)
	}
	b.WriteByte('}')
	return b.String()
}

// ContentType is the exposition's media type.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Registry is the sources of a scrape: each writes its families.
type Registry struct {
	mu      sync.Mutex
	sources []func(*Writer)
}

// Register adds a source, written at each scrape in the order registered.
func (r *Registry) Register(source func(*Writer)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sources = append(r.sources, source)
}

// ServeHTTP answers a scrape.
func (r *Registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	r.mu.Lock()
	sources := r.sources[:len(r.sources):len(r.sources)]
	r.mu.Unlock()
	var mw Writer
	for _, s := range sources {
		s(&mw)
	}
	w.Header().Set("Content-Type", ContentType)
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(mw.b.Bytes())
}

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	valueEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeValue(s string) string { return valueEscaper.Replace(s) }
