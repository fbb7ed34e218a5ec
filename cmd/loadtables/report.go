package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"
)

// result is what one run measured and found.
type result struct {
	tables, finished, stuck                  int
	moves, lostWakeups, staleAnswers, errors int64
	behind                                   int64 // answers behind another process's move, within the propagation allowed
	missingMoves                             int
	serverMoves                              int64 // the servers' burraco_moves_total during play, summed
	// server is what the servers' /metrics counted during play (their
	// figures at the end less those before); polls and moveRequests are
	// the answers the clients got on the same routes.
	server              serverFigures
	polls, moveRequests int64
	// resent are the moves sent again under their key after a transport
	// error.
	resent int64
	// midwayScrape is how long the slowest /metrics took to answer when
	// the first table finished (0: the run had no midway), midwayErr why
	// it did not answer.
	midwayScrape time.Duration
	midwayErr    string
	heap         []heapSnapshot // -heap-profile: each server's, taken midway
	firstErr     string
	// setUp is how long the run took to start playing: the accounts, the
	// servers' start, the players' first tokens and the tables' seating
	// (signup: the players signed up through the API instead).
	setUp                  time.Duration
	signup                 bool
	elapsed                time.Duration
	moveLat, wakeLat       []time.Duration
	moveSamples            []moveSample
	serverHists            serverHistograms // the servers' own, during play (none with -failover)
	serverCPU, databaseCPU time.Duration
	rss                    []int64 // most seen while playing, per server
	// -tournament: how long the round's start took (every table opened),
	// and the tables whose sheet is not final or misses a deal.
	tournament bool
	roundStart time.Duration
	badSheets  int
	// stuckTables says what each seat of a stuck table was doing.
	stuckTables []stuckTable
	failover    *failover // -failover: the kill and the takeovers
	// backendsCPU is PostgreSQL's CPU in the run's own backends (pgcpu.go).
	backendsCPU time.Duration
	// clientsCPU is this load generator's own CPU over play: its clients
	// share the machine's cores with the servers, so what they cost is CPU
	// the servers did not have.
	clientsCPU time.Duration
}

type stuckTable struct {
	id                int64
	maxSeen, maxAcked int64
	seats             []string
	heard             [][]string // per seat, its last answers, oldest first (history.go)
	now               []string   // per seat, the state asked afresh once its client stopped
}

// clean reports whether the run found nothing that must not happen. A
// killed server's moves are those of its last /metrics: the moves
// acknowledged after it (the failover's slack) may be uncounted.
func (r *result) clean() bool {
	var slack int64
	if r.failover != nil {
		slack = r.failover.slack
	}
	return r.stuck == 0 && r.finished == r.tables && r.lostWakeups == 0 && r.staleAnswers == 0 && r.missingMoves == 0 &&
		r.badSheets == 0 && r.serverMoves+slack >= r.moves
}

