package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestReadsMeetingNewStatementsDoNotStop: many readers at once, more than
// the read pool has connections, each reading in a View (a transaction)
// and a ViewOne the same statements, new to the database, all finish. (With
// GORM's cache of prepared statements on every read, a statement prepared
// outside a transaction waited for a free connection while the
// transactions that met it waited for it, holding theirs: the reads
// stopped for good.)
func TestReadsMeetingNewStatementsDoNotStop(t *testing.T) {
	for round := range 5 {
		db := storetest.SQLite(t)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		now := time.Now()
		p := domain.Player{Name: "Anna", CreatedAt: now, UpdatedAt: now}
		u := domain.User{Email: "anna@example.com", Name: "Anna", CreatedAt: now, UpdatedAt: now}
		c := domain.Club{Name: "Circolo", CreatedAt: now, UpdatedAt: now}
		err := db.InTx(ctx, func(tx domain.Tx) error {
			if err := tx.Players().Create(&p); err != nil {
				return err
			}
			if err := tx.Users().Create(&u, "hash"); err != nil {
				return err
			}
			return tx.Clubs().Create(&c)
		})
		if err != nil {
			t.Fatal(err)
		}
		reads := []func(tx domain.Tx) error{
			func(tx domain.Tx) error { _, err := tx.Players().Get(p.ID); return err },
			func(tx domain.Tx) error { _, err := tx.Users().Get(u.ID); return err },
			func(tx domain.Tx) error { _, err := tx.Clubs().Get(c.ID); return err },
		}
		done := make(chan error, 64)
		var start sync.WaitGroup
		start.Add(1)
		for i := range 64 {
			go func() {
				start.Wait()
				read := reads[i%len(reads)]
				var err error
				if i%2 == 0 {
					err = db.View(ctx, read)
				} else {
					err = db.ViewOne(ctx, read)
				}
				done <- err
			}()
		}
		start.Done()
		stuck := time.After(20 * time.Second) // the statements wait for no context
		for range 64 {
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
			case <-stuck:
				t.Fatalf("round %d: the reads stopped", round)
			}
		}
		cancel()
	}
}
