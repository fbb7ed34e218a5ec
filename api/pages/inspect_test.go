package pages_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// sessionFor signs u in through the API and returns the session as the
// pages keep it (api.js: sessionStorage "burraco.session").
func sessionFor(t *testing.T, base string, u *user) string {
	t.Helper()
	anon := &apiClient{t: t, base: base, from: newAddr()}
	var tok struct {
		AccessToken  string          `json:"access_token"`
		RefreshToken string          `json:"refresh_token"`
		User         json.RawMessage `json:"user"`
	}
	anon.call("POST", "/auth/login", map[string]string{"email": u.Email, "password": u.Password}, &tok, http.StatusOK)
	b, _ := json.Marshal(map[string]any{"access": tok.AccessToken, "refresh": tok.RefreshToken, "user": tok.User, "remember": false})
	return string(b)
}

// pageCheck is a page to open fresh and inspect.
type pageCheck struct {
	name        string // of its screenshot: name-phone.png, name-desktop.png
	path        string
	as          *user  // signed in as, or nobody
	ready       string // a JavaScript expression true once the page has filled itself
	phone, wide bool   // the viewports to open it in
}

// inspectPages opens each page in a new browser context with the cache
// off, as a first visit: its bytes transferred against the budget, axe,
// and screenshots.
func inspectPages(t *testing.T, b *browser, base string, pages []pageCheck) {
	t.Helper()
	for _, p := range pages {
		for _, vp := range []struct {
			on   bool
			w, h int64
			kind string
		}{{p.phone, 360, 740, "phone"}, {p.wide, 1280, 800, "desktop"}} {
			if !vp.on {
				continue
			}
			ctx := b.newContext(vp.w, vp.h)
			if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
				t.Fatal(err)
			}
			setup := `localStorage.setItem('burraco.lang', 'en');`
			if p.as != nil {
				setup += fmt.Sprintf(`sessionStorage.setItem('burraco.session', %s);`, jsString(sessionFor(t, base, p.as)))
			}
			do(t, ctx, "opening "+p.name,
				chromedp.Navigate(base+"/favicon.ico"),
				chromedp.Evaluate[chromedp.Void](setup),
				chromedp.Navigate(base+p.path))
			waitJS(t, ctx, p.name+" filled", p.ready)
			name := p.name + "-" + vp.kind
			checkAxe(t, ctx, name)
			checkBudget(t, ctx, name)
			screenshot(t, ctx, name)
		}
	}
}
