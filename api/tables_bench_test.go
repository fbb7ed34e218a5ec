package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// BenchmarkTablePaths measures the tables' hot paths against baselines
// measured in the same run (so that the ratios mean the same on a loaded
// machine as on an idle one):
//
//	go test ./api -run '^$' -bench TablePaths -benchtime 20000x -count 3
//
// The server is the real one (router, middleware, services, GORM) on a
// temporary SQLite file, answering real HTTP over loopback on loadConns
// keep-alive connections (the load generator of loadgen_test.go).
//
//   - poll-304: a poll with If-None-Match that finds nothing new, against a
//     bare net/http handler answering a small JSON (goal: ratio ≥ 0.5);
//   - poll-200: a full state read (no If-None-Match, no since: read from
//     the database), against the bare handler answering the same bytes
//     (goal: ratio ≥ 0.3);
//   - poll-200-since: a poll that finds a newer version (since=version-1),
//     answered from the marshalled state of (version, seat) once read;
//   - moves: accepted moves, each a real POST with its version, two human
//     seats alternating draw and discard on loadConns 2-player tables
//     at once, bots off (goal: 3,000 moves/s on SQLite); the ratio is to raw
//     single-row INSERT transactions on another SQLite file opened with the
//     same pragmas.
//
// Metrics: ratio (server throughput over baseline's), req/s (moves/s for
// moves), base/s, p50-ms and p99-ms (the server's latencies).
func BenchmarkTablePaths(b *testing.B) {
	f := newTableBench(b, loadConns)
	tb := f.tables[0]
	state := tablePath(tb.id, "state")
	b.Run("poll-304", func(b *testing.B) {
		etag := f.etag(b, tb, 0)
		req := tableRaw("GET", state, f.tokens[0], "", map[string]string{"If-None-Match": etag})
		f.bare.body = []byte(`{"status":"ok"}`)
		f.measureReads(b, req, 304)
	})
	b.Run("poll-200", func(b *testing.B) {
		req := tableRaw("GET", state, f.tokens[0], "", nil)
		f.bare.body = f.answer(b, req)
		f.measureReads(b, req, 200)
	})
	b.Run("poll-200-since", func(b *testing.B) {
		req := tableRaw("GET", fmt.Sprintf("%s?since=%d", state, tb.version-1), f.tokens[0], "", nil)
		f.bare.body = f.answer(b, req)
		f.measureReads(b, req, 200)
	})
	b.Run("moves", func(b *testing.B) { f.measureMoves(b) })
}

// tableBench is a server with 2-player tables of two humans, and the
// baselines.
type tableBench struct {
	db     *store.DB
	svc    domain.Services
	server *httptest.Server
	bare   *bareJSON
	bareTS *httptest.Server
	raw    *store.DB // the raw-insert baseline's database
	tokens [2]string
	actors [2]domain.Actor
	tables []*benchTable
}

// benchTable is one table a move driver plays, with what the last answer
// showed.
type benchTable struct {
	id      int64
	version int64
	turn    int
	phase   string
	hand    []string
	done    bool
}

// bareJSON answers every request with body: the baseline.
type bareJSON struct{ body []byte }

func (h *bareJSON) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(h.body)
}

