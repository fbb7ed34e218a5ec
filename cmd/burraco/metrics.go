package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"strconv"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/internal/metrics"
)

// newMetrics returns the API's metrics with the database's figures added
// (docs/metrics.md lists them all).
func newMetrics(db *store.DB, log *slog.Logger) *api.Metrics {
	m := api.NewMetrics()
	m.Registry.Register(func(w *metrics.Writer) { writePoolMetrics(w, db.Pools()) })
	m.Registry.Register(func(w *metrics.Writer) {
		if s, ok := db.GroupCommits(); ok {
			writeGroupCommits(w, s)
		}
	})
	m.Registry.Register(func(w *metrics.Writer) {
		// One indexed count per scrape, bounded in time: a scrape must not
		// wait on a busy database.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := db.TablesPlaying(ctx)
		if err != nil {
			log.Warn("metrics: counting the tables playing", "err", err)
			return
		}
		w.Family("burraco_tables_playing", "gauge", "Tables being played (status playing), in the database all processes share.")
		w.Sample("burraco_tables_playing", "", float64(n))
	})
	return m
}

// writePoolMetrics writes database/sql's figures of each pool.
func writePoolMetrics(w *metrics.Writer, pools []store.Pool) {
	type fig struct {
		name, typ, help string
		v               func(p store.Pool) float64
	}
	for _, f := range []fig{
		{"burraco_db_connections_open", "gauge", "Connections open, in use or idle.", func(p store.Pool) float64 { return float64(p.Stats.OpenConnections) }},
		{"burraco_db_connections_in_use", "gauge", "Connections running a statement or transaction.", func(p store.Pool) float64 { return float64(p.Stats.InUse) }},
		{"burraco_db_connections_idle", "gauge", "Connections open and idle.", func(p store.Pool) float64 { return float64(p.Stats.Idle) }},
		{"burraco_db_connections_max_open", "gauge", "Most connections the pool opens (0: no limit).", func(p store.Pool) float64 { return float64(p.Stats.MaxOpenConnections) }},
		{"burraco_db_wait_count_total", "counter", "Times a caller waited for a connection because all were in use.", func(p store.Pool) float64 { return float64(p.Stats.WaitCount) }},
		{"burraco_db_wait_duration_seconds_total", "counter", "Time callers waited for a connection, all told.", func(p store.Pool) float64 { return p.Stats.WaitDuration.Seconds() }},
	} {
		w.Family(f.name, f.typ, f.help+" By pool: main (PostgreSQL), or write and read (SQLite file).")
		for _, p := range pools {
			w.Sample(f.name, metrics.Labels("pool", p.Name), f.v(p))
		}
	}
}

// groupCommitBounds are the batch-size buckets, writers.
var groupCommitBounds = []int{1, 2, 4, 8, 16, store.MaxBatch}

// writeGroupCommits writes SQLite's group commits: batches and
// their sizes, as a histogram.
func writeGroupCommits(w *metrics.Writer, s store.GroupCommitStats) {
	const name = "burraco_db_group_commit_writers"
	w.Family(name, "histogram", "Shared write transactions committed (SQLite), by the writers each held.")
	var cum uint64
	n := 0
	for _, le := range groupCommitBounds {
		for ; n <= le && n < len(s.BySize); n++ {
			cum += s.BySize[n]
		}
		w.Sample(name+"_bucket", metrics.Labels("le", strconv.Itoa(le)), float64(cum))
	}
	w.Sample(name+"_bucket", `{le="+Inf"}`, float64(s.Batches))
	w.Sample(name+"_sum", "", float64(s.Writers))
	w.Sample(name+"_count", "", float64(s.Batches))
}

// metricsHandler serves /metrics and net/http/pprof's /debug/pprof/: on
// their own address (-metrics-addr), which an operator keeps off the
// internet, as profiles show the program's innards.
func metricsHandler(m *api.Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
