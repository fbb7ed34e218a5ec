package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The routes the seats' clients use while they play, as /metrics names
// them (chi's patterns).
const (
	stateRoute = "/api/v1/tables/{tableID}/state"
	movesRoute = "/api/v1/tables/{tableID}/moves"
)

// serverFigures is what the servers' /metrics say, summed over the
// servers: the moves they accepted (burraco_moves_total) and the requests
// they answered on the two routes a seat uses, whatever the status.
type serverFigures struct {
	moves, polls, moveRequests int64
	// forwards and forwardsFailed: burraco_table_forwards_total (route.go).
	forwards, forwardsFailed int64
	db                       dbFigures // statements.go
}

func (a serverFigures) minus(b serverFigures) serverFigures {
	return serverFigures{moves: a.moves - b.moves, polls: a.polls - b.polls, moveRequests: a.moveRequests - b.moveRequests,
		forwards: a.forwards - b.forwards, forwardsFailed: a.forwardsFailed - b.forwardsFailed, db: a.db.minus(b.db)}
}

func (a *serverFigures) add(b serverFigures) {
	a.moves += b.moves
	a.polls += b.polls
	a.moveRequests += b.moveRequests
	a.forwards += b.forwards
	a.forwardsFailed += b.forwardsFailed
	a.db.add(b.db)
}

// scrape reads every server's /metrics and sums its figures; it also
// returns how long the slowest scrape took (a /metrics that answers
// slowly under load is a finding in itself).
func scrape(ctx context.Context, servers []*server) (serverFigures, time.Duration, error) {
	var total serverFigures
	var slowest time.Duration
	for _, s := range servers {
		if s.killed.Load() { // -failover: its figures as of the kill
			total.add(s.atKill)
			continue
		}
		start := time.Now()
		body, err := get(ctx, s.metrics+"/metrics")
		if err != nil {
			return total, 0, err
		}
		slowest = max(slowest, time.Since(start))
		f, err := parseFigures(body)
		if err != nil {
			return total, 0, fmt.Errorf("scrape %s/metrics: %w", s.metrics, err)
		}
		total.add(f)
	}
	return total, slowest, nil
}

// parseFigures reads serverFigures from a Prometheus text exposition;
// one without burraco_moves_total is an error (the server is not the one
// the generator expects).
func parseFigures(body string) (serverFigures, error) {
	var f serverFigures
	found := false
	for line := range strings.Lines(body) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		name, value := line[:i], line[i+1:]
		if ok, err := dbSample(&f.db, name, value); ok {
			if err != nil {
				return f, fmt.Errorf("%q: %v", line, err)
			}
			continue
		}
		switch {
		case name == "burraco_moves_total":
			n, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return f, fmt.Errorf("%q: %v", line, err)
			}
			f.moves, found = int64(n), true
		case strings.HasPrefix(name, "burraco_http_requests_total{"):
			n, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return f, fmt.Errorf("%q: %v", line, err)
			}
			switch label(name, "route") {
			case stateRoute:
				f.polls += int64(n)
			case movesRoute:
				f.moveRequests += int64(n)
			}
		case strings.HasPrefix(name, "burraco_table_forwards_total{"):
			n, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return f, fmt.Errorf("%q: %v", line, err)
			}
			forwardSample(&f, name, int64(n))
		}
	}
	if !found {
		return f, fmt.Errorf("no burraco_moves_total")
	}
	return f, nil
}

// label is the value of label key in a sample's name{k="v",...} (the
// server's values hold no quotes: routes, methods, codes).
func label(name, key string) string {
	_, rest, ok := strings.Cut(name, key+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func get(ctx context.Context, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return "", err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET %s: %d", url, res.StatusCode)
	}
	return string(body), nil
}

// heapSnapshot is one server's state when its heap profile was taken.
type heapSnapshot struct {
	rss        int64 // VmRSS, bytes
	goroutines int
	file       string
}

// saveHeapProfiles writes each server's heap profile (/debug/pprof/heap,
// read with go tool pprof -top -inuse_space FILE) and its text form with
// the runtime's MemStats (?debug=1) into dir, and notes each server's RSS
// and goroutines at that moment.
func saveHeapProfiles(ctx context.Context, servers []*server, dir string) ([]heapSnapshot, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []heapSnapshot
	for i, s := range servers {
		snap := heapSnapshot{file: filepath.Join(dir, fmt.Sprintf("serve%d.heap", i+1))}
		if st, err := readProc(s.cmd.Process.Pid); err == nil {
			snap.rss = st.rss
		}
		for _, p := range []struct{ path, file string }{
			{"/debug/pprof/heap", snap.file},
			{"/debug/pprof/heap?debug=1", snap.file + ".txt"},
		} {
			body, err := get(ctx, s.metrics+p.path)
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(p.file, []byte(body), 0o644); err != nil {
				return nil, err
			}
		}
		g, err := get(ctx, s.metrics+"/debug/pprof/goroutine?debug=1")
		if err != nil {
			return nil, err
		}
		// Its first line: "goroutine profile: total N".
		first, _, _ := strings.Cut(g, "\n")
		snap.goroutines, _ = strconv.Atoi(strings.TrimPrefix(first, "goroutine profile: total "))
		out = append(out, snap)
	}
	return out, nil
}
