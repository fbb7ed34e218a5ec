package store

import (
	"context"
	"database/sql"
	"sync"
)

// The write connection's prepared statements (SQLite).
//
// go-sqlite3 prepares a statement run without one at every run (parse and
// code generation: sqlite3_prepare_v2) and finalizes it after: 5.5% of the
// server's CPU in a 1,000-table run at human pace, every statement of every
// move's transaction compiled again. GORM's prepared statements do not
// help there: it binds one prepared inside a transaction to that
// transaction (db.go, prepared). The write pool has one connection and the
// writer's turn (batch.go) says when it is free: between two shared
// transactions. So a text run twice inside them is prepared on the pool
// then, once, and each later transaction runs it through Tx.StmtContext,
// which finds it prepared on the connection and binds it again.

// writerStmts are the statements prepared on the write connection, and
// the texts waiting to be.
type writerStmts struct {
	mu      sync.Mutex
	ready   map[string]*sql.Stmt
	seen    map[string]uint8 // texts run in a transaction, not yet prepared: how many times
	pending []string         // seen twice: prepared at the next free moment
}

// maxWriterStmts bounds the statements kept: the store's write texts are a
// few dozen, but a text carrying a list of varying length is a new text
// per length.
const maxWriterStmts = 256

func newWriterStmts() *writerStmts {
	return &writerStmts{ready: map[string]*sql.Stmt{}, seen: map[string]uint8{}}
}

// lookup returns the statement prepared for query, or nil (and counts the
// text toward its preparation).
func (w *writerStmts) lookup(query string) *sql.Stmt {
	w.mu.Lock()
	defer w.mu.Unlock()
	if s, ok := w.ready[query]; ok {
		return s
	}
	if len(w.ready)+len(w.pending) >= maxWriterStmts {
		return nil
	}
	if len(w.seen) >= 4*maxWriterStmts { // texts seen once each: start counting afresh
		clear(w.seen)
	}
	if n := w.seen[query] + 1; n < 2 {
		w.seen[query] = n
	} else if n == 2 {
		w.seen[query] = n
		w.pending = append(w.pending, query)
	}
	return nil
}

// prepare prepares the pending texts on pool, whose connection the caller
// knows free (it holds the writer's turn between two transactions). A text
// that fails to prepare is not tried again.
func (w *writerStmts) prepare(ctx context.Context, pool *sql.DB) {
	w.mu.Lock()
	pending := w.pending
	w.pending = nil
	w.mu.Unlock()
	for _, q := range pending {
		s, err := pool.PrepareContext(ctx, q)
		w.mu.Lock()
		if err == nil {
			w.ready[q] = s
			delete(w.seen, q)
		}
		w.mu.Unlock()
	}
}

// close closes the prepared statements.
func (w *writerStmts) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for q, s := range w.ready {
		s.Close()
		delete(w.ready, q)
	}
}

// writerTx is a shared write transaction as GORM's connection pool: each
// statement runs prepared when the write connection has it.
type writerTx struct {
	*sql.Tx
	stmts *writerStmts
}

func (t *writerTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := t.stmts.lookup(query); s != nil {
		return t.Tx.StmtContext(ctx, s).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

func (t *writerTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := t.stmts.lookup(query); s != nil {
		return t.Tx.StmtContext(ctx, s).QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

func (t *writerTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := t.stmts.lookup(query); s != nil {
		return t.Tx.StmtContext(ctx, s).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}
