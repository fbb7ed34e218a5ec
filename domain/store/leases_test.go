package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/lease"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// leaseTables returns the lease store of a fresh PostgreSQL database
// holding n tables, and their ids.
func leaseTables(t *testing.T, n int) (*store.Leases, []int64) {
	t.Helper()
	return leaseTablesOn(t, storetest.Postgres(t), n)
}

// leaseTablesOn is leaseTables on db.
func leaseTablesOn(t *testing.T, db *store.DB, n int) (*store.Leases, []int64) {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Microsecond)
	var ids []int64
	err := db.InTx(t.Context(), func(tx domain.Tx) error {
		u := domain.User{Email: "lease@example.com", Name: "Lea", CreatedAt: now, UpdatedAt: now}
		if err := tx.Users().Create(&u, "hash"); err != nil {
			return err
		}
		for i := range n {
			tb := domain.Table{CreatorID: u.ID, Rules: "fibur", Options: []byte(`{}`), Players: 2, InviteCode: fmt.Sprint("code", i),
				Status: domain.TablePlaying, Version: 1, ClockUsed: []int64{}, BankLeft: []int64{}, CreatedAt: now, UpdatedAt: now,
				ClaimPolicy: domain.ClaimDraw, Seats: []domain.Seat{{Seat: 0, UserID: &u.ID, JoinedAt: &now}, {Seat: 1}}}
			if err := tx.Tables().Create(&tb); err != nil {
				return err
			}
			ids = append(ids, tb.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	l, err := db.Leases()
	if err != nil {
		t.Fatal(err)
	}
	return l, ids
}

// expired is a ttl that makes a lease expired at once: the next
// statement's now() is past it.
const expired = -time.Second

// TestAcquireTakesOnlyAnExpiredLease: a live lease of another process is
// not taken; an expired one is, at the next epoch; a process's own live
// lease is taken again at its epoch (a process whose local deadline passed
// while the lease lived: it never left the process, which keeps what it
// holds of the table); its own expired lease at the next epoch.
func TestAcquireTakesOnlyAnExpiredLease(t *testing.T) {
	l, ids := leaseTables(t, 4)
	ctx, live, expiredOne, own, ownExpired := t.Context(), ids[0], ids[1], ids[2], ids[3]
	mustAcquire(t, l, live, "a", time.Minute, 1, true)
	mustAcquire(t, l, expiredOne, "a", expired, 1, true)
	mustAcquire(t, l, own, "a", time.Minute, 1, true)
	mustAcquire(t, l, ownExpired, "a", expired, 1, true)
	for _, c := range []struct {
		name  string
		table int64
		owner string
		epoch int64
		ok    bool
	}{
		{"LiveLeaseOfAnotherIsKept", live, "b", 0, false},
		{"ExpiredLeaseIsTakenAtTheNextEpoch", expiredOne, "b", 2, true},
		{"OwnLiveLeaseIsTakenAgainAtItsEpoch", own, "a", 1, true},
		{"OwnExpiredLeaseIsTakenAtTheNextEpoch", ownExpired, "a", 2, true},
		{"MissingTableGetsNoLease", ids[3] + 1000, "a", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) { mustAcquire(t, l, c.table, c.owner, time.Minute, c.epoch, c.ok) })
	}
	h, err := l.Holder(ctx, live)
	if err != nil || h.Owner != "a" || !h.Live {
		t.Errorf("after b's try the live lease is held by %+v, %v; want a's", h, err)
	}
}

func mustAcquire(t *testing.T, l *store.Leases, table int64, owner string, ttl time.Duration, wantEpoch int64, wantOK bool) {
	t.Helper()
	epoch, ok, err := l.Acquire(t.Context(), table, owner, ttl)
	if err != nil || ok != wantOK || epoch != wantEpoch {
		t.Fatalf("Acquire(%d, %s) = %d, %v, %v; want %d, %v", table, owner, epoch, ok, err, wantEpoch, wantOK)
	}
}

// TestAcquireRacingProcessesOneWins: processes racing for one free table
// (each its own connection): exactly one gets it.
func TestAcquireRacingProcessesOneWins(t *testing.T) {
	l, ids := leaseTables(t, 1)
	const n = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range n {
		wg.Go(func() {
			_, ok, err := l.Acquire(t.Context(), ids[0], string(rune('a'+i)), time.Minute)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				won++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if won != 1 {
		t.Errorf("%d of %d racing processes got the lease; want 1", won, n)
	}
}

// TestRenewListsOnlyTheLeasesStillHeld: a renewal extends the process's
// live leases and lists them with their epochs; one taken over meanwhile
// is not listed (its old owner learns it lost it), nor one that expired
// (released, or past the owner's deadline: taken again at the next
// request), which stays expired.
func TestRenewListsOnlyTheLeasesStillHeld(t *testing.T) {
	l, ids := leaseTables(t, 3)
	kept, lost, lapsed := ids[0], ids[1], ids[2]
	mustAcquire(t, l, kept, "a", time.Second, 1, true)
	mustAcquire(t, l, lost, "a", expired, 1, true)
	mustAcquire(t, l, lost, "b", time.Minute, 2, true)
	mustAcquire(t, l, lapsed, "a", expired, 1, true)
	got, err := l.Renew(t.Context(), "a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[kept] != 1 {
		t.Errorf("a's renewal lists %v; want only table %d at epoch 1", got, kept)
	}
	mustAcquire(t, l, kept, "b", time.Minute, 0, false)  // renewed: live
	mustAcquire(t, l, lapsed, "b", time.Minute, 2, true) // not renewed
}

// TestARenewalDoesNotWaitForTheRequestsPool: every connection of the
// pool the requests use is taken (a burst of a thousand tables' first
// polls); a renewal is still answered, on its own connection, before the
// leases lapse.
func TestARenewalDoesNotWaitForTheRequestsPool(t *testing.T) {
	db := storetest.Postgres(t)
	l, ids := leaseTablesOn(t, db, 1)
	mustAcquire(t, l, ids[0], "a", time.Minute, 1, true)
	ctx := t.Context()
	const max = 2 // as the 25 of serve's pool, with fewer of the database's connections
	db.SQL().SetMaxOpenConns(max)
	for range max {
		conn, err := db.SQL().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
	}
	// Bounded only so that the test ends: without its own connection the
	// renewal waits for one as long as the requests hold them.
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	got, err := l.Renew(rctx, "a", time.Minute)
	if err != nil || got[ids[0]] != 1 {
		t.Fatalf("a renewal with the pool's %d connections taken: %v, %v; want table %d at epoch 1", max, got, err, ids[0])
	}
}

// TestReleaseTablesReleasesOnlyThose: the idle tables' leases are expired
// at once; the others stay live.
func TestReleaseTablesReleasesOnlyThose(t *testing.T) {
	l, ids := leaseTables(t, 2)
	idle, used := ids[0], ids[1]
	mustAcquire(t, l, idle, "a", time.Minute, 1, true)
	mustAcquire(t, l, used, "a", time.Minute, 1, true)
	if err := l.ReleaseTables(t.Context(), "a", []int64{idle}); err != nil {
		t.Fatal(err)
	}
	mustAcquire(t, l, idle, "b", time.Minute, 2, true)
	mustAcquire(t, l, used, "b", time.Minute, 0, false)
}

// TestReleaseLetsAnotherTakeOverAtOnce: a released lease is expired at
// once, so another process takes it without waiting for its ttl.
func TestReleaseLetsAnotherTakeOverAtOnce(t *testing.T) {
	l, ids := leaseTables(t, 1)
	mustAcquire(t, l, ids[0], "a", time.Minute, 1, true)
	mustAcquire(t, l, ids[0], "b", time.Minute, 0, false)
	if err := l.Release(t.Context(), "a"); err != nil {
		t.Fatal(err)
	}
	mustAcquire(t, l, ids[0], "b", time.Minute, 2, true)
}

// TestHolderNamesTheOwnerAndItsAddress: the holder of a lease and the
// internal address its process registered; a table nobody held is
// ErrNoLease; once the process unregistered its address is empty.
func TestHolderNamesTheOwnerAndItsAddress(t *testing.T) {
	l, ids := leaseTables(t, 2)
	ctx := t.Context()
	if err := l.Register(ctx, "a", "10.0.0.1:9090"); err != nil {
		t.Fatal(err)
	}
	mustAcquire(t, l, ids[0], "a", time.Minute, 1, true)
	want := lease.Holder{Owner: "a", Addr: "10.0.0.1:9090", Epoch: 1, Live: true}
	if h, err := l.Holder(ctx, ids[0]); err != nil || h != want {
		t.Errorf("holder %+v, %v; want %+v", h, err, want)
	}
	if _, err := l.Holder(ctx, ids[1]); !errors.Is(err, lease.ErrNoLease) {
		t.Errorf("holder of a table nobody held: %v; want ErrNoLease", err)
	}
	if err := l.Unregister(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	want.Addr = ""
	if h, err := l.Holder(ctx, ids[0]); err != nil || h != want {
		t.Errorf("holder after unregister %+v, %v; want %+v", h, err, want)
	}
}

// TestLeasesAreRefusedOnSQLite: SQLite is one process, which owns every
// table without asking; the lease store says so instead of half working.
func TestLeasesAreRefusedOnSQLite(t *testing.T) {
	if _, err := storetest.SQLite(t).Leases(); !errors.Is(err, store.ErrLeasesNeedPostgres) {
		t.Errorf("Leases on SQLite: %v; want ErrLeasesNeedPostgres", err)
	}
}

// fencedWrite runs a write transaction (a user's sign-up) fenced by f;
// block, when not nil, holds it open after the fence until closed.
func fencedWrite(t *testing.T, db *store.DB, f lease.Fence, email string, block <-chan struct{}) error {
	now := time.Now().UTC()
	return db.InTx(lease.WithFence(t.Context(), f), func(tx domain.Tx) error {
		if block != nil {
			<-block
		}
		u := domain.User{Email: email, Name: "F", CreatedAt: now, UpdatedAt: now}
		return tx.Users().Create(&u, "hash")
	})
}

func userExists(t *testing.T, db *store.DB, email string) bool {
	t.Helper()
	var n int
	if err := db.SQL().QueryRow(`SELECT count(*) FROM users WHERE email = $1`, email).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// TestAFencedWriteOfADeposedOwnerFails: a write fenced at the owner's
// epoch commits; once another process took the lease over, the same
// fence's write fails with table_owner_moved and writes nothing.
func TestAFencedWriteOfADeposedOwnerFails(t *testing.T) {
	db := storetest.Postgres(t)
	l, ids := leaseTablesOn(t, db, 1)
	mustAcquire(t, l, ids[0], "a", expired, 1, true)
	f := lease.Fence{Table: ids[0], Owner: "a", Epoch: 1}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T)
		email string
		code  domain.Code // "" for a commit
	}{
		{"OwnersWriteCommits", func(*testing.T) {}, "owner@example.com", ""},
		{"DeposedOwnersWriteFails", func(t *testing.T) { mustAcquire(t, l, ids[0], "b", time.Minute, 2, true) }, "deposed@example.com", domain.ETableOwnerMoved},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.setup(t)
			err := fencedWrite(t, db, f, c.email, nil)
			if got := domain.ErrorCode(err); c.code != "" && got != c.code || c.code == "" && err != nil {
				t.Fatalf("fenced write: %v; want code %q", err, c.code)
			}
			if userExists(t, db, c.email) != (c.code == "") {
				t.Errorf("the write is there: %v; want %v", !(c.code == ""), c.code == "")
			}
		})
	}
}

// TestAcquireWaitsForAFencedWriteUnderWay: a takeover of an expired lease
// waits until the old owner's fenced write under way commits, so that
// the write is committed before the new epoch exists.
func TestAcquireWaitsForAFencedWriteUnderWay(t *testing.T) {
	db := storetest.Postgres(t)
	l, ids := leaseTablesOn(t, db, 1)
	mustAcquire(t, l, ids[0], "a", expired, 1, true)
	block, wrote := make(chan struct{}), make(chan error, 1)
	go func() {
		wrote <- fencedWrite(t, db, lease.Fence{Table: ids[0], Owner: "a", Epoch: 1}, "underway@example.com", block)
	}()
	time.Sleep(100 * time.Millisecond) // the write holds the lease row in share mode
	acquired := make(chan bool, 1)
	go func() {
		_, ok, err := l.Acquire(t.Context(), ids[0], "b", time.Minute)
		if err != nil {
			t.Error(err)
		}
		acquired <- ok
	}()
	select {
	case <-acquired:
		t.Fatal("the takeover did not wait for the fenced write under way")
	case <-time.After(200 * time.Millisecond):
	}
	close(block)
	if err := <-wrote; err != nil {
		t.Fatalf("the fenced write under way: %v", err)
	}
	if !<-acquired || !userExists(t, db, "underway@example.com") {
		t.Error("after the write committed, the takeover failed or the write is missing")
	}
}

// TestARenewalDoesNotWaitForAFencedWriteUnderWay: the owner's renewal
// extends its leases while a fenced write of one of them is under way
// (the moves of a process go on during its renewals), and the write
// commits.
func TestARenewalDoesNotWaitForAFencedWriteUnderWay(t *testing.T) {
	db := storetest.Postgres(t)
	l, ids := leaseTablesOn(t, db, 1)
	mustAcquire(t, l, ids[0], "a", time.Minute, 1, true)
	block, wrote := make(chan struct{}), make(chan error, 1)
	go func() {
		wrote <- fencedWrite(t, db, lease.Fence{Table: ids[0], Owner: "a", Epoch: 1}, "during@example.com", block)
	}()
	defer func() {
		close(block)
		if err := <-wrote; err != nil || !userExists(t, db, "during@example.com") {
			t.Errorf("the fenced write under way: %v", err)
		}
	}()
	waitLocked(t, db, ids[0])
	// Bounded only so that the test ends: in share mode the renewal waits
	// as long as the write.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if got, err := l.Renew(ctx, "a", time.Minute); err != nil || got[ids[0]] != 1 {
		t.Fatalf("the renewal during a fenced write: %v, %v; want table %d at epoch 1", got, err, ids[0])
	}
}

// waitLocked waits until a transaction holds a lock on the lease row of
// table (the fence's): an attempt to lock it for update with NOWAIT
// fails.
func waitLocked(t *testing.T, db *store.DB, table int64) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		tx, err := db.SQL().BeginTx(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tx.Exec(`SELECT 1 FROM table_leases WHERE table_id = $1 FOR UPDATE NOWAIT`, table)
		tx.Rollback()
		if err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the fenced write did not lock the lease row within 10 s")
		}
	}
}

