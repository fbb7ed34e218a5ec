package store

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"gorm.io/gorm"
)

// stmtCacheSize bounds the prepared statements a stmtPool keeps: GORM
// writes LIMIT and OFFSET into the SQL text, so paging makes new ones.
// When it is full the cache starts afresh.
const stmtCacheSize = 512

// stmtPool is the connection pool GORM uses on SQLite: a *sql.DB whose
// statements are prepared once per connection and kept, inside
// transactions too. (go-sqlite3 prepares every statement it is given as
// text; GORM's own PrepareStmt keeps a statement first prepared inside a
// transaction bound to that transaction, so that every later transaction
// prepares it again.)
//
// database/sql can reuse, inside a transaction, a statement prepared on
// the pool (Tx.StmtContext prepares it once on each connection), but
// preparing one on the pool needs a free connection, which a transaction
// that holds the only write connection must not wait for. So a statement
// first met inside a transaction runs unprepared there, and is prepared on
// the pool in the background, for the next time.
type stmtPool struct {
	db *sql.DB

	mu      sync.RWMutex
	stmts   map[string]*sql.Stmt
	pending map[string]bool // being prepared in the background
}

var (
	_ gorm.ConnPool         = (*stmtPool)(nil)
	_ gorm.ConnPoolBeginner = (*stmtPool)(nil)
	_ gorm.GetDBConnector   = (*stmtPool)(nil)
	_ gorm.Tx               = (*stmtTx)(nil)
)

func newStmtPool(db *sql.DB) *stmtPool {
	return &stmtPool{db: db, stmts: map[string]*sql.Stmt{}, pending: map[string]bool{}}
}

func (p *stmtPool) cached(query string) *sql.Stmt {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.stmts[query]
}

// stmt returns the pool's statement for query, preparing it now (the
// caller holds no connection).
func (p *stmtPool) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s := p.cached(query); s != nil {
		return s, nil
	}
	s, err := p.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return p.keep(query, s), nil
}

// keep caches s for query and returns the statement to use: s, or the one
// a concurrent caller cached first.
func (p *stmtPool) keep(query string, s *sql.Stmt) *sql.Stmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	if old := p.stmts[query]; old != nil {
		s.Close()
		return old
	}
	if len(p.stmts) >= stmtCacheSize {
		for q, old := range p.stmts {
			old.Close() // database/sql finishes the uses in flight first
			delete(p.stmts, q)
		}
	}
	p.stmts[query] = s
	return s
}

// prepareLater prepares query on the pool in the background, once.
func (p *stmtPool) prepareLater(query string) {
	p.mu.Lock()
	if p.pending[query] || p.stmts[query] != nil {
		p.mu.Unlock()
		return
	}
	p.pending[query] = true
	p.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if s, err := p.db.PrepareContext(ctx, query); err == nil {
			p.keep(query, s)
		}
		p.mu.Lock()
		delete(p.pending, query)
		p.mu.Unlock()
	}()
}

func (p *stmtPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for q, s := range p.stmts {
		s.Close()
		delete(p.stmts, q)
	}
}

// PrepareContext returns a statement of the caller's own, to close.
func (p *stmtPool) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return p.db.PrepareContext(ctx, query)
}

func (p *stmtPool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

func (p *stmtPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

func (p *stmtPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return p.db.QueryRowContext(ctx, query, args...) // carries the same error
	}
	return s.QueryRowContext(ctx, args...)
}

func (p *stmtPool) BeginTx(ctx context.Context, opts *sql.TxOptions) (gorm.ConnPool, error) {
	tx, err := p.db.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &stmtTx{p: p, tx: tx}, nil
}

func (p *stmtPool) GetDBConn() (*sql.DB, error) { return p.db, nil }

// stmtTx is a transaction of a stmtPool.
type stmtTx struct {
	p  *stmtPool
	tx *sql.Tx
}

func (t *stmtTx) Commit() error   { return t.tx.Commit() }
func (t *stmtTx) Rollback() error { return t.tx.Rollback() }

func (t *stmtTx) StmtContext(ctx context.Context, s *sql.Stmt) *sql.Stmt {
	return t.tx.StmtContext(ctx, s)
}

func (t *stmtTx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return t.tx.PrepareContext(ctx, query)
}

// stmt returns the transaction's form of the pool's statement for query,
// or nil (and has it prepared for next time) when there is none yet.
func (t *stmtTx) stmt(ctx context.Context, query string) *sql.Stmt {
	if s := t.p.cached(query); s != nil {
		return t.tx.StmtContext(ctx, s)
	}
	t.p.prepareLater(query)
	return nil
}

func (t *stmtTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := t.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

func (t *stmtTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

func (t *stmtTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}
