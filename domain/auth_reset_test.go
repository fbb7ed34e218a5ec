package domain_test

import (
	"context"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// beforeWrite is a Storage that runs hook before its next write
// transaction: there, between a login's check of the password and the
// storing of its session.
type beforeWrite struct {
	domain.Storage
	hook func()
}

func (s *beforeWrite) InTx(ctx context.Context, fn func(tx domain.Tx) error) error {
	if h := s.hook; h != nil {
		s.hook = nil
		h()
	}
	return s.Storage.InTx(ctx, fn)
}

// TestLoginRacingAResetGetsNoSession: a login that checked the old
// password before a reset, and stores its session after, fails as a wrong
// password does: the session would outlive the reset.
func TestLoginRacingAResetGetsNoSession(t *testing.T) {
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		ctx := t.Context()
		st := &beforeWrite{Storage: db}
		here := domain.NewServices(st, domain.Config{PasswordParams: domain.TestPasswordParams})
		operator := domain.NewServices(db, domain.Config{PasswordParams: domain.TestPasswordParams})
		if _, err := here.Auth.Register(ctx, domain.RegisterInput{Email: "anna@example.org", Password: password, Name: "Anna"}); err != nil {
			t.Fatal(err)
		}
		st.hook = func() {
			if _, err := operator.Auth.ResetPassword(ctx, "anna@example.org", "a new password"); err != nil {
				t.Error(err)
			}
		}
		_, err := here.Auth.Login(ctx, "anna@example.org", password)
		wantCode(t, err, domain.EUnauthenticated)
		if _, err := here.Auth.Login(ctx, "anna@example.org", "a new password"); err != nil {
			t.Errorf("the new password: %v", err)
		}
	})
}
