package domain_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// clock is a settable clock for the services.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// fixture is a set of services over one fresh database.
type fixture struct {
	t     *testing.T
	db    *store.DB
	svc   domain.Services
	clock *clock
}

func newFixture(t *testing.T, db *store.DB) *fixture {
	c := &clock{now: time.Date(2026, 3, 14, 18, 30, 0, 123456789, time.FixedZone("CET", 3600))}
	svc := domain.NewServices(db, domain.Config{Now: c.Now, PasswordParams: domain.TestPasswordParams})
	return &fixture{t: t, db: db, svc: svc, clock: c}
}

// each runs fn with a fixture on SQLite and on PostgreSQL, the two at the
// same time (storetest.EachParallel): what fn captures it may only read.
func each(t *testing.T, fn func(t *testing.T, f *fixture)) {
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) { fn(t, newFixture(t, db)) })
}

const password = "correct horse battery"

// user registers a user and returns it as an actor.
func (f *fixture) user(email string) domain.Actor {
	f.t.Helper()
	u, err := f.svc.Auth.Register(f.t.Context(), domain.RegisterInput{Email: email, Password: password, Name: email})
	if err != nil {
		f.t.Fatalf("register %s: %v", email, err)
	}
	return domain.Actor{UserID: u.ID}
}

// siteAdmin creates the bootstrap admin and returns it as an actor.
func (f *fixture) siteAdmin() domain.Actor {
	f.t.Helper()
	ctx := f.t.Context()
	if _, err := f.svc.Auth.EnsureAdmin(ctx, "root@example.org", password); err != nil {
		f.t.Fatal(err)
	}
	s, err := f.svc.Auth.Login(ctx, "root@example.org", password)
	if err != nil {
		f.t.Fatal(err)
	}
	return domain.Actor{UserID: s.User.ID, SiteAdmin: true}
}

// club creates a club owned by owner.
func (f *fixture) club(owner domain.Actor, name string) domain.Club {
	f.t.Helper()
	c, err := f.svc.Clubs.Create(f.t.Context(), owner, domain.ClubInput{Name: name, City: "Roma"})
	if err != nil {
		f.t.Fatalf("create club %s: %v", name, err)
	}
	return c
}

// member adds a user to a club with a role, as the club's owner.
func (f *fixture) member(owner domain.Actor, clubID int64, u domain.Actor, role domain.Role) {
	f.t.Helper()
	if _, err := f.svc.Clubs.AddMember(f.t.Context(), owner, clubID, u.UserID, role); err != nil {
		f.t.Fatalf("add member: %v", err)
	}
}

// wantCode fails the test unless err carries the code (nil for "" ).
func wantCode(t *testing.T, err error, want domain.Code) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("err = %v, want none", err)
		}
		return
	}
	var de *domain.Error
	if !errors.As(err, &de) || de.Code != want {
		t.Fatalf("err = %v, want code %s", err, want)
	}
}

func ptr[T any](v T) *T { return &v }

// botTable is a started fibur table for two: owner at seat 0, a bot at 1.
func (f *fixture) botTable(owner domain.Actor) domain.Table {
	f.t.Helper()
	ctx := f.t.Context()
	tb, err := f.svc.Tables.Create(ctx, owner, domain.TableInput{Rules: "fibur", Players: 2})
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.svc.Tables.AddBot(ctx, owner, tb.ID, nil); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.svc.Tables.Start(ctx, owner, tb.ID); err != nil {
		f.t.Fatal(err)
	}
	return tb
}
