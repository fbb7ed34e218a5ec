package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/burraco/burraco/domain"
)

// Dialects, as returned by DB.Dialect and understood by the migrations package.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// sqlitePragmas are set through the DSN so that every pooled connection gets
// them: write-ahead log, wait up to 5s for a lock, enforce foreign keys, take
// the write lock when a transaction begins (no upgrade deadlocks), and sync
// the log to disk at checkpoints rather than at every commit. In WAL mode
// synchronous=NORMAL loses nothing committed when the process is killed (the
// log is in the operating system's hands once COMMIT returns); a power cut or
// a kernel crash may lose the last transactions committed before it, and
// never corrupts the file. FULL would add an fsync to every commit.
var sqlitePragmas = map[string]string{
	"_journal_mode": "WAL",
	"_busy_timeout": "5000",
	"_foreign_keys": "on",
	"_txlock":       "immediate",
	"_synchronous":  "NORMAL",
}

// sqliteReadPragmas are forced on the connections that serve View: a
// transaction that reads takes no lock at BEGIN (in WAL mode it reads one
// snapshot while a writer goes on), and cannot write. Each keeps a page
// cache of 1 MiB instead of SQLite's 2 MiB: the pages every read needs
// (the tables' and indexes' upper levels) fit, the rest comes from the
// kernel's cache, and a thousand playing tables fill every connection's
// cache whatever its size (issue 30: 1,000 tables under 150 MB).
var sqliteReadPragmas = map[string]string{
	"_txlock":     "deferred",
	"_query_only": "1",
	"_cache_size": "-1024",
}

// DB is an open database. It implements domain.Storage.
//
// On a SQLite file it holds two pools: one connection for the write
// transactions of this process, which queue for it in Go (a SQLite writer
// that waits for the lock sleeps in its busy handler, which makes the slow
// tail of a write load), and a pool of read-only connections for View. On
// PostgreSQL, and on an in-memory SQLite, one pool does both.
type DB struct {
	gorm *gorm.DB // write transactions
	read *gorm.DB // View
	// readOne is read for ViewOne: on SQLite with GORM's cache of prepared
	// statements (see openSQLite).
	readOne *gorm.DB
	sql     *sql.DB
	readSQL *sql.DB
	dialect string
	ckpt    *checkpointer // SQLite file: background checkpoints
	// writers take turns at the one write connection of a SQLite file (see
	// batch.go), each waiting at most busyTimeout (SQLite's own
	// busy_timeout) for its turn.
	batched     bool
	writers     writers
	commits     atomic.Int64 // shared write transactions committed (tests)
	batchSizes  batchSizes   // committed shared transactions by writers (metrics.go)
	commitTimes commitTimes  // SQLite: how long their COMMITs took (commit_times.go)
	writerStmts *writerStmts // SQLite: the write connection's prepared statements (writer_stmts.go)
	busyTimeout time.Duration
	url         string // PostgreSQL: for the tables' listener's own connection
	tables      *tableCache
	marks       *writeMarks       // what the write transactions wrote (write_marks.go)
	owned       ownedVersions     // the owners' versions to announce in the second's list (table_feed_owned.go)
	ownedWrites ownedWrites       // and the records its play wrote (write_marks_owned.go)
	release     func()            // SQLite file: drops the hold a restore waits for (backup.go)
	stmts       *statementCounter // PostgreSQL: what this process sends it (statements.go)
	leasePool   leasePool         // PostgreSQL: the lease renewals' own connection (leases.go)
	moves       *moveBatches      // PostgreSQL: the owners' one-statement moves, sent in batches (move_batches.go)
	foreign     foreignCommits    // SQLite file: other processes' commits, for the users' followers (user_feed_sqlite.go)
}

var _ domain.Storage = (*DB)(nil)

