package domain_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// tableReadsStorage counts the table reads (Tables().Get) its units make.
type tableReadsStorage struct {
	domain.Storage
	gets atomic.Int64
}

func (s *tableReadsStorage) wrap(fn func(domain.Tx) error) func(domain.Tx) error {
	return func(tx domain.Tx) error { return fn(tableReadsTx{tx, &s.gets}) }
}

func (s *tableReadsStorage) View(ctx context.Context, fn func(domain.Tx) error) error {
	return s.Storage.View(ctx, s.wrap(fn))
}

func (s *tableReadsStorage) ViewOne(ctx context.Context, fn func(domain.Tx) error) error {
	return s.Storage.ViewOne(ctx, s.wrap(fn))
}

type tableReadsTx struct {
	domain.Tx
	gets *atomic.Int64
}

func (t tableReadsTx) Tables() domain.TableRepo { return tableReadsRepo{t.Tx.Tables(), t.gets} }

type tableReadsRepo struct {
	domain.TableRepo
	gets *atomic.Int64
}

func (r tableReadsRepo) Get(id int64) (domain.Table, error) {
	r.gets.Add(1)
	return r.TableRepo.Get(id)
}

// TestTableStateAfterAMoveIsReadFromMemory: after a move through the
// service, each seat's state read finds the table's new version (row,
// seats, names) and the running deal in memory and reads no table row;
// and what it answers is what a service with nothing in memory reads.
func TestTableStateAfterAMoveIsReadFromMemory(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		anna, bruno := f.user("anna@example.org"), f.user("bruno@example.org")
		st := &tableReadsStorage{Storage: db}
		svc := domain.NewServices(st, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams})
		tb := startedTwoSeats(t, svc, anna, bruno)
		seats := [2]domain.Actor{anna, bruno}
		state, err := svc.Tables.State(ctx, anna, tb.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			state, err = benchMove(svc, seats[state.View.Turn], tb.ID, state)
			if err != nil {
				t.Fatal(err)
			}
			before := st.gets.Load()
			for _, a := range seats {
				warm, err := svc.Tables.State(ctx, a, tb.ID, "")
				if err != nil {
					t.Fatal(err)
				}
				cold, err := domain.NewServices(db, domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams}).
					Tables.State(ctx, a, tb.ID, "")
				if err != nil {
					t.Fatal(err)
				}
				// Presence is each process's memory of its polls, not
				// stored: the new service has seen nobody.
				warm.Presence, cold.Presence = nil, nil
				if w, c := mustJSON(t, warm), mustJSON(t, cold); w != c {
					t.Fatalf("state from memory differs from the database's:\n%s\n%s", w, c)
				}
				if warm.Seat >= 0 {
					state = warm
				}
			}
			if n := st.gets.Load() - before; n != 0 {
				t.Errorf("the seats' state reads after a move read the table %d times", n)
			}
			state, _ = svc.Tables.State(ctx, seats[state.View.Turn], tb.ID, "")
		}
	})
}

// startedTwoSeats is a fibur table for two that anna created and bruno
// joined, started.
func startedTwoSeats(t *testing.T, svc domain.Services, anna, bruno domain.Actor) domain.Table {
	t.Helper()
	ctx := t.Context()
	tb, err := svc.Tables.Create(ctx, anna, domain.TableInput{Rules: "fibur", Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Tables.Join(ctx, bruno, tb.ID, nil, ""); err != nil {
		t.Fatal(err)
	}
	if tb, err = svc.Tables.Start(ctx, anna, tb.ID); err != nil {
		t.Fatal(err)
	}
	return tb
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
