package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// markOf waits (up to 5 s: on PostgreSQL the listener starts on the first
// call) for a mark of tables and returns it.
func markOf(t *testing.T, db *store.DB, tables ...string) uint64 {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if m, ok := db.Mark(tables...); ok {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("no mark of %v within 5 s", tables)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func createPlayer(t *testing.T, db *store.DB, name string) int64 {
	t.Helper()
	var p domain.Player
	err := db.InTx(context.Background(), func(tx domain.Tx) error {
		now := time.Now()
		p = domain.Player{Name: name, CreatedAt: now, UpdatedAt: now}
		return tx.Players().Create(&p)
	})
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func TestMarkMovesWithTheWritesOfItsTablesOnly(t *testing.T) {
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		players, clubs := markOf(t, db, "players"), markOf(t, db, "clubs")
		id := createPlayer(t, db, "Anna")
		if got := markOf(t, db, "players"); got == players {
			t.Error("a player created: the players' mark did not move")
		} else {
			players = got
		}
		if got := markOf(t, db, "clubs"); got != clubs {
			t.Error("a player created: the clubs' mark moved")
		}

		// A transaction that rolls back leaves nothing behind in flight.
		_ = db.InTx(ctx, func(tx domain.Tx) error {
			p := domain.Player{Name: "Bruno", CreatedAt: time.Now(), UpdatedAt: time.Now()}
			if err := tx.Players().Create(&p); err != nil {
				return err
			}
			return domain.Errorf(domain.EConflict, "changed my mind")
		})
		players = markOf(t, db, "players")

		// While a write to players is under way there is no mark of
		// players, and there is one of clubs.
		inside, release := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- db.InTx(ctx, func(tx domain.Tx) error {
				p, err := tx.Players().Get(id)
				if err != nil {
					return err
				}
				p.Name, p.UpdatedAt = "Anna Rossi", time.Now()
				if err := tx.Players().Update(p); err != nil {
					return err
				}
				close(inside)
				<-release
				return nil
			})
		}()
		<-inside
		if _, ok := db.Mark("players"); ok {
			t.Error("a mark of players while a write to players is under way")
		}
		if _, ok := db.Mark("clubs"); !ok {
			t.Error("no mark of clubs while only players are written")
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if got := markOf(t, db, "players"); got == players {
			t.Error("a player updated: the players' mark did not move")
		}

		// A delete may write other tables (ON DELETE actions): every mark moves.
		clubs = markOf(t, db, "clubs")
		if err := db.InTx(ctx, func(tx domain.Tx) error { return tx.Players().Delete(id, time.Now()) }); err != nil {
			t.Fatal(err)
		}
		if got := markOf(t, db, "clubs"); got == clubs {
			t.Error("a player deleted: the clubs' mark did not move")
		}
	})
}

// TestColumnMarkMovesWithWritesOfItsColumn: a mark of table.column moves
// with an UPDATE that sets the column and with an INSERT into the table,
// not with an UPDATE of other columns; the table's mark moves with all.
func TestColumnMarkMovesWithWritesOfItsColumn(t *testing.T) {
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		name, admin, users := markOf(t, db, "users.name"), markOf(t, db, "users.site_admin"), markOf(t, db, "users")
		u := domain.User{Name: "Anna", Email: "anna@example.com", CreatedAt: time.Now(), UpdatedAt: time.Now()}
		if err := db.InTx(ctx, func(tx domain.Tx) error { return tx.Users().Create(&u, "hash") }); err != nil {
			t.Fatal(err)
		}
		for record, before := range map[string]uint64{"users.name": name, "users.site_admin": admin, "users": users} {
			if markOf(t, db, record) == before {
				t.Errorf("a user created: the mark of %s did not move", record)
			}
		}
		name, admin, users = markOf(t, db, "users.name"), markOf(t, db, "users.site_admin"), markOf(t, db, "users")
		if err := db.InTx(ctx, func(tx domain.Tx) error { return tx.Users().SetSiteAdmin(u.ID, true, time.Now()) }); err != nil {
			t.Fatal(err)
		}
		if markOf(t, db, "users.name") != name {
			t.Error("site_admin set: the mark of users.name moved")
		}
		if markOf(t, db, "users.site_admin") == admin || markOf(t, db, "users") == users {
			t.Error("site_admin set: the mark of users.site_admin or of users did not move")
		}
	})
}

// TestMarkHearsAnotherProcessesWrites: two processes on one PostgreSQL
// database; B's mark of players moves when A creates a player.
func TestMarkHearsAnotherProcessesWrites(t *testing.T) {
	databaseURL := storetest.PostgresURL(t)
	a, b := storetest.Open(t, databaseURL), storetest.Open(t, databaseURL)
	before := markOf(t, b, "players")
	createPlayer(t, a, "Anna")
	deadline := time.Now().Add(5 * time.Second)
	for markOf(t, b, "players") == before {
		if time.Now().After(deadline) {
			t.Fatal("B did not hear A's write within 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