// Open connects to databaseURL: a postgres:// or postgresql:// URL selects
// PostgreSQL (through pgx); anything else is the path of a SQLite file
// (optionally prefixed by sqlite:// or file:), created on first use along
// with its directory; a new file is readable by its owner only (0600). Open
// checks the connection before returning.
//
// A new SQLite connection switches the file to WAL, which needs a moment of
// exclusive access: when several processes open a new file at once, SQLite
// may answer "database is locked" at once instead of waiting on
// busy_timeout, so a busy answer while opening is retried for a few seconds.
//
// A SQLite file is held (HoldSQLite) from Open to Close, so that a restore
// refuses to replace it meanwhile; while a restore runs, Open fails with
// ErrRestoring.
func Open(ctx context.Context, databaseURL string) (*DB, error) {
	deadline := time.Now().Add(5 * time.Second)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		db, dialect, err := open(ctx, databaseURL)
		if err == nil {
			return db, nil
		}
		if dialect == "" { // the URL itself is wrong; its error says so
			return nil, err
		}
		if dialect != SQLite || !isBusy(err) || time.Now().After(deadline) {
			return nil, fmt.Errorf("store: open %s: %w", dialect, err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("store: open %s: %w", dialect, err)
		case <-time.After(wait):
		}
	}
}

func open(ctx context.Context, databaseURL string) (*DB, string, error) {
	if databaseURL == "" {
		return nil, "", errors.New("store: empty database URL")
	}
	if strings.HasPrefix(databaseURL, "postgres://") || strings.HasPrefix(databaseURL, "postgresql://") {
		stmts := &statementCounter{}
		sqlDB, err := openPgx(databaseURL, stmts)
		if err != nil {
			return nil, Postgres, err
		}
		g, err := openGORM(postgres.New(postgres.Config{Conn: sqlDB})) // pgx keeps prepared statements itself
		if err != nil {
			sqlDB.Close()
			return nil, Postgres, err
		}
		if err := registerAppends(g); err != nil {
			sqlDB.Close()
			return nil, Postgres, err
		}
		sqlDB.SetMaxOpenConns(25)
		sqlDB.SetMaxIdleConns(25)
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
		// The owners' move batches have a pool of their own, as many
		// connections as batches on the wire (move_batches.go): in the
		// main pool they waited behind transactions (a hundred matches
		// ending within a second, at bots' pace, took its 25 connections,
		// and the moves of the tables still playing queued for one).
		movesDB, err := openPgx(databaseURL, stmts)
		if err != nil {
			sqlDB.Close()
			return nil, Postgres, err
		}
		movesDB.SetMaxOpenConns(movesOnTheWire)
		movesDB.SetMaxIdleConns(movesOnTheWire)
		movesDB.SetConnMaxIdleTime(5 * time.Minute)
		db := &DB{gorm: g, read: g, readOne: g, sql: sqlDB, readSQL: sqlDB, dialect: Postgres, url: databaseURL, tables: newTableCache(),
			marks: newWriteMarks(false), stmts: stmts, moves: newMoveBatches(movesDB)}
		return db, Postgres, db.ping(ctx)
	}
	return openSQLite(ctx, databaseURL)
}

// synchronousCommit is PostgreSQL's setting of whether COMMIT waits for
// the flush of the WAL to disk. The store's sessions commit without
// waiting (off) unless the URL sets it (synchronous_commit=on): the
// guarantee of SQLite's synchronous=NORMAL (db.go's sqlitePragmas). A
// commit is in PostgreSQL's hands when it returns, visible to every other
// session at once, and a crash of a serve process loses nothing
// acknowledged; a crash of PostgreSQL itself, or of its machine, may lose
// the commits of the last moments before it (at most three times
// wal_writer_delay, 600 ms by default), and never corrupts the database.
// Waiting for the disk at each commit cost 1,000 tables at human pace on
// two processes a p99 move of 450 ms against 50 ms, on a virtual disk whose
// flushes stall now and then (docs/performance.md, 2026-11-29).
const synchronousCommit = "synchronous_commit"

// openPgx opens the pool of a PostgreSQL URL through pgx's database/sql
// driver, its statements, preparations, connections and pings counted by
// stmts. pgx's default mode is kept: each statement is prepared once per
// connection (a parse and plan on the backend) and then only bound and run.
func openPgx(databaseURL string, stmts *statementCounter) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		return nil, err
	}
	cfg.Tracer = stmts
	if _, set := cfg.RuntimeParams[synchronousCommit]; !set {
		cfg.RuntimeParams[synchronousCommit] = "off"
	}
	return stdlib.OpenDB(*cfg,
		stdlib.OptionAfterConnect(func(context.Context, *pgx.Conn) error {
			stmts.connects.Add(1)
			return nil
		}),
		// database/sql's ResetSession pings a connection idle for over a
		// second before handing it out (pgx's default, kept): a round
		// trip of its own, counted.
		stdlib.OptionShouldPing(func(_ context.Context, p stdlib.ShouldPingParams) bool {
			ping := p.IdleDuration > time.Second
			if ping {
				stmts.pings.Add(1)
			}
			return ping
		}),
	), nil
}

