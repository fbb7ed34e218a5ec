package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
)

// account is a player's account made by `burraco admin load-accounts`
// before the servers start: its session's refresh token is how the
// player's client reaches it (no password: signing up and logging in
// thousands of players costs two argon2id each, slow on purpose and at most
// GOMAXPROCS at once, minutes before a thousand tables could play).
type account struct {
	Email        string `json:"email"`
	UserID       int64  `json:"user_id"`
	RefreshToken string `json:"refresh_token"`
}

// makeAccounts runs binary admin load-accounts on the run's database (it
// migrates it first, as serve would) for n players, p0@load.test on; its
// warnings go to log.
func makeAccounts(ctx context.Context, binary, databaseURL string, n int, log io.Writer) ([]account, error) {
	cmd := exec.CommandContext(ctx, binary, "admin", "load-accounts", "-database", databaseURL, "-count", strconv.Itoa(n), "-prefix", "p")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, log
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("burraco admin load-accounts: %w", err)
	}
	return readAccounts(&out, n)
}

// readAccounts reads load-accounts' JSON lines, and checks there are n.
func readAccounts(r io.Reader, n int) ([]account, error) {
	var accounts []account
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var a account
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil || a.RefreshToken == "" {
			return nil, fmt.Errorf("load-accounts line %d: %q: %v", len(accounts)+1, sc.Text(), err)
		}
		accounts = append(accounts, a)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(accounts) != n {
		return nil, fmt.Errorf("load-accounts made %d accounts, want %d", len(accounts), n)
	}
	return accounts, nil
}

// player returns the client of player n (p<n>@load.test) talking to base:
// the account made before the run, its first access token from a refresh
// sent to auth from localIP, or with -signup a sign-up and login there.
func (o options) player(ctx context.Context, auth, base string, localIP net.IP, n int) (*client, error) {
	if o.accounts == nil {
		return signUp(ctx, auth, base, localIP, fmt.Sprintf("p%d@load.test", n))
	}
	c := session(auth, base, localIP, o.accounts[n].RefreshToken)
	if err := c.renew(ctx); err != nil {
		return nil, fmt.Errorf("%s: first refresh: %w", o.accounts[n].Email, err)
	}
	return c, nil
}
