package storetest

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"
)

// Postgres's schemas are reused within a test process: when a test ends,
// its schema is emptied (one TRUNCATE of its tables, their sequences
// restarted) and, if it is then what migrations.Up makes (fingerprint),
// handed to a later test of the process instead of a new one. Migrating a
// new schema costs the PostgreSQL server 0.15 to 0.25 s of CPU and dropping
// it 0.04 s (the catalogs' work of 14 migrations, hardly less when their
// SQL, or a dump of the final schema, is sent in one statement), and make
// test opens about 180; with the pool, go test -race ./api cost the server
// 18-23.5 s of CPU against 22-30 s, ./domain 9-10 s against 14. Copies of
// a template database (CREATE DATABASE ... TEMPLATE) cost more than they
// saved: each DROP DATABASE forces a checkpoint.
//
// A process holds a session advisory lock on each schema of its pool, on
// a connection of its own (pool.owner), until it exits; the first
// Postgres of a process drops the pooled schemas whose lock it can take,
// those of processes that have ended.

// poolPrefix names the pooled schemas (PostgresURL's are test_...).
const poolPrefix = "testpool_"

// poolLockClass is the first key of a pooled schema's advisory lock ("tp"
// in ASCII; the migrations' lock is "bu"), the second a hash of its name.
const poolLockClass int32 = 0x7470

var pool struct {
	mu          sync.Mutex
	owner       *sql.Conn // holds the lock of each schema of the pool
	free        []string  // schemas emptied and checked, for the next tests
	fingerprint string    // of the first schema Postgres migrated
}

// takeSchema returns a schema for Postgres: a free one of the pool
// (reused: release checked it), or a new, empty one (open migrates it).
// When the test ends, release empties it and keeps it in the pool or
// drops it.
func takeSchema(t testing.TB) (schema string, reused bool) {
	t.Helper()
	admin := adminDB(t)
	ctx := context.Background()
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if pool.owner == nil {
		owner, err := admin.Conn(ctx)
		if err != nil {
			t.Fatalf("storetest: %v", err)
		}
		if err := dropEnded(ctx, admin, owner); err != nil {
			owner.Close()
			t.Fatalf("storetest: drop the schemas of ended processes: %v", err)
		}
		pool.owner = owner
	}
	if n := len(pool.free); n > 0 {
		schema, pool.free, reused = pool.free[n-1], pool.free[:n-1], true
	} else {
		schema = poolPrefix + randomHex(t, 8)
		if _, err := pool.owner.ExecContext(ctx, "SELECT pg_advisory_lock($1, hashtext($2))", poolLockClass, schema); err != nil {
			t.Fatalf("storetest: lock schema: %v", err)
		}
		if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
			t.Fatalf("storetest: create schema: %v", err)
		}
	}
	t.Cleanup(func() { release(t, admin, schema) })
	return schema, reused
}

// pristine checks, once Postgres has opened and migrated a new schema,
// that it is what migrations.Up makes: the first one of the process is,
// and sets the fingerprint that the others must have (a reused schema was
// checked against it when release kept it).
func pristine(t testing.TB, db *sql.DB) {
	t.Helper()
	var schema string
	if err := db.QueryRow("SELECT current_schema()").Scan(&schema); err != nil {
		t.Fatalf("storetest: %v", err)
	}
	fp, err := fingerprint(context.Background(), db, schema)
	if err != nil {
		t.Fatalf("storetest: fingerprint: %v", err)
	}
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if pool.fingerprint == "" {
		pool.fingerprint = fp
	}
	if fp != pool.fingerprint {
		t.Fatalf("storetest: schema %s is not what migrations.Up makes", schema)
	}
}

// release empties schema at the end of its test and gives it back to the
// pool if it is then as Postgres first gave it, or drops it.
func release(t testing.TB, admin *sql.DB, schema string) {
	ctx := context.Background()
	fp, err := empty(ctx, admin, schema)
	pool.mu.Lock()
	defer pool.mu.Unlock()
	if err == nil && fp == pool.fingerprint {
		pool.free = append(pool.free, schema)
		return
	}
	// The test changed more than rows (or failed before the migrations
	// ended): a new schema will do.
	if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
		t.Errorf("storetest: drop schema: %v", err)
	}
	if _, err := pool.owner.ExecContext(ctx, "SELECT pg_advisory_unlock($1, hashtext($2))", poolLockClass, schema); err != nil {
		t.Errorf("storetest: unlock schema: %v", err)
	}
}