// openGORM opens GORM on a dialector.
func openGORM(dialector gorm.Dialector) (*gorm.DB, error) {
	g, err := gorm.Open(dialector, &gorm.Config{
		Logger:                 logger.Discard,
		SkipDefaultTransaction: true,
		DisableAutomaticPing:   true,
		// GORM writes LIMIT and OFFSET into the SQL text, so paging
		// makes new statements: its cache of prepared statements (used
		// by ViewOne on SQLite) keeps the most recent.
		PrepareStmtMaxSize: stmtCacheSize,
		NowFunc:            func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
	})
	if err != nil {
		return nil, err
	}
	return g, registerChecks(g)
}

// stmtCacheSize bounds the prepared statements GORM keeps per pool.
const stmtCacheSize = 512

// openSQLitePool opens a pool of connections to a SQLite DSN with the
// driver, with GORM over it.
func (db *DB) openSQLitePool(driver, dsn string) (*gorm.DB, *sql.DB, error) {
	sqlDB, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, nil, err
	}
	g, err := openGORM(sqlite.New(sqlite.Config{Conn: sqlDB}))
	if err != nil {
		sqlDB.Close()
		return nil, nil, err
	}
	return g, sqlDB, nil
}

func openSQLite(ctx context.Context, location string) (*DB, string, error) {
	path, params, err := sqliteParams(location)
	if err != nil {
		return nil, "", err
	}
	memory := strings.Contains(location, ":memory:")
	if !memory {
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return nil, "", fmt.Errorf("store: create database directory: %w", err)
			}
		}
	}
	release := func() {}
	driver := sqlite.DriverName
	if !memory {
		if release, err = HoldSQLite(path); err != nil {
			return nil, "", err
		}
		if err := createPrivate(path); err != nil {
			release()
			return nil, "", err
		}
		registerWriterDriver()
		driver = sqliteWriterDriver
	}
	db := &DB{dialect: SQLite, batched: true, busyTimeout: busyTimeout(params), tables: newTableCache(),
		marks: newWriteMarks(true), release: release, writerStmts: newWriterStmts()}
	db.gorm, db.sql, err = db.openSQLitePool(driver, path+"?"+params.Encode())
	if err != nil {
		db.release()
		return nil, SQLite, err
	}
	// The writer connects first, so that the file is in WAL mode before a
	// read-only connection opens it.
	db.sql.SetMaxOpenConns(1)
	db.sql.SetMaxIdleConns(1)
	db.read, db.readSQL = db.gorm, db.sql
	db.readOne = db.prepared(db.read)
	if err := db.ping(ctx); err != nil || memory { // each connection to :memory: is a new database
		return db, SQLite, err
	}
	if db.ckpt, err = newCheckpointer(path, path+"?"+params.Encode(), db.busyTimeout, db.writersWait); err != nil {
		db.Close()
		return nil, SQLite, err
	}
	for k, v := range sqliteReadPragmas {
		params.Set(k, v)
	}
	db.read, db.readSQL, err = db.openSQLitePool(sqlite.DriverName, path+"?"+params.Encode())
	if err != nil {
		db.Close()
		return nil, SQLite, err
	}
	n := max(4, runtime.NumCPU())
	db.readSQL.SetMaxOpenConns(n)
	db.readSQL.SetMaxIdleConns(n) // keep them, and their prepared statements
	db.readOne = db.prepared(db.read)
	return db, SQLite, db.ping(ctx)
}

