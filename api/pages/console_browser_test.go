package pages_test

// The director console in the browser: its steps are helpers named for
// what the director does (consoleCreateTournament, consoleAddEntries,
// consoleDrawAndStart, consoleCorrectSheet, consolePublish), each driving
// the console's own forms and buttons in a signed-in director's tab; the
// end-to-end scenario (flow_test.go) runs its director's steps with them.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// consolePlayer is one player of an entry added in the console: found by
// typing Search and picking the player ID, or, with New set, created on
// the spot under that name.
type consolePlayer struct {
	Search string
	ID     int64
	New    string
}

// consoleOpen opens the console at path (e.g. "?t=3") and waits for it to
// have read what it shows.
func consoleOpen(t *testing.T, ctx context.Context, base, query string) {
	t.Helper()
	do(t, ctx, "opening the console", chromedp.Navigate(base+"/app/console"+query))
	if query == "" {
		waitJS(t, ctx, "the console's home", visible("new-form")+` && document.querySelectorAll('#new-rules option').length > 0`)
		return
	}
	waitJS(t, ctx, "the tournament in the console", visible("console-tournament")+` && document.querySelector('#t-status strong') !== null`)
}

// consoleCreateTournament fills the console's new-tournament form (the
// first rule set GET /rules lists, pairs at 4 players a table, a modified
// Danish of rounds rounds of deals deals, the built-in VP table) in the
// director's tab ctx, which must be signed in, creates the tournament,
// opens its registration and returns its id.
func consoleCreateTournament(t *testing.T, ctx context.Context, base, name string, rounds, deals int) int64 {
	t.Helper()
	consoleOpen(t, ctx, base, "")
	do(t, ctx, "filling the new tournament's form",
		chromedp.SendKeys(chromedp.ID("new-name"), name),
		chromedp.SetValue(chromedp.ID("new-kind"), "pairs"),
		chromedp.SetValue(chromedp.ID("new-movement"), "modified_danish"),
		chromedp.SetValue(chromedp.ID("new-rounds"), fmt.Sprint(rounds)),
		chromedp.SetValue(chromedp.ID("new-deals"), fmt.Sprint(deals)),
		chromedp.Click(chromedp.ID("new-submit")),
	)
	// waitPath matches a whole path, with or without a query (a prefix
	// would let /app/ match the sign-in page itself): the console's own
	// location after creating is its path with ?t= and the new id.
	waitJS(t, ctx, "the console at the new tournament (?t=ID)",
		`location.pathname === '/app/console' && /^\?t=[1-9][0-9]*$/.test(location.search)`)
	var id int64
	if _, err := fmt.Sscanf(evalString(t, ctx, `location.search`), "?t=%d", &id); err != nil || id <= 0 {
		t.Fatalf("after creating the tournament the console is at %q", evalString(t, ctx, `location.href`))
	}
	waitJS(t, ctx, "the new tournament's console", visible("lc-open_registration"))
	click(t, ctx, "opening the registration", chromedp.ID("lc-open_registration"))
	waitJS(t, ctx, "the registration open", visible("lc-close_registration"))
	return id
}

// consoleAssignReferee assigns the club's member u (a referee, admin or
// owner of the club) as a referee of the tournament open in ctx, with the
// console's referees form, and waits for them to be listed.
func consoleAssignReferee(t *testing.T, ctx context.Context, u *user) {
	t.Helper()
	waitJS(t, ctx, u.Name+" offered as a referee", fmt.Sprintf(`document.querySelector('#ref-user option[value="%d"]') !== null`, u.ID))
	do(t, ctx, "assigning "+u.Name+" as referee",
		chromedp.SetValue(chromedp.ID("ref-user"), fmt.Sprint(u.ID)))
	click(t, ctx, "assigning "+u.Name+" as referee", chromedp.ID("ref-assign"))
	waitJS(t, ctx, u.Name+" listed as a referee", fmt.Sprintf(`document.querySelector('#ref-list li[data-user="%d"]') !== null`, u.ID))
	if msg := evalString(t, ctx, `document.getElementById('ref-error').textContent`); msg != "" {
		t.Fatalf("assigning a referee: %s", msg)
	}
}

