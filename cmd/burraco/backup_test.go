package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/internal/servertest"
	"github.com/burraco/burraco/migrations"
)

// TestRestoreBringsBackExactlyTheBackup is the restore drill of issue 27
// on the real binary: users registered, a backup taken while serving,
// more users registered, a restore refused while the server runs, the
// server killed (SIGKILL, its -wal left beside the database), the backup
// restored, the server started again: it has exactly the backup's users,
// and none registered after it (a stale -wal replayed onto the copy would
// bring them back). The backup and the restored database are 0600.
func TestRestoreBringsBackExactlyTheBackup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	srv := servertest.Start(t, servertest.Options{Env: []string{"JWT_SECRET=" + strings.Repeat("r", 32)}})
	dbPath := filepath.Join(srv.Dir, "burraco.db")
	backup := filepath.Join(t.TempDir(), "backup.db")
	c := client{t: t, base: srv.URL}
	register := func(emails ...string) {
		for _, e := range emails {
			c.call("POST", "/api/v1/auth/register", "", map[string]string{"email": e, "password": "long-enough-pw", "name": e}, 201, nil)
		}
	}
	register("before1@example.com", "before2@example.com")
	if out, code := runBinary(t, "backup", "-database", dbPath, backup); code != 0 {
		t.Fatalf("backup while serving: exit %d: %s", code, out)
	}
	checkPrivate(t, backup)
	inBackup := emailsOfFile(t, backup)
	if !slicesHave(inBackup, "before1@example.com", "before2@example.com") {
		t.Fatalf("the backup's users: %v", inBackup)
	}
	register("after1@example.com", "after2@example.com")

	out, code := runBinary(t, "restore", "-database", dbPath, backup)
	if code == 0 || !strings.Contains(out, "is in use") {
		t.Fatalf("restore while serving: exit %d: %s; want a refusal naming the server", code, out)
	}
	c.call("POST", "/api/v1/auth/login", "", map[string]string{"email": "after1@example.com", "password": "long-enough-pw"}, 200, nil)

	srv.Kill()
	if _, err := os.Stat(dbPath + "-wal"); err != nil {
		t.Fatalf("no -wal left by the killed server, so the drill proves nothing: %v", err)
	}
	if out, code := runBinary(t, "restore", "-database", dbPath, backup); code != 0 {
		t.Fatalf("restore with the server stopped: exit %d: %s", code, out)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(dbPath + suffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there after the restore: %v", suffix, err)
		}
	}
	checkPrivate(t, dbPath)

	srv.Restart()
	for _, e := range []string{"before1@example.com", "before2@example.com"} {
		c.call("POST", "/api/v1/auth/login", "", map[string]string{"email": e, "password": "long-enough-pw"}, 200, nil)
	}
	for _, e := range []string{"after1@example.com", "after2@example.com"} {
		c.call("POST", "/api/v1/auth/login", "", map[string]string{"email": e, "password": "long-enough-pw"}, 401, nil)
	}
	if code := srv.Stop(); code != 0 {
		t.Fatalf("serve exited with %d", code)
	}
	if diff := cmp.Diff(inBackup, emailsOfFile(t, dbPath)); diff != "" {
		t.Errorf("the users after the restore are not the backup's (-backup +restored):\n%s", diff)
	}
}