// prepared is g with GORM's cache of prepared statements, for ViewOne on
// SQLite (go-sqlite3 prepares every statement it is given as text).
//
// Only ViewOne's statements, which run outside a transaction, use it. GORM
// keeps a statement first prepared inside a transaction bound to that
// transaction, so every later transaction prepares it again: no gain for
// View and InTx. And a statement it prepares outside a transaction needs a
// free connection, while the transactions that meet it meanwhile wait for
// that preparation holding theirs: with all the read connections held so,
// the reads stopped for good (a load run of 100 tables did). So View runs
// unprepared: the load run's CPU per move was 0.7-0.9 ms with a pool of
// statements kept across transactions (the hand-made one this replaced)
// and 0.76-1.2 ms without, over eight runs each (2026-11-28, a loaded
// machine: inside its noise, at most about 0.1 ms). InTx's statements on
// SQLite are prepared on the write connection between its transactions,
// when the writer's turn says it is free (writer_stmts.go).
func (db *DB) prepared(g *gorm.DB) *gorm.DB {
	return g.Session(&gorm.Session{PrepareStmt: true})
}

// ping checks both pools, closing them on failure.
func (db *DB) ping(ctx context.Context) error {
	var one int
	err := db.sql.QueryRowContext(ctx, "SELECT 1").Scan(&one)
	if err == nil && db.readSQL != db.sql {
		err = db.Ping(ctx)
	}
	if err == nil && db.moves != nil {
		// The move batches' connection opened now, not by the first
		// batch: a round's first moves wait for that batch.
		err = db.moves.pool.PingContext(ctx)
	}
	if err != nil {
		db.Close()
	}
	return err
}

// createPrivate creates a new, empty database file readable by its owner
// only (0600), before SQLite would create it 0644: it holds the JWT signing
// secret and the password hashes. SQLite gives the -wal and -shm files the
// mode of the database file. An existing file is left as it is: its mode is
// the operator's choice.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: create database file: %w", err)
	}
	return f.Close()
}

// sqliteParams splits a SQLite location into the file path and the
// go-sqlite3 DSN parameters with our pragmas (parameters the caller gave
// win).
func sqliteParams(location string) (path string, params url.Values, err error) {
	rest := strings.TrimPrefix(location, "sqlite://")
	rest = strings.TrimPrefix(rest, "file:")
	path, query, _ := strings.Cut(rest, "?")
	if path == "" {
		return "", nil, errors.New("store: empty SQLite path")
	}
	params, err = url.ParseQuery(query)
	if err != nil {
		return "", nil, fmt.Errorf("store: bad SQLite parameters: %w", err)
	}
	for k, v := range sqlitePragmas {
		if !params.Has(k) {
			params.Set(k, v)
		}
	}
	return path, params, nil
}

// busyTimeout is the DSN's busy timeout (go-sqlite3 reads _busy_timeout or
// _timeout, in milliseconds). It is capped before the conversion, which
// would overflow into a negative wait past 292 years (issue 19).
func busyTimeout(params url.Values) time.Duration {
	const maxMs = math.MaxInt64 / int64(time.Millisecond)
	for _, k := range []string{"_busy_timeout", "_timeout"} {
		if ms, err := strconv.ParseInt(params.Get(k), 10, 64); err == nil && ms >= 0 {
			return time.Duration(min(ms, maxMs)) * time.Millisecond
		}
	}
	return 5 * time.Second
}

// Close closes the database.
func (db *DB) Close() error {
	var err error
	db.marks.close()
	db.foreign.close()
	if db.ckpt != nil {
		err = db.ckpt.close()
		db.ckpt = nil
	}
	if db.readOne != nil {
		if p, ok := db.readOne.Statement.ConnPool.(*gorm.PreparedStmtDB); ok {
			p.Close()
		}
	}
	if db.writerStmts != nil {
		db.writerStmts.close()
	}
	err = errors.Join(err, db.sql.Close(), db.leasePool.close())
	if db.moves != nil {
		err = errors.Join(err, db.moves.pool.Close())
	}
	if db.readSQL != nil && db.readSQL != db.sql {
		err = errors.Join(err, db.readSQL.Close())
	}
	if db.release != nil { // after the last connection has closed
		db.release()
		db.release = nil
	}
	return err
}

// Ping checks that the database answers a query (for readiness probes). On
// SQLite it asks a reader, which a long write transaction does not hold up.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	return db.readSQL.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// SQL returns the pool that writes, e.g. for migrations.
func (db *DB) SQL() *sql.DB { return db.sql }

