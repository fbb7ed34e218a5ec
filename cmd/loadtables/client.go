package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// client is one logged-in player talking to one server.
type client struct {
	http  *http.Client
	base  string
	token string
	// renew, when set, exchanges the refresh token for a new pair (an
	// access token lasts 15 minutes: a thousand tables' sign-ups and play
	// on a busy machine outlast it); it runs on the goroutine using the
	// client, as every request of a client does.
	renew func(ctx context.Context) error
	// renewals counts the requests answered 401 and sent again: the server
	// answered each twice.
	renewals atomic.Int64
	// now is what the client is doing, and heard its last answers, for
	// the report of a stuck table.
	now   atomic.Pointer[activity]
	heard history
	// keys sends each move with an Idempotency-Key of its own, as a
	// frontend does (-keys): the server then stores the move's answer
	// under it, in the move's transaction, and a move sent again after a
	// transport error is sent with the same key.
	keys bool
}

// activity is a client's request in flight or, once answered, its answer.
type activity struct {
	request string
	sent    time.Time
	code    int // 0 while in flight
	answer  string
}

func (a *activity) String() string {
	if a == nil {
		return "no request yet"
	}
	if a.code == 0 {
		return fmt.Sprintf("%s in flight for %s", a.request, time.Since(a.sent).Round(time.Millisecond))
	}
	return fmt.Sprintf("%s answered %d %s %s ago", a.request, a.code, a.answer, time.Since(a.sent).Round(time.Millisecond))
}

// newHTTPClient returns a client whose connections leave from localIP (the
// auth endpoints are rate-limited per client address: the generator spreads
// its players over 127.0.0.0/8) with enough idle connections for its polls.
func newHTTPClient(localIP net.IP) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second}
	if localIP != nil {
		d.LocalAddr = &net.TCPAddr{IP: localIP}
	}
	return &http.Client{Transport: &http.Transport{
		DialContext:         d.DialContext,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
	}}
}

// do sends a JSON request and decodes a JSON answer into out when the status
// is 2xx; it returns the status and the body. An answer 401 (the access
// token expired) renews the token, when the client can, and sends the
// request once more.
func (c *client) do(ctx context.Context, method, path string, body any, header map[string]string, out any) (int, []byte, error) {
	code, b, err := c.doOnce(ctx, method, path, body, header, out)
	if err != nil || code != http.StatusUnauthorized || c.renew == nil {
		return code, b, err
	}
	c.renewals.Add(1)
	if err := c.renew(ctx); err != nil {
		return 0, nil, fmt.Errorf("renewing the access token: %w", err)
	}
	return c.doOnce(ctx, method, path, body, header, out)
}

func (c *client) doOnce(ctx context.Context, method, path string, body any, header map[string]string, out any) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, baseOf(c.base)+path, r)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	a := &activity{request: method + " " + path, sent: time.Now()}
	c.now.Store(a)
	resp, err := c.http.Do(req)
	if err != nil {
		c.now.Store(&activity{request: a.request, sent: a.sent, code: -1, answer: err.Error()})
		c.heard.add(heard{request: a.request, sent: a.sent, answered: time.Now(), code: -1, status: err.Error()})
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	// Every answer is read as a state once, for the seat's history and for
	// out when out is a state (the play loop's polls and moves).
	st, stateErr := answerState(resp.StatusCode, b)
	h := heardOf(a.request, a.sent, time.Now(), resp.StatusCode, resp.Header.Get("ETag"), &st, stateErr == nil)
	c.heard.add(h)
	c.now.Store(&activity{request: a.request, sent: a.sent, code: resp.StatusCode, answer: h.summary(b)})
	if err != nil {
		return resp.StatusCode, nil, err
	}
	if out != nil && resp.StatusCode/100 == 2 {
		if into, ok := out.(*tableState); ok {
			*into, err = st, stateErr
		} else {
			err = json.Unmarshal(b, out)
		}
		if err != nil {
			return resp.StatusCode, b, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp.StatusCode, b, nil
}

// must is do that fails unless the status is want.
func (c *client) must(ctx context.Context, method, path string, body any, want int, out any) error {
	code, b, err := c.do(ctx, method, path, body, nil, out)
	if err != nil {
		return err
	}
	if code != want {
		return fmt.Errorf("%s %s: %d, want %d: %s", method, path, code, want, bytes.TrimSpace(b))
	}
	return nil
}

// signUp registers and logs in a player through auth, then talks to base.
func signUp(ctx context.Context, auth, base string, localIP net.IP, email string) (*client, error) {
	c := &client{http: newHTTPClient(localIP), base: auth}
	creds := map[string]string{"email": email, "password": "load-generator-pw", "name": email[:len(email)-len("@load.test")]}
	if err := c.must(ctx, "POST", "/api/v1/auth/register", creds, http.StatusCreated, nil); err != nil {
		return nil, err
	}
	var tok struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	delete(creds, "name")
	if err := c.must(ctx, "POST", "/api/v1/auth/login", creds, http.StatusOK, &tok); err != nil {
		return nil, err
	}
	p := session(auth, base, localIP, tok.RefreshToken)
	p.token = tok.AccessToken
	return p, nil
}

// session is the client of a player's session talking to base, renewing
// its tokens at auth with the refresh token. The polls leave from the
// default address: only auth is limited. A refresh leaves from localIP,
// the player's own (refreshes are limited per address too).
func session(auth, base string, localIP net.IP, refreshToken string) *client {
	a := &client{http: newHTTPClient(localIP), base: auth}
	p := &client{http: newHTTPClient(nil), base: base}
	p.renew = func(ctx context.Context) error {
		var tok struct {
			AccessToken  string `json:"access_token"`
			RefreshToken string `json:"refresh_token"`
		}
		in := map[string]string{"refresh_token": refreshToken}
		if err := a.must(ctx, "POST", "/api/v1/auth/refresh", in, http.StatusOK, &tok); err != nil {
			return err
		}
		p.token, refreshToken = tok.AccessToken, tok.RefreshToken
		return nil
	}
	return p
}

// tableState is the part of a table's state the players read.
type tableState struct {
	Table struct {
		ID         int64  `json:"id"`
		Version    int64  `json:"version"`
		Status     string `json:"status"`
		DealNumber int    `json:"deal_number"`
	} `json:"table"`
	Seat int `json:"seat"`
	View *struct {
		Turn  int      `json:"turn"`
		Phase string   `json:"phase"`
		Hand  []string `json:"hand"`
	} `json:"view"`
}

// recordMove is a move of a deal's record: {"seat":0,"move":"draw",...}.
type recordMove struct {
	Seat int    `json:"seat"`
	Move string `json:"move"`
}
