package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/lease"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// heard is what a process following the tables heard: the newest
// version of each table.
type heard struct {
	mu        sync.Mutex
	versions  map[int64]int64
	listening chan struct{}
}

func follow(t *testing.T, db *store.DB) (*heard, context.CancelFunc) {
	t.Helper()
	h := &heard{versions: map[int64]int64{}, listening: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = db.FollowTables(ctx, func(id, v int64) {
			h.mu.Lock()
			h.versions[id] = max(h.versions[id], v)
			h.mu.Unlock()
		}, func() {
			select {
			case h.listening <- struct{}{}:
			default:
			}
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-h.listening:
	case <-time.After(5 * time.Second):
		t.Fatal("the follower is not listening after 5 s")
	}
	return h, func() { cancel(); <-done }
}

// within reports whether table id is heard at version v before d passes.
func (h *heard) within(id, v int64, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		h.mu.Lock()
		got := h.versions[id]
		h.mu.Unlock()
		if got >= v {
			return true
		}
	}
	return false
}

// bump writes table id at its next version, in a transaction run with ctx.
func bump(t *testing.T, db *store.DB, ctx context.Context, id int64) int64 {
	t.Helper()
	return change(t, db, ctx, id, func(*domain.Table) {})
}

// change writes table id changed by fn at its next version, in a
// transaction run with ctx.
func change(t *testing.T, db *store.DB, ctx context.Context, id int64, fn func(*domain.Table)) int64 {
	t.Helper()
	var v int64
	err := db.InTx(ctx, func(tx domain.Tx) error {
		tb, err := tx.Tables().Lock(id)
		if err != nil {
			return err
		}
		fn(&tb)
		tb.Version++
		v = tb.Version
		return tx.Tables().Update(tb)
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAnOwnersVersionsReachTheOthersInTheSecondsList: a table's write
// without a lease is announced at its commit, as before; its owner's
// fenced write sends no notice of its own, and the owner's list (sent
// once a second while it follows the tables) carries its version to the
// other processes (docs/SCALE-OUT.md §7).
func TestAnOwnersVersionsReachTheOthersInTheSecondsList(t *testing.T) {
	url := storetest.PostgresURL(t)
	owner, other := storetest.Open(t, url), storetest.Open(t, url)
	l, ids := leaseTablesOn(t, owner, 2)
	unowned, owned := ids[0], ids[1]
	mustAcquire(t, l, owned, "a", time.Minute, 1, true)
	fenced := lease.WithFence(t.Context(), lease.Fence{Table: owned, Owner: "a", Epoch: 1})
	h, _ := follow(t, other)

	t.Run("AWriteWithoutALeaseIsAnnouncedAtItsCommit", func(t *testing.T) {
		if v := bump(t, owner, t.Context(), unowned); !h.within(unowned, v, 5*time.Second) {
			t.Errorf("version %d of the table without a lease not heard in 5 s", v)
		}
	})
	v := bump(t, owner, fenced, owned)
	t.Run("AnOwnersWriteSendsNoNoticeOfItsOwn", func(t *testing.T) {
		if h.within(owned, v, 1500*time.Millisecond) { // the owner does not follow yet: no list either
			t.Errorf("version %d of the owned table heard without the owner's list", v)
		}
	})
	t.Run("TheOwnersListCarriesIt", func(t *testing.T) {
		follow(t, owner) // the owner follows the tables, as serve does: its list goes every second
		if !h.within(owned, v, 5*time.Second) {
			t.Errorf("version %d of the owned table not heard 5 s after the owner began its lists", v)
		}
	})
}

// markMoves reports whether db's mark of record moves from before within d.
func markMoves(db *store.DB, record string, before uint64, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if m, ok := db.Mark(record); ok && m != before {
			return true
		}
	}
	return false
}

// mark waits until db hears the other processes' writes, and returns its
// mark of record.
func mark(t *testing.T, db *store.DB, record string) uint64 {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if m, ok := db.Mark(record); ok {
			return m
		}
	}
	t.Fatal("no mark after 5 s: not listening to the writes")
	return 0
}

// TestAnOwnersPlayWritesReachTheOthersMarksInTheSecondsList: the owner's
// fenced write of a table's play (its version, the move's row) sends no
// burraco_writes notice at its commit, and its list moves the other
// processes' marks within a second; its fenced write of a lobby record (a
// table's status, at a match's end) is announced at its commit, as every
// write without a lease is.
func TestAnOwnersPlayWritesReachTheOthersMarksInTheSecondsList(t *testing.T) {
	url := storetest.PostgresURL(t)
	owner, other := storetest.Open(t, url), storetest.Open(t, url)
	l, ids := leaseTablesOn(t, owner, 1)
	mustAcquire(t, l, ids[0], "a", time.Minute, 1, true)
	fenced := lease.WithFence(t.Context(), lease.Fence{Table: ids[0], Owner: "a", Epoch: 1})

	t.Run("APlayWriteMovesNoMarkAtItsCommit", func(t *testing.T) {
		before := mark(t, other, "tables.version")
		bump(t, owner, fenced, ids[0])
		if markMoves(other, "tables.version", before, 1500*time.Millisecond) { // the owner sends no list yet
			t.Error("the other's mark of tables.version moved without the owner's list")
		}
	})
	t.Run("AStatusWriteIsAnnouncedAtItsCommit", func(t *testing.T) {
		before := mark(t, other, "tables.status")
		change(t, owner, fenced, ids[0], func(tb *domain.Table) { tb.Status = domain.TableFinished })
		if !markMoves(other, "tables.status", before, 5*time.Second) {
			t.Error("the other's mark of tables.status did not move in 5 s")
		}
	})
	t.Run("TheOwnersListMovesThePlayMarks", func(t *testing.T) {
		before := mark(t, other, "tables.version")
		bump(t, owner, fenced, ids[0])
		follow(t, owner) // the owner sends its list every second, as serve does
		if !markMoves(other, "tables.version", before, 5*time.Second) {
			t.Error("the other's mark of tables.version did not move 5 s after the owner began its lists")
		}
	})
}