// Dialect returns "sqlite" or "postgres".
func (db *DB) Dialect() string { return db.dialect }

// InTx implements domain.Storage. On SQLite the write transactions of this
// process take turns on one connection, several sharing one SQLite
// transaction when they queue (see batch.go); one that waits longer than
// the busy timeout for its turn is EUnavailable, as if SQLite had refused
// the lock.
func (db *DB) InTx(ctx context.Context, fn func(tx domain.Tx) error) error {
	if db.batched {
		return db.inBatch(ctx, fn)
	}
	var t *tx
	writes := db.marks.begin()
	defer writes.end()
	appends := &pendingAppends{} // sent with the table's update (appends.go)
	statements := withAppends(db.writeContext(ctx, writes), appends)
	// The transaction's own context, which the driver's COMMIT (and
	// ROLLBACK) run with, is not the request's: a request that ends while
	// its COMMIT is on the wire would otherwise get "context canceled"
	// from pgx whether or not PostgreSQL committed, and this process would
	// not learn what it wrote (its tables' cache, an owner's game, the
	// polls' notifier) while the database holds it. Its statements still
	// run with the request's context: one cut short fails the transaction,
	// which then commits nothing; a request that has given up before the
	// COMMIT is not committed (below).
	committing, cancel := context.WithTimeout(context.WithoutCancel(statements), sentWriteTimeout)
	defer cancel()
	err := db.gorm.WithContext(committing).Transaction(func(g *gorm.DB) error {
		t = &tx{db: g.WithContext(statements), dialect: db.dialect, tables: db.tables, appends: appends}
		if err := t.fence(ctx); err != nil { // leases.go
			return err
		}
		if err := fn(t); err != nil {
			return err
		}
		if err := t.flushAppends(); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err // no commit for a request that has given up
		}
		return t.announceWrites(writes)
	})
	if err == nil {
		t.done()
		db.owned.add(t.deferred) // table_feed_owned.go
		db.ownedWrites.add(t.deferredWrites)
		if db.ckpt != nil {
			db.ckpt.written()
		}
	}
	return translateTx(err)
}