// consoleAddEntries adds each entry through the console's entry form of
// the tournament open in ctx: its players searched and picked, or created
// on the spot. It waits for each entry to be listed.
func consoleAddEntries(t *testing.T, ctx context.Context, entries [][]consolePlayer) {
	t.Helper()
	for _, players := range entries {
		before := countJS(t, ctx, `#entries-table tbody tr[data-entry]`)
		for _, p := range players {
			if p.New != "" {
				do(t, ctx, "creating "+p.New+" on the spot",
					chromedp.SendKeys(chromedp.ID("new-player-name"), p.New))
				click(t, ctx, "creating "+p.New+" on the spot", chromedp.ID("new-player-create"))
				waitJS(t, ctx, p.New+" picked", fmt.Sprintf(`document.getElementById('entry-picked').textContent.includes(%q)`, p.New))
				continue
			}
			pickButton := fmt.Sprintf(`button.pick[data-player="%d"]`, p.ID)
			do(t, ctx, "searching "+p.Search,
				chromedp.SetValue(chromedp.ID("player-q"), p.Search))
			click(t, ctx, "searching "+p.Search, chromedp.ID("player-search"))
			waitJS(t, ctx, "the player "+p.Search+" found", fmt.Sprintf(`document.querySelector(%q) !== null`, pickButton))
			click(t, ctx, "picking "+p.Search, chromedp.CSS(pickButton))
		}
		click(t, ctx, "adding the entry", chromedp.ID("entry-add"))
		waitJS(t, ctx, "the entry listed", fmt.Sprintf(`document.querySelectorAll('#entries-table tbody tr[data-entry]').length === %d`, before+1))
		if msg := evalString(t, ctx, `document.getElementById('entry-error').textContent`); msg != "" {
			t.Fatalf("adding an entry: %s", msg)
		}
	}
}

// consoleDrawAndStart closes the registration and starts the tournament
// when it has not started, then draws the next round and starts it, all
// with the console's buttons; it returns the round's number once the live
// tables show it being played.
func consoleDrawAndStart(t *testing.T, ctx context.Context) int {
	t.Helper()
	consoleDraw(t, ctx)
	return consoleStartRound(t, ctx)
}

// consoleDraw is consoleDrawAndStart up to the draw: the pairings are
// published and the round not started.
func consoleDraw(t *testing.T, ctx context.Context) {
	t.Helper()
	if ok := evalBool(t, ctx, visible("lc-close_registration")); ok {
		click(t, ctx, "closing the registration", chromedp.ID("lc-close_registration"))
		waitJS(t, ctx, "the start button", visible("lc-start"))
	}
	if ok := evalBool(t, ctx, visible("lc-start")); ok {
		click(t, ctx, "starting the tournament", chromedp.ID("lc-start"))
		waitJS(t, ctx, "the tournament running", visible("lc-finish"))
	}
	waitJS(t, ctx, "the draw button", visible("round-draw"))
	click(t, ctx, "drawing the next round", chromedp.ID("round-draw"))
	waitJS(t, ctx, "the round drawn", visible("round-start"))
}

// consoleStartRound starts the round drawn and returns its number.
func consoleStartRound(t *testing.T, ctx context.Context) int {
	t.Helper()
	click(t, ctx, "starting the round", chromedp.ID("round-start"))
	waitJS(t, ctx, "the round being played", visible("round-close"))
	var n int
	if _, err := fmt.Sscanf(evalString(t, ctx, `document.getElementById('live-summary').textContent`), "Round %d:", &n); err != nil {
		t.Fatalf("the live tables' summary: %v", err)
	}
	return n
}

