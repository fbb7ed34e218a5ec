package main

import (
	"bufio"
	"context"
	"encoding/base64"
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

  reset-password  set a user's password (the site admin's, say, when it is
                  lost) and end their sessions. The new password is read
                  from the first line of standard input with -password-stdin;
                  otherwise one is generated and printed.

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
	email := fs.String("email", "", "the account's email")
	fromStdin := fs.Bool("password-stdin", false, "read the new password from standard input")
	rest, code, ok := parseInterspersed(fs, args, stderr)
	if !ok {
		return code
	}
	if len(rest) != 1 || rest[0] != "reset-password" || *email == "" {
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
