package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/burraco/burraco/domain"
)

// Group commit. On a SQLite file the write transactions of this process
// take turns on one connection. Each used to begin and commit a SQLite
// transaction of its own: the commit writes the log, and a call into C that
// long gives its processor to the request goroutines, so that the writer
// then waits for a processor while the next writers wait for it; with many
// writers the commits were half of the time the write lock was held. Now a
// writer that finds others waiting leaves its transaction open and hands it
// to the next, which runs in it, and so on (at most maxBatch of them): the
// last commits them all at once, and then each returns. Each writer's
// function runs on its own goroutine, inside a savepoint of its own: when
// it fails (or panics) only its own writes are undone, as if its
// transaction had rolled back. A writer returns success only once the
// shared transaction committed; when the commit fails, every writer in it
// gets the error; a writer that fails after others of its batch wrote
// returns once they committed (its failure may rest on what they wrote),
// and with the commit's error when it fails. The writers of a batch run
// one after another, each seeing the writes of those before it, as if each
// had committed before the next began: the same order, the same outcome,
// with one commit.

// maxBatch bounds the writers of one shared transaction, so that the first
// of them waits for the commit at most maxBatch turns.
const maxBatch = 32

// writeBatch is a SQLite write transaction shared by several writers.
type writeBatch struct {
	g       *gorm.DB // the open transaction
	members int      // writers whose writes it holds
	broken  error    // a savepoint statement failed: the transaction cannot go on
	err     error    // the outcome, once done is closed
	done    chan struct{}
}

// writers is the turn of the write transactions of a SQLite file: at most
// one holds it, the others queue, first come first served.
type writers struct {
	mu    sync.Mutex
	busy  bool
	queue []chan *writeBatch // each waiter is handed the open batch, or nil to begin one
}

// errWriterTimeout is the answer of a writer that waited for its turn
// longer than the busy timeout.
var errWriterTimeout = errors.New("store: another write transaction of this process held the database for the whole busy timeout")

