// Package migrations holds the versioned SQL schema of the server, one folder
// per dialect (sqlite, postgres), embedded in the binary, and the code that
// applies and reverts it.
//
// A migration is a pair of files NNNN_name.up.sql and NNNN_name.down.sql.
// Applied versions are recorded in the schema_migrations table. Each
// migration runs in its own transaction. On PostgreSQL, Up, Down and Status
// hold a session advisory lock (per schema), so several server processes may
// start at once.
//
// The SQL files are the source of truth for the schema; the store package
// never creates tables itself. Where SQL cannot do a migration's work the
// same way on both databases (folding accents), a Go step of that version
// (goSteps) runs after its SQL, in its transaction.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"time"
)

//go:embed sqlite/*.sql postgres/*.sql
var files embed.FS

// Dialects.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// advisoryLockClass is the first key of the migration lock among PostgreSQL
// advisory locks ("bu" in ASCII); the second is a hash of the current schema,
// so that databases in different schemas (e.g. tests) do not wait for each
// other.
const advisoryLockClass int32 = 0x6275

// MigrationStatus is one known migration and whether it is applied.
type MigrationStatus struct {
	Version   int
	Name      string
	Applied   bool
	AppliedAt *time.Time
}

// migration is one version with its SQL.
type migration struct {
	version  int
	name     string
	up, down string
}

var fileName = regexp.MustCompile(`^(\d+)_([a-z0-9_]+)\.(up|down)\.sql$`)

