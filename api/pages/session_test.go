package pages_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserPadKeepsTypedWorkWhenTheSessionEnds: a pad whose access
// token has expired refreshes it and sends the deal; one whose session is
// gone altogether asks to sign in over the page and then sends the deal as
// typed. A player of another table who opens this table's pad is told
// plainly that only its players and the referees can use it.
func TestBrowserPadKeepsTypedWorkWhenTheSessionEnds(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	c := directorOpensClub(t, srv.URL)
	id := c.directorCreatesTournament("Torneo della sera", 1, 3)
	entryUser := map[int64]*user{}
	for i := range 4 {
		u := register(t, srv.URL, fmt.Sprintf("socio%d@example.com", i+1), fmt.Sprintf("Socio %d", i+1))
		entryUser[c.directorEntersPair(id, c.profile(u.Name, u), c.profile(fmt.Sprintf("Amico %d", i+1), nil))] = u
	}
	c.directorStarts(id)
	round, tables := c.directorDrawsAndStartsRound(id)
	ns := entryUser[tables[0].NS.Entries[0].ID]
	other := entryUser[tables[1].NS.Entries[0].ID]

	pad := b.newContext(360, 740)
	signInPage(t, pad, srv.URL, ns, "/app/pad")
	waitJS(t, pad, "the pad", visible("pad-form"))

	// The access token has expired (here: it is no longer one the server
	// signed): the pad refreshes the session and sends the deal.
	typeDeal(t, pad, deal{ns: parts{cards: 150, burraco: 100, closed: true}, ew: parts{cards: 80, hand: 20}})
	do(t, pad, "spoiling the access token", chromedp.Evaluate[chromedp.Void](`(() => {
		const s = JSON.parse(sessionStorage.getItem('burraco.session'));
		s.access = s.access.slice(0, -4) + 'AAAA';
		sessionStorage.setItem('burraco.session', JSON.stringify(s));
	})()`))
	do(t, pad, "entering deal 1", chromedp.Click(chromedp.ID("pad-submit")))
	waitJS(t, pad, "deal 1 entered after a refresh", dealsWithStatus(1, "entered"))

	// The session is gone (both tokens): the pad asks to sign in, over the
	// page, and the deal typed goes on once signed in.
	typeDeal(t, pad, deal{ns: parts{cards: 95, hand: 35}, ew: parts{cards: 240, burraco: 200, closed: true}})
	// Ended and submitted in one turn of the page's event loop: a poll of
	// the pad in between would meet the ended session first and open the
	// sign-in dialog over the button, and the click would not reach it.
	do(t, pad, "ending the session and entering deal 2", chromedp.Evaluate[chromedp.Void](`(() => {
		const s = JSON.parse(sessionStorage.getItem('burraco.session'));
		s.access = 'expired'; s.refresh = 'revoked';
		sessionStorage.setItem('burraco.session', JSON.stringify(s));
		document.getElementById('pad-submit').click();
	})()`))
	waitJS(t, pad, "the sign-in dialog", `!!document.querySelector('dialog.signin-dialog[open]')`)
	if v := evalString(t, pad, `document.getElementById('ew-burraco').value`); v != "200" {
		t.Errorf("under the sign-in dialog the form holds EW burraco %q, want 200", v)
	}
	screenshot(t, pad, "pad-signin-again-phone")
	checkAxe(t, pad, "pad with the sign-in dialog")
	do(t, pad, "signing in again",
		chromedp.SendKeys(chromedp.CSS("dialog.signin-dialog input[name=password]"), ns.Password),
		chromedp.Click(chromedp.CSS("dialog.signin-dialog button[type=submit]")))
	waitJS(t, pad, "deal 2 entered after signing in", dealsWithStatus(2, "entered"))
	if n := c.auditCount(id, "score_entered", round, 1); n != 2 {
		t.Errorf("table 1 has %d score entries, want 2", n)
	}

	// Someone of another table: the pad says so, and offers no form.
	intruder := b.newContext(360, 740)
	signInPage(t, intruder, srv.URL, other, "/app/")
	do(t, intruder, "opening another table's pad",
		chromedp.Navigate(fmt.Sprintf("%s/app/pad?t=%d&r=%d&table=1", srv.URL, id, round)))
	waitJS(t, intruder, "the refusal", visible("pad-status"))
	msg := evalString(t, intruder, `document.getElementById('pad-status').textContent`)
	if !strings.Contains(msg, "Only the players of this table and the referees can use its pad.") {
		t.Errorf("another table's player reads %q", msg)
	}
	if evalString(t, intruder, `String(document.getElementById('pad-sheet').hidden)`) != "true" {
		t.Error("another table's player sees the sheet's form")
	}
}