// consoleSwapEW swaps the EW entries of tables a and b of the round drawn
// (not started) with the console's pairing form, giving reason.
func consoleSwapEW(t *testing.T, ctx context.Context, a, b int, reason string) {
	t.Helper()
	js := fmt.Sprintf(`(() => {
		const x = document.getElementById('pair-%d-ew'), y = document.getElementById('pair-%d-ew');
		const v = x.value; x.value = y.value; y.value = v; return true; })()`, a, b)
	do(t, ctx, "swapping EW of two tables",
		chromedp.Evaluate[chromedp.Void](js),
		chromedp.SendKeys(chromedp.ID("pair-reason"), reason))
	click(t, ctx, "swapping EW of two tables", chromedp.ID("pair-submit"))
	waitJS(t, ctx, "the pairings saved", `document.getElementById('console-msg').textContent === 'The pairings are changed.' || document.getElementById('pair-error').textContent !== ''`)
	if msg := evalString(t, ctx, `document.getElementById('pair-error').textContent`); msg != "" {
		t.Fatalf("the pairings were refused: %s", msg)
	}
}

// consoleCorrectSheet corrects deal of table in round through the
// console's correction form: the parts of each side (cards, burraco,
// closing, hand, pot) replace the ones entered, with reason.
func consoleCorrectSheet(t *testing.T, ctx context.Context, round, table, deal int, ns, ew map[string]int, reason string) {
	t.Helper()
	do(t, ctx, "choosing the deal to correct",
		chromedp.SetValue(chromedp.ID("corr-round"), fmt.Sprint(round)),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('corr-round').dispatchEvent(new Event('change'))`))
	// An earlier round than the latest is read when chosen (GET …/rounds/{round}).
	waitJS(t, ctx, "the round's tables to correct", fmt.Sprintf(`document.querySelector('#corr-table option[value="%d"]') !== null`, table))
	do(t, ctx, "choosing the deal to correct",
		chromedp.SetValue(chromedp.ID("corr-table"), fmt.Sprint(table)),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('corr-table').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(chromedp.ID("corr-deal"), fmt.Sprint(deal)),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('corr-deal').dispatchEvent(new Event('change'))`))
	var steps []chromedp.Action[chromedp.Void]
	for side, parts := range map[string]map[string]int{"ns": ns, "ew": ew} {
		for _, p := range []string{"cards", "burraco", "closing", "hand", "pot"} {
			id := chromedp.ID("corr-" + side + "-" + p)
			steps = append(steps, chromedp.SetValue(id, fmt.Sprint(parts[p])))
		}
	}
	steps = append(steps, chromedp.Evaluate[chromedp.Void](`document.getElementById('corr-ns-cards').dispatchEvent(new Event('input'))`),
		chromedp.SendKeys(chromedp.ID("corr-reason"), reason))
	do(t, ctx, "correcting the deal", steps...)
	click(t, ctx, "correcting the deal", chromedp.ID("corr-submit"))
	want := fmt.Sprintf("Deal %d of table %d is corrected.", deal, table)
	waitJS(t, ctx, "the correction done", fmt.Sprintf(`document.getElementById('console-msg').textContent === %q || document.getElementById('corr-error').textContent !== ''`, want))
	if msg := evalString(t, ctx, `document.getElementById('corr-error').textContent`); msg != "" {
		t.Fatalf("the correction was refused: %s", msg)
	}
}

// consolePublish closes the round being played (if one is), finishes the
// tournament and publishes its results with the console's buttons.
func consolePublish(t *testing.T, ctx context.Context) {
	t.Helper()
	if evalBool(t, ctx, visible("round-close")) {
		click(t, ctx, "closing the round", chromedp.ID("round-close"))
		waitJS(t, ctx, "the round closed", `document.getElementById('round-current').textContent.includes('closed')`)
	}
	click(t, ctx, "finishing the tournament", chromedp.ID("lc-finish"))
	consoleConfirm(t, ctx, "Finish the tournament?")
	waitJS(t, ctx, "the publish button", visible("lc-publish_results"))
	click(t, ctx, "publishing the results", chromedp.ID("lc-publish_results"))
	waitJS(t, ctx, "the results published", `document.querySelector('#t-status strong').textContent === 'Results published'`)
}

