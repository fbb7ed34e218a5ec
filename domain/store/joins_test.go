package store_test

import (
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestClaimFailuresCountWithinTheWindowThenArePurged: failed claims count
// per user and per address from a time on, and PurgeExpired deletes those
// older than the window, keeping the others.
func TestClaimFailuresCountWithinTheWindowThenArePurged(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		a, _ := newTournament(t, db, now)
		b, _ := newTournament(t, db, now)
		notes := []struct {
			user int64
			addr string
			at   time.Time
		}{
			{a, "192.0.2.1", now.Add(-2 * time.Hour)},
			{a, "192.0.2.1", now.Add(-30 * time.Minute)},
			{a, "192.0.2.2", now.Add(-time.Minute)},
			{b, "192.0.2.1", now.Add(-time.Minute)},
		}
		wantCode(t, db.InTx(ctx, func(tx domain.Tx) error {
			for _, n := range notes {
				if err := tx.Joins().NoteClaimFailure(n.user, n.addr, n.at); err != nil {
					return err
				}
			}
			return nil
		}), "")
		count := func() (int, int) {
			var byUser, byAddr int
			wantCode(t, db.View(ctx, func(tx domain.Tx) (err error) {
				byUser, byAddr, err = tx.Joins().ClaimFailures(a, "192.0.2.1", now.Add(-domain.ClaimFailureWindow))
				return err
			}), "")
			return byUser, byAddr
		}
		if u, ad := count(); u != 2 || ad != 2 {
			t.Fatalf("within the hour: %d of the user, %d of the address; want 2 and 2", u, ad)
		}
		p, err := domain.PurgeExpired(ctx, db, now)
		wantCode(t, err, "")
		if p.ClaimFailures != 1 {
			t.Errorf("purged %d failed claims, want 1", p.ClaimFailures)
		}
		if u, ad := count(); u != 2 || ad != 2 {
			t.Fatalf("after the purge: %d of the user, %d of the address; want 2 and 2", u, ad)
		}
	})
}

// TestLinkPlayerLinksOnlyAProfileWithoutAnAccount: the link of a claim is
// conditional, so that of two claims at once only the first links (the
// second's transaction may have read the profile unlinked).
func TestLinkPlayerLinksOnlyAProfileWithoutAnAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		a, _ := newTournament(t, db, now)
		b, _ := newTournament(t, db, now)
		p := domain.Player{Name: "P", CreatedAt: now, UpdatedAt: now}
		wantCode(t, db.InTx(ctx, func(tx domain.Tx) error { return tx.Players().Create(&p) }), "")
		for _, step := range []struct {
			user int64
			want bool
		}{{a, true}, {b, false}, {a, false}} {
			var linked bool
			wantCode(t, db.InTx(ctx, func(tx domain.Tx) (err error) {
				linked, err = tx.Joins().LinkPlayer(p.ID, step.user, now)
				return err
			}), "")
			if linked != step.want {
				t.Fatalf("linking to user %d: %v, want %v", step.user, linked, step.want)
			}
		}
		var got domain.Player
		wantCode(t, db.View(ctx, func(tx domain.Tx) (err error) { got, err = tx.Players().Get(p.ID); return err }), "")
		if got.UserID == nil || *got.UserID != a {
			t.Fatalf("the profile is linked to %v, want %d", got.UserID, a)
		}
	})
}
