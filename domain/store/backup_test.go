package store_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/burraco/burraco/domain/store"
)

// TestRestoreRefusedWhileTheDatabaseIsOpen: an open database (a server,
// an admin command) holds it, so a restore refuses and leaves it as it
// was; once closed, the restore goes through. While the restore runs,
// Open refuses in turn, rather than read a database being replaced.
func TestRestoreRefusedWhileTheDatabaseIsOpen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "burraco.db")
	db := openMigrated(t, path)
	backup := filepath.Join(dir, "backup.db")
	if err := store.BackupSQLite(ctx, path, backup); err != nil {
		t.Fatalf("a backup beside an open database: %v", err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.RestoreSQLite(ctx, backup, path, nil); !errors.Is(err, store.ErrDatabaseInUse) {
		t.Fatalf("restore over an open database: %v, want ErrDatabaseInUse", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("a refused restore changed the database file")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	var openErr error
	err = store.RestoreSQLite(ctx, backup, path, func(context.Context, *sql.DB) error {
		other, err := store.Open(ctx, path)
		if err == nil {
			other.Close()
		}
		openErr = err
		return nil
	})
	if err != nil {
		t.Fatalf("restore over a closed database: %v", err)
	}
	if !errors.Is(openErr, store.ErrRestoring) {
		t.Errorf("Open during a restore: %v, want ErrRestoring", openErr)
	}
	openMigrated(t, path).Close()
}

// TestBackupNeverOverwritesAFile: an existing file at the backup's name is
// left as it was, and no temporary file is left behind.
func TestBackupNeverOverwritesAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "burraco.db")
	openMigrated(t, path).Close()
	backup := filepath.Join(dir, "backup.db")
	if err := os.WriteFile(backup, []byte("yesterday's backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := store.BackupSQLite(context.Background(), path, backup); !errors.Is(err, store.ErrBackupExists) {
		t.Fatalf("backup onto an existing file: %v, want ErrBackupExists", err)
	}
	if b, _ := os.ReadFile(backup); string(b) != "yesterday's backup" {
		t.Fatalf("the existing file now holds %d bytes", len(b))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestBackupOfNoDatabaseCreatesNone: a wrong path is an error, not a new
// empty database backed up.
func TestBackupOfNoDatabaseCreatesNone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "typo.db")
	err := store.BackupSQLite(context.Background(), path, filepath.Join(dir, "backup.db"))
	if !errors.Is(err, store.ErrNoDatabaseFile) {
		t.Fatalf("backup of a missing file: %v, want ErrNoDatabaseFile", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the backup created %s", path)
	}
}