// midway scrapes /metrics while the tables play and, with -heap-profile,
// takes each server's heap profile.
func (r *result) midway(ctx context.Context, o options, servers []*server, dir string) {
	_, took, err := scrape(ctx, servers)
	if err != nil {
		r.midwayErr = err.Error()
	} else {
		r.midwayScrape = max(took, time.Microsecond)
	}
	if o.heapProfile == "" {
		return
	}
	snaps, err := saveHeapProfiles(ctx, servers, filepath.Join(o.heapProfile, filepath.Base(dir)))
	if err != nil {
		r.midwayErr += " heap profile: " + err.Error()
	}
	r.heap = snaps
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(p * float64(len(s)-1))
	return s[i]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func (r *result) print(w io.Writer, n int, o options) {
	verdict := "clean"
	if !r.clean() {
		verdict = "FAILED"
	}
	speed := "bots' pace"
	if o.think > 0 {
		speed = fmt.Sprintf("think %s ±%d%% a move", o.think, int(thinkJitter*100))
	}
	keys := "an Idempotency-Key per move"
	if !o.keys {
		keys = "no Idempotency-Key"
	}
	fmt.Fprintf(w, "run %d (%s, %d process(es), %d tables, %s, %s): %s\n", n, o.db, o.processes, r.tables, speed, keys, verdict)
	fmt.Fprintf(w, "  tables finished %d, stuck %d; lost wake-ups %d; stale answers %d; acknowledged moves missing from records %d; client errors %d\n",
		r.finished, r.stuck, r.lostWakeups, r.staleAnswers, r.missingMoves, r.errors)
	if r.resent > 0 {
		fmt.Fprintf(w, "  moves sent again under their Idempotency-Key after a transport error: %d\n", r.resent)
	}
	if r.firstErr != "" {
		fmt.Fprintf(w, "  first client error: %s\n", r.firstErr)
	}
	if o.processes > 1 {
		fmt.Fprintf(w, "  answers behind a move another process acknowledged less than a second before the poll: %d\n", r.behind)
	}
	for _, st := range r.stuckTables {
		fmt.Fprintf(w, "  stuck table %d (newest version seen %d, acknowledged %d); its seats when found:\n", st.id, st.maxSeen, st.maxAcked)
		for i, s := range st.seats {
			fmt.Fprintf(w, "    %s\n", s)
			if i < len(st.heard) {
				fmt.Fprintf(w, "      its last %d answers, oldest first (sent UTC, +time to answer):\n", len(st.heard[i]))
				for _, h := range st.heard[i] {
					fmt.Fprintf(w, "        %s\n", h)
				}
			}
			if i < len(st.now) {
				fmt.Fprintf(w, "      asked again after the run: %s\n", st.now[i])
			}
		}
	}
	if r.tournament {
		fmt.Fprintf(w, "  a tournament round: its start opened the %d tables in %s; sheets not final or short of a deal %d\n",
			r.tables, ms(r.roundStart), r.badSheets)
	}
	if r.failover != nil {
		r.failover.print(w, o.processes)
	}
	accounts := "accounts made by burraco admin load-accounts"
	if r.signup {
		accounts = "players signed up through the API"
	}
	fmt.Fprintf(w, "  play began %.1f s after the run's start (%s)\n", r.setUp.Seconds(), accounts)
	secs := r.elapsed.Seconds()
	fmt.Fprintf(w, "  moves %d in %.1f s: %.0f moves/s\n", r.moves, secs, float64(r.moves)/secs)
	r.printMetrics(w)
	r.printForwards(w, o)
	r.printStatements(w)
	fmt.Fprintf(w, "  move latency p50 %s p99 %s; wake-up after a move p50 %s p99 %s (%d wake-ups)\n",
		ms(percentile(r.moveLat, 0.5)), ms(percentile(r.moveLat, 0.99)),
		ms(percentile(r.wakeLat, 0.5)), ms(percentile(r.wakeLat, 0.99)), len(r.wakeLat))
	printTail(w, r.moveSamples)
	printServerTail(w, r.serverHists.moves)
	printCommitTail(w, r.serverHists.commits)
	for i, rss := range r.rss {
		fmt.Fprintf(w, "  serve %d RSS while playing: at most %.0f MB\n", i+1, float64(rss)/(1<<20))
	}
	for i, h := range r.heap {
		fmt.Fprintf(w, "  serve %d midway: RSS %.0f MB, %d goroutines; heap profile %s (go tool pprof -top -inuse_space %s)\n",
			i+1, float64(h.rss)/(1<<20), h.goroutines, h.file, h.file)
	}
	if r.moves > 0 {
		fmt.Fprintf(w, "  server CPU per move %s", ms(r.serverCPU/time.Duration(r.moves)))
		if r.databaseCPU > 0 {
			fmt.Fprintf(w, ", PostgreSQL CPU per move %s", ms(r.databaseCPU/time.Duration(r.moves)))
		}
		fmt.Fprintln(w)
		r.printCPU(w)
	}
}

// printMetrics sets the servers' /metrics beside the clients' own counts
// of the same things during play.
func (r *result) printMetrics(w io.Writer) {
	secs := r.elapsed.Seconds()
	switch {
	case r.midwayErr != "":
		fmt.Fprintf(w, "  /metrics midway: %s\n", r.midwayErr)
	case r.midwayScrape > 0:
		fmt.Fprintf(w, "  /metrics answered midway in %s\n", ms(r.midwayScrape))
	}
	fmt.Fprintf(w, "  /metrics during play (servers | clients): moves %d | %d acknowledged, %.0f | %.0f moves/s; "+
		"state requests %d | %d answered; move requests %d | %d answered\n",
		r.server.moves, r.moves, float64(r.server.moves)/secs, float64(r.moves)/secs,
		r.server.polls, r.polls, r.server.moveRequests, r.moveRequests)
}