// acquire waits for the writers' turn (at most timeout) and returns the
// batch to join (nil: begin one).
func (w *writers) acquire(ctx context.Context, timeout time.Duration, db *DB) (*writeBatch, error) {
	w.mu.Lock()
	if !w.busy {
		w.busy = true
		w.mu.Unlock()
		return nil, nil
	}
	turn := make(chan *writeBatch, 1)
	w.queue = append(w.queue, turn)
	w.mu.Unlock()
	t := time.NewTimer(timeout)
	defer t.Stop()
	var err error
	select {
	case b := <-turn:
		return b, nil
	case <-t.C:
		err = errBusy(errWriterTimeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	w.mu.Lock()
	for i, q := range w.queue {
		if q == turn {
			w.queue = append(w.queue[:i], w.queue[i+1:]...)
			w.mu.Unlock()
			return nil, err
		}
	}
	w.mu.Unlock()
	db.handOn(<-turn) // the turn came meanwhile: pass it on
	return nil, err
}

// handOn ends a writer's turn: the batch b (nil: none) goes to the next
// writer when one waits and b may take more, else it is committed and the
// turn goes to the next writer, or is free.
func (db *DB) handOn(b *writeBatch) {
	w := &db.writers
	w.mu.Lock()
	if len(w.queue) > 0 && (b == nil || b.members < maxBatch && b.broken == nil) {
		next := w.queue[0]
		w.queue = w.queue[1:]
		w.mu.Unlock()
		next <- b
		return
	}
	w.mu.Unlock()
	if b != nil {
		db.finish(b)
	}
	w.mu.Lock()
	if len(w.queue) > 0 {
		next := w.queue[0]
		w.queue = w.queue[1:]
		w.mu.Unlock()
		next <- nil
		return
	}
	w.busy = false
	w.mu.Unlock()
}

// finish commits b (rolls it back when it is broken or holds no writes)
// and tells its writers.
func (db *DB) finish(b *writeBatch) {
	switch {
	case b.broken != nil:
		_ = b.g.Rollback()
		b.err = b.broken
	case b.members == 0:
		b.err = b.g.Rollback().Error
	default:
		start := time.Now()
		b.err = b.g.Commit().Error
		db.commitTimes.observe(time.Since(start))
		if b.err == nil {
			db.commits.Add(1)
			db.foreign.committed(db)
			db.batchSizes[min(b.members, maxBatch)].Add(1)
			if db.ckpt != nil {
				db.ckpt.written()
			}
		}
	}
	close(b.done)
	if db.writerStmts != nil { // the write connection is free, and the turn still ours
		db.writerStmts.prepare(context.Background(), db.sql)
	}
}

// writersWait runs fn in the writers' turn, the writes of this process
// waiting until it returns, and reports whether it did: not when the turn
// does not come within the busy timeout. A batch handed to it is
// committed first.
func (db *DB) writersWait(fn func()) bool {
	b, err := db.writers.acquire(context.Background(), db.busyTimeout, db)
	if err != nil {
		return false
	}
	if b != nil {
		db.finish(b)
	}
	defer db.handOn(nil)
	fn()
	return true
}

// savepoint runs one of the savepoint statements of a writer in b; a
// failure breaks the batch (SQLite rolled the whole transaction back, or
// the connection failed): what it held is lost, and every writer in it is
// told so.
func (b *writeBatch) savepoint(stmt string) error {
	if b.broken != nil {
		return b.broken
	}
	if err := b.g.Exec(stmt).Error; err != nil {
		b.broken = err
		return err
	}
	return nil
}

// inBatch is InTx on a SQLite file: fn runs in the shared transaction,
// inside a savepoint of its own.
func (db *DB) inBatch(ctx context.Context, fn func(tx domain.Tx) error) (err error) {
	b, err := db.writers.acquire(ctx, db.busyTimeout, db)
	if err != nil {
		return err
	}
	if b == nil {
		// The transaction outlives this caller's context: others join it.
		g := db.gorm.WithContext(context.Background()).Begin()
		if g.Error != nil {
			db.handOn(nil)
			return translateTx(g.Error)
		}
		if sqlTx, ok := g.Statement.ConnPool.(*sql.Tx); ok && db.writerStmts != nil {
			g.Statement.ConnPool = &writerTx{Tx: sqlTx, stmts: db.writerStmts} // statements prepared once (writer_stmts.go)
		}
		b = &writeBatch{g: g, done: make(chan struct{})}
	}
	ended := false
	defer func() {
		if !ended { // fn panicked, or ended its goroutine: undo its writes, and pass the turn on
			_ = b.savepoint("ROLLBACK TO burraco_writer")
			_ = b.savepoint("RELEASE burraco_writer")
			db.handOn(b)
		}
	}()
	if err := b.savepoint("SAVEPOINT burraco_writer"); err != nil {
		ended = true
		db.handOn(b)
		return translateTx(err)
	}
	writes := db.marks.begin()
	defer writes.end() // after the shared commit, or the rollback of this writer's savepoint
	t := &tx{db: b.g.WithContext(db.writeContext(ctx, writes)), dialect: db.dialect, tables: db.tables}
	readOthers := b.members > 0 // fn sees writes of this batch not yet committed
	err = fn(t)
	if err == nil {
		err = ctx.Err() // no commit for a request that has given up
	}
	if err != nil {
		if rerr := b.savepoint("ROLLBACK TO burraco_writer"); rerr == nil {
			_ = b.savepoint("RELEASE burraco_writer")
		}
	} else if err = b.savepoint("RELEASE burraco_writer"); err == nil {
		b.members++
	}
	ended = true
	db.handOn(b)
	if err != nil {
		if readOthers {
			// What fn read and failed on (a version conflict, say) may be
			// a write of this batch not yet committed: the caller may act
			// on it (publish the version it read) only once it is, and
			// not at all when the commit fails.
			<-b.done
			if b.err != nil {
				return translateTx(b.err)
			}
		}
		return translateTx(err)
	}
	<-b.done
	if b.err != nil {
		return translateTx(b.err)
	}
	t.done()
	return nil
}
