package metrics

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHistogramBucketsAreCumulativeAndInclusive: a duration equal to a
// bound counts in that bound's bucket (le is "less or equal"), the
// buckets add up, and +Inf equals the count.
func TestHistogramBucketsAreCumulativeAndInclusive(t *testing.T) {
	h := NewHistogram([]float64{0.001, 0.01})
	for _, d := range []time.Duration{time.Millisecond, 5 * time.Millisecond, time.Second} {
		h.Observe(d)
	}
	var w Writer
	w.Family("x_seconds", "histogram", "x")
	w.Histogram("x_seconds", Labels("route", "/a"), h)
	want := `# HELP x_seconds x
# TYPE x_seconds histogram
x_seconds_bucket{route="/a",le="0.001"} 1
x_seconds_bucket{route="/a",le="0.01"} 2
x_seconds_bucket{route="/a",le="+Inf"} 3
x_seconds_sum{route="/a"} 1.006
x_seconds_count{route="/a"} 3
`
	if got := w.b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestLabelValuesAreEscaped: a quote, a backslash or a newline in a label
// value cannot end the value or the line.
func TestLabelValuesAreEscaped(t *testing.T) {
	if got, want := Labels("a", "x\"y\\z\nw", "b", ""), `{a="x\"y\\z\nw",b=""}`; got != want {
		t.Errorf("Labels = %s, want %s", got, want)
	}
}

// TestRegistryWritesEachFamilyOnce: sources write in order, and a family
// named twice in a scrape has its HELP and TYPE once.
func TestRegistryWritesEachFamilyOnce(t *testing.T) {
	var r Registry
	var c Counter
	c.Add(3)
	for range 2 {
		r.Register(func(w *Writer) {
			w.Family("c_total", "counter", "c")
			w.Sample("c_total", "", float64(c.Load()))
		})
	}
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if n := strings.Count(rec.Body.String(), "# TYPE c_total"); n != 1 {
		t.Errorf("TYPE written %d times:\n%s", n, rec.Body)
	}
	if rec.Header().Get("Content-Type") != ContentType {
		t.Errorf("Content-Type %q", rec.Header().Get("Content-Type"))
	}
}