// consoleConfirm waits for the console's confirmation dialog titled
// title, checks that its default is not to act (Go back has the focus),
// presses the button named for the action and returns what the dialog said.
func consoleConfirm(t *testing.T, ctx context.Context, title string) string {
	t.Helper()
	said := consoleAsked(t, ctx, title)
	click(t, ctx, "confirming "+title, chromedp.ID("confirm-ok"))
	waitJS(t, ctx, "the dialog closed", `!document.getElementById('confirm-dialog').open`)
	return said
}

// consoleAsked waits for the confirmation dialog titled title, checks
// that Go back has the focus and returns the dialog's text.
func consoleAsked(t *testing.T, ctx context.Context, title string) string {
	t.Helper()
	waitJS(t, ctx, "the dialog asking "+title, fmt.Sprintf(
		`document.getElementById('confirm-dialog').open && document.getElementById('confirm-h').textContent === %q`, title))
	if f := evalString(t, ctx, `document.activeElement ? document.activeElement.id : ''`); f != "confirm-cancel" {
		t.Errorf("the dialog %q opens with the focus on %q, want Go back (confirm-cancel)", title, f)
	}
	return evalString(t, ctx, `document.getElementById('confirm-text').textContent`)
}

// consoleContext is newContext for a director's tab that lives through a
// whole tournament: newContext's 90 s are too short for it on a busy
// machine.
func consoleContext(t *testing.T, b *browser, width, height int64) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.alloc, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(cancelT)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatalf("opening a browser context: %v", err)
	}
	return ctx
}

func evalBool(t *testing.T, ctx context.Context, expr string) bool {
	t.Helper()
	return get(t, ctx, expr, chromedp.Evaluate[bool](expr))
}

func countJS(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	return get(t, ctx, "counting "+sel, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)))
}