// TestRestoreRefusesAndKeepsTheDatabase: each bad restore exits non-zero
// with a message naming why, and the database keeps the user registered
// after the backup.
func TestRestoreRefusesAndKeepsTheDatabase(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		// spoil makes the copy bad, or opens the database; it returns what
		// to close after the restore
		spoil    func(t *testing.T, copy, dbPath string) func()
		wantCode int
		want     string
	}{
		{"ServerRunningIsRefused", func(t *testing.T, _, dbPath string) func() {
			db, err := store.Open(ctx, dbPath)
			if err != nil {
				t.Fatal(err)
			}
			return func() { db.Close() }
		}, 1, "is in use"},
		{"NotADatabaseIsRefused", func(t *testing.T, copy, _ string) func() {
			writeFile(t, copy, []byte(strings.Repeat("not a database\n", 500)))
			return func() {}
		}, 1, "not a sound database"},
		{"TruncatedCopyIsRefused", func(t *testing.T, copy, _ string) func() {
			b := readFile(t, copy)
			writeFile(t, copy, b[:len(b)/2])
			return func() {}
		}, 1, "not a sound database"},
		{"NewerSchemaIsRefused", func(t *testing.T, copy, _ string) func() {
			execFile(t, copy, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'from_the_future', CURRENT_TIMESTAMP)`)
			return func() {}
		}, 1, "newer burraco (migration 9999"},
		{"OtherApplicationsDatabaseIsRefused", func(t *testing.T, copy, _ string) func() {
			if err := os.Remove(copy); err != nil {
				t.Fatal(err)
			}
			execFile(t, copy, `CREATE TABLE notes (body TEXT)`)
			return func() {}
		}, 1, "no burraco schema"},
		{"TheDatabaseItselfIsRefused", func(t *testing.T, copy, dbPath string) func() {
			if err := os.Remove(copy); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(dbPath, copy); err != nil {
				t.Fatal(err)
			}
			return func() {}
		}, 2, "is the database itself"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dbPath, copy := databaseWithBackup(t)
			done := c.spoil(t, copy, dbPath)
			var out, errOut bytes.Buffer
			code := run(ctx, []string{"restore", "-database", dbPath, copy}, &out, &errOut)
			done()
			if code != c.wantCode || !strings.Contains(errOut.String(), c.want) {
				t.Fatalf("exit %d (want %d): %s%s; want it to say %q", code, c.wantCode, out.String(), errOut.String(), c.want)
			}
			if got := emailsOfDB(t, dbPath); !slicesHave(got, "kept@example.com", "after@example.com") {
				t.Fatalf("after a refused restore the database has %v", got)
			}
		})
	}
}

// TestRestoreOfAnOlderCopyIsMigratedByServe: a backup from an older binary
// (one migration fewer) is restored, and opening it as serve does applies
// the migration it lacks.
func TestRestoreOfAnOlderCopyIsMigratedByServe(t *testing.T) {
	ctx := context.Background()
	dbPath, copy := databaseWithBackup(t)
	old, err := sql.Open("sqlite3", copy)
	if err != nil {
		t.Fatal(err)
	}
	reverted, err := migrations.Down(ctx, old, migrations.SQLite, 1)
	old.Close()
	if err != nil || len(reverted) != 1 {
		t.Fatalf("down 1 on the copy: %v, %v", reverted, err)
	}
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"restore", "-database", dbPath, copy}, &out, &errOut); code != 0 {
		t.Fatalf("restore of an older copy: exit %d: %s", code, errOut.String())
	}
	if got := emailsOfDB(t, dbPath); !slicesHave(got, "kept@example.com") || slicesHave(got, "after@example.com") {
		t.Fatalf("restored users %v: want the backup's", got)
	}
	db := openTestDB(t, dbPath)
	st, err := migrations.Status(ctx, db.SQL(), db.Dialect())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range st {
		if !m.Applied {
			t.Errorf("migration %04d not applied after opening the restored copy", m.Version)
		}
	}
}

// TestBackupNeverOverwritesAFile: backup onto an existing file exits 1,
// says so, and leaves the file as it was.
func TestBackupNeverOverwritesAFile(t *testing.T) {
	dbPath, copy := databaseWithBackup(t)
	before := readFile(t, copy)
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"backup", "-database", dbPath, copy}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "exists already") {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	if !bytes.Equal(before, readFile(t, copy)) {
		t.Fatal("the existing file was changed")
	}
}

// TestBackupAndRestoreOfPostgreSQLNamePgTools: for a PostgreSQL URL the
// commands do nothing, exit 1, and print the pg_dump / pg_restore command
// to use, without the URL's password.
func TestBackupAndRestoreOfPostgreSQLNamePgTools(t *testing.T) {
	url := "postgres://burraco:s3cret@db.example.org:5432/club?sslmode=require"
	for cmd, want := range map[string]string{
		"backup":  "pg_dump --format=custom --file='club.dump' 'postgres://burraco:xxxxx@db.example.org:5432/club?sslmode=require'",
		"restore": "pg_restore --clean --if-exists --no-owner --dbname='postgres://burraco:xxxxx@db.example.org:5432/club?sslmode=require' 'club.dump'",
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{cmd, "-database", url, "club.dump"}, &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), want) || strings.Contains(errOut.String(), "s3cret") {
			t.Errorf("%s: exit %d: %s%s; want exit 1 and %q", cmd, code, out.String(), errOut.String(), want)
		}
	}
}

// databaseWithBackup makes a migrated database with the user kept, backs
// it up through the command, and registers after@example.com after the
// backup. It returns the database's path and the backup's.
func databaseWithBackup(t *testing.T) (dbPath, backup string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	dbPath, backup = filepath.Join(dir, "burraco.db"), filepath.Join(dir, "backup.db")
	db := openTestDB(t, dbPath)
	auth := domain.NewServices(db, domain.Config{PasswordParams: domain.TestPasswordParams}).Auth
	if _, err := auth.Register(ctx, domain.RegisterInput{Email: "kept@example.com", Password: "long-enough-pw", Name: "Kept"}); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"backup", "-database", dbPath, backup}, &out, &errOut); code != 0 {
		t.Fatalf("backup: exit %d: %s", code, errOut.String())
	}
	checkPrivate(t, backup)
	if _, err := auth.Register(ctx, domain.RegisterInput{Email: "after@example.com", Password: "long-enough-pw", Name: "After"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	return dbPath, backup
}

func openTestDB(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := openDB(context.Background(), path, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// runBinary runs the built binary with args and returns its output.
func runBinary(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(servertest.Binary(t), args...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

// emailsOfDB lists the users of the database at path, opened as the
// commands open it.
func emailsOfDB(t *testing.T, path string) []string {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return emails(t, db.SQL())
}

// emailsOfFile lists the users of a SQLite file opened read-only, as it
// is (no lock file, no WAL switch).
func emailsOfFile(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return emails(t, db)
}

func emails(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT email FROM users ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// execFile runs one statement on a SQLite file (created if missing).
func execFile(t *testing.T, path, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmt); err != nil {
		t.Fatal(err)
	}
}

func checkPrivate(t *testing.T, path string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600 (it holds password hashes)", filepath.Base(path), st.Mode().Perm())
	}
}

func slicesHave(s []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, v := range s {
			found = found || v == w
		}
		if !found {
			return false
		}
	}
	return true
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