func newTableBench(b *testing.B, tables int) *tableBench {
	b.Helper()
	db := storetest.SQLite(b)
	svc := domain.NewServices(db, domain.Config{PasswordParams: domain.TestPasswordParams, MaxOpenTables: -1}) // one user's many tables
	handler := api.NewServer(api.Config{JWTSecret: testSecret, AccessTokenTTL: time.Hour, AuthBurst: 100, AuthPerMinute: 100, MaxLongPolls: -1},
		svc, db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	f := &tableBench{db: db, svc: svc, server: httptest.NewServer(handler), bare: &bareJSON{}}
	b.Cleanup(f.server.Close)
	f.bareTS = httptest.NewServer(f.bare)
	b.Cleanup(f.bareTS.Close)
	f.raw = storetest.SQLite(b)
	ctx := context.Background()
	for i, name := range []string{"Anna", "Bruno"} {
		email := strings.ToLower(name) + "@example.com"
		u, err := svc.Auth.Register(ctx, domain.RegisterInput{Email: email, Password: "password-123", Name: name})
		if err != nil {
			b.Fatal(err)
		}
		f.actors[i] = domain.Actor{UserID: u.ID}
		f.tokens[i] = benchLogin(b, f.server.URL, email)
	}
	for range tables {
		f.tables = append(f.tables, f.newTable(b))
	}
	return f
}

// newTable starts a 2-player fibur table of Anna (seat 0) and Bruno with
// a match long enough for any run.
func (f *tableBench) newTable(b *testing.B) *benchTable {
	b.Helper()
	ctx := context.Background()
	t, err := f.svc.Tables.Create(ctx, f.actors[0], domain.TableInput{Rules: domain.RuleSet("fibur"), Players: 2,
		Match: domain.MatchFormat{Deals: domain.MaxMatchDeals}, GraceSeconds: ptr(0)})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := f.svc.Tables.Join(ctx, f.actors[1], t.ID, nil, ""); err != nil {
		b.Fatal(err)
	}
	if _, err := f.svc.Tables.Start(ctx, f.actors[0], t.ID); err != nil {
		b.Fatal(err)
	}
	st, err := f.svc.Tables.State(ctx, f.actors[0], t.ID, "")
	if err != nil {
		b.Fatal(err)
	}
	bt := &benchTable{id: t.ID}
	bt.version, bt.turn, bt.phase = st.Table.Version, st.View.Turn, st.View.Phase
	if bt.turn != 0 {
		st, err = f.svc.Tables.State(ctx, f.actors[bt.turn], t.ID, "")
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range st.View.Hand {
		bt.hand = append(bt.hand, c.String())
	}
	return bt
}

func benchLogin(b *testing.B, base, email string) string {
	b.Helper()
	return benchLoginAs(b, base, email, "password-123")
}

// etag returns the ETag of a table's state as seat sees it.
func (f *tableBench) etag(b *testing.B, t *benchTable, seat int) string {
	b.Helper()
	c := f.dial(b, f.server)
	defer c.c.Close()
	res, _, err := c.roundTrip(tableRaw("GET", tablePath(t.id, "state"), f.tokens[seat], "", nil), 200)
	if err != nil {
		b.Fatal(err)
	}
	return res.Header.Get("ETag")
}

// answer returns the server's body for req.
func (f *tableBench) answer(b *testing.B, req []byte) []byte {
	b.Helper()
	c := f.dial(b, f.server)
	defer c.c.Close()
	_, body, err := c.roundTrip(req, 200)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// benchRoundsTables is how many times a measurement alternates baseline
// and server, so that a burst of other work on the machine hits both.
const benchRoundsTables = 10

// measureReads sends b.N copies of req to the server and b.N requests to
// the bare handler, in alternating rounds after a warm-up.
func (f *tableBench) measureReads(b *testing.B, req []byte, status int) {
	srv := newBenchLoader(b, f.server)
	defer srv.close()
	bare := newBenchLoader(b, f.bareTS)
	defer bare.close()
	bareReq := rawRequest("GET", "/bare", "", "")
	warm := min(b.N, 200)
	if _, _, err := bare.run(warm, bareReq, 200); err != nil {
		b.Fatal(err)
	}
	if _, _, err := srv.run(warm, req, status); err != nil {
		b.Fatal(err)
	}
	var tBase, tServer time.Duration
	var lats []time.Duration
	b.ResetTimer()
	for r := range benchRoundsTables {
		n := roundShare(b.N, r)
		b.StopTimer()
		d, _, err := bare.run(n, bareReq, 200)
		if err != nil {
			b.Fatal(err)
		}
		tBase += d
		b.StartTimer()
		d, ls, err := srv.run(n, req, status)
		if err != nil {
			b.Fatal(err)
		}
		tServer += d
		lats = append(lats, ls...)
	}
	b.StopTimer()
	reportRates(b, b.N, tServer, tBase, lats)
}

// roundShare is round r's share of n requests.
func roundShare(n, r int) int {
	share := n / benchRoundsTables
	if r == benchRoundsTables-1 {
		share = n - share*(benchRoundsTables-1)
	}
	return share
}

func reportRates(b *testing.B, n int, tServer, tBase time.Duration, lats []time.Duration) {
	slices.Sort(lats)
	b.ReportMetric(float64(tBase)/float64(tServer), "ratio")
	b.ReportMetric(float64(n)/tServer.Seconds(), "req/s")
	b.ReportMetric(float64(n)/tBase.Seconds(), "base/s")
	b.ReportMetric(float64(percentile(lats, 0.50))/1e6, "p50-ms")
	b.ReportMetric(float64(percentile(lats, 0.99))/1e6, "p99-ms")
}

// measureMoves plays b.N accepted moves spread over the tables (one driver
// and one connection per table), alternating with b.N raw INSERT
// transactions in rounds.
func (f *tableBench) measureMoves(b *testing.B) {
	conns := make([]*tableConn, len(f.tables))
	for i := range conns {
		conns[i] = f.dial(b, f.server)
		defer conns[i].c.Close()
	}
	insert := f.insertBaseline(b)
	var tBase, tServer time.Duration
	var lats []time.Duration
	b.ResetTimer()
	for r := range benchRoundsTables {
		n := roundShare(b.N, r)
		b.StopTimer()
		tBase += insert(n)
		b.StartTimer()
		d, ls := f.playMoves(b, conns, n)
		tServer += d
		lats = append(lats, ls...)
	}
	b.StopTimer()
	reportRates(b, b.N, tServer, tBase, lats)
}

// playMoves plays n accepted moves over the tables at once and returns the
// wall time and each move's latency.
func (f *tableBench) playMoves(b *testing.B, conns []*tableConn, n int) (time.Duration, []time.Duration) {
	var next atomic.Int64
	lats := make([][]time.Duration, len(conns))
	errs := make([]error, len(conns))
	var wg sync.WaitGroup
	start := time.Now()
	for i, c := range conns {
		wg.Go(func() {
			t := f.tables[i]
			for !t.done && next.Add(1) <= int64(n) {
				t0 := time.Now()
				if err := f.move(c, t); err != nil {
					errs[i] = err
					return
				}
				lats[i] = append(lats[i], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	played := 0
	for _, l := range lats {
		played += len(l)
	}
	if played != n {
		b.Fatalf("played %d moves of %d: a table's match ended (raise its deals)", played, n)
	}
	return elapsed, slices.Concat(lats...)
}

// move plays the next move of t: the seat on turn draws, or discards the
// first card of its hand the rules let it discard.
func (f *tableBench) move(c *tableConn, t *benchTable) error {
	token := f.tokens[t.turn]
	if t.phase == "take" {
		return f.post(c, t, token, fmt.Sprintf(`{"move":"draw","version":%d}`, t.version))
	}
	for _, card := range t.hand {
		err := f.post(c, t, token, fmt.Sprintf(`{"move":"discard","card":%q,"version":%d}`, card, t.version))
		if err == nil || !strings.Contains(err.Error(), "status 422") {
			return err
		}
	}
	return fmt.Errorf("table %d: no card of %v may be discarded", t.id, t.hand)
}

// post plays one move and reads the answer into t.
func (f *tableBench) post(c *tableConn, t *benchTable, token, body string) error {
	_, res, err := c.roundTrip(tableRaw("POST", tablePath(t.id, "moves"), token, body, nil), 200)
	if err != nil {
		return err
	}
	return t.readMoveAnswer(res)
}

// readMoveAnswer reads the answer to a move into t: what its driver needs
// for the next one.
func (t *benchTable) readMoveAnswer(res []byte) error {
	var st struct {
		Version int64 `json:"version"`
		Table   struct {
			Status string `json:"status"`
		} `json:"table"`
		View struct {
			Turn  int      `json:"turn"`
			Phase string   `json:"phase"`
			Hand  []string `json:"hand"`
		} `json:"view"`
	}
	if err := json.Unmarshal(res, &st); err != nil {
		return err
	}
	t.version, t.turn, t.phase, t.done = st.Version, st.View.Turn, st.View.Phase, st.Table.Status == "finished"
	// The answer shows the mover's hand. After a discard the seat on turn
	// changes, and draws before it discards (its hand comes with the draw).
	t.hand = st.View.Hand
	return nil
}

// insertBaseline returns the raw-SQLite baseline: n single-row INSERT
// transactions one after another, on a file with the server's pragmas.
func (f *tableBench) insertBaseline(b *testing.B) func(n int) time.Duration {
	return rawInsertBaseline(b, f.raw.SQL())
}

// tableConn is one keep-alive connection for requests whose answers the
// benchmark reads (headers, bodies); loader (loadgen_test.go) sends the
// repeated ones.
type tableConn struct {
	c    net.Conn
	r    *bufio.Reader
	w    *bufio.Writer
	buf  []byte // a request being put together
	body []byte // the last answer's body
}

// readBody reads res's body into c's buffer, as a load tool reads its
// answers: a new slice per answer would be the generator's garbage,
// collected in the same process as the server's, and each collection
// scans the server's heap too (far larger than the bare handler's).
func (c *tableConn) readBody(res *http.Response) ([]byte, error) {
	buf := bytes.NewBuffer(c.body[:0])
	_, err := buf.ReadFrom(res.Body)
	res.Body.Close()
	c.body = buf.Bytes()
	return c.body, err
}

func (f *tableBench) dial(b *testing.B, srv *httptest.Server) *tableConn {
	b.Helper()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	return &tableConn{c: c, r: bufio.NewReader(c), w: bufio.NewWriter(c)}
}

// roundTrip sends one request and returns the answer and its body, which
// is c's until its next request.
func (c *tableConn) roundTrip(request []byte, want int) (*http.Response, []byte, error) {
	if _, err := c.w.Write(request); err != nil {
		return nil, nil, err
	}
	if err := c.w.Flush(); err != nil {
		return nil, nil, err
	}
	res, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return nil, nil, err
	}
	body, err := c.readBody(res)
	if err != nil {
		return nil, nil, err
	}
	if res.StatusCode != want {
		return nil, nil, fmt.Errorf("status %d, want %d: %s", res.StatusCode, want, body)
	}
	return res, body, nil
}

// tableRaw is the wire form of a request; a body is sent as JSON.
func tableRaw(method, path, token, body string, header map[string]string) []byte {
	var b strings.Builder
	b.WriteString(method + " " + path + " HTTP/1.1\r\nHost: bench\r\n")
	if token != "" {
		b.WriteString("Authorization: Bearer " + token + "\r\n")
	}
	for k, v := range header {
		b.WriteString(k + ": " + v + "\r\n")
	}
	if body != "" {
		b.WriteString("Content-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	b.WriteString("\r\n" + body)
	return []byte(b.String())
}
