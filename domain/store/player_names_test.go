package store_test

import (
	"maps"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestPlayerNamesKeepsTheDeletedOnes: a tournament names its players by
// id, so Names answers the name a deleted player had as well as the live
// ones', and leaves out ids of no player.
func TestPlayerNamesKeepsTheDeletedOnes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Now().UTC().Truncate(time.Microsecond)
		var got map[int64]string
		want := map[int64]string{}
		err := db.InTx(t.Context(), func(tx domain.Tx) error {
			var ids []int64
			for _, name := range []string{"Anna", "Bruno", "Carla"} {
				p := domain.Player{Name: name, CreatedAt: now, UpdatedAt: now}
				if err := tx.Players().Create(&p); err != nil {
					return err
				}
				ids, want[p.ID] = append(ids, p.ID), name
			}
			if err := tx.Players().Delete(ids[1], now); err != nil {
				return err
			}
			var err error
			got, err = tx.Players().Names(append(ids, ids[2]+1000))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("names %v, want %v", got, want)
		}
	})
}
