package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// eachTwoHandles runs fn on two handles of one fresh database, as two
// server processes have, on SQLite and on PostgreSQL.
func eachTwoHandles(t *testing.T, fn func(t *testing.T, one, other *store.DB)) {
	t.Run(store.SQLite, func(t *testing.T) {
		url := storetest.SQLiteURL(t)
		fn(t, storetest.Open(t, url), storetest.Open(t, url))
	})
	t.Run(store.Postgres, func(t *testing.T) {
		url := storetest.PostgresURL(t)
		fn(t, storetest.Open(t, url), storetest.Open(t, url))
	})
}

// listNames lists the players of f in a ViewOne, as the service does, by
// name.
func listNames(t *testing.T, db *store.DB, f domain.PlayerFilter) ([]string, int) {
	t.Helper()
	if f.Limit == 0 {
		f.Limit = 20
	}
	var names []string
	var total int
	err := db.ViewOne(context.Background(), func(tx domain.Tx) error {
		items, n, err := tx.Players().List(f)
		for _, p := range items {
			names = append(names, p.Name)
		}
		total = n
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names, total
}

// byHand runs a statement as an operator or another program would: no
// repository knows of it.
func byHand(t *testing.T, db *store.DB, query string, args ...any) {
	t.Helper()
	if db.Dialect() == store.Postgres {
		for i := range args {
			query = strings.Replace(query, "?", fmt.Sprintf("$%d", i+1), 1)
		}
	}
	if _, err := db.SQL().Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// TestPlayerPagesFollowEveryChange: a page of players read again at the
// same data version is answered without reading it; every change of the
// players, through the repository, by hand, by a foreign key's action (a
// club deleted: ON DELETE SET NULL) or by another process, is seen by the
// next list of both processes.
func TestPlayerPagesFollowEveryChange(t *testing.T) {
	eachTwoHandles(t, func(t *testing.T, one, other *store.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		var club domain.Club
		var anna domain.Player
		err := one.InTx(ctx, func(tx domain.Tx) error {
			club = domain.Club{Name: "Circolo", City: "Roma", CreatedAt: now, UpdatedAt: now}
			if err := tx.Clubs().Create(&club); err != nil {
				return err
			}
			anna = domain.Player{Name: "Anna", ClubID: &club.ID, CreatedAt: now, UpdatedAt: now}
			if err := tx.Players().Create(&anna); err != nil {
				return err
			}
			return tx.Players().Create(&domain.Player{Name: "Bruno", ClubID: &club.ID, CreatedAt: now, UpdatedAt: now})
		})
		if err != nil {
			t.Fatal(err)
		}
		byClub := domain.PlayerFilter{ClubID: &club.ID}
		want := func(step string, f domain.PlayerFilter, names ...string) {
			t.Helper()
			for i, db := range []*store.DB{one, other, one} { // the third read is the first's again
				got, total := listNames(t, db, f)
				if !slices.Equal(got, names) || total != len(names) {
					t.Fatalf("%s: process %d lists %q (total %d), want %q", step, i%2+1, got, total, names)
				}
			}
		}
		want("created", domain.PlayerFilter{}, "Anna", "Bruno")
		hits := store.PlayerPageHits(one)
		want("unchanged", domain.PlayerFilter{}, "Anna", "Bruno")
		if got := store.PlayerPageHits(one) - hits; got != 2 {
			t.Fatalf("an unchanged page was answered %d times of 2 from the cache", got)
		}
		want("by club", byClub, "Anna", "Bruno")

		err = other.InTx(ctx, func(tx domain.Tx) error { // another process, through the repository
			anna.Name, anna.UpdatedAt = "Annabella", now.Add(time.Minute)
			return tx.Players().Update(anna)
		})
		if err != nil {
			t.Fatal(err)
		}
		want("renamed by the other process", domain.PlayerFilter{}, "Annabella", "Bruno")

		byHand(t, one, "UPDATE players SET name = ? WHERE name = ?", "Carla", "Bruno")
		want("renamed by hand", domain.PlayerFilter{}, "Annabella", "Carla")

		want("before the club is deleted", byClub, "Annabella", "Carla")
		byHand(t, other, "DELETE FROM clubs WHERE id = ?", club.ID) // ON DELETE SET NULL of players.club_id
		want("club deleted", byClub)
		want("club deleted, all", domain.PlayerFilter{}, "Annabella", "Carla")

		err = one.InTx(ctx, func(tx domain.Tx) error {
			return tx.Players().Delete(anna.ID, time.Now())
		})
		if err != nil {
			t.Fatal(err)
		}
		want("deleted", domain.PlayerFilter{}, "Carla")
	})
}

// TestPlayerPagesKeepNoRolledBackRow: a write transaction lists what it
// wrote, but no later read sees it once it rolled back.
func TestPlayerPagesKeepNoRolledBackRow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		if got, _ := listNames(t, db, domain.PlayerFilter{}); len(got) != 0 {
			t.Fatalf("a new database lists %q", got)
		}
		rollback := errors.New("roll back")
		err := db.InTx(ctx, func(tx domain.Tx) error {
			if err := tx.Players().Create(&domain.Player{Name: "Ghost", CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
			items, total, err := tx.Players().List(domain.PlayerFilter{Limit: 20})
			if err != nil || total != 1 || len(items) != 1 {
				return fmt.Errorf("the transaction lists %d of %d, %v", len(items), total, err)
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatal(err)
		}
		if got, total := listNames(t, db, domain.PlayerFilter{}); len(got) != 0 || total != 0 {
			t.Fatalf("after the rollback the list is %q (total %d)", got, total)
		}
	})
}
