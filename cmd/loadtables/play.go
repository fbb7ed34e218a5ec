package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// table is one table of a run, shared by its four seats' clients.
type table struct {
	id       int64
	mu       sync.Mutex
	ackedAt  map[int64]time.Time // version -> when the move that made it was acknowledged
	moves    []ackedMove
	maxAcked atomic.Int64
	maxSeen  atomic.Int64 // the newest version any seat was told of
	changed  atomic.Int64 // UnixNano of the last time maxSeen grew
	finished atomic.Bool
	playing  atomic.Int32 // seats whose client has not seen the end yet
	stuck    atomic.Bool
	cancel   context.CancelFunc
	// -failover: maxSeen at the kill, when it was, and when a version
	// past it was first seen (UnixNano; 0: not yet).
	atKill, killedAt, resumedAt atomic.Int64
	doneAtKill                  atomic.Bool
	// seats is, for a stuck table, what each seat's client was doing when
	// the watchdog found it stuck, and heard each seat's last answers.
	seats []string
	heard [][]string
}

type ackedMove struct {
	version int64
	deal    int
	seat    int
	kind    string
}

// counters of one run, shared by every client.
type counters struct {
	moves, lostWakeups, staleAnswers, errors atomic.Int64
	// polls and moveRequests are the requests of the state and moves
	// routes that got an answer (any status): the servers' /metrics must
	// count as many.
	polls, moveRequests atomic.Int64
	// resent are the moves sent again, with their Idempotency-Key, after
	// a transport error (-keys).
	resent           atomic.Int64
	behind           atomic.Int64 // answers within the propagation between processes
	mu               sync.Mutex
	moveLat, wakeLat []time.Duration
	moveSamples      []moveSample // each acknowledged move, for the tail's breakdown
	firstErr         string
	start            time.Time // when play began
}

func (c *counters) fail(format string, args ...any) {
	c.errors.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.firstErr == "" {
		c.firstErr = fmt.Sprintf(format, args...)
	}
}

