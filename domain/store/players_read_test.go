package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// seedBenchPlayers adds n players, as the request-path benchmark does.
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

// BenchmarkPlayerReads times a player's read and a page of 20 through the
// store alone, packed and column by column, on SQLite:
//
//	go test ./domain/store -run '^$' -bench PlayerReads
func BenchmarkPlayerReads(b *testing.B) {
	db := storetest.SQLite(b)
	id := seedBenchPlayers(b, db, 100)
	ctx := context.Background()
	for _, way := range []struct {
		name  string
		reads func(domain.Tx) store.PlayerReads
	}{{"packed", store.PackedPlayerReads}, {"columns", store.ColumnPlayerReads}} {
		b.Run("get/"+way.name, func(b *testing.B) {
			for b.Loop() {
				if err := db.ViewOne(ctx, func(tx domain.Tx) error { _, err := way.reads(tx).Get(id); return err }); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("list/"+way.name, func(b *testing.B) {
			for b.Loop() {
				err := db.ViewOne(ctx, func(tx domain.Tx) error {
					_, _, err := way.reads(tx).List(domain.PlayerFilter{Limit: 20})
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPackedPlayersAreTheColumnsPlayers: on SQLite a player, and a page of
// players, are read packed into one JSON value; they must be the players
// read column by column (as on PostgreSQL), with every field, in the same
// order, for names that JSON escapes and that sort by case and accent.
// On both databases, Get returns each player as created.
func TestPackedPlayersAreTheColumnsPlayers(t *testing.T) {
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
			if db.Dialect() != store.SQLite {
				return nil
			}
			packed, columns := store.PackedPlayerReads(tx), store.ColumnPlayerReads(tx)
			for _, w := range append(want, domain.Player{ID: 987654}) {
				p, perr := packed.Get(w.ID)
				c, cerr := columns.Get(w.ID)
				if !reflect.DeepEqual(p, c) || domain.ErrorCode(perr) != domain.ErrorCode(cerr) {
					t.Errorf("Get(%d): packed %+v, %v; columns %+v, %v", w.ID, p, perr, c, cerr)
				}
			}
			clubID := want[0].ClubID
			for _, f := range []domain.PlayerFilter{
				{Limit: 100}, {Limit: 5}, {Limit: 5, Offset: 5}, {Limit: 5, Offset: 15}, {Limit: 5, Offset: 40},
				{Limit: 100, Query: "anna"}, {Limit: 100, ClubID: clubID}, {Limit: 2, Offset: 1, Query: "a", ClubID: clubID},
				{Limit: 10, Query: "nobody"}, {Limit: 10, Query: `\`},
			} {
				ps, pn, perr := packed.List(f)
				cs, cn, cerr := columns.List(f)
				if perr != nil || cerr != nil {
					return errors.Join(perr, cerr)
				}
				if !reflect.DeepEqual(ps, cs) || pn != cn {
					t.Errorf("List(%+v): packed %d %+v; columns %d %+v", f, pn, ps, cn, cs)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
