package store_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// durabilityChild is set in the environment of the child process of
// TestKilledProcessLosesNoCommit: the database it writes to.
const durabilityChild = "BURRACO_TEST_DURABILITY_DB"

// TestKilledProcessLosesNoCommit: a process writing to the database is
// killed with SIGKILL while it commits; every write it had acknowledged
// (InTx returned) is in the database afterwards. This is what
// synchronous=NORMAL in WAL mode promises on SQLite, and an asynchronous
// commit (the store's default) on PostgreSQL; a power cut is another
// matter (see the README).
func TestKilledProcessLosesNoCommit(t *testing.T) {
	if url := os.Getenv(durabilityChild); url != "" {
		writeUntilKilled(url)
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	t.Run("sqlite", func(t *testing.T) { killWhileWriting(t, t.TempDir()+"/durable.db") })
	t.Run("postgres", func(t *testing.T) {
		killWhileWriting(t, storetest.PostgresURL(t))
	})
}

// killWhileWriting migrates the database at url, has a child process
// write to it until it is killed, and checks every acknowledged write.
func killWhileWriting(t *testing.T, url string) {
	db, err := store.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrationsUp(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledProcessLosesNoCommit$")
	cmd.Env = append(os.Environ(), durabilityChild+"="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := -1
	sc := bufio.NewScanner(out)
	for sc.Scan() && acked < 500 {
		if n, err := strconv.Atoi(sc.Text()); err == nil {
			acked = n
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL, in the middle of the writes
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if acked < 500 {
		t.Fatalf("the child acknowledged only %d writes", acked+1)
	}

	db, err = store.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var total int
	err = db.View(t.Context(), func(tx domain.Tx) (err error) {
		_, total, err = tx.Clubs().List(domain.ClubFilter{Limit: 1})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if total < acked+1 {
		t.Errorf("%d clubs in the database, but %d writes were acknowledged before the kill", total, acked+1)
	}
}

// TestPostgresCommitsAsynchronouslyUnlessTheURLSaysSo: the store's
// PostgreSQL sessions commit without waiting for the WAL's flush, as
// SQLite's synchronous=NORMAL; a URL that sets synchronous_commit keeps
// its own.
func TestPostgresCommitsAsynchronouslyUnlessTheURLSaysSo(t *testing.T) {
	base := storetest.PostgresURL(t) // sets no synchronous_commit
	for _, tc := range []struct{ name, url, want string }{
		{"DefaultOff", base, "off"},
		{"URLOn", base + "&synchronous_commit=on", "on"},
		{"URLLocal", base + "&synchronous_commit=local", "local"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := store.Open(t.Context(), tc.url)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var got string
			if err := db.SQL().QueryRowContext(t.Context(), "SHOW synchronous_commit").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("synchronous_commit %q, want %q", got, tc.want)
			}
		})
	}
}

// writeUntilKilled commits one club after another and prints the number of
// each once its commit has returned.
func writeUntilKilled(url string) {
	ctx := context.Background()
	db, err := store.Open(ctx, url)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := 0; ; i++ {
		now := time.Now()
		c := domain.Club{Name: fmt.Sprintf("Club %d", i), CreatedAt: now, UpdatedAt: now}
		if err := db.InTx(ctx, func(tx domain.Tx) error { return tx.Clubs().Create(&c) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(i)
	}
}
