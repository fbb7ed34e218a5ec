// Command loadtables plays online tables over HTTP against real `burraco
// serve` processes, as a club evening's polling clients would, and checks
// that nothing is lost or stuck: every table of four human seats, each seat
// a client that long-polls the table's state and moves on its turn (draw,
// then discard the first card of its hand), until the match ends.
//
// It counts what must be zero: stuck tables (no new version for -stuck
// while unfinished; the report prints, per seat, the request it was making,
// its last 50 answers with their status, ETag, version, turn and phase, and
// the state asked afresh once the clients stopped: history.go), lost wake-ups (a long poll since version v that
// answers 304 although a version past v had been acknowledged to another
// seat before the poll was sent, or more than a second before the 304
// came), stale answers (older than a version acknowledged before the poll
// was sent; with several processes, more than a second before: a process
// learns of another's moves through PostgreSQL's notifications and answers
// from memory until one arrives), and acknowledged moves missing from the
// deals' records; it scrapes each server's /metrics (serve runs with
// -metrics-addr) before play, midway and at the end, reports the servers'
// moves, moves/s and state and move requests beside its own, and fails
// when the servers counted fewer moves (burraco_moves_total) than the
// clients were acknowledged. With -think each seat pauses before each move
// (human pace); with -heap-profile each server's heap profile is taken
// midway. And it
// measures moves/s, move latency, wake-up latency (from the mover's
// acknowledgement to the poll's answer), each server's peak RSS and CPU
// per move (and PostgreSQL's, when it runs on this machine). The move
// latency is broken down by kind (draw, discard, a deal's end, a table's
// first move) and connection (new or reused), the 10 slowest moves listed,
// and the servers' own histogram of the moves route set beside it.
//
// The players' accounts are made before serve starts by `burraco admin
// load-accounts` (one transaction, one password hash for all), each client
// reaching its account with the refresh token it prints: a thousand tables
// play seconds after the start; -signup signs them up through the API
// instead (two argon2id each: minutes).
//
//	go run ./cmd/loadtables -tables 100                     # SQLite, one process
//	go run ./cmd/loadtables -tables 100 -db postgres -processes 2 \
//	    -postgres 'postgres://burraco:burraco@localhost:5432/burraco_test?sslmode=disable'
//	go run ./cmd/loadtables -tables 100 -deals 3 -tournament   # one round of an online tournament
//	go run ./cmd/loadtables -tables 1000 -think 2s             # human pace: 2 s (±25%) before each move
//	go run ./cmd/loadtables -tables 100 -db postgres -processes 2 -leases -route table  # a balancer hashing the table id
//	go run ./cmd/loadtables -tables 100 -db postgres -processes 2 -leases -route table -compare -runs 5
//
// -compare plays each run on SQLite first (its twin: one process, the same
// tables, pace and keys) and says each round's ratio of CPU per move
// (PostgreSQL's servers and backends over SQLite's server), plain and
// normalised by the two runs' clients' own CPU per move, and the medians
// (compare.go): every run reports the clients' CPU, which moves with the
// machine's speed as the servers' does. -cpuprofile writes the
// generator's own CPU profile over play.
//
// Each move carries an Idempotency-Key of its own, as a frontend's does
// (the server stores the move's answer under it in the move's
// transaction), and a move whose answer is lost to a transport error is
// sent once more under the same key; -keys=false sends moves without one.
//
// -route says which server each seat's client talks to: seat (the
// default) spreads a table's seats over the servers, as a balancer
// spreading connections would, so that with -leases most of a table's
// requests are forwarded to its owner; table sends every request of a
// table to the server its id hashes to (route.go), as docs/SCALE-OUT.md
// §11's balancer configurations do. The report counts the forwards
// (burraco_table_forwards_total). On PostgreSQL it also says what the
// servers sent the database per move during play: statements by kind,
// statements prepared, connections opened, pings (burraco_db_*_total,
// statements.go).
//
// It builds the binary from this checkout (or takes -binary), starts the
// servers on a fresh database each run and stops them at the end. The exit
// status is 1 when any run had a stuck table, a lost wake-up, a stale
// answer or a missing move.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

