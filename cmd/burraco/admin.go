package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/burraco/burraco/domain"
)

const adminUsage = `usage: burraco admin reset-password -email EMAIL [-password-stdin] [flags]
       burraco admin load-accounts -count N [-prefix P] [flags]

  reset-password  set a user's password (the site admin's, say, when it is
                  lost) and end their sessions. The new password is read
                  from the first line of standard input with -password-stdin;
                  otherwise one is generated and printed.
  load-accounts   create N accounts for a load test, P0@load.test to
                  P<N-1>@load.test, in one transaction, and print one JSON
                  line per account: {"email":…,"user_id":…,"refresh_token":…}.
                  They share one password hash, of a random password
                  printed nowhere: a client reaches its account by
                  POST /api/v1/auth/refresh with the token (cmd/loadtables
                  runs this before serve, instead of thousands of sign-ups).

flags:
`

// runAdmin holds the operator's account tools, which work on the database
// directly (the server may be running).
func runAdmin(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runAdminWith(ctx, args, os.Stdin, stdout, stderr)
}

func runAdminWith(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var c config
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(stderr, adminUsage); fs.PrintDefaults() }
	c.flags(fs)
	email := fs.String("email", "", "reset-password: the account's email")
	fromStdin := fs.Bool("password-stdin", false, "reset-password: read the new password from standard input")
	count := fs.Int("count", 0, "load-accounts: how many accounts")
	prefix := fs.String("prefix", "p", "load-accounts: the emails' local part before the number")
	rest, code, ok := parseInterspersed(fs, args, stderr)
	if !ok {
		return code
	}
	switch {
	case len(rest) == 1 && rest[0] == "load-accounts" && *count > 0:
		return loadAccounts(ctx, c, *count, *prefix, stdout, stderr)
	case len(rest) != 1 || rest[0] != "reset-password" || *email == "":
		fs.Usage()
		return 2
	}
	password := ""
	if *fromStdin {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && line == "" {
			fmt.Fprintln(stderr, "burraco admin: no password on standard input")
			return 2
		}
		password = strings.TrimRight(line, "\r\n")
	} else {
		b, err := randomBytes(15)
		if err != nil {
			fmt.Fprintln(stderr, "burraco admin:", err)
			return 1
		}
		password = base64.RawURLEncoding.EncodeToString(b)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := openDB(ctx, c.databaseURL, log)
	if err != nil {
		fmt.Fprintln(stderr, "burraco admin:", err)
		return 1
	}
	defer db.Close()
	u, err := domain.NewServices(db, domain.Config{}).Auth.ResetPassword(ctx, *email, password)
	if err != nil {
		fmt.Fprintln(stderr, "burraco admin:", plainError(err))
		if domain.ErrorCode(err) == domain.ENotFound {
			return 1
		}
		return 2
	}
	fmt.Fprintf(stdout, "password of %s (user %d) reset; their sessions are ended\n", u.Email, u.ID)
	if !*fromStdin {
		fmt.Fprintf(stdout, "new password: %s\n", password)
	}
	return 0
}

// plainError is what an operator reads of an error: a domain error's
// message and its fields' (not its code, nor the driver's error under it,
// which say "not_found: user not found: record not found"); any other
// error as it is.
func plainError(err error) string {
	var e *domain.Error
	if !errors.As(err, &e) || e.Code == domain.EInternal {
		return err.Error()
	}
	msg := e.Message
	for _, f := range e.Fields {
		msg += "; " + f.Field + ": " + f.Message
	}
	return msg
}

// loadAccounts is admin load-accounts: count accounts of a load test, one
// JSON line each on stdout.
func loadAccounts(ctx context.Context, c config, count int, prefix string, stdout, stderr io.Writer) int {
	emails := make([]string, count)
	for i := range emails {
		emails[i] = fmt.Sprintf("%s%d@load.test", prefix, i)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := openDB(ctx, c.databaseURL, log)
	if err != nil {
		fmt.Fprintln(stderr, "burraco admin:", err)
		return 1
	}
	defer db.Close()
	sessions, err := domain.NewServices(db, domain.Config{}).Auth.LoadAccounts(ctx, emails)
	if err != nil {
		fmt.Fprintln(stderr, "burraco admin:", plainError(err))
		return 2
	}
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	for _, s := range sessions {
		line := struct {
			Email        string `json:"email"`
			UserID       int64  `json:"user_id"`
			RefreshToken string `json:"refresh_token"`
		}{s.User.Email, s.User.ID, s.RefreshToken}
		if err := enc.Encode(line); err != nil {
			fmt.Fprintln(stderr, "burraco admin:", err)
			return 1
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(stderr, "burraco admin:", err)
		return 1
	}
	return 0
}
