package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver for the run's schema
)

// server is one `burraco serve` process started for a run.
type server struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:port
	// metrics is the base of its -metrics-addr (/metrics), scraped at the
	// end of a run to compare its moves with the clients'.
	metrics string
	log     *os.File
	// killed (-failover): the process was killed mid-run; atKill and
	// cpuAtKill are its figures and CPU just before.
	killed    atomic.Bool
	atKill    serverFigures
	cpuAtKill procStats
}

// database prepares an empty database for a run: a SQLite file in dir, or a
// schema of its own on the PostgreSQL server of pgURL (dropped by the
// returned cleanup).
func database(ctx context.Context, kind, pgURL, dir string) (string, func(), error) {
	if kind == "sqlite" {
		return filepath.Join(dir, "load.db"), func() {}, nil
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "load_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", pgURL)
	if err != nil {
		return "", nil, err
	}
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create schema: %w", err)
	}
	u, err := url.Parse(pgURL)
	if err != nil {
		admin.Close()
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("application_name", schema) // the run's backends (pgcpu.go)
	u.RawQuery = q.Encode()
	return u.String(), func() {
		_, _ = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	}, nil
}

// launch starts binary serve on a free loopback port and waits until it
// answers /healthz.
// env is more of serve's environment (table leases: BURRACO_INTERNAL_ADDR).
func launch(binary, databaseURL, logPath string, env ...string) (*server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	ml, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	metricsAddr := ml.Addr().String()
	ml.Close()
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binary, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+databaseURL, "BURRACO_ADDR="+addr, "BURRACO_METRICS_ADDR="+metricsAddr, "LOG_LEVEL=warn",
		"BURRACO_ADMIN_PASSWORD=load-generator-admin")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	s := &server{cmd: cmd, base: "http://" + addr, metrics: "http://" + metricsAddr, log: logFile}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	return nil, fmt.Errorf("serve on %s did not answer /healthz within 30 s (log: %s)", addr, logPath)
}

func (s *server) stop() {
	if s.killed.Load() {
		s.log.Close()
		return
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
	s.log.Close()
}

// procStats is what /proc says of a process: CPU time used and the peak
// resident set.
type procStats struct {
	cpu     time.Duration
	rss     int64 // bytes, now
	peakRSS int64 // bytes, since the process started
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times (100 on Linux).
const clockTicks = 100

// readSelfCPU is this process's CPU time so far (0 when /proc cannot
// be read).
func readSelfCPU() time.Duration {
	st, _ := readProc(os.Getpid())
	return st.cpu
}

func readProc(pid int) (procStats, error) {
	var st procStats
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return st, err
	}
	// Fields after the command (which may hold spaces) start past ')'.
	rest := string(b[strings.LastIndexByte(string(b), ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return st, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	st.cpu = time.Duration(utime+stime) * time.Second / clockTicks
	sf, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return st, err
	}
	defer sf.Close()
	sc := bufio.NewScanner(sf)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			st.peakRSS = kilobytes(v)
		} else if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			st.rss = kilobytes(v)
		}
	}
	return st, nil
}

func kilobytes(field string) int64 {
	kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(field), " kB"), 10, 64)
	return kb * 1024
}

// postgresCPU sums the CPU time of the machine's postgres processes (the
// database's share of a run on the same machine): 0 when none is seen.
func postgresCPU() time.Duration {
	entries, _ := os.ReadDir("/proc")
	var total time.Duration
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		if err != nil || strings.TrimSpace(string(comm)) != "postgres" {
			continue
		}
		if st, err := readProc(pid); err == nil {
			total += st.cpu
		}
	}
	return total
}
