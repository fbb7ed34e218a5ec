package pages_test

// Issue 27's console: what cannot be undone is asked first, in a dialog
// whose default is not to do it; what the console cannot do is said where
// the choice is made; while a round is played its tables come first.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// directorScores enters deals (their numbers) of a table through the API
// as the director: a staff entry needs no confirmation.
func (c *club) directorScores(id int64, round, table int, deals ...int) {
	c.t.Helper()
	var ds []map[string]any
	for _, n := range deals {
		ds = append(ds, map[string]any{"number": n,
			"ns": map[string]int{"cards": 340, "burraco": 200, "closing": 100, "total": 640},
			"ew": map[string]int{"cards": 95, "hand": 30, "total": 65}})
	}
	var sheet apiTable
	path := fmt.Sprintf("/tournaments/%d/rounds/%d/tables/%d", id, round, table)
	c.director.api.call("GET", path, nil, &sheet, http.StatusOK)
	c.director.api.call("POST", path+"/scores", map[string]any{"version": sheet.Version, "deals": ds}, nil, http.StatusOK)
}

// tournamentStatus is the tournament's status as the API has it.
func (c *club) tournamentStatus(id int64) string {
	c.t.Helper()
	var tour struct {
		Status string `json:"status"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d", id), nil, &tour, http.StatusOK)
	return tour.Status
}

// roundStatus is round n's status as the API has it.
func (c *club) roundStatus(id int64, n int) string {
	c.t.Helper()
	var r struct {
		Status string `json:"status"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/rounds/%d", id, n), nil, &r, http.StatusOK)
	return r.Status
}

// axeViolations runs only the named axe-core rules in the page of ctx and
// returns the ids of those broken, whatever their impact (checkAxe fails
// only on serious and critical ones).
func axeViolations(t *testing.T, ctx context.Context, rules ...string) []string {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](axeScript(t))); err != nil {
		t.Fatalf("injecting axe-core: %v", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(
		`axe.run(document, {runOnly: {type: 'rule', values: %s}, resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))`,
		jsString(rules)), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("running axe-core: %v", err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range vs {
		var where []string
		for _, n := range v.Nodes {
			where = append(where, fmt.Sprint(n.Target...))
		}
		ids = append(ids, fmt.Sprintf("%s (%s) at %s", v.ID, v.Impact, strings.Join(where, ", ")))
	}
	return ids
}

// TestConsoleAsksBeforeFinishing: a director runs a 2-round tournament in
// the console. While a round is played its tables come before the entries
// (folded) and show without scrolling, and no landmark name is used twice.
// Closing a round with a table not confirmed says how many and which, and
// closes nothing. Finish is quiet until the last round is closed; pressed
// after round 1 it asks first, saying round 2 will not be played, with Go
// back focused: going back keeps the tournament running (the API says so).
// A refusal after a success does not show beside the success's message.
// Withdrawing an entry and removing a referee ask first: going back
// changes nothing. Once every round is closed, Finish is the primary
// button, and confirming it finishes the tournament.
func TestConsoleAsksBeforeFinishing(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	c := directorOpensClub(t, srv.URL)
	id := c.directorCreatesTournament("Torneo del Venerdì", 2, 3)
	for i := range 8 {
		c.directorEntersPair(id, c.profile(fmt.Sprintf("Nord %d", i+1), nil), c.profile(fmt.Sprintf("Sud %d", i+1), nil))
	}
	c.directorStarts(id)
	c.directorDrawsAndStartsRound(id)

	desk := consoleContext(t, b, 1280, 900)
	signInPage(t, desk, srv.URL, c.director, fmt.Sprintf("/app/console?t=%d", id))
	consoleOpen(t, desk, srv.URL, fmt.Sprintf("?t=%d", id))
	waitJS(t, desk, "round 1's four tables", `document.querySelectorAll('#live-table tbody tr[data-table]').length === 4`)

	// The tables first, the entries folded: the director sees every table
	// of the round without scrolling.
	if !evalBool(t, desk, `!!(document.getElementById('sec-live').compareDocumentPosition(document.getElementById('sec-entries')) & Node.DOCUMENT_POSITION_FOLLOWING)`) {
		t.Errorf("during a round the live tables come after the entries")
	}
	if evalBool(t, desk, `document.getElementById('entries-details').open`) {
		t.Errorf("during a round the entries are unfolded")
	}
	if bottom, h := evalString(t, desk, `String(Math.round(document.querySelector('#live-table tbody tr:last-child').getBoundingClientRect().bottom))`),
		evalString(t, desk, `String(innerHeight)`); !evalBool(t, desk, `document.querySelector('#live-table tbody tr:last-child').getBoundingClientRect().bottom <= innerHeight`) {
		t.Errorf("the last table of the round ends at %s px, below the %s px of the screen", bottom, h)
	}
	if v := axeViolations(t, desk, "landmark-unique", "landmark-no-duplicate-contentinfo", "region"); len(v) > 0 {
		t.Errorf("axe on the console: %v", v)
	}
	checkAxe(t, desk, "console during a round")
	screenshot(t, desk, "console-round-desktop")

	// Closing with a table not done: said, with how many, and nothing closed.
	c.directorScores(id, 1, 1, 1, 2, 3)
	c.directorScores(id, 1, 2, 1, 2, 3)
	c.directorScores(id, 1, 3, 1, 2, 3)
	c.directorScores(id, 1, 4, 1)
	waitJS(t, desk, "three tables confirmed", `document.querySelectorAll('#live-table tbody tr[data-state="confirmed"]').length === 3`)
	click(t, desk, "closing round 1", chromedp.ID("round-close"))
	said := consoleAsked(t, desk, "Round 1 cannot be closed yet")
	if !strings.Contains(said, "1 of 4 tables are not confirmed (tables 4).") {
		t.Errorf("closing with table 4 not done, the console says %q", said)
	}
	if ok := evalString(t, desk, `document.getElementById('confirm-ok').textContent`); ok != "Show the tables" {
		t.Errorf("the dialog's action is %q", ok)
	}
	click(t, desk, "going back", chromedp.ID("confirm-cancel"))
	waitJS(t, desk, "the dialog closed", `!document.getElementById('confirm-dialog').open`)
	if st := c.roundStatus(id, 1); st != "playing" {
		t.Errorf("after going back, round 1 is %s, want playing", st)
	}

	c.directorScores(id, 1, 4, 2, 3)
	waitJS(t, desk, "every table confirmed", `document.querySelectorAll('#live-table tbody tr[data-state="confirmed"]').length === 4`)
	click(t, desk, "closing round 1", chromedp.ID("round-close"))
	waitJS(t, desk, "round 1 closed", `document.getElementById('console-msg').textContent === 'The round is closed.'`)

	// Finish after round 1 of 2: quiet, and asked. The console's state
	// must have heard of the close first (round 2 can be drawn): what it
	// says of the rounds lost comes from it.
	waitJS(t, desk, "round 2 to draw", visible("round-draw"))
	waitJS(t, desk, "the finish button", visible("lc-finish"))
	if cls := evalString(t, desk, `document.getElementById('lc-finish').className`); cls != "quiet" {
		t.Errorf("with round 2 still to play, Finish is of class %q, want quiet", cls)
	}
	click(t, desk, "finishing after round 1", chromedp.ID("lc-finish"))
	said = consoleAsked(t, desk, "Finish the tournament?")
	if !strings.Contains(said, "Round 2 will not be played.") {
		t.Errorf("finishing after round 1 of 2, the dialog says %q", said)
	}
	if ok := evalString(t, desk, `document.getElementById('confirm-ok').textContent`); ok != "Finish the tournament" {
		t.Errorf("the dialog's action is %q, want Finish the tournament", ok)
	}
	checkAxe(t, desk, "the console asking before finishing")
	screenshot(t, desk, "console-confirm-desktop")
	do(t, desk, "going back with Escape", chromedp.KeyEvent("\x1b"))
	waitJS(t, desk, "the dialog closed", `!document.getElementById('confirm-dialog').open`)
	if st := c.tournamentStatus(id); st != "running" {
		t.Fatalf("after going back from finishing, the tournament is %s, want running", st)
	}

	// Round 2 drawn and started in the console; Finish now is refused by
	// the server (a round is being played), and the earlier "started" is
	// no longer shown beside the refusal.
	click(t, desk, "drawing round 2", chromedp.ID("round-draw"))
	waitJS(t, desk, "round 2 drawn", visible("round-start"))
	click(t, desk, "starting round 2", chromedp.ID("round-start"))
	waitJS(t, desk, "round 2 started", `document.getElementById('console-msg').textContent !== '' && `+visible("round-close"))
	click(t, desk, "finishing while round 2 is played", chromedp.ID("lc-finish"))
	said = consoleAsked(t, desk, "Finish the tournament?")
	if !strings.Contains(said, "Round 2 is still being played: close it first.") {
		t.Errorf("finishing while round 2 is played, the dialog says %q", said)
	}
	click(t, desk, "finishing all the same", chromedp.ID("confirm-ok"))
	waitJS(t, desk, "the refusal", `document.getElementById('lc-error').textContent !== ''`)
	if msg := evalString(t, desk, `document.getElementById('console-msg').textContent`); msg != "" {
		t.Errorf("beside the refusal %q the console still says %q", evalString(t, desk, `document.getElementById('lc-error').textContent`), msg)
	}

	// Withdrawing: asked; going back withdraws nobody.
	var entries struct {
		Items []struct {
			ID          int64  `json:"id"`
			DisplayName string `json:"display_name"`
			Withdrawn   bool   `json:"withdrawn"`
		} `json:"items"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/entries", id), nil, &entries, http.StatusOK)
	last := entries.Items[len(entries.Items)-1]
	click(t, desk, "unfolding the entries", chromedp.CSS(`#entries-details > summary`))
	withdraw := fmt.Sprintf(`#entries-table button.withdraw[data-entry="%d"]`, last.ID)
	click(t, desk, "withdrawing the last entry", chromedp.CSS(withdraw))
	said = consoleAsked(t, desk, "Withdraw "+last.DisplayName+"?")
	if !strings.Contains(said, "cannot be undone") {
		t.Errorf("withdrawing during a round, the dialog says %q", said)
	}
	click(t, desk, "going back", chromedp.ID("confirm-cancel"))
	waitJS(t, desk, "the dialog closed", `!document.getElementById('confirm-dialog').open`)
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/entries", id), nil, &entries, http.StatusOK)
	if entries.Items[len(entries.Items)-1].Withdrawn {
		t.Errorf("going back from withdrawing withdrew the entry")
	}

	// Removing the referee: asked; going back keeps them.
	click(t, desk, "removing the referee", chromedp.CSS(fmt.Sprintf(`#ref-list button.unassign[data-user="%d"]`, c.referee.ID)))
	consoleAsked(t, desk, "Remove Arbitro as referee?")
	click(t, desk, "going back", chromedp.ID("confirm-cancel"))
	waitJS(t, desk, "the dialog closed", `!document.getElementById('confirm-dialog').open`)
	var refs struct {
		Items []struct{} `json:"items"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/referees", id), nil, &refs, http.StatusOK)
	if len(refs.Items) != 1 {
		t.Errorf("going back from removing the referee left %d referees, want 1", len(refs.Items))
	}

	// Round 2 played and closed: Finish is the next step, and confirmed.
	for table := 1; table <= 4; table++ {
		c.directorScores(id, 2, table, 1, 2, 3)
	}
	waitJS(t, desk, "round 2's tables confirmed", `document.querySelectorAll('#live-table tbody tr[data-state="confirmed"]').length === 4`)
	click(t, desk, "closing round 2", chromedp.ID("round-close"))
	waitJS(t, desk, "round 2 closed", `document.getElementById('console-msg').textContent === 'The round is closed.'`)
	waitJS(t, desk, "Finish the primary button", `document.getElementById('lc-finish') && document.getElementById('lc-finish').className === 'primary'`)
	if !evalBool(t, desk, `!!(document.getElementById('sec-state').compareDocumentPosition(document.getElementById('sec-rounds')) & Node.DOCUMENT_POSITION_FOLLOWING)`) {
		t.Errorf("with every round closed, the state (and Finish) does not come first")
	}
	click(t, desk, "finishing", chromedp.ID("lc-finish"))
	said = consoleConfirm(t, desk, "Finish the tournament?")
	if !strings.Contains(said, "All 2 rounds have been played.") {
		t.Errorf("finishing after the last round, the dialog says %q", said)
	}
	waitJS(t, desk, "the tournament finished", visible("lc-publish_results"))
	if st := c.tournamentStatus(id); st != "finished" {
		t.Errorf("after confirming, the tournament is %s, want finished", st)
	}
}

// TestConsoleSaysWhatItCannotDoWhereTheChoiceIsMade: with the built-in VP
// table the new-tournament form offers only the deals per round it covers
// (3 and 4, from GET /rules) and says beside the choice that 2 need a
// table of one's own; with a table of one's own all three are offered; a
// team event is told it has no built-in table. Options show in words, not
// codes. A new tournament without entries says how to add the first; its
// summary names the rule set; cancelling it asks first, and going back
// keeps it.
func TestConsoleSaysWhatItCannotDoWhereTheChoiceIsMade(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	c := directorOpensClub(t, srv.URL)
	desk := consoleContext(t, b, 1280, 900)
	signInPage(t, desk, srv.URL, c.director, "/app/console")
	consoleOpen(t, desk, srv.URL, "")
	do(t, desk, "choosing FIBUR", chromedp.SetValue(chromedp.ID("new-rules"), "fibur"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('new-rules').dispatchEvent(new Event('change'))`))

	deals := func() []string {
		var out []string
		if err := json.Unmarshal([]byte(evalString(t, desk, `JSON.stringify([...document.querySelectorAll('#new-deals option')].map(o => o.value))`)), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	note := func() string {
		return evalString(t, desk, `document.getElementById('new-deals-note').hidden ? '' : document.getElementById('new-deals-note').textContent`)
	}
	if d := deals(); !slices.Equal(d, []string{"3", "4"}) {
		t.Errorf("with the built-in VP table the form offers %v deals per round, want [3 4]", d)
	}
	if n := note(); n != "The built-in VP table covers rounds of 3 or 4 deals; rounds of 2 need a VP table of your own (below)." {
		t.Errorf("beside the deals per round the form says %q", n)
	}
	click(t, desk, "choosing a VP table of our own", chromedp.ID("new-vp-custom"))
	if d := deals(); !slices.Equal(d, []string{"2", "3", "4"}) {
		t.Errorf("with a VP table of one's own the form offers %v deals per round, want [2 3 4]", d)
	}
	if n := note(); n != "" {
		t.Errorf("with a VP table of one's own the form still says %q", n)
	}
	click(t, desk, "back to the built-in VP table", chromedp.ID("new-vp-builtin"))
	do(t, desk, "choosing a team event", chromedp.SetValue(chromedp.ID("new-kind"), "teams"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('new-kind').dispatchEvent(new Event('change'))`))
	if n := note(); !strings.Contains(n, "Team events have no built-in VP table") {
		t.Errorf("a team event with the built-in VP table: the form says %q", n)
	}
	do(t, desk, "back to pairs", chromedp.SetValue(chromedp.ID("new-kind"), "pairs"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('new-kind').dispatchEvent(new Event('change'))`))

	// The options in words.
	for sel, want := range map[string]string{"#opt-semi_clean_set": "Exactly 8 cards,At least 8 cards", "#opt-closing_discard": "Neither a joker nor a 2,Anything but a 2"} {
		if got := evalString(t, desk, fmt.Sprintf(`[...document.querySelectorAll('%s option')].map(o => o.textContent).join(',')`, sel)); got != want {
			t.Errorf("%s offers %q, want %q", sel, got, want)
		}
	}

	id := consoleCreateTournament(t, desk, srv.URL, "Torneo vuoto", 2, 3)
	waitJS(t, desk, "the empty entries said", `document.querySelector('#entries-table tbody tr.empty') !== null`)
	if got := evalString(t, desk, `document.querySelector('#entries-table tbody tr.empty').textContent`); got != "No entries yet — search a player below to add the first one." {
		t.Errorf("an empty entries table says %q", got)
	}
	if s := evalString(t, desk, `document.getElementById('t-summary').textContent`); strings.Contains(s, "fibur") || !strings.Contains(s, "FIBUR") {
		t.Errorf("the summary names the rule set by its code: %q", s)
	}

	do(t, desk, "giving a reason to cancel", chromedp.SendKeys(chromedp.ID("lc-reason"), "nobody came"))
	click(t, desk, "cancelling", chromedp.ID("lc-cancel"))
	said := consoleAsked(t, desk, "Cancel the tournament?")
	if !strings.Contains(said, "cannot be reopened") || !strings.Contains(said, "nobody came") {
		t.Errorf("cancelling, the dialog says %q", said)
	}
	click(t, desk, "going back", chromedp.ID("confirm-cancel"))
	waitJS(t, desk, "the dialog closed", `!document.getElementById('confirm-dialog').open`)
	if st := c.tournamentStatus(id); st != "registration_open" {
		t.Errorf("after going back from cancelling, the tournament is %s", st)
	}
	click(t, desk, "cancelling", chromedp.ID("lc-cancel"))
	consoleConfirm(t, desk, "Cancel the tournament?")
	waitJS(t, desk, "the tournament cancelled", `document.querySelector('#t-status strong').textContent === 'Cancelled'`)
	if st := c.tournamentStatus(id); st != "cancelled" {
		t.Errorf("after confirming, the tournament is %s, want cancelled", st)
	}
}
