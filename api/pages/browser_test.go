package pages_test

// The browser harness: the real binary (internal/servertest) and Debian's
// chromium-headless-shell (or a full chromium in its headless mode),
// driven with chromedp. Tests that need a browser skip under -short and
// when no browser is found, and fail when CI=true and none is (.ci/test.sh
// installs the shell).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/internal/servertest"
	"github.com/chromedp/chromedp"
)

func TestMain(m *testing.M) { os.Exit(servertest.Run(m)) }

// adminPassword is the site admin's password of the test servers.
const adminPassword = "pages-admin-password"

// chromiumPath finds the browser, or skips (fails under CI=true). It
// prefers Debian's chromium-headless-shell: the same Blink as chromium,
// without the browser's own interface, which a full chromium 156 in its
// headless mode still runs, one WebUI renderer per window. The tournament
// room's flow took 52 s and 79 core-seconds in chromium, 31 s and 32 in the
// shell; the package 70 s and 127 core-seconds, 38 s and 59 (the pages'
// screenshots came out the same).
func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: skipped under -short")
	}
	for _, name := range []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no browser and CI=true: install Debian's chromium-headless-shell (.ci/test.sh does, as root)")
	}
	t.Skip("no browser (apt-get install chromium-headless-shell)")
	return ""
}

// startServer starts the real binary on a fresh SQLite file.
func startServer(t *testing.T) *servertest.Server {
	t.Helper()
	// The test trusts itself as a proxy: its API calls name a client
	// address of their own (X-Forwarded-For), so that the accounts it makes
	// do not run into the sign-in rate limit of one address; the browsers'
	// sign-ins come from 127.0.0.1 itself, and count.
	return servertest.Start(t, servertest.Options{Env: []string{
		"BURRACO_ADMIN_PASSWORD=" + adminPassword,
		"JWT_SECRET=pages-browser-test-secret-of-at-least-32-bytes",
	}, Args: []string{"-trusted-proxies", "127.0.0.1"}})
}

// browser is one headless chromium process; each newContext in it is a
// separate browser context (its own cookies and storage: another person).
type browser struct {
	t     *testing.T
	alloc context.Context
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // the tests may run as root
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-gpu", true),
	)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	// The first context starts the process; keep it open so that every
	// other context is a new one in the same browser.
	root, cancelRoot := chromedp.NewContext(alloc)
	t.Cleanup(cancelRoot)
	if err := chromedp.Do(root); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return &browser{t: t, alloc: root}
}

// newContext is a new browser context (an incognito-like profile) of
// width×height, with its own tab; a page's JavaScript errors fail the test
// through the caller's checks of what the page shows.
func (b *browser) newContext(width, height int64) context.Context {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.alloc, chromedp.WithNewBrowserContext())
	b.t.Cleanup(cancel)
	// A context lives as long as its test's flow: under make test, beside
	// the race step, the tournament's flow has taken 160 s, and a 90 s
	// limit ended the hall display's context before its last check. Each
	// wait has its own limit (pageWait).
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	b.t.Cleanup(cancelT)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		b.t.Fatalf("opening a browser context: %v", err)
	}
	return ctx
}

// do runs steps in ctx and fails the test with what on error.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// click clicks the node sel finds, failing the test with what. A page
// that re-renders a section when its poll answers (the console does, every
// two seconds) can replace the node between chromedp's query and its
// click, which then fails with "Could not find node with given id" without
// having clicked: that failure is tried again, a few times; any other is
// the test's.
func click[S chromedp.Selectable](t *testing.T, ctx context.Context, what string, sel S) {
	t.Helper()
	var err error
	for range 5 {
		if err = chromedp.Do(ctx, chromedp.Click(sel)); err == nil || !strings.Contains(err.Error(), "Could not find node with given id") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// get runs one action that returns a value, failing the test with what on
// error.
func get[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// apiClient calls the server's API directly, for the steps that are not
// the pages' (setting up users and the director's commands).
type apiClient struct {
	t     *testing.T
	base  string
	token string
	from  string // the client address it claims (X-Forwarded-For)
}

var clientAddrs atomic.Int64

// newAddr is a client address of its own for an API client.
func newAddr() string {
	n := clientAddrs.Add(1)
	return fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)
}

// call sends body as JSON and decodes the answer into out; a status other
// than want fails the test with the problem.
func (c *apiClient) call(method, path string, body, out any, want int, headers ...string) http.Header {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+"/api/v1"+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.from != "" {
		req.Header.Set("X-Forwarded-For", c.from)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, res.StatusCode, want, data)
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			c.t.Fatalf("%s %s: decoding %s: %v", method, path, data, err)
		}
	}
	return res.Header
}

