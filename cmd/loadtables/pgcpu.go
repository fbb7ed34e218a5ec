package main

import (
	"context"
	"database/sql"
	"net/url"
	"time"
)

// The PostgreSQL CPU of a run's own connections. postgresCPU sums every
// postgres process of the machine: on a server other work uses too (other
// tests, other runs), that is not the run's. Each run's servers connect
// with application_name set to the run's schema (database), so the
// backends serving them are found in pg_stat_activity, and their CPU read
// from /proc (the server runs on this machine). It leaves out PostgreSQL's
// shared processes (the WAL writer, the checkpointer), which the
// all-processes figure counts.

// runBackends reads the pids of the backends connected with dbURL's
// application_name.
func runBackends(ctx context.Context, dbURL string) ([]int, error) {
	u, err := url.Parse(dbURL)
	if err != nil {
		return nil, err
	}
	name := u.Query().Get("application_name")
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var pids []int
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			return nil, err
		}
		pids = append(pids, pid)
	}
	return pids, rows.Err()
}

// backendsCPU is the CPU time of each of the run's backends, by pid; nil
// when they cannot be listed (the server's connections all taken, say).
func backendsCPU(ctx context.Context, dbURL string) map[int]time.Duration {
	pids, err := runBackends(ctx, dbURL)
	if err != nil {
		return nil
	}
	out := map[int]time.Duration{}
	for _, pid := range pids {
		if st, err := readProc(pid); err == nil {
			out[pid] = st.cpu
		}
	}
	return out
}

// backendsCPUSince is what the run's backends used since before (a
// backend new since then counts whole); -1 when either listing failed.
func backendsCPUSince(ctx context.Context, dbURL string, before map[int]time.Duration) time.Duration {
	after := backendsCPU(ctx, dbURL)
	if before == nil || after == nil {
		return -1
	}
	var d time.Duration
	for pid, cpu := range after {
		d += cpu - before[pid]
	}
	return d
}
