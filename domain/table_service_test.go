package domain_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// countingStorage counts the units of work run on a storage.
type countingStorage struct {
	domain.Storage
	units atomic.Int64
}

func (c *countingStorage) InTx(ctx context.Context, fn func(tx domain.Tx) error) error {
	c.units.Add(1)
	return c.Storage.InTx(ctx, fn)
}

func (c *countingStorage) View(ctx context.Context, fn func(tx domain.Tx) error) error {
	c.units.Add(1)
	return c.Storage.View(ctx, fn)
}

// TestTableWatchAnswersFromMemory: a poll that finds the version unchanged,
// or a private table hidden from the caller, reads no database; a service
// that does not know the table yet reads it once.
func TestTableWatchAnswersFromMemory(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		owner, stranger := f.user("owner@example.org"), f.user("stranger@example.org")
		tb, err := f.svc.Tables.Create(ctx, owner, domain.TableInput{Rules: "fibur", Players: 2, Private: true})
		if err != nil {
			t.Fatal(err)
		}
		st := &countingStorage{Storage: db}
		svc := domain.NewServices(st, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
		v, seat, err := svc.Tables.Watch(ctx, owner, tb.ID, "", -1)
		if err != nil || v != tb.Version || seat != 0 || st.units.Load() != 1 {
			t.Fatalf("first watch: version %d seat %d err %v after %d units", v, seat, err, st.units.Load())
		}
		done, cancel := context.WithCancel(ctx)
		cancel()
		for range 3 {
			if v, _, err := svc.Tables.Watch(done, owner, tb.ID, "", tb.Version); err != nil || v != tb.Version {
				t.Fatalf("unchanged poll: version %d, err %v", v, err)
			}
			if _, _, err := svc.Tables.Watch(ctx, stranger, tb.ID, "", -1); domain.ErrorCode(err) != domain.ENotFound {
				t.Fatalf("a stranger watches a private table: %v", err)
			}
			if _, seat, err := svc.Tables.Watch(ctx, stranger, tb.ID, tb.InviteCode, -1); err != nil || seat != -1 {
				t.Fatalf("with the invite code: seat %d, err %v", seat, err)
			}
		}
		if n := st.units.Load(); n != 1 {
			t.Errorf("polls answered from memory read the database: %d units", n)
		}
		// A change through the service wakes its own watchers with no read.
		if _, err := svc.Tables.AddBot(ctx, owner, tb.ID, nil); err != nil {
			t.Fatal(err)
		}
		before := st.units.Load()
		if v, _, err := svc.Tables.Watch(ctx, owner, tb.ID, "", tb.Version); err != nil || v != tb.Version+1 {
			t.Fatalf("after a change: version %d, err %v", v, err)
		}
		if st.units.Load() != before {
			t.Errorf("a poll after a change read the database")
		}
	})
}
