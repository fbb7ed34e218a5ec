package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
)

// BenchmarkTableLongPolls holds 10,000 long polls waiting on the server
// (real HTTP over loopback, one keep-alive connection each, from a client
// process of its own so that the server's memory is measured alone), then
// plays one move on each of a sample of tables and times how long after
// the move was sent each of the table's waiters has its answer:
//
//	go test ./api -run '^$' -bench TableLongPolls -benchtime 1x
//
// Goals: the server's memory grows by less than 300 MB (MB-heap, the Go
// heap and stacks in use; MB-rss, which is lower when the runtime reuses
// memory of an earlier run) and p99 wake-up under 50 ms. bare-MB-heap is
// what the same polls take held by a bare net/http handler that only waits,
// measured first in the same run: net/http's own share.
// Each process needs about 10,100 file descriptors: the benchmark raises
// its soft limit to the hard one and is skipped when that is too low.
func BenchmarkTableLongPolls(b *testing.B) {
	const tables, perTable, sample = 1000, 10, 200
	waiters := tables * perTable
	if err := raiseFileLimit(waiters + 200); err != nil {
		b.Skipf("10,000 long polls need %d file descriptors per process: %v", waiters+200, err)
	}
	f := newTableBench(b, 0)
	shutdown, stop := context.WithCancel(context.Background())
	b.Cleanup(stop)
	// A server of its own, whose long polls end at once when the benchmark
	// ends (Shutdown).
	m := api.NewMetrics()
	handler := api.NewServer(api.Config{JWTSecret: testSecret, AccessTokenTTL: time.Hour, Shutdown: shutdown,
		MaxLongPolls: -1, MaxEventStreams: -1, Metrics: m}, // many polls per user and anonymous client
		f.svc, f.db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	// Parked, as serve holds them (api.Park): no goroutine per poll.
	srv := httptest.NewUnstartedServer(handler)
	srv.Listener = api.Park(srv.Config, srv.Listener)
	srv.Start()
	b.Cleanup(srv.Close)
	b.Cleanup(stop) // runs first: the polls end, then the server closes

	for range tables {
		f.tables = append(f.tables, f.newTable(b))
	}
	var polls []pollSpec
	for _, t := range f.tables {
		for i := range perTable {
			token := ""
			if i < 2 {
				token = f.tokens[i] // the two players; the others watch anonymously
			}
			polls = append(polls, pollSpec{Table: t.id, Path: fmt.Sprintf("%s?since=%d&wait=60", tablePath(t.id, "state"), t.version), Token: token})
		}
	}

	// The baseline: the same polls held by a bare net/http handler that
	// only waits, in the same run: what net/http itself costs per poll.
	bareHeap := waitingPollsMemory(b, polls, waiters)

	heap0, rss0, client := holdPolls(b, srv, polls, func() bool { return longPollsOpen(b, m) >= waiters })
	heap1, rss1 := memInUse()
	if path := os.Getenv("BURRACO_POLL_HEAP"); path != "" {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Fprintf(os.Stderr, "heap %d MB stacks %d MB goroutines %d\n", ms.HeapInuse>>20, ms.StackInuse>>20, runtime.NumGoroutine())
		hf, _ := os.Create(path)
		_ = pprof.WriteHeapProfile(hf)
		hf.Close()
	}
	if n := client.answered(); n != 0 {
		b.Fatalf("%d polls answered before any move", n)
	}

	b.ResetTimer()
	sent := map[int64]time.Time{}
	c := f.dial(b, srv)
	defer c.c.Close()
	for _, t := range f.tables[:sample] {
		sent[t.id] = time.Now()
		if err := f.move(c, t); err != nil {
			b.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // moves arrive spread out, as from players
	}
	lats := client.wakeups(b, sent, sample*perTable)
	b.StopTimer()
	slices.Sort(lats)
	b.ReportMetric(float64(rss1-rss0)/(1<<20), "MB-rss")
	b.ReportMetric(float64(heap1-heap0)/(1<<20), "MB-heap")
	b.ReportMetric(float64(bareHeap)/(1<<20), "bare-MB-heap")
	b.ReportMetric(float64(percentile(lats, 0.50))/1e6, "p50-ms")
	b.ReportMetric(float64(percentile(lats, 0.99))/1e6, "p99-ms")
	b.ReportMetric(float64(percentile(lats, 1))/1e6, "max-ms")
	client.stop()
}

// holdPolls starts the client process with polls against srv and returns,
// once all of them wait (waiting says so), the Go heap and stacks and the RSS from before.
func holdPolls(b *testing.B, srv *httptest.Server, polls []pollSpec, waiting func() bool) (heap0, rss0 int64, client *pollClient) {
	// Free stacks and spans of an earlier phase go back to the heap (and
	// the OS) first, so that each phase's growth is measured from the same
	// ground.
	runtime.GC()
	debug.FreeOSMemory()
	heap0, rss0 = memInUse()
	client = startPollClient(b, srv.Listener.Addr().String(), polls)
	for !waiting() {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // every request read and waiting
	runtime.GC()
	return heap0, rss0, client
}

// waitingPollsMemory holds the polls on a bare handler that waits for the
// client to go, and returns the Go heap and stacks they take.
func waitingPollsMemory(b *testing.B, polls []pollSpec, waiters int) int64 {
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	goroutines0 := runtime.NumGoroutine()
	heap0, _, client := holdPolls(b, bare, polls, func() bool { return runtime.NumGoroutine() >= goroutines0+waiters })
	heap1, _ := memInUse()
	client.stop()
	bare.Close()
	for runtime.NumGoroutine() > 100 {
		time.Sleep(20 * time.Millisecond)
	}
	return heap1 - heap0
}

// pollSpec is one long poll the client process sends.
type pollSpec struct {
	Table int64  `json:"table"`
	Path  string `json:"path"`
	Token string `json:"token"`
	// First, when set, is a path the client GETs on the connection before
	// its poll (a full state read, whose depth the connection's goroutine
	// stack keeps).
	First string `json:"first,omitempty"`
}

// raiseFileLimit raises the soft limit of open files to the hard one and
// fails when that is below need.
func raiseFileLimit(need int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Max < uint64(need) {
		return fmt.Errorf("the hard limit (ulimit -Hn) is %d", lim.Max)
	}
	if lim.Cur < uint64(need) {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			return err
		}
	}
	return nil
}

// memInUse returns the Go heap and stacks in use, and the process's RSS.
func memInUse() (heap, rss int64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap = int64(ms.HeapInuse + ms.StackInuse)
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return heap, 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return heap, kb << 10
		}
	}
	return heap, 0
}

