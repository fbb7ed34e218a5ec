package pages_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHallShowsTheSeasonBetweenRounds: a club with a current season
// and one evening published; the hall display of its next tournament shows
// the top of the season's ranking while no round is played, hides it once
// a round starts, and passes axe.
func TestBrowserHallShowsTheSeasonBetweenRounds(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	c := directorOpensClub(t, srv.URL)
	today := time.Now().UTC()
	c.director.api.call("POST", fmt.Sprintf("/clubs/%d/seasons", c.id), map[string]any{"name": "Stagione corrente",
		"starts_on": today.AddDate(0, 0, -1).Format("2006-01-02"), "ends_on": today.AddDate(0, 0, 30).Format("2006-01-02"),
		"scheme": "total_vp"}, nil, http.StatusCreated)
	// The first evening: two pairs, one round, played and published.
	first := c.directorCreatesTournament("Serata 1", 1, 3)
	for i := range 2 {
		c.directorEntersPair(first, c.profile(fmt.Sprintf("Socio %d-A", i+1), nil), c.profile(fmt.Sprintf("Socio %d-B", i+1), nil))
	}
	c.directorStarts(first)
	n, tables := c.directorDrawsAndStartsRound(first)
	c.directorScores(first, n, tables[0].Number, 1, 2, 3)
	c.director.api.call("POST", fmt.Sprintf("/tournaments/%d/rounds/%d/close", first, n), nil, nil, http.StatusOK)
	c.lifecycle(first, "finish")
	c.lifecycle(first, "publish_results")
	// The next evening, registration open: its hall shows the season.
	next := c.directorCreatesTournament("Serata 2", 1, 3)
	for i := range 2 {
		c.directorEntersPair(next, c.profile(fmt.Sprintf("Ospite %d-A", i+1), nil), c.profile(fmt.Sprintf("Ospite %d-B", i+1), nil))
	}
	ctx := b.newContext(1280, 800)
	do(t, ctx, "opening the hall display",
		chromedp.Navigate(srv.URL+"/favicon.ico"),
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem('burraco.lang', 'en')`),
		chromedp.Navigate(fmt.Sprintf("%s/app/hall/%d", srv.URL, next)))
	waitJS(t, ctx, "the season", `!!document.getElementById('hall-season') && !document.getElementById('hall-season').hidden`)
	if got := evalString(t, ctx, `document.querySelectorAll('#hall-season tbody tr').length + ' ' + document.getElementById('hall-season-h').textContent`); got != "4 Season ranking — Stagione corrente" {
		t.Errorf("the season section: %q", got)
	}
	checkAxe(t, ctx, "the hall display with its season")
	// A round played: the standings and seating take the screen.
	c.directorStarts(next)
	c.directorDrawsAndStartsRound(next)
	waitJS(t, ctx, "the season hidden while a round is played", `document.getElementById('hall-season').hidden`)
}
