package api_test

import (
	"bufio"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/internal/metrics"
)

// scrape is one exposition: each sample's value by its name and labels
// as written (`name{a="x"}`), and the families' types.
type scrape struct {
	text    string
	samples map[string]float64
	types   map[string]string
}

// scrapeOf reads m's exposition, failing t on a line the text format
// (0.0.4) does not allow: a sample before its family's TYPE, a TYPE twice.
func scrapeOf(t *testing.T, m *api.Metrics) scrape {
	t.Helper()
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); ct != metrics.ContentType {
		t.Fatalf("Content-Type %q, want %q", ct, metrics.ContentType)
	}
	s := scrape{text: rec.Body.String(), samples: map[string]float64{}, types: map[string]string{}}
	sc := bufio.NewScanner(strings.NewReader(s.text))
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(rest, " ")
			if s.types[name] != "" {
				t.Fatalf("TYPE of %s twice:\n%s", name, s.text)
			}
			s.types[name] = typ
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		key, val := line[:i], line[i+1:]
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		name, _, _ := strings.Cut(key, "{")
		family := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")
		if s.types[name] == "" && s.types[family] == "" {
			t.Fatalf("sample %q before its TYPE:\n%s", line, s.text)
		}
		s.samples[key] = v
	}
	return s
}

// value is the sample key's value, 0 when absent (as a counter not yet
// counted).
func (s scrape) value(key string) float64 { return s.samples[key] }

// TestMetricsCountRequestsByRoutePattern: requests through the real router
// are counted by method, route pattern and status, with a latency
// histogram per route whose buckets are cumulative; the raw paths (the
// ids in them) never appear.
func TestMetricsCountRequestsByRoutePattern(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := api.NewMetrics()
		e := newEnv(t, db, func(c *api.Config) { c.Metrics = m })
		e.must(200, req{Method: "GET", Path: "/api/v1/rules"}, nil)
		e.must(200, req{Method: "GET", Path: "/api/v1/rules"}, nil)
		for _, id := range []int{91234, 95678, 97777} {
			e.must(404, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d/state", id)}, nil)
		}
		e.must(404, req{Method: "GET", Path: "/api/v1/no/such/place/31337"}, nil)
		e.must(405, req{Method: "DELETE", Path: "/api/v1/rules"}, nil)
		e.do(req{Method: "BREW", Path: "/api/v1/rules"})

		s := scrapeOf(t, m)
		for key, want := range map[string]float64{
			`burraco_http_requests_total{method="GET",route="/api/v1/rules",code="200"}`:                  2,
			`burraco_http_requests_total{method="GET",route="/api/v1/tables/{tableID}/state",code="404"}`: 3,
			// What no route matched counts under the pattern of the router
			// that gave up on it.
			`burraco_http_requests_total{method="GET",route="/api/v1/*",code="404"}`:                           1,
			`burraco_http_requests_total{method="DELETE",route="/api/v1/*",code="405"}`:                        1,
			`burraco_http_requests_total{method="OTHER",route="unmatched",code="405"}`:                         1,
			`burraco_http_request_duration_seconds_count{method="GET",route="/api/v1/rules"}`:                  2,
			`burraco_http_request_duration_seconds_bucket{method="GET",route="/api/v1/rules",le="+Inf"}`:       2,
			`burraco_http_request_duration_seconds_count{method="GET",route="/api/v1/tables/{tableID}/state"}`: 3,
		} {
			if got := s.value(key); got != want {
				t.Errorf("%s = %v, want %v", key, got, want)
			}
		}
		if s.types["burraco_http_requests_total"] != "counter" || s.types["burraco_http_request_duration_seconds"] != "histogram" {
			t.Errorf("types: %v", s.types)
		}
		for _, raw := range []string{"91234", "95678", "97777", "31337", "BREW", "/no/such"} {
			if strings.Contains(s.text, raw) {
				t.Errorf("the scrape holds %q, of a raw request:\n%s", raw, s.text)
			}
		}
		checkCumulative(t, s, `method="GET",route="/api/v1/rules"`)
	})
}

// checkCumulative checks a request histogram's buckets never go down and
// end at its count.
func checkCumulative(t *testing.T, s scrape, labels string) {
	t.Helper()
	prev := -1.0
	for _, le := range []string{"0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60", "+Inf"} {
		key := `burraco_http_request_duration_seconds_bucket{` + labels + `,le="` + le + `"}`
		v, ok := s.samples[key]
		if !ok {
			t.Fatalf("no bucket %s:\n%s", key, s.text)
		}
		if v < prev {
			t.Errorf("bucket le=%s is %v, below the one before (%v)", le, v, prev)
		}
		prev = v
	}
	if c := s.value(`burraco_http_request_duration_seconds_count{` + labels + `}`); c != prev {
		t.Errorf("+Inf bucket %v, count %v", prev, c)
	}
}

// TestMetricsFollowPollsStreamsAndMoves: a long poll waiting shows in the
// gauge of long polls open, an event stream in that of streams, each gone
// when it ends; an accepted move adds one to the moves counter, a refused
// one nothing; and the store counts the started table as playing.
func TestMetricsFollowPollsStreamsAndMoves(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := api.NewMetrics()
		e := newEnv(t, db, func(c *api.Config) { c.Metrics = m })
		tb, tokens := twoHumans(e)
		st, _ := e.state(tokens[0], tb.ID)
		// The store's figures that serve adds to the scrape.
		if n, err := db.TablesPlaying(t.Context()); err != nil || n != 1 {
			t.Errorf("tables playing %d, %v; want 1", n, err)
		}
		if pools := db.Pools(); len(pools) == 0 || pools[0].Stats.OpenConnections == 0 {
			t.Errorf("pools %+v: no connection open", pools)
		}
		if gc, ok := db.GroupCommits(); ok != (db.Dialect() == store.SQLite) || ok && (gc.Batches == 0 || gc.Writers < gc.Batches) {
			t.Errorf("group commits %+v, %v on %s", gc, ok, db.Dialect())
		}
		mover, waiter := tokens[st.View.Turn], tokens[1-st.View.Turn]
		gauge := func(name string) float64 { return scrapeOf(t, m).value(name) }
		waitFor := func(name string, want float64) {
			t.Helper()
			for deadline := time.Now().Add(10 * time.Second); gauge(name) != want; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%s = %v, want %v", name, gauge(name), want)
				}
			}
		}

		polled := make(chan response, 1)
		go func() {
			polled <- e.do(req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=30", tablePath(tb.ID, "state"), st.Version), Token: waiter})
		}()
		waitFor("burraco_long_polls_open", 1)
		streamed := make(chan response, 1)
		go func() {
			streamed <- e.do(req{Method: "GET", Path: tablePath(tb.ID, "events"), Token: waiter, Timeout: 300 * time.Millisecond})
		}()
		waitFor("burraco_event_streams_open", 1)

		moves := tablePath(tb.ID, "moves")
		e.must(409, req{Method: "POST", Path: moves, Token: waiter, Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, nil)
		if n := gauge("burraco_moves_total"); n != 0 {
			t.Fatalf("a refused move counted: moves %v", n)
		}
		e.must(200, req{Method: "POST", Path: moves, Token: mover, Body: fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)}, nil)
		if n := gauge("burraco_moves_total"); n != 1 {
			t.Errorf("moves %v after one move, want 1", n)
		}
		if res := <-polled; res.Status != 200 {
			t.Fatalf("long poll: %d %s", res.Status, res.Body)
		}
		waitFor("burraco_long_polls_open", 0)
		<-streamed
		waitFor("burraco_event_streams_open", 0)
	})
}
