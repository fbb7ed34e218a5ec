package store

import (
	"context"
	"database/sql"
	"sync/atomic"
)

// What an operator's metrics read of the store (cmd/burraco wires them to
// /metrics; the store knows nothing of their format).

// Pool is one of the database's connection pools and its figures.
type Pool struct {
	Name  string // "write" and "read" on a SQLite file; "main" when one pool does both, and "moves" for PostgreSQL's move batches
	Stats sql.DBStats
}

// Pools returns the figures of the database's connection pools.
func (db *DB) Pools() []Pool {
	if db.readSQL == nil || db.readSQL == db.sql {
		if db.moves != nil {
			return []Pool{{"main", db.sql.Stats()}, {"moves", db.moves.pool.Stats()}}
		}
		return []Pool{{"main", db.sql.Stats()}}
	}
	return []Pool{{"write", db.sql.Stats()}, {"read", db.readSQL.Stats()}}
}

// GroupCommitStats are the shared write transactions of SQLite
// (batch.go) committed since Open.
type GroupCommitStats struct {
	Batches uint64 // shared transactions committed
	Writers uint64 // writers in them, all told
	// BySize counts the batches by their writers: BySize[n] is the batches
	// of n writers (1 to MaxBatch).
	BySize [maxBatch + 1]uint64
	// Commits is how long their COMMITs took (commit_times.go).
	Commits CommitTimes
}

// MaxBatch is the most writers one shared transaction takes.
const MaxBatch = maxBatch

// GroupCommits returns the group commit's figures, or false when the
// database does not group its commits (PostgreSQL).
func (db *DB) GroupCommits() (GroupCommitStats, bool) {
	if !db.batched {
		return GroupCommitStats{}, false
	}
	var s GroupCommitStats
	for n := range db.batchSizes {
		c := db.batchSizes[n].Load()
		s.BySize[n] = c
		s.Batches += c
		s.Writers += c * uint64(n)
	}
	s.Commits = db.commitTimes.stats()
	return s, true
}

// batchSizes counts committed batches by their writers (index: writers).
type batchSizes [maxBatch + 1]atomic.Uint64

// TablesPlaying counts the tables being played (status playing), in every
// process's database: one indexed count, for a scrape.
func (db *DB) TablesPlaying(ctx context.Context) (int64, error) {
	var n int64
	err := db.readSQL.QueryRowContext(ctx, "SELECT count(*) FROM tables WHERE status = 'playing'").Scan(&n)
	return n, err
}