// playRun starts the servers on a fresh database, seats the players, plays
// every table to its end (or until it is stuck) and checks the records.
func playRun(ctx context.Context, o options, dir string) (*result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	dbURL, drop, err := database(ctx, o.db, o.pgURL, dir)
	if err != nil {
		return nil, err
	}
	defer drop()
	setUp := time.Now()
	// The players' accounts, before serve starts: made in one transaction,
	// they are there for it as if signed up, and nothing about serve
	// changes.
	if !o.signup {
		if o.accounts, err = makeAccounts(ctx, o.binary, dbURL, 4*o.tables, os.Stderr); err != nil {
			return nil, err
		}
	}
	var servers []*server
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	for i := range o.processes { // one after the other: the first migrates
		var env []string
		if o.leases {
			env = append(env, "BURRACO_INTERNAL_ADDR=127.0.0.1:0")
		}
		s, err := launch(o.binary, dbURL, filepath.Join(dir, fmt.Sprintf("serve%d.log", i+1)), env...)
		if err != nil {
			return nil, err
		}
		servers = append(servers, s)
	}
	var tour *tournamentRun
	var tables []*table
	var seats map[int64][]*client
	if o.tournament {
		if tour, err = seatTournament(ctx, o, servers); err != nil {
			return nil, err
		}
		tables, seats = tour.tables, tour.seats
	} else if tables, seats, err = seatPlayers(ctx, o, servers); err != nil {
		return nil, err
	}
	if o.route == routeTable {
		routeByTable(servers, seats)
	}
	res := &result{tables: len(tables), tournament: tour != nil, setUp: time.Since(setUp), signup: o.signup}
	if tour != nil {
		res.roundStart = tour.started
	}
	before := make([]procStats, len(servers))
	for i, s := range servers {
		before[i], _ = readProc(s.cmd.Process.Pid)
	}
	pgBefore := postgresCPU()
	var backendsBefore map[int]time.Duration
	if o.db == "postgres" {
		backendsBefore = backendsCPU(ctx, dbURL)
	}
	// /metrics before play: the figures compared are those of play alone
	// (the sign-ups and the seating made requests of their own).
	figuresBefore, _, err := scrape(ctx, servers)
	if err != nil {
		return nil, err
	}
	histBefore, err := scrapeHistograms(ctx, servers)
	if err != nil {
		return nil, err
	}
	var c counters
	// propagation is how long a move acknowledged by one server process
	// may take to reach the others: they learn of it through PostgreSQL's
	// notifications (domain.tableService.Follow) and answer from memory
	// until then, so a poll of another process in those milliseconds may
	// answer the version before it. One process has no such window.
	var propagation time.Duration
	if len(servers) > 1 {
		propagation = time.Second
	}
	clientsBefore := readSelfCPU()
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	c.start = start
	var wg sync.WaitGroup
	for _, tb := range tables {
		var tctx context.Context
		tctx, tb.cancel = context.WithCancel(ctx)
		tb.changed.Store(time.Now().UnixNano())
		tb.playing.Store(int32(len(seats[tb.id])))
		for _, cl := range seats[tb.id] {
			cl.keys = o.keys
			wg.Add(1)
			go func() {
				defer wg.Done()
				playSeat(tctx, cl, tb, &c, propagation, humanPace(o.think))
			}()
		}
	}
	killCtx, stopKill := context.WithCancel(ctx)
	defer stopKill()
	killed := make(chan error, 1)
	if o.failover > 0 {
		go func() {
			var err error
			res.failover, err = killOwner(killCtx, o.failover, servers, tables, c.moves.Load)
			killed <- err
		}()
	} else {
		killed <- nil
	}
	// The servers' resident set is sampled while the tables play (their
	// peak since start would count the sign-ups' password hashing).
	rss := make([]int64, len(servers))
	watchdog, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		midway := false
		for {
			select {
			case <-watchdog:
				return
			case <-tick.C:
			}
			// Midway is when the first table has finished (every other
			// has played about as long, and the servers hold them all), or
			// -midway into play on a machine too slow for that. /metrics
			// must answer then, under load; the heap profiles are taken
			// then.
			if !midway && (time.Since(start) >= o.midway || slices.ContainsFunc(tables, func(tb *table) bool { return tb.finished.Load() })) {
				midway = true
				res.midway(ctx, o, servers, dir)
			}
			for i, s := range servers {
				if st, err := readProc(s.cmd.Process.Pid); err == nil {
					rss[i] = max(rss[i], st.rss)
				}
			}
			for _, tb := range tables {
				// Stuck: no new version for a while, and some seat has not
				// seen the end (a seat that missed the last move waits on).
				if tb.playing.Load() > 0 && time.Since(time.Unix(0, tb.changed.Load())) > o.stuck && !tb.stuck.Load() {
					for i, cl := range seats[tb.id] {
						tb.seats = append(tb.seats, fmt.Sprintf("seat %d: %s", i, cl.now.Load()))
						tb.heard = append(tb.heard, cl.heard.lines())
					}
					tb.stuck.Store(true)
					tb.cancel()
				}
			}
		}
	}()
	wg.Wait()
	stopKill()
	if err := <-killed; err != nil && killCtx.Err() == nil {
		return nil, fmt.Errorf("failover: %w", err)
	}
	if res.failover != nil {
		res.failover.measure(tables)
	}
	close(watchdog)
	<-watched // its samples of rss are read below
	res.elapsed = time.Since(start)
	res.clientsCPU = readSelfCPU() - clientsBefore
	for i, s := range servers {
		after, err := s.cpuAtKill, error(nil)
		if !s.killed.Load() {
			after, err = readProc(s.cmd.Process.Pid)
		}
		if err != nil {
			return nil, err
		}
		res.serverCPU += after.cpu - before[i].cpu
		res.rss = append(res.rss, max(rss[i], after.rss))
	}
	if o.db == "postgres" {
		res.databaseCPU = postgresCPU() - pgBefore
		res.backendsCPU = backendsCPUSince(ctx, dbURL, backendsBefore)
	}
	for _, tb := range tables {
		switch {
		case tb.stuck.Load():
			res.stuck++
			res.stuckTables = append(res.stuckTables, stuckTable{id: tb.id, maxSeen: tb.maxSeen.Load(), maxAcked: tb.maxAcked.Load(), seats: tb.seats, heard: tb.heard,
				now: stateNow(ctx, tb.id, seats[tb.id])})
		case tb.finished.Load():
			res.finished++ // every seat saw the end
		}
	}
	res.moves, res.behind = c.moves.Load(), c.behind.Load()
	res.polls, res.moveRequests, res.resent = c.polls.Load(), c.moveRequests.Load(), c.resent.Load()
	// While the servers still run: /metrics must answer under load's
	// aftermath, and count at least the moves the clients were told of (a
	// move cut off by a stuck table's cancel may be counted and never
	// acknowledged).
	figuresAfter, _, err := scrape(ctx, servers)
	if err != nil {
		return nil, err
	}
	res.server = figuresAfter.minus(figuresBefore)
	if res.failover == nil { // a killed server's histogram died with it
		histAfter, err := scrapeHistograms(ctx, servers)
		if err != nil {
			return nil, err
		}
		res.serverHists = histAfter.minus(histBefore)
	}
	res.serverMoves = res.server.moves
	res.lostWakeups, res.staleAnswers, res.errors, res.firstErr = c.lostWakeups.Load(), c.staleAnswers.Load(), c.errors.Load(), c.firstErr
	res.moveLat, res.wakeLat, res.moveSamples = c.moveLat, c.wakeLat, c.moveSamples
	for _, tb := range tables {
		missing, err := checkRecords(ctx, seats[tb.id][0], tb)
		if err != nil {
			return nil, fmt.Errorf("table %d records: %w", tb.id, err)
		}
		res.missingMoves += missing
	}
	if tour != nil {
		if res.badSheets, err = tour.checkSheets(ctx); err != nil {
			return nil, fmt.Errorf("sheets: %w", err)
		}
	}
	return res, nil
}

