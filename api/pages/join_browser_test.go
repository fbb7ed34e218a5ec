package pages_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	goqr "github.com/piglig/go-qr"
)

func pngDecode(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }

// TestBrowserANewPlayerJoinsClaimsAndScores is issue 28 end to end: the
// director makes an invitation in the console and reads the code of the
// profile they made for Lucia, who has no account; on a 360 px phone Lucia
// opens the invitation's link, signs up, comes back to it and is a member
// (a wrong code there is refused), enters her code on the score pad, which
// then finds her table, and enters a deal; her page then lists the
// evening. The director sees her profile claimed and can undo it.
func TestBrowserANewPlayerJoinsClaimsAndScores(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	c := directorOpensClub(t, srv.URL)

	// The evening: two pairs the director entered on the spot, no account
	// among them; round 1 drawn and started.
	id := c.directorCreatesTournament("Serata del Martedì", 1, 3)
	lucia := c.profile("Lucia Neri", nil)
	partner := c.profile("Marta Neri", nil)
	c.directorEntersPair(id, lucia, partner)
	c.directorEntersPair(id, c.profile("Oscar Blu", nil), c.profile("Pia Blu", nil))
	c.directorStarts(id)
	round, tables := c.directorDrawsAndStartsRound(id)
	if len(tables) != 1 {
		t.Fatalf("%d tables for 2 pairs", len(tables))
	}

	// The director, in the console: an invitation of at most 30 people,
	// its link and QR code; Lucia's code in the list of player codes.
	desk := consoleContext(t, b, 1280, 900)
	signInPage(t, desk, srv.URL, c.director, "/app/console")
	consoleOpen(t, desk, srv.URL, "")
	waitJS(t, desk, "the club's tools", `document.querySelector('.club-tools .inv-list') !== null`)
	do(t, desk, "creating an invitation",
		chromedp.SendKeys(chromedp.CSS(`.club-tools input[name=max_uses]`), "30"))
	click(t, desk, "creating an invitation", chromedp.CSS(`.club-tools .invitations button.primary`))
	waitJS(t, desk, "the new invitation's link and QR code",
		`!!document.querySelector('.inv-new:not([hidden]) input.inv-link') && document.querySelector('img.qr').complete && document.querySelector('img.qr').naturalWidth > 0`)
	waitJS(t, desk, "the invitation listed", `document.querySelectorAll('.inv-list li.inv').length === 1`)
	link := evalString(t, desk, `document.querySelector('input.inv-link').value`)
	if !strings.HasPrefix(link, srv.URL+"/app/join/") {
		t.Fatalf("the invitation's link is %q", link)
	}
	do(t, desk, "scrolling to the invitations", chromedp.Evaluate[chromedp.Void](`document.querySelector('.club-tools').scrollIntoView({block: 'start'})`))
	screenshot(t, desk, "console-invitations-desktop")
	checkAxe(t, desk, "console's club tools")
	// The QR code, as the browser shows it, reads back as the link.
	png := get(t, desk, "the QR code's image", chromedp.Screenshot(chromedp.CSS(`img.qr`)))
	img, err := pngDecode(png)
	if err != nil {
		t.Fatal(err)
	}
	if text, err := goqr.Decode(img); err != nil || text != link {
		t.Errorf("the QR code reads %q (%v), want %q", text, err, link)
	}
	code := evalString(t, desk, fmt.Sprintf(`document.querySelector('.codes-table tr[data-player="%d"] code').textContent`, lucia))
	if len(code) != 8 {
		t.Fatalf("Lucia's code is %q", code)
	}
	// The club's list of players, from a file: first what it would do,
	// then the import.
	file := filepath.Join(t.TempDir(), "soci.csv")
	if err := os.WriteFile(file, []byte("Nome;Email;Tessera\nLucia Neri;;\nRita Gialli;rita@example.com;RM-77\n;senza-nome@example.com;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, desk, "picking the file", chromedp.SetUploadFiles(chromedp.CSS(`.club-tools .import input[type=file]`), []string{file}))
	click(t, desk, "a dry run", chromedp.CSS(`.club-tools .imp-check`))
	waitJS(t, desk, "the dry run's lines", `document.querySelectorAll('.import-table tbody tr').length === 3`)
	if got := evalString(t, desk, `[...document.querySelectorAll('.import-table tbody tr')].map(r => r.cells[2].textContent + ':' + r.cells[3].textContent).join(' | ')`); got !=
		"skip:the club has a player of this name | new:a new player of the club | invalid:the name is missing or too long" {
		t.Errorf("the dry run says %q", got)
	}
	click(t, desk, "the import", chromedp.CSS(`.club-tools .imp-run`))
	if got := waitText(t, desk, ".club-tools .import [role=status]", "Imported: 1 new, 0 updated."); got != "Imported: 1 new, 0 updated." {
		t.Errorf("the import says %q", got)
	}

	// The tournament's entries show the codes of its players without an account.
	consoleOpen(t, desk, srv.URL, fmt.Sprintf("?t=%d", id))
	waitJS(t, desk, "the entries' codes", fmt.Sprintf(`document.getElementById('entries-codes').textContent.includes('Lucia Neri %s')`, code))
	consoleOpen(t, desk, srv.URL, "")
	waitJS(t, desk, "the club's tools again", `document.querySelectorAll('.inv-list li.inv').length === 1`)

	// Lucia, on her phone, opens the link: the club's name, and sign up.
	phone := b.newContext(360, 740)
	do(t, phone, "opening the invitation",
		chromedp.Navigate(srv.URL+"/favicon.ico"),
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem('burraco.lang', 'en')`),
		chromedp.Navigate(link))
	if got := waitText(t, phone, "#join-status", "You are invited to join Circolo del Burraco."); got != "You are invited to join Circolo del Burraco." {
		t.Fatalf("the join page says %q", got)
	}
	waitJS(t, phone, "the way to sign up", visible("join-signup"))
	click(t, phone, "going to sign up", chromedp.ID("join-to-signup"))
	waitJS(t, phone, "the sign-up page", visible("signup"))
	// A password too short is refused on the page, as the API would.
	do(t, phone, "signing up with a short password",
		chromedp.SendKeys(chromedp.ID("name"), "Lucia Neri"),
		chromedp.SendKeys(chromedp.ID("email"), "lucia@example.com"),
		chromedp.SendKeys(chromedp.ID("password"), "short"),
		chromedp.Click(chromedp.ID("signup-submit")))
	if got := waitText(t, phone, "#password-error", "The password needs at least 10 characters."); got != "The password needs at least 10 characters." {
		t.Errorf("a short password shows %q", got)
	}
	screenshot(t, phone, "signup-phone")
	checkAxe(t, phone, "signup")
	do(t, phone, "signing up",
		chromedp.SendKeys(chromedp.ID("password"), " and longer"),
		chromedp.Click(chromedp.ID("signup-submit")))

	// Back on the link, signed in: a member, and the code.
	waitJS(t, phone, "joined", visible("join-done"))
	if got := waitText(t, phone, "#join-joined", "You are now a member of Circolo del Burraco."); got != "You are now a member of Circolo del Burraco." {
		t.Errorf("after signing up the join page says %q", got)
	}
	do(t, phone, "entering a wrong code", chromedp.SendKeys(chromedp.CSS(`#join-claim input[name=code]`), "ZZZZ-ZZZZ"))
	click(t, phone, "sending a wrong code", chromedp.CSS(`#join-claim button[type=submit]`))
	want := "No profile has this code. Check it (letters and digits, no 0, O, 1, I or L)."
	if got := waitText(t, phone, "#join-claim .error", want); got != want {
		t.Errorf("a wrong code shows %q", got)
	}
	do(t, phone, "the page's top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	screenshot(t, phone, "join-phone")
	checkAxe(t, phone, "join")

	// The pad finds no table of hers yet and asks for the code; with it,
	// the pad finds her table, and she enters deal 1.
	do(t, phone, "opening the pad", chromedp.Navigate(srv.URL+"/app/pad"))
	waitJS(t, phone, "the pad asks for her code", visible("pad-claim"))
	do(t, phone, "entering her code",
		chromedp.SendKeys(chromedp.CSS(`#pad-claim input[name=code]`), strings.ToLower(code[:4]+" "+code[4:])))
	click(t, phone, "claiming", chromedp.CSS(`#pad-claim button[type=submit]`))
	if got := waitText(t, phone, "#pad-claim .ok", "Done: the profile Lucia Neri is yours now."); got != "Done: the profile Lucia Neri is yours now." {
		t.Fatalf("the claim says %q", got)
	}
	waitJS(t, phone, "Lucia's pad finds her table", visible("pad-form"))
	if loc := evalString(t, phone, `location.search`); loc != fmt.Sprintf("?t=%d&r=%d&table=1", id, round) {
		t.Errorf("Lucia's pad went to %q", loc)
	}
	typeDeal(t, phone, deal{ns: parts{cards: 300, burraco: 200, closed: true}, ew: parts{cards: 80, hand: 20}})
	click(t, phone, "entering deal 1", chromedp.ID("pad-submit"))
	waitJS(t, phone, "deal 1 entered", dealsWithStatus(1, "entered"))

	// Her page lists the evening, with her partner.
	do(t, phone, "opening her page", chromedp.Navigate(srv.URL+"/app/me"))
	waitJS(t, phone, "her page lists the evening",
		`[...document.querySelectorAll('#me-upcoming li')].some(li => li.textContent.includes('Serata del Martedì') && li.textContent.includes('Marta Neri'))`)
	waitJS(t, phone, "no season ranking (the route may not be there)", `document.querySelector('#me-rankings tbody').textContent.includes('No season ranking yet.')`)

	// The evening ends (the referee confirms her deal, the director enters
	// the other two, closes the round and finishes) and the club's season
	// counts it: her page shows her place, and her season ranking.
	sheet := fmt.Sprintf("/tournaments/%d/rounds/%d/tables/1", id, round)
	h := c.referee.api.call("GET", sheet, nil, nil, http.StatusOK)
	c.referee.api.call("POST", sheet+"/confirm", nil, nil, http.StatusOK, "If-Match", h.Get("ETag"))
	c.directorScores(id, round, 1, 2, 3)
	c.director.api.call("POST", fmt.Sprintf("/tournaments/%d/rounds/%d/close", id, round), nil, nil, http.StatusOK)
	c.lifecycle(id, "finish")
	today := time.Now().UTC()
	c.director.api.call("POST", fmt.Sprintf("/clubs/%d/seasons", c.id), map[string]any{"name": "Stagione 2026",
		"starts_on": today.AddDate(0, 0, -1).Format(time.DateOnly), "ends_on": today.AddDate(0, 0, 2).Format(time.DateOnly),
		"scheme": "placing_points"}, nil, http.StatusCreated)
	do(t, phone, "opening her page again", chromedp.Reload())
	waitJS(t, phone, "her page lists the evening as past, with her place",
		`[...document.querySelectorAll('#me-past tbody tr')].some(r => r.cells[0].textContent.includes('Serata del Martedì') && / of 2$/.test(r.cells[1].textContent) && r.cells[3].textContent === 'Marta Neri')`)
	waitJS(t, phone, "her season ranking", `[...document.querySelectorAll('#me-rankings tbody tr')].some(r => r.cells[0].textContent.includes('Stagione 2026') && / of 4$/.test(r.cells[1].textContent))`)
	screenshot(t, phone, "me-phone")
	checkAxe(t, phone, "me")

	// From the home page, she opens a club of her own.
	do(t, phone, "opening the home page", chromedp.Navigate(srv.URL+"/app/"))
	waitJS(t, phone, "the home page's new club", visible("home-club"))
	do(t, phone, "naming the club", chromedp.SendKeys(chromedp.CSS(`#home-club-form input[name=name]`), "Circolo di Lucia"))
	click(t, phone, "opening the club", chromedp.CSS(`#home-club-form button`))
	if got := waitText(t, phone, "#home-club-ok", "Circolo di Lucia is open. Invite its players from the director console."); got != "Circolo di Lucia is open. Invite its players from the director console." {
		t.Errorf("opening a club says %q", got)
	}

	// The director sees her profile claimed, and could undo it: a new code.
	consoleOpen(t, desk, srv.URL, "")
	row := fmt.Sprintf(`.codes-table tr[data-player="%d"]`, lucia)
	waitJS(t, desk, "Lucia's profile claimed", fmt.Sprintf(`!!document.querySelector('%s button.unlink') && !document.querySelector('%s code')`, row, row))
	click(t, desk, "unlinking Lucia's profile", chromedp.CSS(row+` button.unlink`))
	waitJS(t, desk, "a new code", fmt.Sprintf(`(document.querySelector('%s code') || {}).textContent?.length === 8`, row))
	if again := evalString(t, desk, fmt.Sprintf(`document.querySelector('%s code').textContent`, row)); again == code {
		t.Errorf("unlinking kept the code %s", code)
	}

	// Nothing private on the public pages of the invitation.
	var preview map[string]any
	(&apiClient{t: t, base: srv.URL}).call("GET", "/invitations/"+link[strings.LastIndex(link, "/")+1:], nil, &preview, http.StatusOK)
	if fmt.Sprint(preview) == "" || strings.Contains(fmt.Sprint(preview), "@") {
		t.Errorf("the invitation's preview: %v", preview)
	}
}
