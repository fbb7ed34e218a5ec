package store_test

import (
	"context"
	"fmt"
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