// TestARenewalIsAHeapOnlyUpdate: renewing a lease changes no indexed
// column, so PostgreSQL updates it in place on its page (a HOT update):
// no new entry in the lease's indexes at each renewal, no chain of dead
// versions for the fence's point read to walk (migration 0025).
func TestARenewalIsAHeapOnlyUpdate(t *testing.T) {
	db := storetest.Postgres(t)
	db.SQL().SetMaxOpenConns(1) // one backend besides the renewals'
	l, ids := leaseTablesOn(t, db, 3)
	for _, id := range ids {
		if _, ok, err := l.Acquire(t.Context(), id, "a", time.Minute); err != nil || !ok {
			t.Fatalf("acquire %d: %v, %v", id, ok, err)
		}
	}
	// A backend sends its statistics at the end of the transaction after
	// pg_stat_force_next_flush; the next statement reads them. The schema
	// may have served another test: what counts is the renewals' share.
	stats := func() (updates, hot int64) {
		t.Helper()
		if _, err := db.SQL().Exec(`SELECT pg_stat_force_next_flush()`); err != nil {
			t.Fatal(err)
		}
		if err := db.SQL().QueryRow(`SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
			WHERE relid = 'table_leases'::regclass`).Scan(&updates, &hot); err != nil {
			t.Fatal(err)
		}
		return updates, hot
	}
	updates0, hot0 := stats()
	for range 5 {
		if _, err := l.Renew(t.Context(), "a", time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	// The renewals run on their own connection: its backend sends its
	// statistics at the end of the transaction after its own
	// pg_stat_force_next_flush.
	for _, q := range []string{`SELECT pg_stat_force_next_flush()`, `SELECT 1`} {
		if _, err := store.Renewals(l).Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	updates, hot := stats()
	if updates -= updates0; hot-hot0 != updates || updates != 15 {
		t.Errorf("%d lease rows updated by the renewals, %d of them in place (HOT); want 15, all in place", updates, hot-hot0)
	}
}

// TestARenewalDoesNotWaitForABatchOfMovesUnderWay: a batch of owners'
// moves (move_batches.go) holds its tables' leases until it commits, and
// the process renews its leases meanwhile: the renewal, which sets only
// their expiry, passes the moves' fence (FOR KEY SHARE, as InTx's). When
// the one-statement move locked its lease FOR SHARE, a renewal waited for
// the batch, and PostgreSQL found the two deadlocked in load runs (each
// holding a lease the other wanted) and cancelled the renewal.
func TestARenewalDoesNotWaitForABatchOfMovesUnderWay(t *testing.T) {
	db := storetest.Postgres(t)
	l, ids := leaseTablesOn(t, db, 1)
	mustAcquire(t, l, ids[0], "a", time.Minute, 1, true)
	fence := store.MoveFence(lease.Fence{Table: ids[0], Owner: "a", Epoch: 1}, 1)
	done := make(chan []error, 1)
	go func() {
		_, errs := store.WriteMovesTogether(t.Context(), db, fence, store.MoveStatement{SQL: "SELECT pg_sleep(1.5)"})
		done <- errs
	}()
	waitLocked(t, db, ids[0])
	ctx, cancel := context.WithTimeout(t.Context(), time.Second) // less than the batch lasts
	defer cancel()
	if got, err := l.Renew(ctx, "a", time.Minute); err != nil || got[ids[0]] != 1 {
		t.Errorf("the renewal during a batch of moves: %v, %v; want table %d at epoch 1", got, err, ids[0])
	}
	for i, err := range <-done {
		if err != nil {
			t.Errorf("the batch's statement %d: %v", i, err)
		}
	}
}

// TestATakeoverWaitsForABatchOfMovesUnderWay: a process taking over an
// expired lease waits for the batch of the old owner's moves under way
// to commit (its fence holds the lease FOR KEY SHARE, which the takeover's
// update of the key waits for), so every move the old owner committed is
// committed before the new epoch exists, and the new owner reads it.
func TestATakeoverWaitsForABatchOfMovesUnderWay(t *testing.T) {
	db := storetest.Postgres(t)
	l, ids := leaseTablesOn(t, db, 1)
	mustAcquire(t, l, ids[0], "a", expired, 1, true)
	fence := store.MoveFence(lease.Fence{Table: ids[0], Owner: "a", Epoch: 1}, 1)
	batchDone := make(chan []int64, 1)
	go func() {
		ns, _ := store.WriteMovesTogether(t.Context(), db, fence, store.MoveStatement{SQL: "SELECT pg_sleep(1)"})
		batchDone <- ns
	}()
	waitLocked(t, db, ids[0])
	taken := make(chan int64, 1)
	go func() {
		epoch, _, err := l.Acquire(t.Context(), ids[0], "b", time.Minute)
		if err != nil {
			t.Error(err)
		}
		taken <- epoch
	}()
	select {
	case epoch := <-taken: // the batch sleeps a second once locked
		t.Fatalf("the takeover took epoch %d while the old owner's batch was under way", epoch)
	case <-time.After(500 * time.Millisecond):
	}
	if ns := <-batchDone; ns[0] != 1 {
		t.Errorf("the old owner's fence under way found %d rows; want its table", ns[0])
	}
	if epoch := <-taken; epoch != 2 {
		t.Errorf("the takeover after the batch took epoch %d; want 2", epoch)
	}
}

// TestABatchSkipsAMoveWhoseTableAnotherTransactionHolds: a move whose
// table's row another transaction holds (a referee's act, a clock's check)
// finds nothing to write at once, and goes through InTx, which waits for
// it; the batch it was in, and every move queued behind that batch, do not
// wait for that transaction.
func TestABatchSkipsAMoveWhoseTableAnotherTransactionHolds(t *testing.T) {
	db := storetest.Postgres(t)
	l, ids := leaseTablesOn(t, db, 2)
	for _, id := range ids {
		mustAcquire(t, l, id, "a", time.Minute, 1, true)
	}
	held, err := db.SQL().BeginTx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Rollback()
	if _, err := held.ExecContext(t.Context(), `SELECT 1 FROM tables WHERE id = $1 FOR UPDATE`, ids[0]); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	start := time.Now()
	ns, errs := store.WriteMovesTogether(ctx, db, store.MoveFence(lease.Fence{Table: ids[0], Owner: "a", Epoch: 1}, 1),
		store.MoveFence(lease.Fence{Table: ids[1], Owner: "a", Epoch: 1}, 1))
	if took := time.Since(start); errs[0] != nil || errs[1] != nil || ns[0] != 0 || ns[1] != 1 || took > 2*time.Second {
		t.Errorf("the batch: rows %v, errors %v, after %v; want the held table's fence empty and the other's found, at once", ns, errs, took)
	}
}
