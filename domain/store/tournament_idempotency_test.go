package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTournamentIdempotencyKeys stores responses to tournament requests,
// finds a live one, replaces an expired one under the same key, and has
// PurgeExpired delete those older than IdempotencyTTL (over several
// batches) and keep the rest, on both databases.
func TestTournamentIdempotencyKeys(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		user, id := newTournament(t, db, now)
		expiredAt := now.Add(-domain.IdempotencyTTL - time.Second)
		const expired = domain.PurgeBatch + 3
		err := db.InTx(ctx, func(tx domain.Tx) error {
			for i := range expired {
				r := domain.TournamentIdempotent{UserID: user, Key: fmt.Sprint("old-", i), TournamentID: id, RequestHash: "h",
					Status: 200, Body: []byte(`{}`), CreatedAt: expiredAt}
				if err := tx.TournamentEvents().SaveIdempotent(r); err != nil {
					return err
				}
			}
			return nil
		})
		wantCode(t, err, "")
		live := domain.TournamentIdempotent{UserID: user, Key: "live", TournamentID: id, RequestHash: "abc", Status: 201,
			Body: []byte(`{"seq":3}`), CreatedAt: now.Add(-time.Hour)}
		// The same key as an expired response: the new one replaces it.
		renewed := domain.TournamentIdempotent{UserID: user, Key: "old-0", TournamentID: id, RequestHash: "new", Status: 200,
			Body: []byte(`{"seq":4}`), CreatedAt: now}
		err = db.InTx(ctx, func(tx domain.Tx) error {
			if err := tx.TournamentEvents().SaveIdempotent(live); err != nil {
				return err
			}
			return tx.TournamentEvents().SaveIdempotent(renewed)
		})
		wantCode(t, err, "")

		since := now.Add(-domain.IdempotencyTTL)
		lookup := func(key string) (domain.TournamentIdempotent, error) {
			var got domain.TournamentIdempotent
			err := db.View(ctx, func(tx domain.Tx) (err error) {
				got, err = tx.TournamentEvents().Idempotent(user, key, since)
				return err
			})
			return got, err
		}
		got, err := lookup("live")
		wantCode(t, err, "")
		if diff := cmp.Diff(live, got); diff != "" {
			t.Errorf("the live response (-stored +read):\n%s", diff)
		}
		_, err = lookup("old-1")
		wantCode(t, err, domain.ENotFound) // expired: a retry now is a new request

		p, err := domain.PurgeExpired(ctx, db, now)
		wantCode(t, err, "")
		if p.TournamentIdempotencyKeys != expired-1 {
			t.Errorf("purged %d tournament keys, want %d", p.TournamentIdempotencyKeys, expired-1)
		}
		var left int
		wantCode(t, db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM tournament_idempotency").Scan(&left), "")
		if left != 2 {
			t.Errorf("%d keys left, want the live and the renewed one", left)
		}
		got, err = lookup("old-0")
		wantCode(t, err, "")
		if got.RequestHash != "new" {
			t.Errorf("renewed key: %+v", got)
		}
	})
}
