package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/migrations"
)

const backupUsage = `usage: burraco backup [-database DB] FILE

  Write a consistent copy of the SQLite database into FILE (a new file,
  readable by its owner only), while the server runs. FILE must not exist.
  For PostgreSQL it prints the pg_dump command to use instead.

flags:
`

const restoreUsage = `usage: burraco restore [-database DB] FILE

  Replace the SQLite database with FILE, a copy written by burraco backup.
  Every server (and burraco command) on the database must be stopped
  first: restore refuses while one holds it. The copy is checked (SQLite's
  integrity check, and a schema this binary knows: serve migrates an older
  one); the database's -wal and -shm files are removed, and the copy is
  put in place at once. For PostgreSQL it prints the pg_restore command to
  use instead.

flags:
`

// runBackup writes a consistent copy of the SQLite database into a new
// file (VACUUM INTO, through store.BackupSQLite).
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, file, code, ok := backupArgs("backup", backupUsage, args, stderr)
	if !ok {
		return code
	}
	path, err := store.SQLiteFile(c.databaseURL)
	if errors.Is(err, store.ErrNotSQLiteFile) {
		return notSQLite(stderr, "backup", c.databaseURL,
			"pg_dump --format=custom --file=%s %s", file)
	}
	if err != nil {
		fmt.Fprintln(stderr, "burraco backup:", err)
		return 2
	}
	switch err := store.BackupSQLite(ctx, path, file); {
	case errors.Is(err, store.ErrBackupExists):
		fmt.Fprintf(stderr, "burraco backup: %s exists already; name a new file (a backup never overwrites one)\n", file)
		return 1
	case errors.Is(err, store.ErrNoDatabaseFile):
		fmt.Fprintf(stderr, "burraco backup: there is no database at %s (-database or DATABASE_URL names it)\n", path)
		return 1
	case errors.Is(err, store.ErrRestoring):
		fmt.Fprintf(stderr, "burraco backup: a restore of %s is in progress; back up when it has ended\n", path)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "burraco backup:", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s into %s\n", path, file)
	return 0
}

// runRestore puts a backup in place of the SQLite database, with no
// process holding it (store.RestoreSQLite), if this binary knows the
// backup's schema.
func runRestore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, file, code, ok := backupArgs("restore", restoreUsage, args, stderr)
	if !ok {
		return code
	}
	path, err := store.SQLiteFile(c.databaseURL)
	if errors.Is(err, store.ErrNotSQLiteFile) {
		return notSQLite(stderr, "restore", c.databaseURL,
			"pg_restore --clean --if-exists --no-owner --dbname=%[2]s %[1]s   (with every server on it stopped)", file)
	}
	if err != nil {
		fmt.Fprintln(stderr, "burraco restore:", err)
		return 2
	}
	var version int
	err = store.RestoreSQLite(ctx, file, path, func(ctx context.Context, db *sql.DB) (err error) {
		version, err = knownSchema(ctx, db)
		return err
	})
	var newer newerSchemaError
	switch {
	case errors.Is(err, store.ErrDatabaseInUse):
		fmt.Fprintf(stderr, "burraco restore: %s is in use: a server (or another burraco command) has it open (%s.lock is held); stop it, then restore\n", path, path)
		return 1
	case errors.Is(err, store.ErrNoDatabaseFile):
		fmt.Fprintf(stderr, "burraco restore: cannot read the copy %s: %v\n", file, err)
		return 1
	case errors.Is(err, store.ErrCorruptBackup):
		fmt.Fprintf(stderr, "burraco restore: %s is not a sound database, nothing restored: %v\n", file, err)
		return 1
	case errors.As(err, &newer):
		fmt.Fprintf(stderr, "burraco restore: %s was written by a newer burraco (migration %04d; this one knows up to %04d), nothing restored: restore it with that version or a later one\n",
			file, newer.version, newer.known)
		return 1
	case errors.Is(err, store.ErrSameFile):
		fmt.Fprintf(stderr, "burraco restore: %s is the database itself; name a backup\n", file)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "burraco restore: nothing restored: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "restored %s from %s (migration %04d); serve applies any later migration at start\n", path, file, version)
	return 0
}

// backupArgs parses backup's and restore's flags and their one FILE.
func backupArgs(name, usage string, args []string, stderr io.Writer) (c config, file string, code int, ok bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	c.flags(fs)
	rest, code, ok := parseInterspersed(fs, args, stderr)
	if !ok {
		return c, "", code, false
	}
	if len(rest) != 1 || rest[0] == "" {
		fs.Usage()
		return c, "", 2, false
	}
	return c, rest[0], 0, true
}

// notSQLite says how to back up or restore a PostgreSQL database, which
// this binary leaves to PostgreSQL's own tools, and fails: nothing was
// done. The URL is shown with its password elided.
func notSQLite(stderr io.Writer, verb, databaseURL, command, file string) int {
	u, err := url.Parse(databaseURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		fmt.Fprintf(stderr, "burraco %s: %q is not a SQLite file (an in-memory database is gone with its process)\n", verb, databaseURL)
		return 2
	}
	fmt.Fprintf(stderr, "burraco %s: the database is PostgreSQL, which burraco leaves to PostgreSQL's own tool:\n  ", verb)
	fmt.Fprintf(stderr, command+"\n", shellQuote(file), shellQuote(u.Redacted()))
	fmt.Fprintln(stderr, "(the password is elided: give it in the URL or in PGPASSWORD)")
	return 1
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	out := []byte{'\''}
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			out = append(out, `'\''`...)
			continue
		}
		out = append(out, s[i])
	}
	return string(append(out, '\''))
}

// newerSchemaError is a copy with a migration this binary does not know.
type newerSchemaError struct{ version, known int }

func (e newerSchemaError) Error() string {
	return fmt.Sprintf("the copy has migration %04d; this binary knows up to %04d", e.version, e.known)
}

// knownSchema returns the newest migration applied to the copy db, and
// fails unless this binary knows every applied one (a copy from an older
// binary is fine: serve migrates it) and there is one at all.
func knownSchema(ctx context.Context, db *sql.DB) (int, error) {
	st, err := migrations.Status(ctx, db, migrations.SQLite)
	if err != nil {
		return 0, fmt.Errorf("reading its migrations: %w", err)
	}
	version, known := 0, 0
	for _, m := range st {
		if m.Name != "unknown" {
			known = max(known, m.Version)
		}
		if m.Applied {
			version = max(version, m.Version)
		}
	}
	if version == 0 {
		return 0, errors.New("it holds no burraco schema (no migration applied)")
	}
	for _, m := range st {
		if m.Applied && (m.Name == "unknown" || m.Version > known) {
			return 0, newerSchemaError{version: version, known: known}
		}
	}
	return version, nil
}
