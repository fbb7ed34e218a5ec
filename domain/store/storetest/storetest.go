// Package storetest gives tests a fresh, migrated database: a temp-file
// SQLite (a copy of one migrated once per process), or an isolated schema
// of a PostgreSQL server (reused, emptied, by the process's later tests:
// postgres_pool.go). SQLiteURL and PostgresURL give empty ones, for the
// tests that migrate themselves.
//
// PostgreSQL is found through TEST_DATABASE_URL (default
// postgres://burraco:burraco@localhost:5432/burraco_test?sslmode=disable).
// When it is unreachable the PostgreSQL tests are skipped, unless CI=true,
// where they fail; under -short (make quick) they are always skipped.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the pgx database/sql driver

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

// DefaultPostgresURL is used when TEST_DATABASE_URL is not set.
const DefaultPostgresURL = "postgres://burraco:burraco@localhost:5432/burraco_test?sslmode=disable"

// SQLite returns a fresh, migrated SQLite database in a temporary file,
// closed when the test ends. The file is a copy of one migrated once per
// test process (sqliteTemplate): migrating a new file costs about 0.1 s of
// CPU, 0.2 s under the race detector, and the test suites open hundreds.
func SQLite(t testing.TB) *store.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "burraco.db")
	if err := os.WriteFile(path, sqliteTemplate(t), 0o600); err != nil {
		t.Fatalf("storetest: copy the migrated template: %v", err)
	}
	return open(t, path)
}

var sqliteMigrated struct {
	once  sync.Once
	bytes []byte
	err   error
}

// sqliteTemplate returns the bytes of a freshly migrated SQLite file, made
// on first use in a directory removed at once: the file is checkpointed
// and closed, so that it holds everything (no -wal beside it). open
// migrates each copy again, which finds nothing to do, so a test's
// database is still exactly what migrations.Up makes.
func sqliteTemplate(t testing.TB) []byte {
	t.Helper()
	sqliteMigrated.once.Do(func() {
		dir, err := os.MkdirTemp("", "storetest-template-")
		if err != nil {
			sqliteMigrated.err = err
			return
		}
		defer os.RemoveAll(dir)
		sqliteMigrated.bytes, sqliteMigrated.err = migratedSQLite(filepath.Join(dir, "burraco.db"))
	})
	if sqliteMigrated.err != nil {
		t.Fatalf("storetest: migrate the SQLite template: %v", sqliteMigrated.err)
	}
	return sqliteMigrated.bytes
}

func migratedSQLite(path string) ([]byte, error) {
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	_, err = migrations.Up(ctx, db.SQL(), db.Dialect())
	if err == nil {
		_, err = db.SQL().ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	}
	if err = errors.Join(err, db.Close()); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// SQLiteURL returns the location of a fresh, unmigrated SQLite file.
func SQLiteURL(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "burraco.db")
}

// Postgres returns a fresh, migrated PostgreSQL database: a schema of its
// own on the test server, which a later test of the process may reuse,
// emptied, once this one ends (postgres_pool.go).
func Postgres(t testing.TB) *store.DB {
	t.Helper()
	if testing.Short() { // make quick: the edit-test loop runs without a server
		t.Skip("storetest: PostgreSQL is not used under -short")
	}
	schema, reused := takeSchema(t)
	db := open(t, schemaURL(t, schema))
	if !reused {
		pristine(t, db.SQL())
	}
	return db
}

// PostgresURL creates an empty schema of its own on the test server
// (dropped when the test ends) and returns a URL whose connections use it.
// It skips or fails the test as Postgres does when the server is down, and
// skips it under -short.
func PostgresURL(t testing.TB) string {
	t.Helper()
	if testing.Short() { // make quick: the edit-test loop runs without a server
		t.Skip("storetest: PostgreSQL is not used under -short")
	}
	admin := adminDB(t)
	schema := "test_" + randomHex(t, 8)
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("storetest: create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("storetest: drop schema: %v", err)
		}
	})
	return schemaURL(t, schema)
}

// schemaURL is TEST_DATABASE_URL with search_path set to schema.
func schemaURL(t testing.TB, schema string) string {
	t.Helper()
	u, err := url.Parse(baseURL())
	if err != nil {
		t.Fatalf("storetest: bad TEST_DATABASE_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String() // the store commits asynchronously unless a URL says otherwise
}

// asyncCommit adds synchronous_commit=off to a PostgreSQL URL (a run-time
// parameter of each of its connections) unless it sets the parameter, for
// the admin connection, which is not the store's (the store's sessions
// commit so by default): a test's commits need not wait for the WAL's
// flush to disk, which halves the time of making a schema. Other
// connections see them at once all the same; only a crash of the
// PostgreSQL server itself could lose them, and no test stages one.
func asyncCommit(databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return databaseURL // PostgresURL and adminDB report it
	}
	q := u.Query()
	if !q.Has("synchronous_commit") {
		q.Set("synchronous_commit", "off")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// Each runs fn as a subtest on a fresh SQLite database ("sqlite") and on a
// fresh PostgreSQL database ("postgres").
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run(store.SQLite, func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run(store.Postgres, func(t *testing.T) { fn(t, Postgres(t)) })
}

// EachParallel is Each with the two subtests run in parallel with each
// other and with the package's other parallel tests (t.Parallel): for the
// long tests, whose two halves share nothing but what fn captures, which
// they must only read.
func EachParallel(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run(store.SQLite, func(t *testing.T) { t.Parallel(); fn(t, SQLite(t)) })
	t.Run(store.Postgres, func(t *testing.T) { t.Parallel(); fn(t, Postgres(t)) })
}

// Open opens and migrates databaseURL (closed when the test ends): a second
// handle on a PostgresURL, as a second server process would have.
func Open(t testing.TB, databaseURL string) *store.DB {
	t.Helper()
	return open(t, databaseURL)
}

// open opens and migrates databaseURL; the database is closed (before any
// schema is dropped) when the test ends.
func open(t testing.TB, databaseURL string) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, databaseURL)
	if err != nil {
		t.Fatalf("storetest: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("storetest: close: %v", err)
		}
	})
	if _, err := migrations.Up(ctx, db.SQL(), db.Dialect()); err != nil {
		t.Fatalf("storetest: migrate: %v", err)
	}
	return db
}

func baseURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return DefaultPostgresURL
}

var admin struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// adminDB is a process-wide connection to the test server, used to create
// and drop schemas. It skips (or, on CI, fails) the test when the server
// does not answer.
func adminDB(t testing.TB) *sql.DB {
	t.Helper()
	admin.once.Do(func() {
		admin.db, admin.err = sql.Open("pgx", asyncCommit(baseURL()))
		if admin.err != nil {
			return
		}
		admin.db.SetMaxOpenConns(4)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		admin.err = admin.db.PingContext(ctx)
	})
	if admin.err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("storetest: PostgreSQL unreachable at TEST_DATABASE_URL: %v", admin.err)
		}
		t.Skipf("storetest: PostgreSQL unreachable (set TEST_DATABASE_URL): %v", admin.err)
	}
	return admin.db
}

func randomHex(t testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