// seatPlayers registers four players per table, spread over the servers,
// and seats them: the first creates the table (it starts when full), the
// others join.
func seatPlayers(ctx context.Context, o options, servers []*server) ([]*table, map[int64][]*client, error) {
	tables := make([]*table, o.tables)
	seats := map[int64][]*client{}
	var mu sync.Mutex
	errs := make(chan error, o.tables)
	sem := make(chan struct{}, 8)
	for t := range o.tables {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var players []*client
			for i := range 4 {
				n := 4*t + i
				// Two auth requests per player, at most 10 at once per address.
				ip := net.IPv4(127, 1, byte(n/4/250), byte(2+n/4%250))
				s := servers[(t+i)%len(servers)]
				cl, err := o.player(ctx, servers[0].base, s.base, ip, n)
				if err != nil {
					errs <- err
					return
				}
				players = append(players, cl)
			}
			var tb struct {
				ID int64 `json:"id"`
			}
			in := map[string]any{"rules": "fibur", "players": 4, "match": map[string]int{"deals": o.deals}, "auto_start": true, "grace_seconds": 0}
			if err := players[0].must(ctx, "POST", "/api/v1/tables", in, http.StatusCreated, &tb); err != nil {
				errs <- err
				return
			}
			if o.route == routeTable { // before the joins: the first takes the table's lease
				bindToTable(servers, tb.ID, players)
			}
			for _, p := range players[1:] {
				if err := p.must(ctx, "POST", fmt.Sprintf("/api/v1/tables/%d/join", tb.ID), map[string]any{}, http.StatusOK, nil); err != nil {
					errs <- err
					return
				}
			}
			mu.Lock()
			tables[t] = &table{id: tb.ID, ackedAt: map[int64]time.Time{}}
			seats[tb.ID] = players
			mu.Unlock()
			errs <- nil
		}()
	}
	for range o.tables {
		if err := <-errs; err != nil {
			return nil, nil, err
		}
	}
	return tables, seats, nil
}

// pollWait is how long each long poll waits, in seconds.
const pollWait = 20

