package domain_test

import (
	"context"
	neturl "net/url"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// heardDB is a process's database whose UserFeed tells the test when it
// listens, and may hold back a listening(true) that follows a loss (a
// listener that cannot reconnect).
type heardDB struct {
	*store.DB
	on chan bool // each listening call, after the services heard it

	mu      sync.Mutex
	hold    bool          // hold back listening(true)
	release chan struct{} // closed to let it through
}

func (h *heardDB) FollowUsers(ctx context.Context, changed func(int64), listening func(bool)) error {
	return h.DB.FollowUsers(ctx, changed, func(on bool) {
		h.mu.Lock()
		hold, release := h.hold && on, h.release
		h.mu.Unlock()
		if hold {
			h.on <- false // held: not listening yet
			select {
			case <-release:
			case <-ctx.Done():
				return
			}
		}
		listening(on)
		select {
		case h.on <- on:
		default: // nobody waits for it (a SQLite file says listening(true) at each other process's commit)
		}
	})
}

// followingFixture is a process whose services follow the users' feed
// (as serve does), listening once it returns.
func followingFixture(t *testing.T, databaseURL string) (*fixture, *heardDB) {
	t.Helper()
	db := openMigrated(t, databaseURL)
	h := &heardDB{DB: db, on: make(chan bool, 16)}
	c := &clock{now: time.Date(2026, 3, 14, 18, 30, 0, 0, time.UTC)}
	f := &fixture{t: t, db: db, clock: c,
		svc: domain.NewServices(h, domain.Config{Now: c.Now, PasswordParams: domain.TestPasswordParams})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.svc.Auth.Follow(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })
	waitListening(t, h, true)
	return f, h
}

// waitListening waits for the feed's next listening call to say on.
func waitListening(t *testing.T, h *heardDB, on bool) {
	t.Helper()
	for {
		select {
		case got := <-h.on:
			if got == on {
				return
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the users' feed did not say listening %v", on)
		}
	}
}

// eventually calls check until it reports true; the clocks do not move:
// what it waits for is a notice on its way, not an expiry.
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !check(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s, the clock standing still", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAUsersChangeOnOneProcessIsSeenAtOnceOnAProcessThatHearsIt: two
// processes share one PostgreSQL database; the second follows the users'
// feed, so it keeps a user for ActorTTLHeard, and each change the first
// makes (a password reset, a site admin's right taken, a deletion) is
// refused there as soon as the commit's notice arrives, the clock standing
// still. A change that sends no notice (SQL by hand) waits for
// ActorTTLHeard.
func TestAUsersChangeOnOneProcessIsSeenAtOnceOnAProcessThatHearsIt(t *testing.T) {
	url := storetest.PostgresURL(t)
	here := newFixture(t, openMigrated(t, url))
	there, _ := followingFixture(t, url)
	changesAreSeenOnTheOtherProcess(t, here, there)

	t.Run("AChangeByHandInSQLWaitsForActorTTLHeard", func(t *testing.T) {
		dora := here.user("dora@example.org")
		wantActor(t, there.svc, dora.UserID, domain.Actor{UserID: dora.UserID}) // cached there
		if _, err := here.db.SQL().Exec("UPDATE users SET site_admin = true WHERE id = $1", dora.UserID); err != nil {
			t.Fatal(err)
		}
		there.clock.Advance(domain.ActorTTLHeard - time.Millisecond)
		wantActor(t, there.svc, dora.UserID, domain.Actor{UserID: dora.UserID})
		there.clock.Advance(time.Millisecond)
		wantActor(t, there.svc, dora.UserID, domain.Actor{UserID: dora.UserID, SiteAdmin: true})
	})
}

// TestAUsersChangeByAnotherProcessOnASQLiteFileIsSeenWithoutWaitingForATTL:
// two processes share one SQLite file (serve and `burraco admin
// reset-password`, say); the one that follows the users' feed keeps a user
// for ActorTTLHeard, yet each change the other commits, through the
// services or by hand in SQL, is refused there within a poll of its write
// connection, the clock standing still.
func TestAUsersChangeByAnotherProcessOnASQLiteFileIsSeenWithoutWaitingForATTL(t *testing.T) {
	url := storetest.SQLiteURL(t)
	here := newFixture(t, openMigrated(t, url))
	there, _ := followingFixture(t, url)
	changesAreSeenOnTheOtherProcess(t, here, there)

	t.Run("AChangeByHandInSQLIsSeenToo", func(t *testing.T) {
		dora := here.user("dora@example.org")
		wantActor(t, there.svc, dora.UserID, domain.Actor{UserID: dora.UserID}) // cached there
		there.clock.Advance(domain.ActorTTL)
		wantActor(t, there.svc, dora.UserID, domain.Actor{UserID: dora.UserID}) // still trusted
		if _, err := here.db.SQL().Exec("UPDATE users SET site_admin = true WHERE id = $1", dora.UserID); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the change seen on the other process", func() bool {
			a, err := there.svc.Auth.Actor(t.Context(), dora.UserID)
			return err == nil && a.SiteAdmin
		})
	})
}

// changesAreSeenOnTheOtherProcess: each change here (a password reset, a
// site admin's right taken, a deletion) of a user cached there, and still
// trusted there ActorTTL later, is refused there soon after, the clock
// standing still.
func changesAreSeenOnTheOtherProcess(t *testing.T, here, there *fixture) {
	t.Helper()
	ctx := t.Context()
	root := here.siteAdmin()

	authenticates := func(id, session int64) func() domain.Code {
		return func() domain.Code {
			_, err := there.svc.Auth.Authenticate(ctx, id, session)
			return codeOf(err)
		}
	}
	isSiteAdmin := func(id int64) func() domain.Code {
		return func() domain.Code {
			a, err := there.svc.Auth.Actor(ctx, id)
			if err == nil && !a.SiteAdmin {
				return domain.EForbidden
			}
			return codeOf(err)
		}
	}
	tests := []struct {
		name   string
		email  string
		setup  func(u domain.Actor)
		check  func(u domain.Actor) func() domain.Code
		change func(u domain.Actor) error
		want   domain.Code
	}{
		{name: "APasswordResetRefusesTheOldSession", email: "anna@example.org",
			check: func(u domain.Actor) func() domain.Code { return authenticates(u.UserID, 0) },
			change: func(domain.Actor) error {
				_, err := here.svc.Auth.ResetPassword(ctx, "anna@example.org", "a brand new password")
				return err
			},
			want: domain.EUnauthenticated},
		{name: "ASiteAdminsRightTakenIsGone", email: "bruno@example.org",
			setup: func(u domain.Actor) {
				_, err := here.svc.Auth.SetSiteAdmin(ctx, root, u.UserID, true)
				wantCode(t, err, "")
			},
			check: func(u domain.Actor) func() domain.Code { return isSiteAdmin(u.UserID) },
			change: func(u domain.Actor) error {
				_, err := here.svc.Auth.SetSiteAdmin(ctx, root, u.UserID, false)
				return err
			},
			want: domain.EForbidden},
		{name: "ADeletedUserIsNotFound", email: "carla@example.org",
			check:  func(u domain.Actor) func() domain.Code { return authenticates(u.UserID, 0) },
			change: func(u domain.Actor) error { return here.svc.Auth.DeleteUser(ctx, root, u.UserID) },
			want:   domain.ENotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := here.user(tt.email)
			if tt.setup != nil {
				tt.setup(u)
			}
			check := tt.check(u)
			if got := check(); got != "" { // cached there
				t.Fatalf("before the change: %q", got)
			}
			there.clock.Advance(domain.ActorTTL) // past the short TTL: the entry is still trusted
			if got := check(); got != "" {
				t.Fatalf("before the change, ActorTTL later: %q", got)
			}
			wantCode(t, tt.change(u), "")
			eventually(t, "the change seen on the other process", func() bool { return check() == tt.want })
		})
	}
}

