package domain_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/migrations"
)

func TestSetSiteAdmin(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		root, anna := f.siteAdmin(), f.user("anna@example.org")
		tests := []struct {
			name   string
			actor  domain.Actor
			userID int64
			admin  bool
			want   domain.Code
		}{
			{"EUnauthenticatedAnonymous", domain.Actor{}, anna.UserID, true, domain.EUnauthenticated},
			{"EForbiddenNotSiteAdmin", anna, anna.UserID, true, domain.EForbidden},
			{"ENotFoundUser", root, 987654, true, domain.ENotFound},
			{"EConflictLastSiteAdmin", root, root.UserID, false, domain.EConflict},
			{"Promotes", root, anna.UserID, true, ""},
			{"AgainIsNoChange", root, anna.UserID, true, ""},
			{"DemotesWhileAnotherRemains", domain.Actor{UserID: anna.UserID, SiteAdmin: true}, root.UserID, false, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				u, err := f.svc.Auth.SetSiteAdmin(ctx, tt.actor, tt.userID, tt.admin)
				wantCode(t, err, tt.want)
				if err == nil && (u.ID != tt.userID || u.SiteAdmin != tt.admin) {
					t.Errorf("user %+v", u)
				}
			})
		}
		if u, _ := f.svc.Auth.User(ctx, root.UserID); u.SiteAdmin {
			t.Error("the demotion was not stored")
		}
	})
}

func TestDeleteUser(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		root := f.siteAdmin()
		anna, bruno, carla := f.user("anna@example.org"), f.user("bruno@example.org"), f.user("carla@example.org")
		club := f.club(anna, "Circolo")
		f.member(anna, club.ID, bruno, domain.RoleOwner)
		f.member(anna, club.ID, carla, domain.RoleMember)
		p, err := f.svc.Players.Create(ctx, carla, domain.PlayerInput{Name: "Carla", UserID: &carla.UserID})
		wantCode(t, err, "")

		wantCode(t, f.svc.Auth.DeleteUser(ctx, domain.Actor{}, carla.UserID), domain.EUnauthenticated)
		wantCode(t, f.svc.Auth.DeleteUser(ctx, anna, carla.UserID), domain.EForbidden)
		wantCode(t, f.svc.Auth.DeleteUser(ctx, root, 987654), domain.ENotFound)
		wantCode(t, f.svc.Auth.DeleteUser(ctx, root, root.UserID), domain.EConflict) // the last site admin

		wantCode(t, f.svc.Auth.DeleteUser(ctx, carla, carla.UserID), "") // oneself
		_, err = f.svc.Auth.User(ctx, carla.UserID)
		wantCode(t, err, domain.ENotFound)
		if role, err := f.svc.Clubs.RoleOf(ctx, carla, club.ID); err != nil || role != "" {
			t.Errorf("role of a deleted user: %q, %v", role, err)
		}
		if got, err := f.svc.Players.Get(ctx, p.ID); err != nil || got.UserID != nil {
			t.Errorf("player profile after its user's deletion: %+v, %v; want it kept, unlinked", got, err)
		}

		wantCode(t, f.svc.Auth.DeleteUser(ctx, root, anna.UserID), "") // bruno still owns the club
		wantCode(t, f.svc.Auth.DeleteUser(ctx, root, bruno.UserID), domain.EConflict)
	})
}

// TestActorRevokedAtOnce: on the process that changes a user, the cached
// actor is dropped with the change, although the clock does not move.
func TestActorRevokedAtOnce(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		root, anna := f.siteAdmin(), f.user("anna@example.org")
		wantActor(t, f.svc, anna.UserID, domain.Actor{UserID: anna.UserID}) // cached

		_, err := f.svc.Auth.SetSiteAdmin(ctx, root, anna.UserID, true)
		wantCode(t, err, "")
		wantActor(t, f.svc, anna.UserID, domain.Actor{UserID: anna.UserID, SiteAdmin: true})

		_, err = f.svc.Auth.SetSiteAdmin(ctx, root, anna.UserID, false)
		wantCode(t, err, "")
		wantActor(t, f.svc, anna.UserID, domain.Actor{UserID: anna.UserID})

		wantCode(t, f.svc.Auth.DeleteUser(ctx, root, anna.UserID), "")
		_, err = f.svc.Auth.Actor(ctx, anna.UserID)
		wantCode(t, err, domain.ENotFound)
	})
}

