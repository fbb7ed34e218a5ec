package domain_test

import (
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

func TestRegister(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		t.Run("OK", func(t *testing.T) {
			u, err := f.svc.Auth.Register(ctx, domain.RegisterInput{Email: "  Anna@Example.ORG ", Password: password, Name: " Anna "})
			wantCode(t, err, "")
			want := domain.User{ID: u.ID, Email: "anna@example.org", Name: "Anna",
				CreatedAt: f.clock.Now().UTC().Truncate(time.Microsecond), UpdatedAt: f.clock.Now().UTC().Truncate(time.Microsecond)}
			if diff := cmp.Diff(want, u); diff != "" {
				t.Errorf("user (-want +got):\n%s", diff)
			}
			got, err := f.svc.Auth.User(ctx, u.ID)
			wantCode(t, err, "")
			if diff := cmp.Diff(u, got); diff != "" {
				t.Errorf("stored user (-want +got):\n%s", diff)
			}
		})
		t.Run("EConflictDuplicateEmail", func(t *testing.T) {
			_, err := f.svc.Auth.Register(ctx, domain.RegisterInput{Email: "ANNA@example.org", Password: password, Name: "Other"})
			wantCode(t, err, domain.EConflict)
		})
		t.Run("EInvalidReportsEveryField", func(t *testing.T) {
			_, err := f.svc.Auth.Register(ctx, domain.RegisterInput{Email: "not-an-email", Password: "short", Name: " "})
			wantCode(t, err, domain.EInvalid)
			var fields []string
			for _, fe := range err.(*domain.Error).Fields {
				fields = append(fields, fe.Field+":"+fe.Code)
			}
			sort.Strings(fields)
			want := []string{"email:invalid", "name:required", "password:too_short"}
			if diff := cmp.Diff(want, fields); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
		t.Run("ENotFoundUser", func(t *testing.T) {
			_, err := f.svc.Auth.User(ctx, 987654)
			wantCode(t, err, domain.ENotFound)
		})
	})
}

func TestRegisterValidation(t *testing.T) {
	f := newFixture(t, storetest.SQLite(t))
	long := strings.Repeat("a", 101)
	tests := []struct {
		name  string
		in    domain.RegisterInput
		field string
		code  string
	}{
		{"EmailRequired", domain.RegisterInput{Email: "", Password: password, Name: "A"}, "email", "required"},
		{"EmailWithDisplayName", domain.RegisterInput{Email: "Anna <a@b.it>", Password: password, Name: "A"}, "email", "invalid"},
		{"EmailTooLong", domain.RegisterInput{Email: strings.Repeat("a", 250) + "@b.it", Password: password, Name: "A"}, "email", "too_long"},
		{"PasswordRequired", domain.RegisterInput{Email: "a@b.it", Password: "", Name: "A"}, "password", "required"},
		{"PasswordNineChars", domain.RegisterInput{Email: "a@b.it", Password: "123456789", Name: "A"}, "password", "too_short"},
		{"NameTooLong", domain.RegisterInput{Email: "a@b.it", Password: password, Name: long}, "name", "too_long"},
		{"NameControlChars", domain.RegisterInput{Email: "a@b.it", Password: password, Name: "A\x00B"}, "name", "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.Auth.Register(t.Context(), tt.in)
			wantCode(t, err, domain.EInvalid)
			want := []string{tt.field + ":" + tt.code}
			var got []string
			for _, fe := range err.(*domain.Error).Fields {
				got = append(got, fe.Field+":"+fe.Code)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLogin(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		me := f.user("anna@example.org")
		t.Run("OK", func(t *testing.T) {
			s, err := f.svc.Auth.Login(ctx, " ANNA@example.org", password)
			wantCode(t, err, "")
			if s.User.ID != me.UserID || len(s.RefreshToken) != 43 {
				t.Errorf("session = %+v", s)
			}
			if want := f.clock.Now().Add(domain.DefaultRefreshTTL).UTC().Truncate(time.Microsecond); !s.RefreshExpiresAt.Equal(want) {
				t.Errorf("expires %v, want %v", s.RefreshExpiresAt, want)
			}
		})
		t.Run("EUnauthenticatedWrongPassword", func(t *testing.T) {
			_, err := f.svc.Auth.Login(ctx, "anna@example.org", "wrong password!")
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("EUnauthenticatedUnknownEmailSameMessage", func(t *testing.T) {
			_, err1 := f.svc.Auth.Login(ctx, "nobody@example.org", password)
			wantCode(t, err1, domain.EUnauthenticated)
			_, err2 := f.svc.Auth.Login(ctx, "anna@example.org", "wrong password!")
			if err1.Error() != err2.Error() {
				t.Errorf("unknown email %q differs from wrong password %q", err1, err2)
			}
		})
	})
}

func TestRefresh(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		f.user("anna@example.org")
		login := func(t *testing.T) domain.Session {
			s, err := f.svc.Auth.Login(ctx, "anna@example.org", password)
			wantCode(t, err, "")
			return s
		}
		t.Run("RotatesToken", func(t *testing.T) {
			s1 := login(t)
			s2, err := f.svc.Auth.Refresh(ctx, s1.RefreshToken)
			wantCode(t, err, "")
			if s2.RefreshToken == s1.RefreshToken || s2.User.Email != "anna@example.org" {
				t.Fatalf("refresh gave %+v", s2)
			}
			s3, err := f.svc.Auth.Refresh(ctx, s2.RefreshToken)
			wantCode(t, err, "")
			if s3.RefreshToken == s2.RefreshToken {
				t.Fatal("token not rotated")
			}
		})
		t.Run("ETokenReusedRevokesFamily", func(t *testing.T) {
			s1 := login(t)
			other := login(t) // another family, unaffected
			s2, err := f.svc.Auth.Refresh(ctx, s1.RefreshToken)
			wantCode(t, err, "")
			_, err = f.svc.Auth.Refresh(ctx, s1.RefreshToken)
			wantCode(t, err, domain.ETokenReused)
			_, err = f.svc.Auth.Refresh(ctx, s2.RefreshToken)
			wantCode(t, err, domain.EUnauthenticated)
			_, err = f.svc.Auth.Refresh(ctx, other.RefreshToken)
			wantCode(t, err, "")
		})
		t.Run("EUnauthenticatedExpired", func(t *testing.T) {
			s := login(t)
			f.clock.Advance(domain.DefaultRefreshTTL)
			defer f.clock.Advance(-domain.DefaultRefreshTTL)
			_, err := f.svc.Auth.Refresh(ctx, s.RefreshToken)
			wantCode(t, err, domain.EUnauthenticated)
		})
		t.Run("OKJustBeforeExpiry", func(t *testing.T) {
			s := login(t)
			f.clock.Advance(domain.DefaultRefreshTTL - time.Second)
			defer f.clock.Advance(-domain.DefaultRefreshTTL + time.Second)
			_, err := f.svc.Auth.Refresh(ctx, s.RefreshToken)
			wantCode(t, err, "")
		})
		t.Run("EUnauthenticatedUnknownOrMalformed", func(t *testing.T) {
			for _, tok := range []string{"garbage", strings.Repeat("A", 43)} {
				_, err := f.svc.Auth.Refresh(ctx, tok)
				wantCode(t, err, domain.EUnauthenticated)
			}
		})
		t.Run("EInvalidMissingToken", func(t *testing.T) {
			_, err := f.svc.Auth.Refresh(ctx, "")
			wantCode(t, err, domain.EInvalid)
			wantCode(t, f.svc.Auth.Logout(ctx, ""), domain.EInvalid)
		})
		t.Run("LogoutRevokesFamily", func(t *testing.T) {
			s1 := login(t)
			s2, err := f.svc.Auth.Refresh(ctx, s1.RefreshToken)
			wantCode(t, err, "")
			wantCode(t, f.svc.Auth.Logout(ctx, s2.RefreshToken), "")
			_, err = f.svc.Auth.Refresh(ctx, s2.RefreshToken)
			wantCode(t, err, domain.EUnauthenticated)
			wantCode(t, f.svc.Auth.Logout(ctx, "unknown"), "")
			wantCode(t, f.svc.Auth.Logout(ctx, strings.Repeat("A", 43)), "")
		})
		t.Run("ConcurrentReuseLetsOneWin", func(t *testing.T) {
			s := login(t)
			codes := make([]domain.Code, 4)
			var wg sync.WaitGroup
			for i := range codes {
				wg.Go(func() {
					_, err := f.svc.Auth.Refresh(ctx, s.RefreshToken)
					codes[i] = domain.Code("ok")
					if err != nil {
						codes[i] = domain.ErrorCode(err)
					}
				})
			}
			wg.Wait()
			count := map[domain.Code]int{}
			for _, c := range codes {
				count[c]++
			}
			if count["ok"] != 1 || count[domain.ETokenReused] < 1 || count[domain.EInternal] != 0 {
				t.Errorf("outcomes %v, want exactly one ok and the rest reuse or unauthenticated", count)
			}
		})
	})
}

func TestEnsureAdmin(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		t.Run("EConflictEmailOfPlainUser", func(t *testing.T) {
			f.user("taken@example.org")
			created, err := f.svc.Auth.EnsureAdmin(ctx, "taken@example.org", password)
			wantCode(t, err, domain.EConflict)
			if created {
				t.Error("created")
			}
		})
		t.Run("EInvalidShortPassword", func(t *testing.T) {
			_, err := f.svc.Auth.EnsureAdmin(ctx, "root@example.org", "short")
			wantCode(t, err, domain.EInvalid)
		})
		t.Run("CreatesOnce", func(t *testing.T) {
			created, err := f.svc.Auth.EnsureAdmin(ctx, "Root@Example.org", password)
			wantCode(t, err, "")
			if !created {
				t.Fatal("not created")
			}
			s, err := f.svc.Auth.Login(ctx, "root@example.org", password)
			wantCode(t, err, "")
			if !s.User.SiteAdmin {
				t.Error("not a site admin")
			}
			created, err = f.svc.Auth.EnsureAdmin(ctx, "other@example.org", password)
			wantCode(t, err, "")
			if created {
				t.Error("created a second admin")
			}
		})
	})
}

// TestEnsureAdminConcurrent has several callers (as several server processes
// starting at once) ensure the admin together: one creates it, and none
// fails.
func TestEnsureAdminConcurrent(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		const n = 6
		var wg sync.WaitGroup
		var mu sync.Mutex
		created := 0
		for range n {
			wg.Go(func() {
				c, err := f.svc.Auth.EnsureAdmin(t.Context(), "root@example.org", password)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				defer mu.Unlock()
				if c {
					created++
				}
			})
		}
		wg.Wait()
		if created != 1 {
			t.Errorf("%d callers created the admin, want 1", created)
		}
	})
}
