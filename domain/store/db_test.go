package store_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/burraco/burraco/domain/store"
)

// TestOpenCreatesPrivateFile: a new SQLite file holds the JWT signing secret
// and the password hashes, so Open creates it (and its WAL files) 0600; a
// file the operator created keeps its mode.
func TestOpenCreatesPrivateFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix file modes")
	}
	dir := t.TempDir()
	for _, url := range []string{
		filepath.Join(dir, "new.db"),
		"sqlite://" + filepath.Join(dir, "scheme.db"),
		"file:" + filepath.Join(dir, "sub", "prefix.db") + "?_busy_timeout=1000",
	} {
		t.Run(url, func(t *testing.T) {
			db, err := store.Open(t.Context(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.SQL().ExecContext(t.Context(), "CREATE TABLE probe (x INTEGER)"); err != nil {
				t.Fatal(err) // a write, so that the WAL exists
			}
			path := url
			switch {
			case url[:7] == "sqlite:":
				path = url[len("sqlite://"):]
			case url[:5] == "file:":
				path = filepath.Join(dir, "sub", "prefix.db")
			}
			for _, p := range []string{path, path + "-wal", path + "-shm"} {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != 0o600 {
					t.Errorf("%s: mode %v, want -rw-------", filepath.Base(p), fi.Mode().Perm())
				}
			}
		})
	}

	t.Run("ExistingFileKeepsItsMode", func(t *testing.T) {
		path := filepath.Join(dir, "operator.db")
		if err := os.WriteFile(path, nil, 0o640); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, 0o640); err != nil { // whatever the umask
			t.Fatal(err)
		}
		db, err := store.Open(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want the operator's -rw-r-----", fi.Mode().Perm())
		}
	})

	t.Run("InMemoryCreatesNoFile", func(t *testing.T) {
		wd, _ := os.Getwd()
		for _, url := range []string{":memory:", "file::memory:?cache=shared"} {
			db, err := store.Open(t.Context(), url)
			if err != nil {
				t.Fatalf("%s: %v", url, err)
			}
			db.Close()
		}
		if _, err := os.Stat(filepath.Join(wd, ":memory:")); err == nil {
			os.Remove(filepath.Join(wd, ":memory:"))
			t.Errorf("an in-memory database created the file :memory:")
		}
	})
}
