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
)

// durabilityChild is set in the environment of the child process of
// TestKilledProcessLosesNoCommit: the database it writes to.
const durabilityChild = "BURRACO_TEST_DURABILITY_DB"

// TestKilledProcessLosesNoCommit: a process writing to SQLite is killed
// with SIGKILL while it commits; every write it had acknowledged (InTx
// returned) is in the file afterwards. This is what synchronous=NORMAL in
// WAL mode promises; a power cut is another matter (see the README).
func TestKilledProcessLosesNoCommit(t *testing.T) {
	if path := os.Getenv(durabilityChild); path != "" {
		writeUntilKilled(path)
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	path := t.TempDir() + "/durable.db"
	db, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrationsUp(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	db.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledProcessLosesNoCommit$")
	cmd.Env = append(os.Environ(), durabilityChild+"="+path)
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

	db, err = store.Open(t.Context(), path)
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
		t.Errorf("%d clubs in the file, but %d writes were acknowledged before the kill", total, acked+1)
	}
}

// writeUntilKilled commits one club after another and prints the number of
// each once its commit has returned.
func writeUntilKilled(path string) {
	ctx := context.Background()
	db, err := store.Open(ctx, path)
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