// TestActorRevokedAcrossProcesses: two processes share one database; a
// change made through one reaches the other's authentication within
// ActorTTL, when its cached entry expires.
func TestActorRevokedAcrossProcesses(t *testing.T) {
	for dialect, url := range map[string]func(t testing.TB) string{
		store.SQLite:   storetest.SQLiteURL,
		store.Postgres: storetest.PostgresURL,
	} {
		t.Run(dialect, func(t *testing.T) {
			url := url(t)
			here, there := newFixture(t, openMigrated(t, url)), newFixture(t, openMigrated(t, url))
			ctx := t.Context()
			root := here.siteAdmin()
			anna, bruno := here.user("anna@example.org"), here.user("bruno@example.org")
			_, err := here.svc.Auth.SetSiteAdmin(ctx, root, anna.UserID, true)
			wantCode(t, err, "")
			wantActor(t, there.svc, anna.UserID, domain.Actor{UserID: anna.UserID, SiteAdmin: true})
			wantActor(t, there.svc, bruno.UserID, domain.Actor{UserID: bruno.UserID})

			_, err = here.svc.Auth.SetSiteAdmin(ctx, root, anna.UserID, false)
			wantCode(t, err, "")
			wantCode(t, here.svc.Auth.DeleteUser(ctx, root, bruno.UserID), "")

			// Until the entries expire, the other process still answers
			// from its cache (which shows that it has one)...
			there.clock.Advance(domain.ActorTTL - time.Millisecond)
			wantActor(t, there.svc, anna.UserID, domain.Actor{UserID: anna.UserID, SiteAdmin: true})
			wantActor(t, there.svc, bruno.UserID, domain.Actor{UserID: bruno.UserID})
			// ...and from ActorTTL on, it reads the change.
			there.clock.Advance(time.Millisecond)
			wantActor(t, there.svc, anna.UserID, domain.Actor{UserID: anna.UserID})
			_, err = there.svc.Auth.Actor(ctx, bruno.UserID)
			wantCode(t, err, domain.ENotFound)
		})
	}
}

func wantActor(t *testing.T, svc domain.Services, id int64, want domain.Actor) {
	t.Helper()
	got, err := svc.Auth.Actor(t.Context(), id)
	wantCode(t, err, "")
	if got != want {
		t.Fatalf("actor %+v, want %+v", got, want)
	}
}

// openMigrated opens databaseURL, migrated, for one of several processes.
func openMigrated(t *testing.T, databaseURL string) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := migrations.Up(ctx, db.SQL(), db.Dialect()); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestSiteAdminsDemotingEachOtherKeepOne: two site admins take away each
// other's rights at the same moment; one of them must remain.
func TestSiteAdminsDemotingEachOtherKeepOne(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		root := f.siteAdmin()
		for i := range 5 {
			anna := f.user(fmt.Sprintf("anna%d@example.org", i))
			_, err := f.svc.Auth.SetSiteAdmin(ctx, root, anna.UserID, true)
			wantCode(t, err, "")
			anna.SiteAdmin = true
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, pair := range [][2]domain.Actor{{root, anna}, {anna, root}} {
				wg.Go(func() { _, errs[i] = f.svc.Auth.SetSiteAdmin(ctx, pair[0], pair[1].UserID, false) })
			}
			wg.Wait()
			if errs[0] == nil && errs[1] == nil {
				t.Fatal("both site admins were demoted")
			}
			for _, err := range errs {
				if err != nil && domain.ErrorCode(err) != domain.EConflict && domain.ErrorCode(err) != domain.EUnavailable {
					t.Fatalf("err = %v, want a conflict", err)
				}
			}
			if errs[1] == nil { // anna demoted root: she is the next round's root
				root = anna
			}
		}
	})
}