// TestAProcessThatStopsHearingUsersTrustsThemForActorTTLOnly: the
// listening connection of the process that follows the users' feed is
// cut and cannot come back; the process forgets every user it kept
// (changes may be missed from then on) and keeps those it reads again for
// ActorTTL only. Once it listens again it empties its cache once more
// and keeps users for ActorTTLHeard.
func TestAProcessThatStopsHearingUsersTrustsThemForActorTTLOnly(t *testing.T) {
	url := storetest.PostgresURL(t)
	here := newFixture(t, openMigrated(t, url))
	there, feed := followingFixture(t, url)
	ctx := t.Context()
	anna := here.user("anna@example.org")
	wantActor(t, there.svc, anna.UserID, domain.Actor{UserID: anna.UserID}) // cached there
	byHand := func(admin bool) {
		t.Helper()
		if _, err := here.db.SQL().Exec("UPDATE users SET site_admin = $1 WHERE id = $2", admin, anna.UserID); err != nil {
			t.Fatal(err)
		}
	}

	feed.mu.Lock()
	feed.hold, feed.release = true, make(chan struct{})
	feed.mu.Unlock()
	if _, err := here.db.SQL().ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = 'burraco writes listener' AND query LIKE '%' || $1 || '%'`,
		mustQuery(t, url, "search_path")); err != nil {
		t.Fatal(err)
	}
	waitListening(t, feed, false)

	byHand(true) // no notice: only a read sees it
	wantActor(t, there.svc, anna.UserID, domain.Actor{UserID: anna.UserID, SiteAdmin: true})
	byHand(false)
	there.clock.Advance(domain.ActorTTL - time.Millisecond)
	wantActor(t, there.svc, anna.UserID, domain.Actor{UserID: anna.UserID, SiteAdmin: true})
	there.clock.Advance(time.Millisecond)
	wantActor(t, there.svc, anna.UserID, domain.Actor{UserID: anna.UserID})

	byHand(true)
	close(feed.release) // the listener is back
	waitListening(t, feed, true)
	wantActor(t, there.svc, anna.UserID, domain.Actor{UserID: anna.UserID, SiteAdmin: true})
	byHand(false)
	there.clock.Advance(domain.ActorTTL)
	wantActor(t, there.svc, anna.UserID, domain.Actor{UserID: anna.UserID, SiteAdmin: true})
}

// mustQuery is the value of key in rawURL's query.
func mustQuery(t *testing.T, rawURL, key string) string {
	t.Helper()
	u, err := neturl.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get(key)
}

// codeOf is err's code, "" for none.
func codeOf(err error) domain.Code {
	if err == nil {
		return ""
	}
	return domain.ErrorCode(err)
}
