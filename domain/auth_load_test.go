package domain_test

import (
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

func TestLoadAccounts(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		t.Run("OneSessionEachAndOnePasswordHashForAll", func(t *testing.T) {
			emails := []string{"p0@load.test", " P1@Load.Test ", "p2@load.test"}
			sessions, err := f.svc.Auth.LoadAccounts(ctx, emails)
			wantCode(t, err, "")
			if len(sessions) != 3 {
				t.Fatalf("%d sessions, want 3", len(sessions))
			}
			for i, want := range []string{"p0@load.test", "p1@load.test", "p2@load.test"} {
				s, err := f.svc.Auth.Refresh(ctx, sessions[i].RefreshToken)
				wantCode(t, err, "")
				if s.User.Email != want || s.User.ID != sessions[i].User.ID {
					t.Errorf("session %d refreshed to %s (user %d), want %s (user %d)", i, s.User.Email, s.User.ID, want, sessions[i].User.ID)
				}
			}
			var hashes int
			if err := f.db.SQL().QueryRowContext(ctx, "SELECT COUNT(DISTINCT password_hash) FROM users WHERE email LIKE 'p_@load.test'").Scan(&hashes); err != nil {
				t.Fatal(err)
			}
			if hashes != 1 {
				t.Errorf("%d password hashes for the 3 accounts, want 1 (one argon2 for all)", hashes)
			}
		})
		t.Run("NoPasswordSignsIn", func(t *testing.T) {
			_, err := f.svc.Auth.Login(ctx, "p0@load.test", password)
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("EConflictAnEmailTakenCreatesNone", func(t *testing.T) {
			f.user("taken@load.test")
			_, err := f.svc.Auth.LoadAccounts(ctx, []string{"fresh@load.test", "taken@load.test"})
			wantCode(t, err, domain.EConflict)
			var n int
			if err := f.db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM users WHERE email = 'fresh@load.test'").Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Errorf("fresh@load.test was created although the transaction failed")
			}
		})
	})
}

func TestLoadAccountsValidation(t *testing.T) {
	f := newFixture(t, storetest.SQLite(t))
	for _, tt := range []struct {
		name   string
		emails []string
		field  string
		code   string
	}{
		{"EInvalidNoEmail", nil, "emails", "out_of_range"},
		{"EInvalidARealDomain", []string{"p0@load.test", "anna@example.org"}, "emails[1]", "invalid"},
		{"EInvalidTestInTheMiddleOnly", []string{"anna@load.test.example.org"}, "emails[0]", "invalid"},
		{"EInvalidMalformed", []string{"not-an-email.test"}, "emails[0]", "invalid"},
		{"EInvalidGivenTwice", []string{"p0@load.test", "P0@load.test"}, "emails[1]", "duplicate"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.Auth.LoadAccounts(t.Context(), tt.emails)
			wantCode(t, err, domain.EInvalid)
			fields := err.(*domain.Error).Fields
			if len(fields) != 1 || fields[0].Field != tt.field || fields[0].Code != tt.code {
				t.Errorf("fields %+v, want %s:%s", fields, tt.field, tt.code)
			}
		})
	}
}
