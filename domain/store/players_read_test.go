package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// seedBenchPlayers adds n players (the read-pin benchmark's).
func seedBenchPlayers(b *testing.B, db *store.DB, n int) int64 {
	ctx := context.Background()
	now := time.Now().UTC()
	var id int64
	err := db.InTx(ctx, func(tx domain.Tx) error {
		for i := range n {
			p := domain.Player{Name: fmt.Sprintf("Player %03d", i), CreatedAt: now, UpdatedAt: now}
			if err := tx.Players().Create(&p); err != nil {
				return err
			}
			id = p.ID
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return id
}

// TestPlayersReadBackAsCreated: on both databases, Get returns each player
// as created, every field, for names that JSON would escape and that sort
// by case and accent.
func TestPlayersReadBackAsCreated(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		names := []string{"Anna", "anna", "Ànna", "Zoë \"Z\" O'Neil", `back\slash`, "tab\there", "line\nbreak",
			"bell\x07\x1f", "emoji 🂡 ♠", "Anna 50%", "  spaced  ", "Ω", "a/b", "x\u2028y", "\x7f del"}
		if db.Dialect() == store.SQLite {
			names = append(names, "nul\x00byte") // PostgreSQL's text refuses it
		}
		var want []domain.Player
		err := db.InTx(ctx, func(tx domain.Tx) error {
			now := time.Date(2026, 11, 23, 12, 5, 50, 123456000, time.UTC)
			c := domain.Club{Name: "Circolo", City: "Roma", CreatedAt: now, UpdatedAt: now}
			if err := tx.Clubs().Create(&c); err != nil {
				return err
			}
			u := domain.User{Email: "anna@example.com", Name: "Anna", CreatedAt: now, UpdatedAt: now}
			if err := tx.Users().Create(&u, "hash"); err != nil {
				return err
			}
			for i, name := range names {
				at := now.Add(time.Duration(i) * 1001 * time.Microsecond)
				p := domain.Player{Name: name, CreatedAt: at, UpdatedAt: at.Add(time.Duration(i%2) * time.Hour)} // changed or not
				if i%2 == 0 {
					p.ClubID = &c.ID
				}
				if i%3 == 0 {
					fed := fmt.Sprintf("FIBUR-%d \"%s\"", i, name)
					p.FederationID = &fed
				}
				if i == 5 {
					p.UserID = &u.ID
				}
				if err := tx.Players().Create(&p); err != nil {
					return err
				}
				want = append(want, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		err = db.View(ctx, func(tx domain.Tx) error {
			for _, w := range want {
				got, err := tx.Players().Get(w.ID)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(got, w) {
					t.Errorf("Get(%d) = %+v, want %+v", w.ID, got, w)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