// load returns the migrations of a dialect ordered by version.
func load(dialect string) ([]migration, error) {
	if dialect != SQLite && dialect != Postgres {
		return nil, fmt.Errorf("migrations: unknown dialect %q", dialect)
	}
	entries, err := fs.ReadDir(files, dialect)
	if err != nil {
		return nil, err
	}
	byVersion := map[int]*migration{}
	for _, e := range entries {
		if err := addFile(byVersion, dialect, e.Name()); err != nil {
			return nil, err
		}
	}
	ms := make([]migration, 0, len(byVersion))
	for _, m := range byVersion {
		if m.up == "" || m.down == "" {
			return nil, fmt.Errorf("migrations: %s version %d lacks its up or down file", dialect, m.version)
		}
		ms = append(ms, *m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

func addFile(byVersion map[int]*migration, dialect, name string) error {
	parts := fileName.FindStringSubmatch(name)
	if parts == nil {
		return fmt.Errorf("migrations: bad file name %s/%s", dialect, name)
	}
	body, err := files.ReadFile(path.Join(dialect, name))
	if err != nil {
		return err
	}
	version, _ := strconv.Atoi(parts[1])
	m := byVersion[version]
	if m == nil {
		m = &migration{version: version, name: parts[2]}
		byVersion[version] = m
	}
	if m.name != parts[2] {
		return fmt.Errorf("migrations: %s version %d has two names", dialect, version)
	}
	if parts[3] == "up" {
		m.up = string(body)
	} else {
		m.down = string(body)
	}
	return nil
}

// Up applies every migration not yet applied, in order, and returns the
// versions it applied (none when the schema is current).
func Up(ctx context.Context, db *sql.DB, dialect string) ([]int, error) {
	ms, err := load(dialect)
	if err != nil {
		return nil, err
	}
	var applied []int
	err = locked(ctx, db, dialect, func(conn *sql.Conn) error {
		for _, m := range ms {
			did, err := apply(ctx, conn, dialect, m, true)
			if err != nil {
				return fmt.Errorf("migrations: up %04d_%s: %w", m.version, m.name, err)
			}
			if did {
				applied = append(applied, m.version)
			}
		}
		return nil
	})
	return applied, err
}

// Down reverts the last steps applied migrations (steps >= 1), newest
// first, and returns the versions it reverted.
func Down(ctx context.Context, db *sql.DB, dialect string, steps int) ([]int, error) {
	if steps < 1 {
		return nil, errors.New("migrations: down needs at least one step")
	}
	ms, err := load(dialect)
	if err != nil {
		return nil, err
	}
	var reverted []int
	err = locked(ctx, db, dialect, func(conn *sql.Conn) error {
		done, err := appliedVersions(ctx, conn)
		if err != nil {
			return err
		}
		for i := len(ms) - 1; i >= 0 && len(reverted) < steps; i-- {
			if _, ok := done[ms[i].version]; !ok {
				continue
			}
			if _, err := apply(ctx, conn, dialect, ms[i], false); err != nil {
				return fmt.Errorf("migrations: down %04d_%s: %w", ms[i].version, ms[i].name, err)
			}
			reverted = append(reverted, ms[i].version)
		}
		return nil
	})
	return reverted, err
}

// Status lists the known migrations, and any applied version this binary
// does not know (Name "unknown"), ordered by version.
func Status(ctx context.Context, db *sql.DB, dialect string) ([]MigrationStatus, error) {
	ms, err := load(dialect)
	if err != nil {
		return nil, err
	}
	var done map[int]time.Time
	err = locked(ctx, db, dialect, func(conn *sql.Conn) error {
		done, err = appliedVersions(ctx, conn)
		return err
	})
	if err != nil {
		return nil, err
	}
	return status(ms, done), nil
}

func status(ms []migration, done map[int]time.Time) []MigrationStatus {
	out := make([]MigrationStatus, 0, len(ms))
	known := map[int]bool{}
	for _, m := range ms {
		known[m.version] = true
		s := MigrationStatus{Version: m.version, Name: m.name}
		if at, ok := done[m.version]; ok {
			s.Applied, s.AppliedAt = true, &at
		}
		out = append(out, s)
	}
	for v, at := range done {
		if !known[v] {
			out = append(out, MigrationStatus{Version: v, Name: "unknown", Applied: true, AppliedAt: &at})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out
}

// locked runs fn on one connection holding the migration lock (PostgreSQL)
// after making sure schema_migrations exists.
func locked(ctx context.Context, db *sql.DB, dialect string, fn func(*sql.Conn) error) (err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if dialect == Postgres {
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1, hashtext(current_schema()))`, advisoryLockClass); err != nil {
			return fmt.Errorf("migrations: lock: %w", err)
		}
		defer func() {
			_, uerr := conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1, hashtext(current_schema()))`, advisoryLockClass)
			if uerr != nil && err == nil {
				err = fmt.Errorf("migrations: unlock: %w", uerr)
			}
		}()
	}
	if err := ensureTable(ctx, conn, dialect); err != nil {
		return err
	}
	return fn(conn)
}

func ensureTable(ctx context.Context, conn *sql.Conn, dialect string) error {
	ts := "TIMESTAMPTZ"
	if dialect == SQLite {
		ts = "DATETIME"
	}
	_, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    BIGINT PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at `+ts+` NOT NULL
	)`)
	if err != nil {
		return fmt.Errorf("migrations: create schema_migrations: %w", err)
	}
	return nil
}

func appliedVersions(ctx context.Context, conn *sql.Conn) (map[int]time.Time, error) {
	rows, err := conn.QueryContext(ctx, `SELECT version, applied_at FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	done := map[int]time.Time{}
	for rows.Next() {
		var v int
		var at time.Time
		if err := rows.Scan(&v, &at); err != nil {
			return nil, err
		}
		done[v] = at.UTC()
	}
	return done, rows.Err()
}

// apply runs one migration up or down in a transaction, unless it is already
// in the wanted state (checked inside the transaction), and reports whether
// it ran.
func apply(ctx context.Context, conn *sql.Conn, dialect string, m migration, up bool) (ran bool, err error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer func() {
		if err != nil || !ran {
			_ = tx.Rollback()
		}
	}()
	var n int
	if err := tx.QueryRowContext(ctx, bind(dialect, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), m.version).Scan(&n); err != nil {
		return false, err
	}
	if (n == 1) == up {
		return false, nil
	}
	if up {
		err = migrateUp(ctx, tx, dialect, m)
	} else {
		err = migrateDown(ctx, tx, dialect, m)
	}
	if err != nil {
		return false, err
	}
	return true, tx.Commit()
}

func migrateUp(ctx context.Context, tx *sql.Tx, dialect string, m migration) error {
	if _, err := tx.ExecContext(ctx, m.up); err != nil {
		return err
	}
	if step := goSteps[m.version]; step != nil {
		if err := step(ctx, tx, dialect); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, bind(dialect, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`),
		m.version, m.name, time.Now().UTC().Truncate(time.Microsecond))
	return err
}

func migrateDown(ctx context.Context, tx *sql.Tx, dialect string, m migration) error {
	if _, err := tx.ExecContext(ctx, m.down); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, bind(dialect, `DELETE FROM schema_migrations WHERE version = ?`), m.version)
	return err
}

// bind rewrites ? placeholders as $1, $2, ... for PostgreSQL.
func bind(dialect, query string) string {
	if dialect != Postgres {
		return query
	}
	out := make([]byte, 0, len(query)+8)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			out = append(out, '$')
			out = strconv.AppendInt(out, int64(n), 10)
			continue
		}
		out = append(out, query[i])
	}
	return string(out)
}
