package store

import (
	"sync/atomic"
	"time"
)

// How long this process's commits took, for /metrics: on a SQLite file
// each shared write transaction's COMMIT (batch.go's finish: the log's
// write, which waits for the disk while a checkpoint flushes it); on
// PostgreSQL each COMMIT and each write statement that commits by itself
// (the owner's one-statement move), from its sending to its answer (the
// log's flush on PostgreSQL's disk, and the round trip). When a move's
// latency has a tail of moves held together, these say whether the
// storage held them (docs/performance.md, *The move latency's tail at
// human pace*).

// CommitBounds are the upper bounds of the commit histogram's buckets.
var CommitBounds = [...]time.Duration{
	time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2500 * time.Millisecond,
}

// CommitTimes is the commit histogram: Count commits taking Sum in all,
// Within[i] of them at most CommitBounds[i] (cumulative, as Prometheus
// buckets are).
type CommitTimes struct {
	Count  uint64
	Sum    time.Duration
	Within [len(CommitBounds)]uint64
}

// commitTimes counts commits by bucket; the last counts those over every
// bound.
type commitTimes struct {
	n   [len(CommitBounds) + 1]atomic.Uint64
	sum atomic.Int64 // nanoseconds
}

func (c *commitTimes) observe(d time.Duration) {
	i := 0
	for i < len(CommitBounds) && d > CommitBounds[i] {
		i++
	}
	c.n[i].Add(1)
	c.sum.Add(int64(d))
}

func (c *commitTimes) stats() CommitTimes {
	var s CommitTimes
	for i := range c.n {
		s.Count += c.n[i].Load()
		if i < len(CommitBounds) {
			s.Within[i] = s.Count
		}
	}
	s.Sum = time.Duration(c.sum.Load())
	return s
}