// pollClient is the client process: it holds the polls and reports each
// answer as "index status unix-nanoseconds".
type pollClient struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	times map[int]time.Time
	polls []pollSpec
	done  chan struct{}
}

func startPollClient(b *testing.B, addr string, polls []pollSpec) *pollClient {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLongPollClientProcess$")
	cmd.Env = append(os.Environ(), "BURRACO_POLL_CLIENT="+addr)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	pc := &pollClient{cmd: cmd, times: map[int]time.Time{}, polls: polls, done: make(chan struct{})}
	b.Cleanup(pc.stop)
	go func() {
		_ = json.NewEncoder(in).Encode(polls)
		in.Close()
	}()
	sc := bufio.NewScanner(out)
	ready := make(chan struct{})
	go func() {
		defer close(pc.done)
		for sc.Scan() {
			line := sc.Text()
			if line == "ready" {
				close(ready)
				continue
			}
			var i, status int
			var ns int64
			if _, err := fmt.Sscan(line, &i, &status, &ns); err != nil || status != 200 {
				fmt.Fprintf(os.Stderr, "poll client: %q\n", line)
				continue
			}
			pc.mu.Lock()
			pc.times[i] = time.Unix(0, ns)
			pc.mu.Unlock()
		}
	}()
	select {
	case <-ready:
	case <-pc.done:
		b.Fatal("the poll client process ended before sending its polls")
	case <-time.After(2 * time.Minute):
		b.Fatal("the poll client did not send its polls")
	}
	return pc
}

func (pc *pollClient) answered() int {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return len(pc.times)
}

// wakeups waits for want answers and returns each one's delay after its
// table's move was sent.
func (pc *pollClient) wakeups(b *testing.B, sent map[int64]time.Time, want int) []time.Duration {
	deadline := time.Now().Add(30 * time.Second)
	for pc.answered() < want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if len(pc.times) != want {
		b.Fatalf("%d polls answered, want %d", len(pc.times), want)
	}
	var lats []time.Duration
	for i, at := range pc.times {
		t0, ok := sent[pc.polls[i].Table]
		if !ok {
			b.Fatalf("a poll of table %d, where nothing moved, was answered", pc.polls[i].Table)
		}
		lats = append(lats, at.Sub(t0))
	}
	return lats
}

func (pc *pollClient) stop() {
	if pc.cmd.Process != nil {
		_ = pc.cmd.Process.Kill()
		_ = pc.cmd.Wait()
	}
}

// TestLongPollClientProcess is BenchmarkTableLongPolls's client process
// (run by it, with BURRACO_POLL_CLIENT set); otherwise it does nothing.
func TestLongPollClientProcess(t *testing.T) {
	addr := os.Getenv("BURRACO_POLL_CLIENT")
	if addr == "" {
		t.Skip("the client process of BenchmarkTableLongPolls")
	}
	var polls []pollSpec
	if err := json.NewDecoder(os.Stdin).Decode(&polls); err != nil {
		t.Fatal(err)
	}
	if err := raiseFileLimit(len(polls) + 100); err != nil {
		t.Fatal(err)
	}
	var out sync.Mutex
	w := bufio.NewWriter(os.Stdout)
	var sentAll sync.WaitGroup
	sentAll.Add(len(polls))
	for i, p := range polls {
		go func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			br := bufio.NewReader(c)
			if p.First != "" {
				if _, err := c.Write(tableRaw("GET", p.First, p.Token, "", nil)); err != nil {
					sentAll.Done()
					return
				}
				if res, err := http.ReadResponse(br, nil); err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
				}
			}
			req := tableRaw("GET", p.Path, p.Token, "", nil)
			_, err = c.Write(req)
			sentAll.Done()
			if err != nil {
				return
			}
			res, err := http.ReadResponse(br, nil)
			at := time.Now().UnixNano()
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			out.Lock()
			fmt.Fprintf(w, "%d %d %d\n", i, res.StatusCode, at)
			_ = w.Flush()
			out.Unlock()
		}()
		if i%500 == 499 {
			time.Sleep(20 * time.Millisecond) // do not overflow the listen backlog
		}
	}
	sentAll.Wait()
	out.Lock()
	fmt.Fprintln(w, "ready")
	_ = w.Flush()
	out.Unlock()
	select {} // killed by the benchmark
}
