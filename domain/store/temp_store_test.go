package store_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain/store/storetest"
)

// TestAWritersSavepointJournalMakesNoTemporaryFile: the writers of a batch
// write under savepoints of one transaction, so SQLite copies every page
// they change to a statement journal; on the write connection that
// journal stays in memory (temp_store = MEMORY) instead of spilling to a
// file deleted on close, whose close waited for the disk (checkpoint.go).
func TestAWritersSavepointJournalMakesNoTemporaryFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/fd")
	}
	db := storetest.SQLite(t)
	ctx := context.Background()
	conn, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE TABLE scratch (id INTEGER PRIMARY KEY, body BLOB)")
	exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) INSERT INTO scratch SELECT i, randomblob(1000) FROM n")
	exec("BEGIN")
	defer conn.ExecContext(ctx, "ROLLBACK") //nolint:errcheck
	exec("SAVEPOINT writer")
	exec("UPDATE scratch SET body = randomblob(1000)") // ~500 KB of pages: past the 64 KiB a file-backed journal keeps in memory
	if files := temporaryFiles(t); len(files) > 0 {
		t.Errorf("the write connection's statement journal is in files %v, want memory", files)
	}
	exec("RELEASE writer")
}

// temporaryFiles lists this process's open SQLite temporary files (named
// etilqs_*, unlinked when opened).
func temporaryFiles(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if err == nil && strings.Contains(target, "etilqs_") {
			files = append(files, target)
		}
	}
	return files
}
