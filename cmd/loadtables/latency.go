package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http/httptrace"
	"slices"
	"sync/atomic"
	"time"
)

// moveSample is one acknowledged move, as the tail's breakdown reads it.
type moveSample struct {
	table   int64
	version int64 // the version the move made
	kind    moveKind
	// newConn is set when the move's request went out on a connection
	// dialled for it (not one kept idle from an earlier request): a dial's
	// cost, or a connection the server closed, would show here.
	newConn bool
	at      time.Duration // time into play when it was acknowledged
	when    time.Time     // and the clock's time then, to find it in a server's trace or log
	latency time.Duration // from the request's send to its answer read
}

// moveKind is what a move was, for the breakdown: the kinds that do more
// than append a move are apart (a table's first move loads the table;
// the move ending a deal scores it, records it and deals the next or ends
// the match).
type moveKind int

const (
	kindDraw moveKind = iota
	kindDiscard
	kindDealEnd
	kindFirst
	kindOther
	kinds // the number of kinds
)

func (k moveKind) String() string {
	return [...]string{"draw", "discard", "deal's end", "table's first", "other"}[k]
}

// classify says a move's kind from the request (move is "draw" or
// "discard"), the state it was played on and the state it answered: a
// table's first move first, then the end of a deal (the deal's number
// changed or the table no longer plays), then the move itself.
func classify(move string, first bool, before, after tableState) moveKind {
	switch {
	case first:
		return kindFirst
	case after.Table.DealNumber != before.Table.DealNumber || after.Table.Status != "playing":
		return kindDealEnd
	case move == "draw":
		return kindDraw
	case move == "discard":
		return kindDiscard
	}
	return kindOther
}

// connTrace returns ctx with a trace that tells whether the request's
// connection was dialled for it (a request sent again after a 401 tells
// of its second connection).
func connTrace(ctx context.Context) (context.Context, *atomic.Bool) {
	var fresh atomic.Bool
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(i httptrace.GotConnInfo) { fresh.Store(!i.Reused) },
	}), &fresh
}

// latencyRow is the latency of one group of moves.
type latencyRow struct {
	name          string
	n             int
	p50, p99, max time.Duration
}

// breakdown groups the moves by kind and by connection (new or reused);
// groups with no move are left out.
func breakdown(samples []moveSample) []latencyRow {
	var byKind [kinds][]time.Duration
	var byConn [2][]time.Duration // reused, new
	for _, s := range samples {
		byKind[s.kind] = append(byKind[s.kind], s.latency)
		conn := 0
		if s.newConn {
			conn = 1
		}
		byConn[conn] = append(byConn[conn], s.latency)
	}
	var rows []latencyRow
	add := func(name string, d []time.Duration) {
		if len(d) == 0 {
			return
		}
		rows = append(rows, latencyRow{name: name, n: len(d), p50: percentile(d, 0.5), p99: percentile(d, 0.99), max: slices.Max(d)})
	}
	for k := range kinds {
		add(k.String(), byKind[k])
	}
	add("on a reused connection", byConn[0])
	add("on a new connection", byConn[1])
	return rows
}

// slowest returns the n slowest moves, slowest first.
func slowest(samples []moveSample, n int) []moveSample {
	s := slices.Clone(samples)
	slices.SortStableFunc(s, func(a, b moveSample) int { return int(b.latency - a.latency) })
	return s[:min(n, len(s))]
}

// periodRow is the latency of the moves acknowledged in one period of
// play: the opening burst (every table's first moves at once) apart from
// the steady play after it.
type periodRow struct {
	from     time.Duration
	n        int
	p50, p99 time.Duration
}

// byPeriod groups the moves by when they were acknowledged, in periods of
// width from the start of play; periods with no move are left out.
func byPeriod(samples []moveSample, width time.Duration) []periodRow {
	groups := map[int][]time.Duration{}
	for _, s := range samples {
		i := int(s.at / width)
		groups[i] = append(groups[i], s.latency)
	}
	var rows []periodRow
	for _, i := range slices.Sorted(maps.Keys(groups)) {
		d := groups[i]
		rows = append(rows, periodRow{from: time.Duration(i) * width, n: len(d), p50: percentile(d, 0.5), p99: percentile(d, 0.99)})
	}
	return rows
}

// periodWidth is the period of byPeriod for a play that lasted span: about
// ten periods, whole seconds.
func periodWidth(span time.Duration) time.Duration {
	return max(time.Second, (span / 10).Round(time.Second))
}

// printTail writes the breakdown and the slowest moves.
func printTail(w io.Writer, samples []moveSample) {
	if len(samples) == 0 {
		return
	}
	fmt.Fprintln(w, "  move latency by kind and connection:")
	for _, r := range breakdown(samples) {
		fmt.Fprintf(w, "    %-24s %6d moves  p50 %s  p99 %s  max %s\n", r.name, r.n, ms(r.p50), ms(r.p99), ms(r.max))
	}
	span := slices.MaxFunc(samples, func(a, b moveSample) int { return cmp.Compare(a.at, b.at) }).at
	width := periodWidth(span)
	fmt.Fprintf(w, "  move latency by %s of play (from, moves, p50, p99):", width)
	for i, r := range byPeriod(samples, width) {
		if i%4 == 0 {
			fmt.Fprint(w, "\n   ")
		}
		fmt.Fprintf(w, "  %s: %d, %s, %s;", r.from, r.n, ms(r.p50), ms(r.p99))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "  the slowest moves:")
	for _, s := range slowest(samples, 10) {
		conn := "reused connection"
		if s.newConn {
			conn = "new connection"
		}
		fmt.Fprintf(w, "    table %d version %d, %s, %s into play (%s UTC), %s (%s)\n",
			s.table, s.version, s.kind, s.at.Round(time.Millisecond), s.when.UTC().Format("15:04:05.000"), ms(s.latency), conn)
	}
}