// playSeat is one seat's client: it long-polls the state and moves on its
// turn, thinking p's pause before each move, until the match ends or ctx
// ends. An answer is stale when it is older than a move acknowledged before
// the poll was sent (less propagation, with several server processes).
func playSeat(ctx context.Context, cl *client, tb *table, c *counters, propagation time.Duration, p pace) {
	path := fmt.Sprintf("/api/v1/tables/%d/state", tb.id)
	var st tableState
	since := int64(-1)
	for ctx.Err() == nil {
		ackedBefore := tb.maxAcked.Load()
		q := path
		if since >= 0 {
			q = fmt.Sprintf("%s?since=%d&wait=%d", path, since, pollWait)
		}
		sent := time.Now()
		renewed := cl.renewals.Load()
		var answer tableState // read by do from a 200
		code, body, err := cl.do(ctx, "GET", q, nil, nil, &answer)
		got := time.Now()
		if err == nil {
			c.polls.Add(1 + cl.renewals.Load() - renewed) // a 401 renewed was answered too
		}
		if ctx.Err() != nil {
			return
		}
		switch {
		case err != nil:
			c.fail("poll table %d: %v", tb.id, err)
			time.Sleep(100 * time.Millisecond)
			continue
		case code == http.StatusNotModified:
			// Lost: a move acknowledged before the poll was sent, or one
			// acknowledged while it waited that did not wake it (a second
			// is room for a 304 already on its way when the move landed).
			if ackedBefore > since || tb.newerAckedBefore(since, got.Add(-time.Second)) {
				c.lostWakeups.Add(1)
			}
			continue
		case code != http.StatusOK:
			c.fail("poll table %d: %d %s", tb.id, code, body)
			time.Sleep(100 * time.Millisecond)
			continue
		}
		st = answer
		v := st.Table.Version
		if v < ackedBefore {
			if propagation == 0 || tb.newerAckedBefore(v, sent.Add(-propagation)) {
				c.staleAnswers.Add(1)
			} else {
				c.behind.Add(1)
			}
		}
		if since >= 0 && v > since {
			tb.mu.Lock()
			at, ok := tb.ackedAt[v]
			tb.mu.Unlock()
			wake := time.Duration(0) // answered before the mover heard its answer
			if ok && got.After(at) {
				wake = got.Sub(at)
			}
			c.mu.Lock()
			c.wakeLat = append(c.wakeLat, wake)
			c.mu.Unlock()
		}
		tb.seen(v, got)
		since = v
		for ctx.Err() == nil && st.Table.Status == "playing" && st.View != nil && st.View.Turn == st.Seat {
			// The pause comes before the move, once the state is read: the
			// move's latency and the others' wake-ups are measured from
			// the request, so thinking shows only in moves/s.
			if !p.wait(ctx) {
				return
			}
			next, ok := move(ctx, cl, tb, st, c)
			if !ok {
				since = -1 // read the state afresh
				break
			}
			st = next
			since = st.Table.Version
		}
		if st.Table.Status == "finished" {
			if tb.playing.Add(-1) == 0 {
				tb.finished.Store(true)
			}
			return
		}
	}
}

