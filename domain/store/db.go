// Package store implements domain.Storage with GORM on SQLite (a file) or
// PostgreSQL. It is the only package that knows GORM and the SQL drivers:
// its models are separate from the domain types, and driver errors are
// translated into *domain.Error here, once.
//
// The schema is created by the migrations package, never by GORM.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

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
// them: write-ahead log, wait up to 5s for a lock, enforce foreign keys, and
// take the write lock when a transaction begins (no upgrade deadlocks).
var sqlitePragmas = map[string]string{
	"_journal_mode": "WAL",
	"_busy_timeout": "5000",
	"_foreign_keys": "on",
	"_txlock":       "immediate",
}

// DB is an open database. It implements domain.Storage.
type DB struct {
	gorm    *gorm.DB
	sql     *sql.DB
	dialect string
	url     string // for the tables' listener's own connection (PostgreSQL)
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
	dialector, dialect, err := dialectorFor(databaseURL)
	if err != nil {
		return nil, dialect, err
	}
	g, err := gorm.Open(dialector, &gorm.Config{
		Logger:                 logger.Discard,
		SkipDefaultTransaction: true,
		DisableAutomaticPing:   true,
		NowFunc:                func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
	})
	if err != nil {
		return nil, dialect, err
	}
	sqlDB, err := g.DB()
	if err != nil {
		return nil, dialect, err
	}
	db := &DB{gorm: g, sql: sqlDB, dialect: dialect, url: databaseURL}
	db.tunePool(databaseURL)
	if err := db.Ping(ctx); err != nil {
		sqlDB.Close()
		return nil, dialect, err
	}
	return db, dialect, nil
}

func dialectorFor(databaseURL string) (gorm.Dialector, string, error) {
	if databaseURL == "" {
		return nil, "", errors.New("store: empty database URL")
	}
	if strings.HasPrefix(databaseURL, "postgres://") || strings.HasPrefix(databaseURL, "postgresql://") {
		return postgres.Open(databaseURL), Postgres, nil
	}
	path, dsn, err := sqliteDSN(databaseURL)
	if err != nil {
		return nil, "", err
	}
	if path != ":memory:" {
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return nil, "", fmt.Errorf("store: create database directory: %w", err)
			}
		}
		if err := createPrivate(path); err != nil {
			return nil, "", err
		}
	}
	return sqlite.Open(dsn), SQLite, nil
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

// sqliteDSN turns a SQLite location into the file path and a go-sqlite3 DSN
// with our pragmas (parameters the caller gave win).
func sqliteDSN(location string) (path, dsn string, err error) {
	rest := strings.TrimPrefix(location, "sqlite://")
	rest = strings.TrimPrefix(rest, "file:")
	path, query, _ := strings.Cut(rest, "?")
	if path == "" {
		return "", "", errors.New("store: empty SQLite path")
	}
	params, err := url.ParseQuery(query)
	if err != nil {
		return "", "", fmt.Errorf("store: bad SQLite parameters: %w", err)
	}
	for k, v := range sqlitePragmas {
		if !params.Has(k) {
			params.Set(k, v)
		}
	}
	return path, path + "?" + params.Encode(), nil
}

func (db *DB) tunePool(databaseURL string) {
	switch {
	case db.dialect == Postgres:
		db.sql.SetMaxOpenConns(25)
		db.sql.SetMaxIdleConns(25)
		db.sql.SetConnMaxIdleTime(5 * time.Minute)
	case strings.Contains(databaseURL, ":memory:"):
		// Each connection to :memory: is a new, empty database.
		db.sql.SetMaxOpenConns(1)
	default:
		db.sql.SetMaxOpenConns(max(4, runtime.NumCPU()))
	}
}

// Close closes the database.
func (db *DB) Close() error { return db.sql.Close() }

// Ping checks that the database answers a query (for readiness probes).
func (db *DB) Ping(ctx context.Context) error {
	var one int
	return db.sql.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// SQL returns the underlying pool, e.g. for migrations.
func (db *DB) SQL() *sql.DB { return db.sql }

// Dialect returns "sqlite" or "postgres".
func (db *DB) Dialect() string { return db.dialect }

// InTx implements domain.Storage.
func (db *DB) InTx(ctx context.Context, fn func(tx domain.Tx) error) error {
	return translateTx(db.gorm.WithContext(ctx).Transaction(func(g *gorm.DB) error {
		return fn(&tx{db: g, dialect: db.dialect})
	}))
}

// View implements domain.Storage. On PostgreSQL it is a read-only
// repeatable-read transaction; on SQLite a deferred transaction, which in
// WAL mode reads one snapshot without taking the write lock.
func (db *DB) View(ctx context.Context, fn func(tx domain.Tx) error) error {
	if db.dialect == Postgres {
		opts := &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
		return translateTx(db.gorm.WithContext(ctx).Transaction(func(g *gorm.DB) error {
			return fn(&tx{db: g, dialect: db.dialect})
		}, opts))
	}
	return translateTx(db.gorm.WithContext(ctx).Connection(func(g *gorm.DB) error {
		g = g.Session(&gorm.Session{NewDB: true}) // each query starts afresh
		if err := g.Exec("BEGIN DEFERRED").Error; err != nil {
			return err
		}
		err := fn(&tx{db: g, dialect: db.dialect})
		if rerr := g.WithContext(context.WithoutCancel(ctx)).Exec("ROLLBACK").Error; err == nil {
			err = rerr
		}
		return err
	}))
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
