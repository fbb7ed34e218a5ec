package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain"
)

// TestAdminResetPasswordEndsSessions: the operator sets a lost password on
// the database file; the user logs in with the new one only, and the
// sessions opened before cannot be refreshed.
func TestAdminResetPasswordEndsSessions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "burraco.db")
	db, err := openDB(ctx, path, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := domain.NewServices(db, domain.Config{PasswordParams: domain.TestPasswordParams})
	if _, err := svc.Auth.Register(ctx, domain.RegisterInput{Email: "anna@example.com", Password: "the old password", Name: "Anna"}); err != nil {
		t.Fatal(err)
	}
	old, err := svc.Auth.Login(ctx, "anna@example.com", "the old password")
	if err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := runAdminWith(ctx, []string{"reset-password", "-database", path, "-email", "Anna@Example.com", "-password-stdin"},
		strings.NewReader("a brand new password\n"), &out, &errs)
	if code != 0 || !strings.Contains(out.String(), "reset") {
		t.Fatalf("exit %d: %s%s", code, out.String(), errs.String())
	}
	if _, err := svc.Auth.Login(ctx, "anna@example.com", "a brand new password"); err != nil {
		t.Errorf("login with the new password: %v", err)
	}
	if _, err := svc.Auth.Login(ctx, "anna@example.com", "the old password"); domain.ErrorCode(err) != domain.EUnauthenticated {
		t.Errorf("login with the old password: %v", err)
	}
	if _, err := svc.Auth.Refresh(ctx, old.RefreshToken); err == nil {
		t.Error("a session opened before the reset was refreshed")
	}

	out.Reset()
	if code := runAdminWith(ctx, []string{"reset-password", "-database", path, "-email", "anna@example.com"}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("generated password: exit %d: %s", code, errs.String())
	}
	_, generated, ok := strings.Cut(out.String(), "new password: ")
	if !ok {
		t.Fatalf("no generated password printed: %s", out.String())
	}
	if _, err := svc.Auth.Login(ctx, "anna@example.com", strings.TrimSpace(generated)); err != nil {
		t.Errorf("login with the generated password: %v", err)
	}
	if code := runAdminWith(ctx, []string{"reset-password", "-database", path, "-email", "nobody@example.com"}, strings.NewReader(""), &out, &errs); code != 1 {
		t.Errorf("unknown email: exit %d, want 1", code)
	}
	if code := runAdminWith(ctx, []string{"reset-password", "-database", path}, strings.NewReader(""), &out, &errs); code != 2 {
		t.Errorf("no email: exit %d, want 2", code)
	}
}
