package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// The owners' one-statement moves (owned_move.go) sent to PostgreSQL
// together: the moves of a process's tables that arrive while another
// batch is being written go in the next one, sent as one pipeline (pgx's
// SendBatch: every statement's Bind and Execute, one Sync) and so run in
// one implicit transaction, committed once. A batch costs PostgreSQL one
// commit and one flush of its log instead of one a move, and this process
// one round trip; a move alone costs what it did. It goes around GORM
// (pgx's own batch API) because it pays: in cmd/loadtables at bots' pace
// (100 tables, two processes) the backends' CPU a move fell from 550–600
// to 250–265 µs, and PostgreSQL ×2's CPU a move from 1.8 to 1.4 times
// SQLite's, normalised (docs/performance.md, session 18).
//
// The statements are independent: each has its own fence and writes only
// when it holds (a statement whose fence fails writes nothing, which is
// no error). An error (a PostgreSQL error: the implicit transaction rolls
// back as a whole at the Sync, none of the batch written) sends each
// statement again on its own, so that one move's error is its own. An
// error of the connection (the batch may or may not have committed) is
// every member's, as a lost answer is a lone statement's.
//
// The batch is the group commit of SQLite (batch.go) for PostgreSQL's
// moves, without its shared transaction: the leader is the first move to
// arrive when no batch is being written (movesOnTheWire); it sends the
// moves waiting then, and hands the next batch, the moves that arrived
// meanwhile, to the first of them.

// maxMoveBatch bounds the moves of one batch.
const maxMoveBatch = 64

// movesOnTheWire is how many batches a process may have on the wire at
// once. Two were tried (2026-11-28, cmd/loadtables, PostgreSQL ×2): at
// bots' pace the batches held half as many moves (5 against 10.5) and the
// CPU a move rose (the ratio to SQLite's, normalised, 1.43 against 1.36),
// the move's p99 no better; at human pace the p99 moved within the runs'
// spread.
const movesOnTheWire = 1

// moveBatches sends the one-statement moves of a PostgreSQL database.
type moveBatches struct {
	pool *sql.DB
	// run sends a batch on a connection of pool; replaced by tests.
	run func(ctx context.Context, moves []*sentMove) error
	// most is how many batches may be on the wire at once.
	most int

	mu      sync.Mutex
	waiting []*sentMove
	sending int                             // batches on the wire: each leader hands the lead on
	sizes   [maxMoveBatch + 1]atomic.Uint64 // batches written, by their moves
}

// sentMove is a statement waiting for its batch, then its result.
type sentMove struct {
	sql  string
	args []any
	// turn says, once the move's batch is written, nil; or the batch the
	// move is to lead (its own among them), written by its goroutine.
	turn chan []*sentMove
	n    int64
	err  error
}

func newMoveBatches(pool *sql.DB) *moveBatches {
	b := &moveBatches{pool: pool, most: movesOnTheWire}
	b.run = b.pipeline
	return b
}

// exec runs one statement in the next batch and returns the rows it
// changed. ctx bounds the batch it leads (a sent write's own bound, not a
// request's: see AppendMoveIfAt).
func (b *moveBatches) exec(ctx context.Context, q string, args []any) (int64, error) {
	m := &sentMove{sql: q, args: args, turn: make(chan []*sentMove, 1)}
	b.mu.Lock()
	b.waiting = append(b.waiting, m)
	var batch []*sentMove
	if b.sending < b.most {
		b.sending++
		batch = b.take()
	}
	b.mu.Unlock()
	if batch == nil {
		batch = <-m.turn
	}
	if batch != nil {
		b.lead(ctx, batch)
	}
	return m.n, m.err
}

// take removes the next batch from the moves waiting (b.mu held).
func (b *moveBatches) take() []*sentMove {
	n := min(len(b.waiting), maxMoveBatch)
	batch := b.waiting[:n:n]
	b.waiting = b.waiting[n:]
	return batch
}

// lead writes batch (the leader's move among them), answers each, then
// hands the next batch of the moves that arrived meanwhile to the first
// of them.
func (b *moveBatches) lead(ctx context.Context, batch []*sentMove) {
	err := b.write(ctx, batch)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && len(batch) > 1 {
		// Rolled back as a whole: each statement again, alone.
		for _, m := range batch {
			m.err = b.write(ctx, []*sentMove{m})
		}
	} else if err != nil {
		for _, m := range batch {
			m.err = err
		}
	}
	if err == nil {
		b.sizes[len(batch)].Add(1)
	}

	b.mu.Lock()
	var next []*sentMove
	if len(b.waiting) > 0 {
		next = b.take()
	} else {
		b.sending--
	}
	b.mu.Unlock()
	for _, m := range batch {
		m.turn <- nil
	}
	if next != nil {
		next[0].turn <- next
	}
}

// write runs a batch, a panic made its error: the batch's other moves
// wait on its leader, and the moves that arrive after on them, so a
// leader that did not come back would stop the process's moves for good.
func (b *moveBatches) write(ctx context.Context, batch []*sentMove) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("store: writing a batch of %d moves: panic: %v", len(batch), v)
		}
	}()
	return b.run(ctx, batch)
}

// pipeline sends moves as one pgx batch on a connection of the pool and
// notes each statement's rows changed. A lone statement is a batch of one:
// its Sync commits it as an autocommit statement would be.
func (b *moveBatches) pipeline(ctx context.Context, moves []*sentMove) error {
	conn, err := b.pool.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		var batch pgx.Batch
		for _, m := range moves {
			batch.Queue(m.sql, m.args...)
		}
		results := pc.SendBatch(ctx, &batch)
		var first error
		for _, m := range moves {
			tag, err := results.Exec()
			if err != nil && first == nil {
				first = err
			}
			m.n = tag.RowsAffected()
		}
		if err := results.Close(); err != nil && first == nil {
			first = err
		}
		return first
	})
}

// MoveBatchStats are the batches of one-statement moves written since Open
// (PostgreSQL).
type MoveBatchStats struct {
	Batches uint64 // batches written (each one commit)
	Moves   uint64 // moves in them, all told
	// BySize counts the batches by their moves: BySize[n] is the batches
	// of n moves (1 to MaxMoveBatch).
	BySize [maxMoveBatch + 1]uint64
}

// MaxMoveBatch is the most moves one batch takes.
const MaxMoveBatch = maxMoveBatch

// MoveBatches returns the figures of the moves' batches, or false when the
// database writes none (SQLite, whose moves go in its group commit).
func (db *DB) MoveBatches() (MoveBatchStats, bool) {
	if db.moves == nil {
		return MoveBatchStats{}, false
	}
	var s MoveBatchStats
	for n := range db.moves.sizes {
		c := db.moves.sizes[n].Load()
		s.BySize[n] = c
		s.Batches += c
		s.Moves += c * uint64(n)
	}
	return s, true
}
