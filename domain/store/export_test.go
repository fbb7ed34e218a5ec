package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/lease"
)

// CheckModels reports the first GORM model field that has no column in the
// migrated schema (the SQL migrations are the source of truth).
func CheckModels(db *DB) error {
	models := []any{&userRow{}, &refreshTokenRow{}, &clubRow{}, &membershipRow{}, &playerRow{}, &settingRow{}, &tournamentRow{},
		&refereeRow{}, &tournamentEventRow{}, &idempotencyRow{}}
	m := db.gorm.Migrator()
	for _, model := range models {
		s, err := schema.Parse(model, &cacheStore, db.gorm.NamingStrategy)
		if err != nil {
			return err
		}
		if !m.HasTable(model) {
			return fmt.Errorf("no table %s", s.Table)
		}
		for _, f := range s.Fields {
			if f.DBName != "" && !m.HasColumn(model, f.DBName) {
				return fmt.Errorf("no column %s.%s", s.Table, f.DBName)
			}
		}
	}
	return nil
}

var cacheStore sync.Map

// ReadPool returns the pool that serves View (on PostgreSQL, the only one).
func ReadPool(db *DB) *sql.DB { return db.readSQL }

// ForgetTables empties the table cache, so that the next reads of tables
// read their rows.
func ForgetTables(db *DB) { db.tables.forget() }

// Commits counts the SQLite write transactions committed: writers that
// shared one count once.
func Commits(db *DB) int64 { return db.commits.Load() }

// ExecInTx runs a statement in tx as it is, bypassing the repositories:
// for tests that break the transaction.
func ExecInTx(t domain.Tx, query string) error { return t.(*tx).db.Exec(query).Error }

// Waiting counts the writers queued for their turn.
func Waiting(db *DB) int {
	db.writers.mu.Lock()
	defer db.writers.mu.Unlock()
	return len(db.writers.queue)
}

// ReadPinned reports whether the read pin is held.
func ReadPinned(db *DB) bool { return db.ckpt.pinned.Load() }

// SetRestartLogPages sets the log's length past which a RESTART checkpoint
// runs, until the returned function restores it.
func SetRestartLogPages(n int) (restore func()) {
	was := restartLogPages.Swap(int64(n))
	return func() { restartLogPages.Store(was) }
}

// RestartBackoff is how long no RESTART checkpoint follows one a reader
// kept from completing.
var RestartBackoff = restartBackoff

// WritersWait runs fn in the writers' turn, as the checkpointer's RESTART
// checkpoints do.
func WritersWait(db *DB, fn func()) bool { return db.writersWait(fn) }

// LogRestarts counts the RESTART checkpoints run.
func LogRestarts(db *DB) int64 { return db.ckpt.restarts.Load() }

// ReadPins counts the read pins taken.
func ReadPins(db *DB) int64 { return db.ckpt.pins.Load() }

// CountStatements counts, from now on, the statements db's transactions
// and reads send through GORM (the transactions' BEGIN and COMMIT are not
// statements of GORM's: they are not counted), each with its SQL text.
func CountStatements(db *DB) func() []string {
	var mu sync.Mutex
	var seen []string
	noteSQL := func(q string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, q)
	}
	note := func(g *gorm.DB) { noteSQL(g.Statement.SQL.String()) }
	if db.moves != nil { // the one-statement moves go to pgx in batches, not through GORM
		run := db.moves.run
		db.moves.run = func(ctx context.Context, moves []*sentMove) error {
			for _, m := range moves {
				noteSQL(m.sql)
			}
			return run(ctx, moves)
		}
	}
	cb := db.gorm.Callback()
	for _, err := range []error{
		cb.Create().After("gorm:create").Register("test:count", note),
		cb.Query().After("gorm:query").Register("test:count", note),
		cb.Update().After("gorm:update").Register("test:count", note),
		cb.Delete().After("gorm:delete").Register("test:count", note),
		cb.Row().After("gorm:row").Register("test:count", note),
		cb.Raw().After("gorm:raw").Register("test:count", note),
	} {
		if err != nil {
			panic(err)
		}
	}
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := seen
		seen = nil
		return out
	}
}

// Renewals is the lease renewals' own pool (one connection).
func Renewals(l *Leases) *sql.DB { return l.renewals }

// ExecInWriteTx runs one statement in a write transaction of db (on
// SQLite, one writer of a shared transaction).
func ExecInWriteTx(ctx context.Context, db *DB, query string, args ...any) (int64, error) {
	var n int64
	err := db.InTx(ctx, func(t domain.Tx) error {
		var err error
		n, err = t.(*tx).exec(query, args...)
		return err
	})
	return n, err
}

// WriterStatementPrepared reports whether query is prepared on the write
// connection (SQLite).
func WriterStatementPrepared(db *DB, query string) bool {
	if db.writerStmts == nil {
		return false
	}
	db.writerStmts.mu.Lock()
	defer db.writerStmts.mu.Unlock()
	_, ok := db.writerStmts.ready[query]
	return ok
}

// MoveStatement is a statement of a batch of owners' moves and its
// arguments.
type MoveStatement struct {
	SQL  string
	Args []any
}

// MoveFence is a statement made of an owner's move's fence alone (the
// table's row and lease locked as the move's statement locks them) at
// version: it returns the table's id when the fence holds.
func MoveFence(f lease.Fence, version int64) MoveStatement {
	return MoveStatement{ownedMoveFence + "fenced AS (SELECT 1) SELECT id FROM f", []any{f.Table, f.Owner, f.Epoch, version}}
}

// WriteMovesTogether writes stmts as one batch of the owners' moves
// (move_batches.go: queued, then led) on a PostgreSQL db and returns each
// one's rows changed and error.
func WriteMovesTogether(ctx context.Context, db *DB, stmts ...MoveStatement) ([]int64, []error) {
	ms := make([]*sentMove, len(stmts))
	for i, q := range stmts {
		ms[i] = &sentMove{sql: q.SQL, args: q.Args, turn: make(chan []*sentMove, 1)}
	}
	db.moves.writeTogether(ctx, ms)
	ns, errs := make([]int64, len(ms)), make([]error, len(ms))
	for i, m := range ms {
		ns[i], errs[i] = m.n, m.err
	}
	return ns, errs
}

// writeTogether writes ms in one batch: queued as moves arriving while
// a batch is on the wire, then led.
func (b *moveBatches) writeTogether(ctx context.Context, ms []*sentMove) {
	b.mu.Lock()
	b.sending++
	b.mu.Unlock()
	b.lead(ctx, ms)
}
