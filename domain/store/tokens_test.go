package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestPurgeExpiredTokens checks on both databases that the purge deletes
// every expired refresh token, over several batches, and keeps the live
// ones, rotated or revoked ones among them (reuse detection needs them).
func TestPurgeExpiredTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		expired := 2*domain.PurgeBatch + 7 // three batches, the last one short
		kept := addTokens(t, db, now, expired)

		// One batch deletes no more than its limit.
		var batch int64
		err := db.InTx(ctx, func(tx domain.Tx) (err error) { batch, err = tx.RefreshTokens().DeleteExpired(now, 10); return err })
		wantCode(t, err, "")
		if batch != 10 || countTokens(t, db) != expired-10+len(kept) {
			t.Fatalf("a batch of at most 10 deleted %d, leaving %d tokens", batch, countTokens(t, db))
		}

		got, err := domain.PurgeExpired(ctx, db, now)
		wantCode(t, err, "")
		if got.RefreshTokens != int64(expired-10) {
			t.Errorf("purged %d refresh tokens, want %d", got.RefreshTokens, expired-10)
		}
		if n := countTokens(t, db); n != len(kept) {
			t.Errorf("%d tokens left, want the %d unexpired ones", n, len(kept))
		}
		for _, hash := range kept {
			err := db.View(ctx, func(tx domain.Tx) error { _, err := tx.RefreshTokens().ByHash(hash); return err })
			wantCode(t, err, "")
		}
		got, err = domain.PurgeExpired(ctx, db, now)
		if err != nil || got.RefreshTokens != 0 {
			t.Errorf("a second purge: %+v, %v; want nothing left to purge", got, err)
		}
	})
}

// TestPurgeStopsWhenCancelled checks that a purge whose context has ended
// deletes nothing and says why.
func TestPurgeStopsWhenCancelled(t *testing.T) {
	db := storetest.SQLite(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	addTokens(t, db, now, 3)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	got, err := domain.PurgeExpired(ctx, db, now)
	if !errors.Is(err, context.Canceled) || got.RefreshTokens != 0 {
		t.Errorf("purge after cancel: %+v, %v; want nothing purged and context.Canceled", got, err)
	}
	if n := countTokens(t, db); n != 3+4 {
		t.Errorf("%d tokens left, want all 7", n)
	}
}

// addTokens stores expired tokens that expired before now, and four that
// the purge keeps (live ones: plain, rotated, revoked; and one expiring
// exactly at now, which the purge leaves for next time), and returns the
// kept ones' hashes.
func addTokens(t *testing.T, db *store.DB, now time.Time, expired int) []string {
	t.Helper()
	err := db.InTx(t.Context(), func(tx domain.Tx) error {
		u := domain.User{Email: "purge@example.com", Name: "P", CreatedAt: now, UpdatedAt: now}
		if err := tx.Users().Create(&u, "hash"); err != nil {
			return err
		}
		add := func(hash string, created, expires time.Time, rotated, revoked *time.Time) error {
			tok := domain.RefreshToken{UserID: u.ID, FamilyID: "f-" + hash, TokenHash: hash, CreatedAt: created,
				ExpiresAt: expires, RotatedAt: rotated, RevokedAt: revoked}
			return tx.RefreshTokens().Create(&tok)
		}
		for i := range expired {
			at := now.Add(-time.Duration(i+1) * time.Minute)
			if err := add(fmt.Sprintf("expired-%d", i), at.Add(-time.Hour), at, nil, nil); err != nil {
				return err
			}
		}
		before := now.Add(-time.Hour)
		for _, err := range []error{
			add("live", before, now.Add(time.Hour), nil, nil),
			add("live-rotated", before, now.Add(time.Hour), &before, nil),
			add("live-revoked", before, now.Add(time.Hour), nil, &before),
			add("expiring-now", before, now, nil, nil),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	wantCode(t, err, "")
	return []string{"live", "live-rotated", "live-revoked", "expiring-now"}
}

func countTokens(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.SQL().QueryRowContext(t.Context(), "SELECT COUNT(*) FROM refresh_tokens").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
