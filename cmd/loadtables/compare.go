package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// A comparison (-compare) plays the same load on SQLite and on the
// PostgreSQL set-up given, alternately, -runs rounds of the two, and says
// each round's ratio of CPU per move and their median: the issue's
// "PostgreSQL at most 1.5 times SQLite's CPU per move in the same session"
// in one command. This machine's speed moved the servers' figures ±15%
// between runs minutes apart (2026-11-28), so a ratio of two runs is one
// draw; the clients' own CPU per move, the same work in either run,
// rises and falls with the machine, and the ratio normalised by it is
// said beside the plain one.

// sqliteTwin is o as the SQLite run of a comparison: one process, no
// leases, the same tables, pace, deals and keys.
func sqliteTwin(o options) options {
	s := o
	s.db, s.processes, s.leases, s.route, s.failover = "sqlite", 1, false, routeSeat, 0
	return s
}

// round is one round of a comparison: the SQLite run's and the
// PostgreSQL run's results.
type round struct{ sqlite, postgres *result }

// cpu is a run's CPU per move in the comparison's terms: its servers'
// and, on PostgreSQL, the run's own backends'.
func (r *result) cpu() time.Duration {
	if r.moves == 0 {
		return 0
	}
	own := r.databaseCPU
	if r.backendsCPU > 0 {
		own = r.backendsCPU
	}
	return (r.serverCPU + own) / time.Duration(r.moves)
}

// clientsPerMove is the load generator's own CPU per move (0 unknown).
func (r *result) clientsPerMove() time.Duration {
	if r.moves == 0 {
		return 0
	}
	return r.clientsCPU / time.Duration(r.moves)
}

// ratios are the round's PostgreSQL/SQLite CPU per move, plain and
// normalised by each run's clients' CPU per move (0 when a figure is
// missing).
func (rd round) ratios() (plain, normalised float64) {
	s, p := rd.sqlite.cpu(), rd.postgres.cpu()
	if s <= 0 || p <= 0 {
		return 0, 0
	}
	plain = float64(p) / float64(s)
	if cs, cp := rd.sqlite.clientsPerMove(), rd.postgres.clientsPerMove(); cs > 0 && cp > 0 {
		normalised = plain * float64(cs) / float64(cp)
	}
	return plain, normalised
}

// printComparison says each round's figures and ratios, then the median
// of the plain and of the normalised ratios.
func printComparison(w io.Writer, rounds []round, o options) {
	fmt.Fprintf(w, "comparison: PostgreSQL (%d process(es)) against SQLite, CPU per move (servers and the run's backends), %d round(s) alternated\n", o.processes, len(rounds))
	var plains, normals []float64
	for i, rd := range rounds {
		plain, normal := rd.ratios()
		fmt.Fprintf(w, "  round %d: SQLite %d µs (clients %d), PostgreSQL %d µs (clients %d): %.2f×, normalised by the clients' CPU %.2f×\n",
			i+1, rd.sqlite.cpu().Microseconds(), rd.sqlite.clientsPerMove().Microseconds(),
			rd.postgres.cpu().Microseconds(), rd.postgres.clientsPerMove().Microseconds(), plain, normal)
		if plain > 0 {
			plains = append(plains, plain)
		}
		if normal > 0 {
			normals = append(normals, normal)
		}
	}
	fmt.Fprintf(w, "  median %.2f×, normalised %.2f× (plain ratios %s)\n", median(plains), median(normals), spread(plains))
}

// median is the middle of xs (the mean of the two middle ones for an
// even count; 0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// spread is "lowest–highest" of xs.
func spread(xs []float64) string {
	if len(xs) == 0 {
		return "none"
	}
	return fmt.Sprintf("%.2f–%.2f", slices.Min(xs), slices.Max(xs))
}
