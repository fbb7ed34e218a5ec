package pages_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserHallShowsTheInvitationBetweenRounds: a hall display opened
// with #invite=TOKEN shows the invitation's QR code while no round is
// played, hides it during a round, and shows nothing for a revoked one.
func TestBrowserHallShowsTheInvitationBetweenRounds(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	c := directorOpensClub(t, srv.URL)
	var inv struct {
		ID   int64  `json:"id"`
		Link string `json:"link"`
	}
	c.director.api.call("POST", fmt.Sprintf("/clubs/%d/invitations", c.id), map[string]any{}, &inv, http.StatusCreated)
	token := inv.Link[strings.LastIndex(inv.Link, "/")+1:]
	id := c.directorCreatesTournament("Serata con invito", 1, 3)
	for i := range 2 {
		c.directorEntersPair(id, c.profile(fmt.Sprintf("Socio %d-A", i+1), nil), c.profile(fmt.Sprintf("Socio %d-B", i+1), nil))
	}

	ctx := b.newContext(1280, 800)
	do(t, ctx, "opening the hall display with the invitation",
		chromedp.Navigate(srv.URL+"/favicon.ico"),
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem('burraco.lang', 'en')`),
		chromedp.Navigate(fmt.Sprintf("%s/app/hall/%d#invite=%s", srv.URL, id, token)))
	waitJS(t, ctx, "the invitation's QR code", `!!document.getElementById('hall-invite') && !document.getElementById('hall-invite').hidden`+
		` && document.querySelector('#hall-invite img.qr').complete && document.querySelector('#hall-invite img.qr').naturalWidth > 0`)
	if got := evalString(t, ctx, `document.getElementById('hall-invite').textContent`); !strings.Contains(got, "Join the club") ||
		!strings.Contains(got, "Circolo") {
		t.Errorf("the invitation section says %q", got)
	}
	checkAxe(t, ctx, "the hall display with an invitation")
	screenshot(t, ctx, "hall-invite-desktop")

	c.directorStarts(id)
	c.directorDrawsAndStartsRound(id)
	waitJS(t, ctx, "the invitation hidden while a round is played", `document.getElementById('hall-invite').hidden`)

	// A revoked invitation is not shown.
	c.director.api.call("DELETE", fmt.Sprintf("/clubs/%d/invitations/%d", c.id, inv.ID), nil, nil, http.StatusOK)
	other := b.newContext(1280, 800)
	do(t, other, "opening the hall display with a revoked invitation",
		chromedp.Navigate(fmt.Sprintf("%s/app/hall/%d#invite=%s", srv.URL, id, token)))
	waitJS(t, other, "the standings", `document.querySelectorAll('#hall-standings tbody tr').length > 0`)
	if evalBool(t, other, `!!document.getElementById('hall-invite')`) {
		t.Errorf("the hall shows a revoked invitation")
	}
}
