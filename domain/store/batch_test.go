package store_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// gate runs a write transaction on db that creates club name and holds the
// writers' turn until release is closed; it returns the transaction's
// outcome.
func gate(t *testing.T, db *store.DB, name string) (release func(), outcome <-chan error) {
	t.Helper()
	entered, hold, out := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		out <- db.InTx(context.Background(), func(tx domain.Tx) error {
			if err := createClub(tx, name); err != nil {
				return err
			}
			close(entered)
			<-hold
			return nil
		})
	}()
	<-entered
	return func() { close(hold) }, out
}

// queued waits until n writers queue for their turn.
func queued(t *testing.T, db *store.DB, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for store.Waiting(db) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d writers queued, want %d", store.Waiting(db), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func createClub(tx domain.Tx, name string) error {
	now := time.Now()
	return tx.Clubs().Create(&domain.Club{Name: name, CreatedAt: now, UpdatedAt: now})
}

// clubNames returns the names of the clubs stored.
func clubNames(t *testing.T, db *store.DB) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	err := db.View(t.Context(), func(tx domain.Tx) error {
		p, _, err := tx.Clubs().List(domain.ClubFilter{Limit: 100})
		for _, c := range p {
			names[c.Name] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// TestWritersShareTransactions: on SQLite, writers that queue while one
// holds the turn run in one shared transaction, committed once; a writer
// that fails, panics or ends its goroutine inside its function has its own
// writes undone, and the others' are committed; each writer gets its own
// outcome, and a panic goes on in its own goroutine.
func TestWritersShareTransactions(t *testing.T) {
	db := storetest.SQLite(t)
	before := store.Commits(db)
	release, gateDone := gate(t, db, "gate")
	kinds := []string{"ok", "fail", "ok", "panic", "ok", "goexit", "ok", "fail", "ok", "ok"}
	errs := make([]error, len(kinds))
	panics := make([]any, len(kinds))
	var wg sync.WaitGroup
	for i, kind := range kinds {
		name := fmt.Sprintf("%s-%d", kind, i)
		wg.Go(func() {
			defer func() { panics[i] = recover() }()
			errs[i] = db.InTx(context.Background(), func(tx domain.Tx) error {
				if err := createClub(tx, name); err != nil {
					return err
				}
				switch kind {
				case "fail":
					return errors.New("refused")
				case "panic":
					panic("boom")
				case "goexit":
					runtime.Goexit()
				}
				return nil
			})
		})
		queued(t, db, i+1) // in this order
	}
	release()
	wg.Wait()
	if err := <-gateDone; err != nil {
		t.Fatalf("gate: %v", err)
	}
	names := clubNames(t, db)
	if !names["gate"] {
		t.Error("the gate's club is not stored")
	}
	for i, kind := range kinds {
		name := fmt.Sprintf("%s-%d", kind, i)
		switch kind {
		case "ok":
			if errs[i] != nil || !names[name] {
				t.Errorf("%s: error %v, stored %v; want stored", name, errs[i], names[name])
			}
		case "fail":
			if errs[i] == nil || errs[i].Error() != "refused" || names[name] {
				t.Errorf("%s: error %v, stored %v; want its own error, not stored", name, errs[i], names[name])
			}
		case "panic":
			if panics[i] != "boom" || names[name] {
				t.Errorf("%s: panic %v, stored %v; want its panic, not stored", name, panics[i], names[name])
			}
		case "goexit":
			if names[name] {
				t.Errorf("%s: stored", name)
			}
		}
	}
	if n := store.Commits(db) - before; n > 2 {
		t.Errorf("%d commits for %d writers that queued together", n, len(kinds)+1)
	}
}

// TestTheWritersWaitForATurnTakenOutsideABatch: a turn taken for other
// work (the checkpointer's RESTART checkpoints) that is handed an open
// shared transaction commits it first, and the writers queued after it
// run only once that work is done.
func TestTheWritersWaitForATurnTakenOutsideABatch(t *testing.T) {
	db := storetest.SQLite(t)
	release, gateDone := gate(t, db, "gate")
	seen := map[string]bool{}
	var seenErr error
	ran := make(chan bool)
	go func() {
		ran <- store.WritersWait(db, func() {
			seenErr = db.View(context.Background(), func(tx domain.Tx) error {
				p, _, err := tx.Clubs().List(domain.ClubFilter{Limit: 100})
				for _, c := range p {
					seen[c.Name] = true
				}
				return err
			})
		})
	}()
	queued(t, db, 1)
	after := make(chan error)
	go func() {
		after <- db.InTx(context.Background(), func(tx domain.Tx) error { return createClub(tx, "after") })
	}()
	queued(t, db, 2)
	release()
	if !<-ran {
		t.Fatal("the turn did not come")
	}
	if seenErr != nil || !seen["gate"] || seen["after"] {
		t.Fatalf("in the turn: the gate's write committed %v (want true), the later writer's %v (want false); %v",
			seen["gate"], seen["after"], seenErr)
	}
	if err := <-gateDone; err != nil {
		t.Fatalf("gate: %v", err)
	}
	if err := <-after; err != nil {
		t.Fatalf("after: %v", err)
	}
	if names := clubNames(t, db); !names["after"] {
		t.Error("the writer queued after the turn did not write")
	}
}

// TestBrokenSharedTransaction: when the shared transaction ends under a
// writer (as when SQLite rolls it back after an I/O error), every writer in
// it gets an error and none of their writes is stored; the writers queued
// after it run in a new one.
func TestBrokenSharedTransaction(t *testing.T) {
	db := storetest.SQLite(t)
	release, first := gate(t, db, "first")
	var wg sync.WaitGroup
	var breaker, after error
	wg.Go(func() {
		breaker = db.InTx(context.Background(), func(tx domain.Tx) error {
			if err := createClub(tx, "breaker"); err != nil {
				return err
			}
			return store.ExecInTx(tx, "ROLLBACK")
		})
	})
	queued(t, db, 1)
	wg.Go(func() {
		after = db.InTx(context.Background(), func(tx domain.Tx) error { return createClub(tx, "after") })
	})
	queued(t, db, 2)
	release()
	wg.Wait()
	if err := <-first; err == nil {
		t.Error("the first writer succeeded; its transaction was rolled back")
	}
	if breaker == nil {
		t.Error("the writer that ended the transaction succeeded")
	}
	if after != nil {
		t.Errorf("the writer after: %v", after)
	}
	names := clubNames(t, db)
	if names["first"] || names["breaker"] || !names["after"] {
		t.Errorf("stored %v, want only after", names)
	}
}

// TestQueuedWriterGivesUp: a writer whose request is cancelled while it
// waits for its turn returns at once, its function never run; the writers
// before and after it are not held up.
func TestQueuedWriterGivesUp(t *testing.T) {
	db := storetest.SQLite(t)
	release, first := gate(t, db, "first")
	ctx, cancel := context.WithCancel(context.Background())
	ran := false
	gaveUp := make(chan error, 1)
	go func() {
		gaveUp <- db.InTx(ctx, func(tx domain.Tx) error { ran = true; return createClub(tx, "cancelled") })
	}()
	queued(t, db, 1)
	var after error
	var wg sync.WaitGroup
	wg.Go(func() {
		after = db.InTx(context.Background(), func(tx domain.Tx) error { return createClub(tx, "after") })
	})
	queued(t, db, 2)
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled writer: %v", err)
	}
	release()
	wg.Wait()
	if err := <-first; err != nil || after != nil {
		t.Fatalf("first: %v; after: %v", err, after)
	}
	names := clubNames(t, db)
	if ran || names["cancelled"] || !names["first"] || !names["after"] {
		t.Errorf("ran %v, stored %v", ran, names)
	}
}

// TestAWriterFailingOnAnothersWriteReturnsOnceItIsCommitted: on SQLite, a
// writer that fails in a shared transaction after another wrote (as a move
// refused a version conflict on the version a move before it in the batch
// wrote) returns only once that write is committed, so that what it read
// and acts on (the version it publishes) is committed; the writers after
// it run and commit as before.
func TestAWriterFailingOnAnothersWriteReturnsOnceItIsCommitted(t *testing.T) {
	db := storetest.SQLite(t)
	releaseFirst, first := gate(t, db, "first")
	refused := errors.New("the club is there already")
	failed := make(chan error, 1)
	go func() {
		failed <- db.InTx(context.Background(), func(tx domain.Tx) error {
			if p, _, err := tx.Clubs().List(domain.ClubFilter{Limit: 10}); err != nil || len(p) != 1 {
				return fmt.Errorf("the failing writer saw %d clubs (%v), want the first writer's", len(p), err)
			}
			return refused
		})
	}()
	queued(t, db, 1)
	entered, hold, last := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		last <- db.InTx(context.Background(), func(tx domain.Tx) error {
			close(entered)
			<-hold
			return createClub(tx, "last")
		})
	}()
	queued(t, db, 2)
	releaseFirst()
	<-entered // the failing writer has run: the last holds the batch open
	select {
	case err := <-failed:
		t.Fatalf("the failing writer returned (%v) before the write it read was committed", err)
	case <-time.After(500 * time.Millisecond):
	}
	close(hold)
	if err := <-failed; !errors.Is(err, refused) {
		t.Fatalf("the failing writer: %v, want its own error", err)
	}
	for name, out := range map[string]<-chan error{"first": first, "last": last} {
		if err := <-out; err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if names := clubNames(t, db); !names["first"] || !names["last"] {
		t.Fatalf("clubs stored %v, want first and last", names)
	}
}