// empty truncates the tables of schema but schema_migrations, restarting
// their sequences, and returns its fingerprint.
func empty(ctx context.Context, admin *sql.DB, schema string) (string, error) {
	var tables sql.NullString
	err := admin.QueryRowContext(ctx, `SELECT string_agg(quote_ident(schemaname) || '.' || quote_ident(tablename), ', ')
		FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations'`, schema).Scan(&tables)
	if err != nil {
		return "", err
	}
	if !tables.Valid {
		return "", errors.New("no tables")
	}
	if _, err := admin.ExecContext(ctx, "TRUNCATE "+tables.String+" RESTART IDENTITY"); err != nil {
		return "", err
	}
	return fingerprint(ctx, admin, schema)
}

// fingerprint sums up what schema holds but its tables' rows (Postgres
// gives and release keeps only empty ones): its relations, columns and
// their defaults, constraints, indexes, triggers, functions, sequences
// and applied migrations, the schema's name left out.
func fingerprint(ctx context.Context, db *sql.DB, schema string) (string, error) {
	q := `SELECT md5(replace(concat_ws(E'\n',
		(SELECT string_agg(relname || ' ' || relkind::text, ',' ORDER BY relname) FROM pg_class WHERE relnamespace = $1::text::regnamespace),
		(SELECT string_agg(c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull || ' ' ||
				coalesce(pg_get_expr(d.adbin, d.adrelid), '-'), ',' ORDER BY c.relname, a.attnum)
			FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
			WHERE c.relnamespace = $1::text::regnamespace AND a.attnum > 0 AND NOT a.attisdropped),
		(SELECT string_agg(conname || ' ' || pg_get_constraintdef(oid), ',' ORDER BY conname) FROM pg_constraint WHERE connamespace = $1::text::regnamespace),
		(SELECT string_agg(indexdef, ',' ORDER BY indexname) FROM pg_indexes WHERE schemaname = $1::text),
		(SELECT string_agg(pg_get_triggerdef(t.oid), ',' ORDER BY t.tgname) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
			WHERE c.relnamespace = $1::text::regnamespace AND NOT t.tgisinternal),
		(SELECT string_agg(pg_get_functiondef(oid), ',' ORDER BY proname) FROM pg_proc WHERE pronamespace = $1::text::regnamespace AND prokind IN ('f', 'p')),
		(SELECT string_agg(sequencename || ' ' || coalesce(last_value::text, '-') || ' ' || start_value || ' ' || increment_by, ',' ORDER BY sequencename)
			FROM pg_sequences WHERE schemaname = $1::text),
		(SELECT string_agg(version || ' ' || name, ',' ORDER BY version) FROM ` + schema + `.schema_migrations)
	), $1::text || '.', ''))`
	var fp string
	err := db.QueryRowContext(ctx, q, schema).Scan(&fp)
	return fp, err
}

// dropEnded drops the pooled schemas of processes that have ended: those
// whose lock owner can take.
func dropEnded(ctx context.Context, admin *sql.DB, owner *sql.Conn) error {
	rows, err := admin.QueryContext(ctx, `SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)`, poolPrefix)
	if err != nil {
		return err
	}
	var schemas []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return err
		}
		schemas = append(schemas, s)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	for _, s := range schemas {
		if !strings.HasPrefix(s, poolPrefix) {
			continue
		}
		var ended bool
		if err := owner.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1, hashtext($2))", poolLockClass, s).Scan(&ended); err != nil {
			return err
		}
		if !ended {
			continue
		}
		_, err := admin.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+s+" CASCADE")
		_, uerr := owner.ExecContext(ctx, "SELECT pg_advisory_unlock($1, hashtext($2))", poolLockClass, s)
		if err := errors.Join(err, uerr); err != nil {
			return err
		}
	}
	return nil
}