// View implements domain.Storage: a read-only transaction. On PostgreSQL it
// is repeatable-read; on SQLite a deferred transaction on a read-only
// connection, which in WAL mode reads one snapshot without taking the write
// lock.
func (db *DB) View(ctx context.Context, fn func(tx domain.Tx) error) error {
	var opts *sql.TxOptions
	if db.dialect == Postgres {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	return translateTx(db.read.WithContext(db.queryContext(ctx)).Transaction(func(g *gorm.DB) error {
		t := &tx{db: g, dialect: db.dialect, tables: db.tables}
		if err := fn(t); err != nil {
			return err
		}
		t.done() // read only: what it read is committed
		return nil
	}, opts))
}

// ViewOne implements domain.Storage: fn's one query runs on its own, on the
// read pool.
func (db *DB) ViewOne(ctx context.Context, fn func(tx domain.Tx) error) error {
	one := &oneQuery{}
	one.budget.Store(1)
	one.tx = tx{db: db.readOne.WithContext(db.oneQueryContext(ctx, one)), dialect: db.dialect, tables: db.tables}
	err := fn(&one.tx)
	if err == nil {
		one.tx.done() // read only: what it read is committed
	}
	return translateTx(err)
}

// oneQuery is what a ViewOne needs, in one allocation: its transaction,
// the number of queries fn may still make, and on SQLite its context.
type oneQuery struct {
	tx     tx
	budget atomic.Int32
	ctx    sqliteContext
}

// oneQueryContext is queryContext with one's budget under oneQueryKey.
func (db *DB) oneQueryContext(ctx context.Context, one *oneQuery) context.Context {
	if db.dialect != SQLite {
		return context.WithValue(ctx, oneQueryKey{}, &one.budget)
	}
	one.ctx = sqliteContext{caller: ctx, budget: &one.budget}
	return &one.ctx
}

// queryContext is the context the driver sees. go-sqlite3 starts a
// goroutine for every statement and every row it steps through when the
// context can be cancelled (to interrupt SQLite), which cost more than the
// query; so on SQLite the driver gets a context that cannot be
// (sqliteContext), and the caller's is checked before each statement
// instead (callerKey). Our statements take milliseconds; a request that has
// given up stops at the next one, and InTx does not commit it. (ctx.Done
// is not asked here: the API's request context makes its deadline's timer
// only when somebody does.)
func (db *DB) queryContext(ctx context.Context) context.Context {
	if db.dialect != SQLite {
		return ctx
	}
	return &sqliteContext{caller: ctx}
}

// writeContext is queryContext for a write transaction: the statements
// run with it note what they write in w (write_marks.go).
func (db *DB) writeContext(ctx context.Context, w *writeSet) context.Context {
	if db.dialect != SQLite {
		return context.WithValue(ctx, writeSetKey{}, w)
	}
	return &sqliteContext{caller: ctx, writes: w}
}

// sqliteContext is the context SQLite statements run with: never done
// (context.WithoutCancel), with the caller's values, the caller itself
// under callerKey and, in a ViewOne, the budget under oneQueryKey. One
// type rather than three wrappings: a point read makes a few allocations
// in all, and these were three of them.
type sqliteContext struct {
	caller context.Context
	budget *atomic.Int32 // nil outside a ViewOne
	writes *writeSet     // nil outside a write transaction
}

func (*sqliteContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (*sqliteContext) Done() <-chan struct{}       { return nil }
func (*sqliteContext) Err() error                  { return nil }

func (c *sqliteContext) Value(key any) any {
	switch key {
	case callerKey{}:
		return c.caller
	case oneQueryKey{}:
		if c.budget == nil {
			return nil // not a typed nil: checkQuery asks whether there is one
		}
		return c.budget
	case writeSetKey{}:
		if c.writes == nil {
			return nil
		}
		return c.writes
	}
	return c.caller.Value(key)
}

type (
	// callerKey holds the caller's context behind a queryContext.
	callerKey struct{}
	// oneQueryKey marks the context of a ViewOne; its value is the number
	// of queries fn may still make.
	oneQueryKey struct{}
)

var (
	errSecondQuery = domain.ErrSecondQuery
	errWriteInView = errors.New("store: a write in ViewOne")
)

// registerChecks registers the GORM callbacks that run before each
// statement: the caller's context must not be done, and a ViewOne keeps its
// promise of one query and no writes.
func registerChecks(g *gorm.DB) error {
	before := func(write bool) func(*gorm.DB) {
		return func(g *gorm.DB) {
			if err := checkQuery(g.Statement.Context, write); err != nil {
				_ = g.AddError(err)
			}
		}
	}
	// After each statement that may write, the write transaction notes the
	// table it wrote (write_marks.go).
	noted := func(g *gorm.DB) {
		if g.Statement.SQL.Len() > 0 {
			noteWrite(g.Statement.Context, g.Statement.SQL.String())
		}
	}
	cb := g.Callback()
	return errors.Join(
		cb.Raw().After("gorm:raw").Register("burraco:noted", noted),
		cb.Create().After("gorm:create").Register("burraco:noted", noted),
		cb.Update().After("gorm:update").Register("burraco:noted", noted),
		cb.Delete().After("gorm:delete").Register("burraco:noted", noted),
		cb.Query().Before("gorm:query").Register("burraco:before", before(false)),
		cb.Row().Before("gorm:row").Register("burraco:before", before(false)),
		cb.Raw().Before("gorm:raw").Register("burraco:before", before(true)),
		cb.Create().Before("gorm:create").Register("burraco:before", before(true)),
		cb.Update().Before("gorm:update").Register("burraco:before", before(true)),
		cb.Delete().Before("gorm:delete").Register("burraco:before", before(true)),
	)
}

// Secret returns the named secret from the settings table, creating it with
// generate when it does not exist yet; created reports whether this call
// stored it. Concurrent callers (also in other processes sharing a
// PostgreSQL database) all get the same secret.
func (db *DB) Secret(ctx context.Context, name string, generate func() ([]byte, error)) (secret []byte, created bool, err error) {
	err = db.InTx(ctx, func(t domain.Tx) error {
		secret, created, err = getOrCreateSecret(t.Settings(), name, generate)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return secret, created, nil
}
