package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// TestAdminLoadAccountsPrintsATokenThatReachesEachAccount: the load test's
// accounts are made on the database, one JSON line each, and each line's
// refresh token opens a session of its account; made again, they conflict
// and nothing is printed.
func TestAdminLoadAccountsPrintsATokenThatReachesEachAccount(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "burraco.db")
	var out, errs bytes.Buffer
	if code := runAdminWith(ctx, []string{"load-accounts", "-database", path, "-count", "3", "-prefix", "q"}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	db, err := openDB(ctx, path, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := domain.NewServices(db, domain.Config{PasswordParams: domain.TestPasswordParams})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), out.String())
	}
	for i, line := range lines {
		var acc struct {
			Email        string `json:"email"`
			UserID       int64  `json:"user_id"`
			RefreshToken string `json:"refresh_token"`
		}
		if err := json.Unmarshal([]byte(line), &acc); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, line)
		}
		s, err := svc.Auth.Refresh(ctx, acc.RefreshToken)
		if err != nil {
			t.Fatalf("refresh of %s: %v", acc.Email, err)
		}
		if want := fmt.Sprintf("q%d@load.test", i); s.User.Email != want || acc.Email != want || s.User.ID != acc.UserID {
			t.Errorf("line %d: %s (user %d) refreshed to %s (user %d), want %s", i, acc.Email, acc.UserID, s.User.Email, s.User.ID, want)
		}
	}
	out.Reset()
	if code := runAdminWith(ctx, []string{"load-accounts", "-database", path, "-count", "1", "-prefix", "q"}, strings.NewReader(""), &out, &errs); code != 2 || out.Len() != 0 {
		t.Errorf("an account made again: exit %d, printed %q; want 2 and nothing", code, out.String())
	}
	if code := runAdminWith(ctx, []string{"load-accounts", "-database", path}, strings.NewReader(""), &out, &errs); code != 2 {
		t.Errorf("no -count: exit %d, want 2", code)
	}
}
