package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestViewOneKeepsItsLimits: a repository reads in a ViewOne through GORM's
// raw SQL or its query builder alike, fn runs once, and either way a second
// query, a write and a caller that has given up are refused.
func TestViewOneKeepsItsLimits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Now()
		u := domain.User{Email: "v1@example.com", Name: "V", CreatedAt: now, UpdatedAt: now}
		wantCode(t, db.InTx(ctx, func(tx domain.Tx) error { return tx.Users().Create(&u, "hash") }), "")

		tests := []struct {
			name    string
			fn      func(tx domain.Tx) error
			wantErr string // "" for success
		}{
			{"a raw-SQL read", func(tx domain.Tx) error {
				got, err := tx.Users().Get(u.ID)
				if err == nil && got.Email != u.Email {
					t.Errorf("plain read: %+v", got)
				}
				return err
			}, ""},
			{"a query-builder read", func(tx domain.Tx) error {
				got, hash, err := tx.Users().ByEmail(u.Email)
				if err == nil && (got.ID != u.ID || hash != "hash") {
					t.Errorf("GORM read: %+v %q", got, hash)
				}
				return err
			}, ""},
			{"a query-builder read that finds nothing", func(tx domain.Tx) error {
				_, _, err := tx.Users().ByEmail("nobody@example.com")
				return err
			}, "user not found"},
			{"a raw-SQL read, then a query-builder read", func(tx domain.Tx) error {
				if _, err := tx.Users().Get(u.ID); err != nil {
					return err
				}
				_, _, err := tx.Users().ByEmail(u.Email)
				return err
			}, "second query"},
			{"a query-builder read, then a raw-SQL read", func(tx domain.Tx) error {
				if _, _, err := tx.Users().ByEmail(u.Email); err != nil {
					return err
				}
				_, err := tx.Users().Get(u.ID)
				return err
			}, "second query"},
			{"a query-builder write", func(tx domain.Tx) error { return tx.Users().Delete(u.ID) }, "a write in ViewOne"},
		}
		for _, tc := range tests {
			runs := 0
			err := db.ViewOne(ctx, func(tx domain.Tx) error { runs++; return tc.fn(tx) })
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("%s: %v", tc.name, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.wantErr)
			}
			if runs != 1 {
				t.Errorf("%s: fn ran %d times", tc.name, runs)
			}
		}
		// the user is still there: the write was refused
		wantCode(t, db.ViewOne(ctx, func(tx domain.Tx) error { _, err := tx.Users().Get(u.ID); return err }), "")

		// a caller that has given up is refused on either path
		gone, cancel := context.WithCancel(ctx)
		cancel()
		for name, fn := range map[string]func(tx domain.Tx) error{
			"raw SQL":       func(tx domain.Tx) error { _, err := tx.Users().Get(u.ID); return err },
			"query builder": func(tx domain.Tx) error { _, _, err := tx.Users().ByEmail(u.Email); return err },
		} {
			if err := db.ViewOne(gone, fn); err == nil || !strings.Contains(err.Error(), "context canceled") {
				t.Errorf("%s read after cancel: err = %v", name, err)
			}
		}
	})
}
