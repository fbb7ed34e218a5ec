package store_test

import (
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
	db := storetest.Postgres(t)
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
// lease is taken again (a process whose local deadline passed reloads).
func TestAcquireTakesOnlyAnExpiredLease(t *testing.T) {
	l, ids := leaseTables(t, 3)
	ctx, live, expiredOne, own := t.Context(), ids[0], ids[1], ids[2]
	mustAcquire(t, l, live, "a", time.Minute, 1, true)
	mustAcquire(t, l, expiredOne, "a", expired, 1, true)
	mustAcquire(t, l, own, "a", time.Minute, 1, true)
	for _, c := range []struct {
		name  string
		table int64
		owner string
		epoch int64
		ok    bool
	}{
		{"LiveLeaseOfAnotherIsKept", live, "b", 0, false},
		{"ExpiredLeaseIsTakenAtTheNextEpoch", expiredOne, "b", 2, true},
		{"OwnLiveLeaseIsTakenAgain", own, "a", 2, true},
		{"MissingTableGetsNoLease", ids[2] + 1000, "a", 0, false},
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
// leases and lists them with their epochs; one taken over meanwhile is
// not listed (its old owner learns it lost it), and an extended lease is
// live again.
func TestRenewListsOnlyTheLeasesStillHeld(t *testing.T) {
	l, ids := leaseTables(t, 2)
	kept, lost := ids[0], ids[1]
	mustAcquire(t, l, kept, "a", expired, 1, true)
	mustAcquire(t, l, lost, "a", expired, 1, true)
	mustAcquire(t, l, lost, "b", time.Minute, 2, true)
	got, err := l.Renew(t.Context(), "a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[kept] != 1 {
		t.Errorf("a's renewal lists %v; want only table %d at epoch 1", got, kept)
	}
	mustAcquire(t, l, kept, "b", time.Minute, 0, false) // renewed: live
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
