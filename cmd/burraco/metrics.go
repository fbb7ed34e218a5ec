package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"sort"
	"strconv"
	"strings"
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
		if c, ok := db.DBCounts(); ok {
			writeDBCounts(w, c)
			writeCommitTimes(w, c.Commits)
		}
	})
	m.Registry.Register(func(w *metrics.Writer) {
		if s, ok := db.GroupCommits(); ok {
			writeGroupCommits(w, s)
			writeCommitTimes(w, s.Commits)
		}
	})
	m.Registry.Register(func(w *metrics.Writer) {
		if s, ok := db.MoveBatches(); ok {
			writeMoveBatches(w, s)
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

// writeDBCounts writes what this process sent PostgreSQL: its statements
// by verb and first table (the store's own SQL: a few dozen series), the
// statements prepared, the connections opened and the pings.
func writeDBCounts(w *metrics.Writer, c store.DBCounts) {
	sort.Slice(c.Statements, func(i, j int) bool {
		a, b := c.Statements[i], c.Statements[j]
		return a.Op < b.Op || a.Op == b.Op && a.Table < b.Table
	})
	w.Family("burraco_db_statements_total", "counter", "Statements sent to PostgreSQL by this process, BEGIN and COMMIT included, by verb (op) and the first table named.")
	for _, s := range c.Statements {
		w.Sample("burraco_db_statements_total", metrics.Labels("op", s.Op, "table", s.Table), float64(s.Count))
	}
	w.Family("burraco_db_prepares_total", "counter", "Statements prepared on PostgreSQL (parsed and planned by a backend; pgx prepares each text once per connection).")
	w.Sample("burraco_db_prepares_total", "", float64(c.Prepared))
	w.Family("burraco_db_connects_total", "counter", "Connections opened to PostgreSQL (each a new backend), the listeners' included.")
	w.Sample("burraco_db_connects_total", "", float64(c.Connects))
	w.Family("burraco_db_pings_total", "counter", "Pings of a pooled PostgreSQL connection idle for over a second, before it is used.")
	w.Sample("burraco_db_pings_total", "", float64(c.Pings))
}

// statementsHandler serves each statement text this process sent
// PostgreSQL with its count, most sent first, as text.
func statementsHandler(db *store.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		texts := db.StatementTexts()
		sort.Slice(texts, func(i, j int) bool { return texts[i].Count > texts[j].Count })
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		for _, t := range texts {
			fmt.Fprintf(w, "%d\t%s\n", t.Count, strings.Join(strings.Fields(t.SQL), " "))
		}
	}
}

// groupCommitBounds are the batch-size buckets, writers.
var groupCommitBounds = []int{1, 2, 4, 8, 16, store.MaxBatch}

// writeGroupCommits writes SQLite's group commits: batches and
// their sizes, as a histogram.
func writeGroupCommits(w *metrics.Writer, s store.GroupCommitStats) {
	writeSizes(w, "burraco_db_group_commit_writers", "Shared write transactions committed (SQLite), by the writers each held.",
		groupCommitBounds, s.BySize[:], s.Writers)
}

// moveBatchBounds are the move-batch buckets, moves.
var moveBatchBounds = []int{1, 2, 4, 8, 16, 32, store.MaxMoveBatch}

// writeMoveBatches writes PostgreSQL's batches of one-statement moves:
// batches and their sizes, as a histogram.
func writeMoveBatches(w *metrics.Writer, s store.MoveBatchStats) {
	writeSizes(w, "burraco_db_move_batch_moves", "Batches of owners' moves written to PostgreSQL (one commit each), by the moves each held.",
		moveBatchBounds, s.BySize[:], s.Moves)
}

// writeSizes writes a histogram of batches by size: bySize[n] batches of
// n members, sum members in all.
func writeSizes(w *metrics.Writer, name, help string, bounds []int, bySize []uint64, sum uint64) {
	w.Family(name, "histogram", help)
	var cum, count uint64
	for _, c := range bySize {
		count += c
	}
	n := 0
	for _, le := range bounds {
		for ; n <= le && n < len(bySize); n++ {
			cum += bySize[n]
		}
		w.Sample(name+"_bucket", metrics.Labels("le", strconv.Itoa(le)), float64(cum))
	}
	w.Sample(name+"_bucket", `{le="+Inf"}`, float64(count))
	w.Sample(name+"_sum", "", float64(sum))
	w.Sample(name+"_count", "", float64(count))
}

// writeCommitTimes writes how long the database's commits took, as a
// histogram in seconds.
func writeCommitTimes(w *metrics.Writer, c store.CommitTimes) {
	const name = "burraco_db_commit_seconds"
	w.Family(name, "histogram", "How long commits took: SQLite's shared write transactions' COMMIT; PostgreSQL's COMMIT and self-committing writes, round trip included.")
	for i, le := range store.CommitBounds {
		w.Sample(name+"_bucket", metrics.Labels("le", strconv.FormatFloat(le.Seconds(), 'f', -1, 64)), float64(c.Within[i]))
	}
	w.Sample(name+"_bucket", `{le="+Inf"}`, float64(c.Count))
	w.Sample(name+"_sum", "", c.Sum.Seconds())
	w.Sample(name+"_count", "", float64(c.Count))
}

// metricsHandler serves /metrics, net/http/pprof's /debug/pprof/ and
// the statements sent to PostgreSQL (/debug/statements): on
// their own address (-metrics-addr), which an operator keeps off the
// internet, as profiles show the program's innards.
func metricsHandler(m *api.Metrics, db *store.DB) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m)
	mux.Handle("GET /debug/statements", statementsHandler(db))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