// user is an account of the test server.
type user struct {
	ID       int64
	Email    string
	Password string
	Name     string
	api      *apiClient
}

// register makes an account and signs it in through the API.
func register(t *testing.T, base, email, name string) *user {
	t.Helper()
	u := &user{Email: email, Password: "correct horse " + name, Name: name}
	anon := &apiClient{t: t, base: base, from: newAddr()}
	var created struct {
		ID int64 `json:"id"`
	}
	anon.call("POST", "/auth/register", map[string]string{"email": email, "password": u.Password, "name": name}, &created, http.StatusCreated)
	u.ID = created.ID
	u.api = login(t, base, email, u.Password)
	return u
}

func login(t *testing.T, base, email, password string) *apiClient {
	t.Helper()
	anon := &apiClient{t: t, base: base, from: newAddr()}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	anon.call("POST", "/auth/login", map[string]string{"email": email, "password": password}, &tok, http.StatusOK)
	return &apiClient{t: t, base: base, token: tok.AccessToken, from: anon.from}
}

// signInPage signs u in through the sign-in page of ctx and waits for the
// page it goes to (next).
func signInPage(t *testing.T, ctx context.Context, base string, u *user, next string) {
	t.Helper()
	do(t, ctx, "signing in "+u.Email,
		chromedp.Navigate(base+"/app/signin?next="+url.QueryEscape(next)),
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem('burraco.lang', 'en')`),
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.ID("email")),
		chromedp.SendKeys(chromedp.ID("email"), u.Email),
		chromedp.SendKeys(chromedp.ID("password"), u.Password),
		chromedp.Click(chromedp.ID("signin-submit")),
		waitPath(next),
	)
}

// pageWait is how long a test waits for a page to show what it expects
// (waitJS, waitPath, waitText): a second or less on an idle machine, but
// make test runs the race step beside the browser on two cores, and a
// page's requests then wait their turn.
const pageWait = 30 * time.Second

// waitPath waits until the tab's location is path p, with or without a query.
func waitPath(p string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		deadline := time.Now().Add(pageWait)
		for {
			loc, err := chromedp.Evaluate[string](`location.pathname + location.search`)(ctx, t)
			if err == nil && (loc == p || strings.HasPrefix(loc, p+"?")) {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("the page did not go to %s (it is at %s)", p, loc)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// waitText waits up to pageWait for the text of the element sel to be want
// (the pages fill themselves from the API after loading) and returns the
// text it last had.
func waitText(t *testing.T, ctx context.Context, sel, want string) string {
	t.Helper()
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.textContent.trim() : null; })()`, sel)
	deadline := time.Now().Add(pageWait)
	for {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[*string](js))
		if err != nil {
			t.Fatalf("reading %s: %v", sel, err)
		}
		text := ""
		if got != nil {
			text = *got
		}
		if text == want || time.Now().After(deadline) {
			return text
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSignInPageSignsInAndGoesOn: the sign-in page signs a person in with
// the API's accounts, keeps the session for the other pages, and a wrong
// password says so in the page's language, with the form left as typed.
func TestSignInPageSignsInAndGoesOn(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	u := register(t, srv.URL, "anna@example.com", "Anna")

	ctx := b.newContext(360, 740)
	do(t, ctx, "a wrong password",
		chromedp.Navigate(srv.URL+"/app/signin"),
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem('burraco.lang','en')`),
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.ID("email")),
		chromedp.SendKeys(chromedp.ID("email"), u.Email),
		chromedp.SendKeys(chromedp.ID("password"), "not the password"),
		chromedp.Click(chromedp.ID("signin-submit")),
		chromedp.WaitVisible(chromedp.ID("signin-error")),
	)
	msg := get(t, ctx, "the error", chromedp.Text(chromedp.ID("signin-error")))
	email := get(t, ctx, "the email", chromedp.Value(chromedp.ID("email")))
	if msg != "Wrong email or password, or the session has ended: sign in again." {
		t.Errorf("a wrong password shows %q", msg)
	}
	if email != u.Email {
		t.Errorf("after a refused sign-in the email field holds %q, want %q", email, u.Email)
	}

	signInPage(t, ctx, srv.URL, u, "/app/")
	want := "Signed in as Anna."
	if who := waitText(t, ctx, "[data-role=who]", want); who != want {
		t.Errorf("the home page says %q after signing in, want %q", who, want)
	}
}
