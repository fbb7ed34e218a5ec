package store_test

import (
	"encoding/json"
	"fmt"
	"strings"
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
				if _, err := tx.Idempotency().Put(a, now); err != nil {
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
			if _, err := tx.Idempotency().Put(live, now); err != nil {
				return err
			}
			_, err := tx.Idempotency().Put(renewed, now)
			return err
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

// TestPutStoresInOneStatementUnlessTheKeyIsLive: Put is one statement (an
// upsert) whatever the key holds; it stores a new key's answer, replaces
// an expired one's, and never overwrites a live one (live: expiring at or
// after now, as Get reads it), on both databases.
func TestPutStoresInOneStatementUnlessTheKeyIsLive(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name      string
		priorEnds time.Time // when the key's answer before Put expires; zero: no answer
		wantSaved bool
	}{
		{"ANewKeysAnswerIsStored", time.Time{}, true},
		{"AnExpiredKeysAnswerIsReplaced", now.Add(-time.Microsecond), true},
		{"ALiveKeysAnswerIsNeverOverwritten", now.Add(time.Hour), false},
		{"AKeyExpiringThisInstantIsStillLive", now, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				ctx := t.Context()
				user, _ := newTournament(t, db, now)
				prior := domain.IdempotentAnswer{OwnerID: user, Key: "k", Scope: "tables/1", Fingerprint: "first",
					Answer: json.RawMessage(`{"seq":1}`), ExpiresAt: c.priorEnds}
				if !c.priorEnds.IsZero() {
					wantCode(t, db.InTx(ctx, func(tx domain.Tx) error {
						_, err := tx.Idempotency().Put(prior, c.priorEnds.Add(-time.Hour))
						return err
					}), "")
				}
				next := domain.IdempotentAnswer{OwnerID: user, Key: "k", Scope: "tables/2", Fingerprint: "second",
					Answer: json.RawMessage(`{"seq":2}`), ExpiresAt: now.Add(domain.IdempotencyTTL)}
				count := store.CountStatements(db)
				var saved bool
				wantCode(t, db.InTx(ctx, func(tx domain.Tx) (err error) {
					saved, err = tx.Idempotency().Put(next, now)
					return err
				}), "")
				var sent []string
				for _, q := range count() {
					if strings.Contains(q, "idempotency_keys") {
						sent = append(sent, q)
					}
				}
				if len(sent) != 1 {
					t.Errorf("Put sent %d statements, want 1:\n%s", len(sent), strings.Join(sent, "\n"))
				}
				if saved != c.wantSaved {
					t.Errorf("Put reported stored %v, want %v", saved, c.wantSaved)
				}
				want := next
				if !c.wantSaved {
					want = prior
				}
				var got domain.IdempotentAnswer
				wantCode(t, db.View(ctx, func(tx domain.Tx) (err error) {
					got, err = tx.Idempotency().Get(user, "k", now.Add(-time.Hour))
					return err
				}), "")
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("the key's answer after Put (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// TestOfTwoStoringOneKeyAtOnceOneStores: two transactions storing answers
// under one key at once: one stores, the other finds the key live (on
// PostgreSQL it waits for the first's commit) and stores nothing.
func TestOfTwoStoringOneKeyAtOnceOneStores(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		user, _ := newTournament(t, db, now)
		type put struct {
			fingerprint string
			saved       bool
			err         error
		}
		puts := make(chan put, 2)
		for _, fp := range []string{"a", "b"} {
			go func() {
				a := domain.IdempotentAnswer{OwnerID: user, Key: "k", Scope: "tables/1", Fingerprint: fp,
					Answer: json.RawMessage(`{}`), ExpiresAt: now.Add(domain.IdempotencyTTL)}
				var saved bool
				err := db.InTx(t.Context(), func(tx domain.Tx) (err error) {
					saved, err = tx.Idempotency().Put(a, now)
					return err
				})
				puts <- put{fp, saved, err}
			}()
		}
		var winner []string
		for range 2 {
			p := <-puts
			wantCode(t, p.err, "")
			if p.saved {
				winner = append(winner, p.fingerprint)
			}
		}
		if len(winner) != 1 {
			t.Fatalf("%d of 2 stored (%v), want 1", len(winner), winner)
		}
		var got domain.IdempotentAnswer
		wantCode(t, db.View(t.Context(), func(tx domain.Tx) (err error) {
			got, err = tx.Idempotency().Get(user, "k", now)
			return err
		}), "")
		if got.Fingerprint != winner[0] {
			t.Errorf("the key holds %q's answer, want the one that stored, %q", got.Fingerprint, winner[0])
		}
	})
}

// TestAnAnswerRidingALargerStatementIsStoredOnlyWithItsRow: the key's
// upsert sent as a data-modifying WITH of another statement (on
// PostgreSQL, for a write in one statement such as an owner's move)
// stores the answer only when the result it reads has a row, and, like
// Put, never overwrites a live key.
func TestAnAnswerRidingALargerStatementIsStoredOnlyWithItsRow(t *testing.T) {
	db := storetest.Postgres(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	user, _ := newTournament(t, db, now)
	answer := func(fp string) domain.IdempotentAnswer {
		return domain.IdempotentAnswer{OwnerID: user, Key: "k", Scope: "tables/1", Fingerprint: fp,
			Answer: json.RawMessage(`{"fp":"` + fp + `"}`), ExpiresAt: now.Add(domain.IdempotencyTTL)}
	}
	for _, c := range []struct {
		name      string
		rowThere  bool
		a         domain.IdempotentAnswer
		wantSaved int
		wantFP    string // the key's answer after; "" none
	}{
		{"WithoutItsRowNothingIsStored", false, answer("first"), 0, ""},
		{"WithItsRowANewKeyIsStored", true, answer("first"), 1, "first"},
		{"ALiveKeyIsNeverOverwritten", true, answer("second"), 0, "first"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, err := store.StoreAnswerWith(t.Context(), db, c.rowThere, c.a, now)
			wantCode(t, err, "")
			if n != c.wantSaved {
				t.Errorf("stored %d rows, want %d", n, c.wantSaved)
			}
			var got domain.IdempotentAnswer
			err = db.View(t.Context(), func(tx domain.Tx) (err error) {
				got, err = tx.Idempotency().Get(user, "k", now)
				return err
			})
			if c.wantFP == "" {
				wantCode(t, err, domain.ENotFound)
				return
			}
			wantCode(t, err, "")
			if got.Fingerprint != c.wantFP || string(got.Answer) != `{"fp":"`+c.wantFP+`"}` {
				t.Errorf("the key holds %+v, want %q's answer", got, c.wantFP)
			}
		})
	}
}
