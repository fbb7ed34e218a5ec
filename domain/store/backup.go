package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gorm.io/driver/sqlite"
)

// Backups and restores of a SQLite file (issue 27). A copy of the file
// alone is not a backup: the last commits may be in the -wal file, and a
// stale -wal left beside a restored file is replayed onto it by SQLite,
// bringing back what the backup did not hold. So a backup is a consistent
// snapshot written by SQLite (VACUUM INTO), and a restore removes the
// -wal, -shm and -journal files before it puts the copy in place, while no
// process has the database open.
//
// Who has it open is told by a lock file beside the database (DB.lock): a
// process that uses the database holds a shared lock on it (flock) for as
// long as it does (HoldSQLite); a restore takes it exclusively, without
// waiting, and so refuses while any holder lives. The kernel drops the
// lock of a process that dies, even by SIGKILL; the file itself stays (a
// lock file removed while another process opens it would let two
// processes each lock a different file). It is a file of its own, not the
// database: SQLite locks byte ranges of the database with fcntl, which on
// NFS is what flock becomes.

// Errors of backups and restores, for the command to word and test.
var (
	ErrBackupExists   = errors.New("store: the backup file exists already")
	ErrDatabaseInUse  = errors.New("store: the database is in use by another process")
	ErrRestoring      = errors.New("store: a restore of the database is in progress")
	ErrCorruptBackup  = errors.New("store: the copy is not a sound SQLite database")
	ErrNotSQLiteFile  = errors.New("store: not a SQLite file")
	ErrSameFile       = errors.New("store: the copy is the database itself")
	ErrNoDatabaseFile = errors.New("store: no database file")
)

// SQLiteFile returns the path of the SQLite file that databaseURL names
// (as Open reads it), or ErrNotSQLiteFile for a PostgreSQL URL or an
// in-memory database.
func SQLiteFile(databaseURL string) (string, error) {
	if databaseURL == "" || strings.HasPrefix(databaseURL, "postgres://") || strings.HasPrefix(databaseURL, "postgresql://") ||
		strings.Contains(databaseURL, ":memory:") {
		return "", ErrNotSQLiteFile
	}
	path, _, err := sqliteParams(databaseURL)
	return path, err
}

// lockPath is the lock file of the database file path.
func lockPath(path string) string { return path + ".lock" }

// HoldSQLite takes a shared hold on the SQLite file at path, which a
// restore waits for no one to have: call it before opening the database
// and release it after closing it. It fails with ErrRestoring while a
// restore runs, rather than wait for one.
func HoldSQLite(path string) (release func(), err error) {
	return lockFile(lockPath(path), false)
}

// BackupSQLite writes a consistent copy of the SQLite file at path into
// dest, readable by its owner only (0600), while other processes may be
// writing the database. It never overwrites dest: an existing one is
// ErrBackupExists. The copy is written by VACUUM INTO into a directory of
// its own (0700) beside dest, so that nobody else can open it before its
// mode is set, and then linked to dest, which fails if dest appeared
// meanwhile.
func BackupSQLite(ctx context.Context, path, dest string) error {
	if err := isFile(path); err != nil {
		return err
	}
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("%w: %s", ErrBackupExists, dest)
	}
	release, err := HoldSQLite(path)
	if err != nil {
		return err
	}
	defer release()
	tmpDir, err := os.MkdirTemp(filepath.Dir(dest), ".burraco-backup-")
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	defer os.RemoveAll(tmpDir)
	tmp := filepath.Join(tmpDir, "backup.db")
	db, err := openPlainSQLite(path)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "VACUUM INTO ?", tmp)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	if err := os.Link(tmp, dest); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%w: %s", ErrBackupExists, dest)
		}
		return fmt.Errorf("store: backup: %w", err)
	}
	return syncDir(filepath.Dir(dest))
}

// RestoreSQLite puts the copy src in place of the SQLite file at path,
// refusing with ErrDatabaseInUse while any process holds the database
// (HoldSQLite) and with ErrCorruptBackup when the copy fails SQLite's
// integrity check. check is then asked about the copy (e.g. whether this
// binary knows its schema); its error refuses the restore. The database's
// -wal, -shm and -journal files are removed, so that nothing of the
// database replaced is replayed onto the copy, and the copy is written
// beside the database, synced, and renamed over it: the database is the
// old one or the copy, never a mix. The restored file is readable by its
// owner only (0600).
func RestoreSQLite(ctx context.Context, src, path string, check func(context.Context, *sql.DB) error) error {
	if err := isFile(src); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("store: restore: %w", err)
	}
	if same(src, path) {
		return ErrSameFile
	}
	release, err := lockFile(lockPath(path), true)
	if err != nil {
		return err
	}
	defer release()
	tmpDir, err := os.MkdirTemp(dir, ".burraco-restore-")
	if err != nil {
		return fmt.Errorf("store: restore: %w", err)
	}
	defer os.RemoveAll(tmpDir)
	tmp := filepath.Join(tmpDir, "restore.db")
	if err := copyFile(src, tmp); err != nil {
		return err
	}
	if err := checkCopy(ctx, tmp, check); err != nil {
		return err
	}
	if err := syncFile(tmp); err != nil { // closing the copy may have written it (a checkpoint)
		return err
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("store: restore: %w", err)
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("store: restore: %w", err)
	}
	return syncDir(dir)
}

// checkCopy runs SQLite's integrity check on the file, then check.
func checkCopy(ctx context.Context, file string, check func(context.Context, *sql.DB) error) error {
	db, err := openPlainSQLite(file)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorruptBackup, err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return fmt.Errorf("%w: %v", ErrCorruptBackup, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("%w: %v", ErrCorruptBackup, err)
	}
	if len(problems) > 0 {
		if len(problems) > 3 {
			problems = append(problems[:3], "and "+strconv.Itoa(len(problems)-3)+" more")
		}
		return fmt.Errorf("%w: %s", ErrCorruptBackup, strings.Join(problems, "; "))
	}
	if check == nil {
		return nil
	}
	return check(ctx, db)
}

// openPlainSQLite opens a SQLite file on one connection, without our
// pragmas (no WAL switch, no migrations): to read it as it is.
func openPlainSQLite(path string) (*sql.DB, error) {
	db, err := sql.Open(sqlite.DriverName, path+"?_busy_timeout=5000")
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// isFile fails with ErrNoDatabaseFile unless path is an existing regular
// file: a backup must not create the database it copies.
func isFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoDatabaseFile, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is not a regular file", ErrNoDatabaseFile, path)
	}
	return nil
}

// same reports whether a and b are the same existing file.
func same(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// copyFile copies src into a new file dst (0600) and syncs it.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("store: restore: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("store: restore: %w", err)
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: restore: %w", err)
	}
	return nil
}

// syncFile flushes a file's contents to disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("store: sync: %w", err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: sync: %w", err)
	}
	return nil
}

// syncDir flushes a directory's entries (a new name, a rename) to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("store: sync: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("store: sync %s: %w", dir, err)
	}
	return nil
}
