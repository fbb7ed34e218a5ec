package storetest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

// A migrated PostgreSQL database for a test is a copy of a template
// database (CREATE DATABASE ... TEMPLATE), not a schema migrated anew:
// 50 schemas migrated and dropped cost the PostgreSQL server 9.5 to 13 s
// of CPU (the catalogs' work of 14 migrations, hardly less when their SQL
// or the final schema's dump is sent in one statement), 50 copies made and
// dropped 4 to 7 s, and the test suites open about 180 in make test.
//
// The template holds the migrated schema templateSchema; each copy renames
// it to the copy's own name, so that a test's schema is still unique on
// the server (the listeners' channels and the tests that find them in
// pg_stat_activity go by it), as PostgresURL's schemas are. The template's
// name is a digest of the migrations' source (templateName), so that one
// template serves every test process and run of the same migrations, and
// an edited migration makes a new one (the old ones stay on the server
// until dropped by hand: DROP DATABASE storetest_...).
// TestPostgresCopyIsWhatUpMakes compares a copy with a schema migrated
// anew.

// templateSchema is the schema of the template, renamed in each copy.
const templateSchema = "storetest_template"

// templateLockClass is the first key of the advisory lock under which a
// test process looks for the template and makes it ("ts" in ASCII; the
// migrations' lock is "bu").
const templateLockClass int32 = 0x7473

// copyStrategy is how PostgreSQL copies the template. FILE_COPY copies its
// files after a checkpoint; WAL_LOG (the default of PostgreSQL 15) writes
// every page of the copy, catalogs included, to the WAL: 50 copies made
// and dropped cost the server 8 to 11 s of CPU with it, 4 to 7 with
// FILE_COPY.
const copyStrategy = "FILE_COPY"

var pgTemplate struct {
	once sync.Once
	name string
	err  error
}

// PostgresMigratedURL creates a fresh, migrated PostgreSQL database (a copy
// of the template, dropped when the test ends) and returns a URL whose
// connections use its schema. It skips or fails the test as PostgresURL
// does. Where the migrations' source cannot be read (a binary built with
// -trimpath), it migrates a schema of PostgresURL instead.
func PostgresMigratedURL(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("storetest: PostgreSQL is not used under -short")
	}
	admin := adminDB(t)
	pgTemplate.once.Do(func() { pgTemplate.name, pgTemplate.err = postgresTemplate(admin) })
	if errors.Is(pgTemplate.err, errNoSource) {
		u := PostgresURL(t)
		open(t, u)
		return u
	}
	if pgTemplate.err != nil {
		t.Fatalf("storetest: PostgreSQL template: %v", pgTemplate.err)
	}
	name := "test_" + randomHex(t, 8)
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+pgTemplate.name+strategyClause(admin)); err != nil {
		t.Fatalf("storetest: copy the template: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("storetest: drop database: %v", err)
		}
	})
	if err := execIn(ctx, databaseURL(name, ""), "ALTER SCHEMA "+templateSchema+" RENAME TO "+name); err != nil {
		t.Fatalf("storetest: rename the copy's schema: %v", err)
	}
	return databaseURL(name, name)
}

var errNoSource = errors.New("storetest: the migrations' source is not readable")

// postgresTemplate returns the name of the template database of the
// migrations in this checkout, made first if no test process made it
// before. Processes that start together wait on an advisory lock for the
// one that makes it, which makes it under another name and renames it
// when it is whole: a process that dies in between leaves a database that
// no one copies, dropped by the next one that makes a template.
func postgresTemplate(admin *sql.DB) (string, error) {
	name, err := templateName()
	if err != nil {
		return "", err
	}
	ctx := context.Background()
	conn, err := admin.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1, 0)", templateLockClass); err != nil {
		return "", err
	}
	defer func() { _, _ = conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1, 0)", templateLockClass) }() // or it ends with the connection
	var exists bool
	if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	if err := dropUnfinished(ctx, conn); err != nil {
		return "", err
	}
	building := "storetest_building_" + name[len("storetest_"):]
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	if err := execIn(ctx, databaseURL(building, ""), "CREATE SCHEMA "+templateSchema); err != nil {
		return "", err
	}
	if err := migrate(ctx, databaseURL(building, templateSchema)); err != nil {
		return "", err
	}
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		return "", err
	}
	return name, nil
}

// dropUnfinished drops the templates whose making did not end (the caller
// holds the lock, so no one is making one).
func dropUnfinished(ctx context.Context, conn *sql.Conn) error {
	rows, err := conn.QueryContext(ctx, "SELECT datname FROM pg_database WHERE datname LIKE 'storetest\\_building\\_%'")
	if err != nil {
		return err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		names = append(names, n)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	for _, n := range names {
		if _, err := conn.ExecContext(ctx, "DROP DATABASE "+n+" WITH (FORCE)"); err != nil {
			return err
		}
	}
	return nil
}

// templateName is "storetest_" and a digest of what makes the template:
// the PostgreSQL migrations, the Go code that applies them (its steps
// included) and templateSchema. It reads them from the source tree beside
// this file; errNoSource when it cannot.
func templateName() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errNoSource
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "migrations")
	var paths []string
	for _, pattern := range []string{"postgres/*.sql", "*.go"} {
		found, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return "", err
		}
		for _, p := range found {
			if !strings.HasSuffix(p, "_test.go") {
				paths = append(paths, p)
			}
		}
	}
	if len(paths) == 0 {
		return "", errNoSource
	}
	sort.Strings(paths)
	h := sha256.New()
	fmt.Fprintf(h, "schema %s\n", templateSchema)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("%w: %v", errNoSource, err)
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(p), len(b))
		h.Write(b)
	}
	return "storetest_" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

// migrate applies the migrations to the database of databaseURL.
func migrate(ctx context.Context, databaseURL string) error {
	db, err := store.Open(ctx, databaseURL)
	if err != nil {
		return err
	}
	_, err = migrations.Up(ctx, db.SQL(), db.Dialect())
	return errors.Join(err, db.Close())
}

// execIn runs one statement on a connection of its own to databaseURL,
// closed before it returns.
func execIn(ctx context.Context, databaseURL, statement string) error {
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, statement)
	return errors.Join(err, db.Close())
}

// databaseURL is TEST_DATABASE_URL with its database replaced by name and,
// unless schema is empty, its search_path by schema.
func databaseURL(name, schema string) string {
	u, err := url.Parse(baseURL())
	if err != nil {
		return baseURL() // adminDB has reported it
	}
	u.Path = "/" + name
	if schema != "" {
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
	}
	return asyncCommit(u.String())
}

var strategy struct {
	once   sync.Once
	clause string
}

// strategyClause is the STRATEGY of CREATE DATABASE, which PostgreSQL has
// from version 15 on (before, it always copies files).
func strategyClause(admin *sql.DB) string {
	strategy.once.Do(func() {
		var version int
		if err := admin.QueryRow("SELECT current_setting('server_version_num')::int").Scan(&version); err == nil && version >= 150000 {
			strategy.clause = " STRATEGY " + copyStrategy
		}
	})
	return strategy.clause
}
