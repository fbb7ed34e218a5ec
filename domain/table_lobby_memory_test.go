package domain_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// lobbyReadsDB is the store counting the lobby pages it reads
// (Tables().List); it keeps the store's write marks, so reads are kept.
type lobbyReadsDB struct {
	*store.DB
	lists atomic.Int64
}

func (s *lobbyReadsDB) View(ctx context.Context, fn func(domain.Tx) error) error {
	return s.DB.View(ctx, func(tx domain.Tx) error { return fn(lobbyReadsTx{tx, &s.lists}) })
}

type lobbyReadsTx struct {
	domain.Tx
	lists *atomic.Int64
}

func (t lobbyReadsTx) Tables() domain.TableRepo { return lobbyReadsRepo{t.Tx.Tables(), t.lists} }

type lobbyReadsRepo struct {
	domain.TableRepo
	lists *atomic.Int64
}

func (r lobbyReadsRepo) List(f domain.TableFilter, userID int64) ([]domain.Table, int, error) {
	r.lists.Add(1)
	return r.TableRepo.List(f, userID)
}

// TestLobbyAfterAMoveIsShownFromMemory: a move changes its table's version
// in the lobby without the page being read again (the move writes none of
// the columns that decide which tables a page lists), and the page shown
// is the one a service with nothing in memory reads; a new table, which
// changes the page, is read.
func TestLobbyAfterAMoveIsShownFromMemory(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		f := newFixture(t, db)
		anna, bruno := f.user("anna@example.org"), f.user("bruno@example.org")
		st := &lobbyReadsDB{DB: db}
		config := domain.Config{Now: f.clock.Now, PasswordParams: domain.TestPasswordParams, KeptReadsMaxAge: time.Hour}
		svc := domain.NewServices(st, config)
		tb := startedTwoSeats(t, svc, anna, bruno)
		lobby := func(svc domain.Services) domain.Page[domain.Table] {
			t.Helper()
			p, err := svc.Tables.List(ctx, anna, domain.TableFilter{})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		// Until the page is kept (on PostgreSQL once the process listens
		// for other processes' writes).
		for deadline := time.Now().Add(5 * time.Second); ; {
			lobby(svc)
			before := st.lists.Load()
			lobby(svc)
			if st.lists.Load() == before {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the lobby page is not kept within 5 s")
			}
			time.Sleep(10 * time.Millisecond)
		}
		state, err := svc.Tables.State(ctx, anna, tb.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		seats := [2]domain.Actor{anna, bruno}
		for range 3 {
			shown := lobby(svc)
			if state, err = benchMove(svc, seats[state.View.Turn], tb.ID, state); err != nil {
				t.Fatal(err)
			}
			before := st.lists.Load()
			warm := lobby(svc)
			if n := st.lists.Load() - before; n != 0 {
				t.Errorf("the lobby after a move read its page %d times", n)
			}
			cold := lobby(domain.NewServices(db, config))
			if w, c := mustJSON(t, warm), mustJSON(t, cold); w != c {
				t.Fatalf("lobby from memory differs from the database's:\n%s\n%s", w, c)
			}
			if warm.Stamp == shown.Stamp {
				t.Error("the lobby's stamp did not change with the move")
			}
			state, _ = svc.Tables.State(ctx, seats[state.View.Turn], tb.ID, "")
		}
		if _, err := svc.Tables.Create(ctx, bruno, domain.TableInput{Rules: "aberto", Players: 2}); err != nil {
			t.Fatal(err)
		}
		if p := lobby(svc); p.Total != 2 || len(p.Items) != 2 {
			t.Errorf("after a table was created the lobby lists %d of %d tables, want 2", len(p.Items), p.Total)
		}
	})
}