// pageWidth is the document's scroll width: wider than the viewport means
// the page scrolls sideways.
func pageWidth(t *testing.T, ctx context.Context) int {
	t.Helper()
	return get(t, ctx, "the page's width", chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
}

// TestBrowserConsoleRunsATournament: a director signs in and, through the
// console's forms and buttons only, creates an 8-pair tournament, assigns
// its referee (removing them once, with the keyboard), adds the
// entries (one player created on the spot, a ninth entry withdrawn again),
// checks one in and out, keeps two entries apart, draws round 1, swaps two
// tables' EW and starts it, follows the tables as their scores come in,
// gives a penalty, corrects a sheet with a reason and publishes. The
// console passes axe-core and its budget on a desktop and a phone; a
// person who directs nothing is refused plainly; the printable pages of
// the tournament fit a 360 px phone.
func TestBrowserConsoleRunsATournament(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	c := directorOpensClub(t, srv.URL)
	names := []string{"Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India",
		"Juliett", "Kilo", "Lima", "Mike", "November", "Oscar", "Papa", "Quebec"}
	ids := map[string]int64{}
	for _, n := range names {
		ids[n] = c.profile("Socio "+n, nil)
	}

	desk := consoleContext(t, b, 1280, 900)
	signInPage(t, desk, srv.URL, c.director, "/app/console")
	consoleOpen(t, desk, srv.URL, "")
	inspect(t, desk, "console-home-desktop")

	id := consoleCreateTournament(t, desk, srv.URL, "Torneo della Console", 1, 3)

	// The club's referee assigned, removed with the keyboard, and assigned
	// again; the API lists what the console shows.
	consoleAssignReferee(t, desk, c.referee)
	unassign := fmt.Sprintf(`#ref-list button.unassign[data-user="%d"]`, c.referee.ID)
	if label := evalString(t, desk, fmt.Sprintf(`document.querySelector(%q).getAttribute('aria-label')`, unassign)); label != "Remove Arbitro as referee" {
		t.Errorf("the referee's remove button is labelled %q", label)
	}
	do(t, desk, "removing the referee with the keyboard",
		chromedp.Focus(chromedp.CSS(unassign)),
		chromedp.KeyEvent("\r"))
	consoleAsked(t, desk, "Remove Arbitro as referee?")
	do(t, desk, "confirming with the keyboard", chromedp.KeyEvent("\t"), chromedp.KeyEvent("\r"))
	waitJS(t, desk, "the referee removed", fmt.Sprintf(`document.querySelector(%q) === null && document.querySelector('#ref-user option[value="%d"]') !== null`, unassign, c.referee.ID))
	consoleAssignReferee(t, desk, c.referee)
	var refs struct {
		Items []struct {
			UserID int64 `json:"user_id"`
		} `json:"items"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/referees", id), nil, &refs, http.StatusOK)
	if len(refs.Items) != 1 || refs.Items[0].UserID != c.referee.ID {
		t.Fatalf("the API lists the tournament's referees as %+v, want the club's referee %d", refs.Items, c.referee.ID)
	}

	var entries [][]consolePlayer
	entries = append(entries, []consolePlayer{{New: "Socio Zulu"}, {Search: "Alfa", ID: ids["Alfa"]}})
	for i := 1; i+1 < len(names); i += 2 {
		entries = append(entries, []consolePlayer{{Search: names[i], ID: ids[names[i]]}, {Search: names[i+1], ID: ids[names[i+1]]}})
	}
	if len(entries) != 9 {
		t.Fatalf("the test has %d entries, want 9", len(entries))
	}
	consoleAddEntries(t, desk, entries)

	// Check-in and its undo, and the ninth entry withdrawn with a reason.
	click(t, desk, "checking the first entry in", chromedp.CSS(`#entries-table tbody tr:first-child button.checkin`))
	waitJS(t, desk, "the entry checked in", `document.querySelector('#entries-table tbody tr:first-child td:nth-child(3)').textContent === 'Checked in'`)
	click(t, desk, "undoing the check-in", chromedp.CSS(`#entries-table tbody tr:first-child button.checkin`))
	waitJS(t, desk, "the check-in undone", `document.querySelector('#entries-table tbody tr:first-child td:nth-child(3)').textContent === 'Not checked in'`)
	do(t, desk, "withdrawing the ninth entry",
		chromedp.SendKeys(chromedp.ID("withdraw-reason"), "one pair too many"))
	click(t, desk, "withdrawing the ninth entry", chromedp.CSS(`#entries-table tbody tr:last-child button.withdraw`))
	consoleConfirm(t, desk, "Withdraw "+evalString(t, desk, `document.querySelector('#entries-table tbody tr:last-child strong').textContent`)+"?")
	waitJS(t, desk, "the ninth entry withdrawn", `document.querySelector('#entries-table tbody tr:last-child').classList.contains('withdrawn')`)

	var listed struct {
		Items []struct {
			Players []struct {
				Name string `json:"name"`
			} `json:"players"`
			Withdrawn bool `json:"withdrawn"`
		} `json:"items"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/entries", id), nil, &listed, http.StatusOK)
	if len(listed.Items) != 9 || listed.Items[0].Players[0].Name != "Socio Zulu" || !listed.Items[8].Withdrawn {
		t.Fatalf("the API lists the console's entries as %+v; want 9, the first with the player created on the spot, the last withdrawn", listed.Items)
	}

	// Entries 1 and 2 must not meet (the modified Danish would seat them
	// together in round 1).
	entryID := func(n int) string {
		return evalString(t, desk, fmt.Sprintf(`document.querySelector('#entries-table tbody tr:nth-child(%d)').dataset.entry`, n))
	}
	click(t, desk, "unfolding the entries kept apart", chromedp.CSS(`#forb-details > summary`))
	do(t, desk, "keeping entries 1 and 2 apart",
		chromedp.SetValue(chromedp.ID("forb-a"), entryID(1)),
		chromedp.SetValue(chromedp.ID("forb-b"), entryID(2)),
		chromedp.SendKeys(chromedp.ID("forb-reason"), "same family"))
	click(t, desk, "keeping entries 1 and 2 apart", chromedp.ID("forb-add"))
	waitJS(t, desk, "the pair kept apart listed", `document.querySelectorAll('#forb-list li button').length === 1`)

	consoleDraw(t, desk)
	var drawn struct {
		Tables []apiTable `json:"tables"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/rounds/1", id), nil, &drawn, http.StatusOK)
	for _, tb := range drawn.Tables {
		pair := map[string]bool{fmt.Sprint(tb.NS.Entries[0].ID): true, fmt.Sprint(tb.EW.Entries[0].ID): true}
		if pair[entryID(1)] && pair[entryID(2)] {
			t.Errorf("entries 1 and 2 were kept apart in the console, and the draw seats them together at table %d", tb.Number)
		}
	}
	ew1, ew2 := drawn.Tables[0].EW.Entries[0].ID, drawn.Tables[1].EW.Entries[0].ID
	consoleSwapEW(t, desk, 1, 2, "EW of table 1 must sit near the door")
	var swapped struct {
		Overridden bool       `json:"overridden"`
		Tables     []apiTable `json:"tables"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/rounds/1", id), nil, &swapped, http.StatusOK)
	if !swapped.Overridden || swapped.Tables[0].EW.Entries[0].ID != ew2 || swapped.Tables[1].EW.Entries[0].ID != ew1 {
		t.Errorf("after the console swapped EW of tables 1 and 2 the round is overridden=%v with EW %d and %d, want %d and %d",
			swapped.Overridden, swapped.Tables[0].EW.Entries[0].ID, swapped.Tables[1].EW.Entries[0].ID, ew2, ew1)
	}
	round := consoleStartRound(t, desk)
	if round != 1 {
		t.Fatalf("the console drew round %d, want 1", round)
	}
	waitJS(t, desk, "four tables not started", `[...document.querySelectorAll('#live-table tbody tr')].filter(r => r.dataset.state === 'notStarted').length === 4`)

	// The tables' scores come in (the director, through the API); the
	// console follows them by itself.
	deal := func(n int) map[string]any {
		return map[string]any{"number": n,
			"ns": map[string]int{"cards": 340, "burraco": 200, "closing": 100, "hand": 0, "pot": 0, "total": 640},
			"ew": map[string]int{"cards": 95, "burraco": 0, "closing": 0, "hand": 30, "pot": 0, "total": 65}}
	}
	score := func(table int, deals ...int) {
		var ds []map[string]any
		for _, n := range deals {
			ds = append(ds, deal(n))
		}
		var sheet apiTable
		path := fmt.Sprintf("/tournaments/%d/rounds/%d/tables/%d", id, round, table)
		c.director.api.call("GET", path, nil, &sheet, http.StatusOK)
		c.director.api.call("POST", path+"/scores", map[string]any{"version": sheet.Version, "deals": ds}, nil, http.StatusOK)
	}
	score(2, 1)
	waitJS(t, desk, "table 2 at deal 1 of 3", `document.querySelector('#live-table tr[data-table="2"] td.state').textContent === 'Deal 1 of 3 entered'`)
	for table := 1; table <= 4; table++ {
		if table == 2 {
			score(2, 2, 3)
			continue
		}
		score(table, 1, 2, 3)
	}
	waitJS(t, desk, "every table confirmed", `[...document.querySelectorAll('#live-table tbody tr')].every(r => r.dataset.state === 'confirmed')`)
	if s := evalString(t, desk, `document.getElementById('live-summary').textContent`); s != "Round 1: 4 of 4 tables finished." {
		t.Errorf("the live summary says %q", s)
	}
	// Measured on a fresh load: what opening the console costs.
	consoleOpen(t, desk, srv.URL, fmt.Sprintf("?t=%d", id))
	waitJS(t, desk, "the tables shown", `document.querySelectorAll('#live-table tbody tr[data-state="confirmed"]').length === 4`)
	do(t, desk, "looking at the tables", chromedp.ScrollIntoView(chromedp.ID("sec-live")))
	inspect(t, desk, "console-tournament-desktop")

	// A penalty, with its reason, into the audit trail.
	do(t, desk, "giving a penalty",
		chromedp.SetValue(chromedp.ID("pen-entry"), entryID(3)),
		chromedp.SetValue(chromedp.ID("pen-vp"), "1"),
		chromedp.SendKeys(chromedp.ID("pen-reason"), "slow play"))
	click(t, desk, "giving a penalty", chromedp.ID("pen-submit"))
	waitJS(t, desk, "the penalty in the audit trail", `[...document.querySelectorAll('#audit-list li[data-kind="penalty"]')].some(li => li.textContent.includes('slow play'))`)

	reason := "NS's second burraco was left off"
	consoleCorrectSheet(t, desk, round, 1, 1,
		map[string]int{"cards": 340, "burraco": 300, "closing": 100},
		map[string]int{"cards": 95, "hand": 30}, reason)
	var tb struct {
		Deals []struct {
			NS struct {
				Total int `json:"total"`
			} `json:"ns"`
			Corrections int `json:"corrections"`
		} `json:"deals"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/rounds/%d/tables/1", id, round), nil, &tb, http.StatusOK)
	if tb.Deals[0].NS.Total != 740 || tb.Deals[0].Corrections != 1 {
		t.Errorf("after the console's correction table 1's deal 1 is NS %d with %d corrections, want 740 and 1", tb.Deals[0].NS.Total, tb.Deals[0].Corrections)
	}
	waitJS(t, desk, "the correction in the audit trail", fmt.Sprintf(
		`[...document.querySelectorAll('#audit-list li[data-kind="score_corrected"]')].some(li => li.textContent.includes(%q))`, reason))

	consolePublish(t, desk)
	if st := c.standings(id); st.Provisional || len(st.Rows) != 8 {
		t.Errorf("after publishing, the standings are provisional=%v with %d rows; want final with 8", st.Provisional, len(st.Rows))
	}

	// One click away: the printouts open from the console's links; on a
	// 360 px phone they fit the screen.
	href := get(t, desk, "the standings link", chromedp.Evaluate[string](`document.getElementById('print-standings').href`))
	if !strings.HasSuffix(href, fmt.Sprintf("/api/v1/tournaments/%d/print/standings?lang=en", id)) {
		t.Errorf("the console's standings link is %q", href)
	}
	phone := b.newContext(360, 740)
	for _, page := range []string{"standings", "results", "tables"} {
		do(t, phone, "opening print/"+page, chromedp.Navigate(fmt.Sprintf("%s/api/v1/tournaments/%d/print/%s?lang=en", srv.URL, id, page)))
		if w := pageWidth(t, phone); w > 360 {
			t.Errorf("print/%s on a 360 px phone is %d px wide", page, w)
		}
		checkAxe(t, phone, "print/"+page)
		if page == "standings" {
			screenshot(t, phone, "print-standings-phone")
		}
	}

	// The console on a phone: signed in, it still fits the screen.
	signInPage(t, phone, srv.URL, c.director, fmt.Sprintf("/app/console?t=%d", id))
	consoleOpen(t, phone, srv.URL, fmt.Sprintf("?t=%d", id))
	inspect(t, phone, "console-tournament-phone")
	if w := pageWidth(t, phone); w > 360 {
		t.Errorf("the console on a 360 px phone is %d px wide", w)
	}

	// Staff pages refuse others plainly.
	player := register(t, srv.URL, "giocatore@example.com", "Giocatore")
	other := b.newContext(1280, 900)
	signInPage(t, other, srv.URL, player, "/app/console")
	waitJS(t, other, "the console refusing", visible("console-refused"))
	if msg := evalString(t, other, `document.getElementById('console-refused').textContent`); !strings.Contains(msg, "for club admins and owners and for site admins") {
		t.Errorf("the console tells a player %q", msg)
	}
	do(t, other, "opening the tournament", chromedp.Navigate(fmt.Sprintf("%s/app/console?t=%d", srv.URL, id)))
	waitJS(t, other, "the console refusing the tournament", visible("console-refused"))
	if evalBool(t, other, visible("console-tournament")) {
		t.Errorf("a player sees the tournament's console")
	}
	inspect(t, other, "console-refused-desktop")
}

// TestBrowserConsoleTellsWhereEachTableIs: the live view's states, asked
// of console-state.js in the browser: not started, deal k of n entered,
// waiting for confirmation, confirmed, decided, and late once nothing
// happened at a table being played for more than the chosen minutes
// (counted from the round's start, then from the table's last entry or
// confirmation).
func TestBrowserConsoleTellsWhereEachTableIs(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := httptest.NewServer(router())
	t.Cleanup(srv.Close)
	ctx := b.newContext(800, 600)
	do(t, ctx, "opening a page", chromedp.Navigate(srv.URL+"/app/"))

	const start = "2026-11-26T20:00:00Z"
	at := func(min int) string { return fmt.Sprintf("2026-11-26T20:%02d:00Z", min) }
	side := `{"entries":[{"id":1}]}`
	deal := func(status string, entered, confirmed int) string {
		c := "null"
		if confirmed >= 0 {
			c = fmt.Sprintf("%q", at(confirmed))
		}
		return fmt.Sprintf(`{"status":%q,"entered_at":%q,"confirmed_at":%s}`, status, at(entered), c)
	}
	tests := []struct {
		name      string
		round     string
		deals     []string
		decidedBy string
		noEW      bool
		nowMin    int
		wantKey   string
		wantLate  bool
		wantK     int
	}{
		{"pairings published: not started", "pairings_published", nil, "", false, 50, "notStarted", false, 0},
		{"playing, nothing yet, in time", "playing", nil, "", false, 15, "notStarted", false, 0},
		{"playing, nothing for 25 minutes: late", "playing", nil, "", false, 25, "notStarted", true, 0},
		{"one deal confirmed", "playing", []string{deal("confirmed", 10, 12)}, "", false, 20, "dealOf", false, 1},
		{"two deals, the last 21 minutes ago: late", "playing", []string{deal("confirmed", 10, 12), deal("confirmed", 20, 21)}, "", false, 42, "dealOf", true, 2},
		{"a deal waiting for confirmation", "playing", []string{deal("confirmed", 10, 12), deal("entered", 25, -1)}, "", false, 30, "waiting", false, 2},
		{"every deal confirmed, never late", "playing", []string{deal("confirmed", 10, 12), deal("confirmed", 20, 21), deal("confirmed", 30, 31)}, "", false, 59, "confirmed", false, 0},
		{"decided by a ruling", "playing", nil, "abandonment", false, 59, "decided", false, 0},
		{"a rest", "playing", nil, "", true, 59, "bye", false, 0},
		{"closed round, incomplete: not late", "closed", []string{deal("confirmed", 10, 12)}, "", false, 59, "dealOf", false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ew := side
			if tt.noEW {
				ew = "null"
			}
			result := "{}"
			if tt.decidedBy != "" {
				result = fmt.Sprintf(`{"decided_by":%q}`, tt.decidedBy)
			}
			table := fmt.Sprintf(`{"ns":%s,"ew":%s,"planned_deals":3,"deals":[%s],"result":%s}`, side, ew, strings.Join(tt.deals, ","), result)
			js := fmt.Sprintf(`import('/app/assets/console-state.js').then(m => JSON.stringify(
				m.tableState({status:%q}, %s, Date.parse(%q), 20, Date.parse(%q))))`, tt.round, table, at(tt.nowMin), start)
			raw := get(t, ctx, "asking the table's state", chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
			var got struct {
				Key  string `json:"key"`
				Late bool   `json:"late"`
				K    int    `json:"k"`
			}
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			if got.Key != tt.wantKey || got.Late != tt.wantLate || got.K != tt.wantK {
				t.Errorf("state %+v, want key %s, late %v, k %d", got, tt.wantKey, tt.wantLate, tt.wantK)
			}
		})
	}
}