// move plays the seat's next move (draw, or discard the first card) and
// records its acknowledgement. With keys, the move carries a fresh
// Idempotency-Key and, when its answer is lost to a transport error, is
// sent once more under the same key: the server answers the first answer
// if the move was played, and plays it if it was not. Without keys a
// lost answer is a client error and the seat reads the state afresh.
func move(ctx context.Context, cl *client, tb *table, st tableState, c *counters) (tableState, bool) {
	m := map[string]any{"move": "draw", "version": st.Table.Version}
	if st.View.Phase != "take" {
		if len(st.View.Hand) == 0 {
			return st, false
		}
		m = map[string]any{"move": "discard", "card": st.View.Hand[0], "version": st.Table.Version}
	}
	var header map[string]string
	if cl.keys {
		header = map[string]string{"Idempotency-Key": rand.Text()}
	}
	var next tableState
	tctx, fresh := connTrace(ctx)
	sent := time.Now()
	path := fmt.Sprintf("/api/v1/tables/%d/moves", tb.id)
	renewed := cl.renewals.Load()
	code, body, err := cl.do(tctx, "POST", path, m, header, &next)
	if err != nil && header != nil && ctx.Err() == nil {
		c.resent.Add(1)
		code, body, err = cl.do(tctx, "POST", path, m, header, &next)
	}
	acked := time.Now()
	if err == nil {
		c.moveRequests.Add(1 + cl.renewals.Load() - renewed) // a 401 renewed was answered too
	}
	if err != nil {
		if ctx.Err() == nil {
			c.fail("move at table %d: %v", tb.id, err)
		}
		return st, false
	}
	if code != http.StatusOK {
		if code != http.StatusConflict { // a conflict only means: read again
			c.fail("move at table %d: %d %s", tb.id, code, body)
		}
		return st, false
	}
	v := next.Table.Version
	tb.mu.Lock()
	first := len(tb.moves) == 0
	tb.ackedAt[v] = acked
	tb.moves = append(tb.moves, ackedMove{version: v, deal: st.Table.DealNumber, seat: st.Seat, kind: m["move"].(string)})
	tb.mu.Unlock()
	raise(&tb.maxAcked, v)
	tb.seen(v, acked)
	c.moves.Add(1)
	c.mu.Lock()
	c.moveLat = append(c.moveLat, acked.Sub(sent))
	c.moveSamples = append(c.moveSamples, moveSample{table: tb.id, version: v, kind: classify(m["move"].(string), first, st, next),
		newConn: fresh.Load(), at: acked.Sub(c.start), when: acked, latency: acked.Sub(sent)})
	c.mu.Unlock()
	return next, true
}

// seen notes that a seat was told of version v at time at: the table is
// alive only while the newest version grows (a client reading the same old
// state again and again is as stuck as one waiting).
func (tb *table) seen(v int64, at time.Time) {
	if raise(&tb.maxSeen, v) {
		tb.changed.Store(at.UnixNano())
		if k := tb.killedAt.Load(); k != 0 && v > tb.atKill.Load() && at.UnixNano() > k {
			tb.resumedAt.CompareAndSwap(0, at.UnixNano())
		}
	}
}

// newerAckedBefore reports whether a move that made a version newer than since
// was acknowledged before the time before.
func (tb *table) newerAckedBefore(since int64, before time.Time) bool {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for v, at := range tb.ackedAt {
		if v > since && at.Before(before) {
			return true
		}
	}
	return false
}

// raise sets a to v if v is larger, and reports whether it did.
func raise(a *atomic.Int64, v int64) bool {
	for {
		old := a.Load()
		if v <= old {
			return false
		}
		if a.CompareAndSwap(old, v) {
			return true
		}
	}
}

// checkRecords compares the table's acknowledged moves with its deals'
// records and returns how many acknowledged moves are not there.
func checkRecords(ctx context.Context, cl *client, tb *table) (int, error) {
	tb.mu.Lock()
	acked := slices.Clone(tb.moves)
	tb.mu.Unlock()
	slices.SortFunc(acked, func(a, b ackedMove) int { return int(a.version - b.version) })
	var deals struct {
		Items []struct {
			Number int `json:"number"`
		} `json:"items"`
	}
	if err := cl.must(ctx, "GET", fmt.Sprintf("/api/v1/tables/%d/deals", tb.id), nil, http.StatusOK, &deals); err != nil {
		return 0, err
	}
	recorded := map[int][]recordMove{}
	for _, d := range deals.Items {
		var rec struct {
			Moves []recordMove `json:"moves"`
		}
		code, _, err := cl.do(ctx, "GET", fmt.Sprintf("/api/v1/tables/%d/deals/%d/record", tb.id, d.Number), nil, nil, &rec)
		if err != nil {
			return 0, err
		}
		if code == http.StatusOK {
			recorded[d.Number] = rec.Moves
		}
	}
	// Each deal's acknowledged moves must be its record's moves in order
	// (a deal not finished, for a stuck table, has no record yet: its moves
	// are not counted).
	missing := 0
	next := map[int]int{}
	for _, m := range acked {
		rec, ok := recorded[m.deal]
		if !ok {
			continue
		}
		i := next[m.deal]
		for i < len(rec) && !(rec[i].Seat == m.seat && rec[i].Move == m.kind) {
			i++
		}
		if i == len(rec) {
			missing++
			continue
		}
		next[m.deal] = i + 1
	}
	return missing, nil
}
