package store_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestIdempotencyKeysLiveUntilExpiryThenPurged stores answers under
// idempotency keys, finds a live one, replaces an expired one under the
// same key, and has PurgeExpired delete the expired ones (over several
// batches) and keep the rest, on both databases.
func TestIdempotencyKeysLiveUntilExpiryThenPurged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		user, id := newTournament(t, db, now)
		scope := fmt.Sprint("tournaments/", id)
		expiredAt := now.Add(-time.Second)
		const expired = domain.PurgeBatch + 3
		err := db.InTx(ctx, func(tx domain.Tx) error {
			for i := range expired {
				a := domain.IdempotentAnswer{OwnerID: user, Key: fmt.Sprint("old-", i), Scope: scope, Fingerprint: "h",
					Answer: json.RawMessage(`{}`), ExpiresAt: expiredAt}
				if err := tx.Idempotency().Put(a); err != nil {
					return err
				}
			}
			return nil
		})
		wantCode(t, err, "")
		live := domain.IdempotentAnswer{OwnerID: user, Key: "live", Scope: "tables/7", Fingerprint: "abc",
			Answer: json.RawMessage(`{"seq":3}`), ExpiresAt: now.Add(time.Hour + 500*time.Microsecond)}
		// The same key as an expired answer: the new one replaces it.
		renewed := domain.IdempotentAnswer{OwnerID: user, Key: "old-0", Scope: scope, Fingerprint: "new",
			Answer: json.RawMessage(`{"seq":4}`), ExpiresAt: now.Add(domain.IdempotencyTTL)}
		err = db.InTx(ctx, func(tx domain.Tx) error {
			if err := tx.Idempotency().Put(live); err != nil {
				return err
			}
			return tx.Idempotency().Put(renewed)
		})
		wantCode(t, err, "")

		lookup := func(key string) (domain.IdempotentAnswer, error) {
			var got domain.IdempotentAnswer
			err := db.View(ctx, func(tx domain.Tx) (err error) {
				got, err = tx.Idempotency().Get(user, key, now)
				return err
			})
			return got, err
		}
		got, err := lookup("live")
		wantCode(t, err, "")
		if diff := cmp.Diff(live, got); diff != "" {
			t.Errorf("the live answer (-stored +read):\n%s", diff)
		}
		_, err = lookup("old-1")
		wantCode(t, err, domain.ENotFound) // expired: a retry now is a new request

		p, err := domain.PurgeExpired(ctx, db, now)
		wantCode(t, err, "")
		if p.IdempotencyKeys != expired-1 {
			t.Errorf("purged %d idempotency keys, want %d", p.IdempotencyKeys, expired-1)
		}
		var left int
		wantCode(t, db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM idempotency_keys").Scan(&left), "")
		if left != 2 {
			t.Errorf("%d keys left, want the live and the renewed one", left)
		}
		got, err = lookup("old-0")
		wantCode(t, err, "")
		if got.Fingerprint != "new" {
			t.Errorf("renewed key: %+v", got)
		}
	})
}