type options struct {
	tables    int
	processes int
	db        string // sqlite or postgres
	pgURL     string
	deals     int
	runs      int
	stuck     time.Duration
	timeout   time.Duration
	binary    string
	// think is each seat's pause before each of its moves (human pace);
	// 0 is bots' pace.
	think time.Duration
	// heapProfile is the directory where each server's heap profile is
	// written midway (when the first table finishes); empty: none taken.
	heapProfile string
	// midway is the latest time into play at which /metrics is scraped
	// and the heap profiles taken (sooner when a table finishes).
	midway time.Duration
	// tournament plays the tables as the round of a tournament played
	// online (the round's start opens them; the engine writes the sheets).
	tournament bool
	// leases runs the servers with table leases and forwarding
	// (-internal-addr, issue 30); failover kills the server owning the
	// most tables this long into play (0: none).
	leases   bool
	failover time.Duration
	// route is which server each seat's client talks to: routeSeat or
	// routeTable (route.go).
	route string
	// signup signs the players up through the API (register and login)
	// instead of making their accounts with `burraco admin load-accounts`
	// before serve starts; accounts are those accounts, p0@load.test on
	// (nil with -signup).
	signup   bool
	accounts []account
	// keys sends each move with an Idempotency-Key of its own, as a
	// frontend does; false sends none (the figures before -keys).
	keys bool
	// cpuProfile is a file for this load generator's own CPU profile over
	// play ("": none).
	cpuProfile string
	// compare plays each run twice, on SQLite then on the database given
	// (compare.go), and says the ratios of their CPU per move.
	compare bool
}

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("loadtables", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.tables, "tables", 100, "tables played at once (four polling clients each)")
	fs.IntVar(&o.processes, "processes", 1, "serve processes sharing the database (more than one needs -db postgres)")
	fs.StringVar(&o.db, "db", "sqlite", "sqlite or postgres")
	fs.StringVar(&o.pgURL, "postgres", os.Getenv("TEST_DATABASE_URL"), "PostgreSQL URL for -db postgres (a schema is created per run); env TEST_DATABASE_URL")
	fs.IntVar(&o.deals, "deals", 1, "deals per match")
	fs.IntVar(&o.runs, "runs", 1, "runs, each on a fresh database")
	fs.DurationVar(&o.stuck, "stuck", 30*time.Second, "a table with no new version for this long is stuck")
	fs.DurationVar(&o.timeout, "timeout", 15*time.Minute, "bound of one run")
	fs.DurationVar(&o.think, "think", 0, "a seat's think time before each move (draw or discard), drawn uniformly within ±25% of it so tables do not move in lockstep; 0 is bots' pace (e.g. -think 2s for human pace)")
	fs.StringVar(&o.heapProfile, "heap-profile", "", "a directory: each server's heap profile (/debug/pprof/heap), RSS and goroutines are taken midway (see -midway), into DIR/runN/serveN.heap")
	fs.DurationVar(&o.midway, "midway", time.Minute, "the latest time into play at which each server's /metrics is scraped (it must answer under load) and, with -heap-profile, its heap profile taken; sooner when the first table finishes")
	fs.StringVar(&o.binary, "binary", "", "burraco binary (default: built from this checkout)")
	fs.BoolVar(&o.tournament, "tournament", false, "play the tables as one round of a tournament played online (-deals 2 to 4; 3 and 4 have built-in VP tables)")
	fs.BoolVar(&o.leases, "leases", false, "run the servers with table leases and forwarding (serve -internal-addr; -db postgres)")
	fs.StringVar(&o.route, "route", routeSeat, "which server each seat's client talks to: seat (seat i of the t-th table to server (t+i) mod n, as a spreading balancer: with -leases most requests are forwarded to the table's owner) or table (every seat of a table to the server its id hashes to, as a balancer hashing on the table id, docs/SCALE-OUT.md §11)")
	fs.DurationVar(&o.failover, "failover", 0, "SIGKILL the server owning the most tables this long into play, and report how long each table took to move again (implies -leases; -db postgres, 2 or more processes)")
	fs.BoolVar(&o.signup, "signup", false, "sign every player up and in through the API (register and login: two argon2id each, minutes for a thousand tables) instead of making the accounts with `burraco admin load-accounts` before serve starts, each then reached by its refresh token")
	fs.BoolVar(&o.keys, "keys", true, "send each move with an Idempotency-Key of its own, as a frontend does, and a move whose answer a transport error lost once more under the same key; -keys=false sends none (the server then stores no answer: a cheaper move than a frontend's)")
	fs.BoolVar(&o.compare, "compare", false, "alternate each run on SQLite (one process) with the same run on -db postgres, and say each round's ratio of CPU per move and their median (-runs rounds)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write this load generator's own CPU profile over play (the last run's) to `file`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if o.think < 0 {
		fmt.Fprintln(stderr, "loadtables: -think is a duration of 0 or more")
		return 2
	}
	if o.db != "sqlite" && o.db != "postgres" || o.db == "sqlite" && o.processes != 1 || o.tables < 1 || o.processes < 1 {
		fmt.Fprintln(stderr, "loadtables: -db is sqlite (one process) or postgres (any number)")
		return 2
	}
	if o.route != routeSeat && o.route != routeTable {
		fmt.Fprintln(stderr, "loadtables: -route is seat or table")
		return 2
	}
	if o.failover > 0 {
		o.leases = true
	}
	if o.leases && o.db != "postgres" || o.failover > 0 && o.processes < 2 || o.failover < 0 {
		fmt.Fprintln(stderr, "loadtables: -leases needs -db postgres; -failover also 2 or more -processes")
		return 2
	}
	if o.compare && (o.db != "postgres" || o.failover > 0 || o.tournament) {
		fmt.Fprintln(stderr, "loadtables: -compare needs -db postgres (its SQLite twin is run alongside), without -failover or -tournament")
		return 2
	}
	if o.db == "postgres" && o.pgURL == "" {
		fmt.Fprintln(stderr, "loadtables: -db postgres needs -postgres URL (or TEST_DATABASE_URL)")
		return 2
	}
	dir, err := os.MkdirTemp("", "loadtables")
	if err != nil {
		fmt.Fprintln(stderr, "loadtables:", err)
		return 1
	}
	keep := false // the servers' logs of a run that failed are kept
	defer func() {
		if keep {
			fmt.Fprintf(stderr, "loadtables: the servers' logs are kept in %s\n", dir)
			return
		}
		os.RemoveAll(dir)
	}()
	if o.binary == "" {
		o.binary = filepath.Join(dir, "burraco")
		build := exec.Command("go", "build", "-o", o.binary, "github.com/burraco/burraco/cmd/burraco")
		build.Stdout, build.Stderr = stderr, stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(stderr, "loadtables: build:", err)
			return 1
		}
	}
	failed := false
	// play plays run i with o into dir/name, prints it and notes whether
	// it was clean; nil when it could not be played (said on stderr).
	play := func(i int, o options, name string) *result {
		res, err := playRun(ctx, o, filepath.Join(dir, name))
		if err != nil {
			fmt.Fprintf(stderr, "loadtables: run %d on %s: %v\n", i+1, o.db, err)
			keep = true
			return nil
		}
		res.print(stdout, i+1, o)
		failed = failed || !res.clean()
		keep = keep || !res.clean()
		return res
	}
	var rounds []round
	for i := range o.runs {
		var rd round
		if o.compare {
			if rd.sqlite = play(i, sqliteTwin(o), fmt.Sprintf("run%d-sqlite", i+1)); rd.sqlite == nil {
				return 1
			}
		}
		if rd.postgres = play(i, o, fmt.Sprintf("run%d", i+1)); rd.postgres == nil {
			return 1
		}
		if o.compare {
			rounds = append(rounds, rd)
		}
	}
	if o.compare {
		printComparison(stdout, rounds, o)
	}
	if failed {
		return 1
	}
	return 0
}
