package pages_test

// Issue 32 in the console: the prize list of a tournament's set-up, the
// players' category tags, and the prizes given from the final standings.

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

// consolePrize is one row of the console's prize form.
type consolePrize struct {
	Name, Category string
	Places         int
	Cumulative     bool
}

// consoleSetPrizes replaces the rows of the console's prize form of the
// tournament open in ctx with prizes (typed as a director would: each
// input gets its input event) and saves the list. It returns the error
// line the console shows ("" when the list was saved).
func consoleSetPrizes(t *testing.T, ctx context.Context, prizes []consolePrize) string {
	t.Helper()
	// Remove what the form has, then add a row per prize.
	for countJS(t, ctx, `#prize-table tbody tr[data-prize] button.p-remove`) > 0 {
		click(t, ctx, "removing a prize row", chromedp.CSS(`#prize-table tbody tr[data-prize] button.p-remove`))
	}
	for range prizes {
		click(t, ctx, "adding a prize row", chromedp.ID("prize-add"))
	}
	fill := fmt.Sprintf(`(() => {
		const rows = document.querySelectorAll('#prize-table tbody tr[data-prize]');
		const want = %s;
		if (rows.length !== want.length) return false;
		want.forEach((p, i) => {
			const set = (cls, v) => { const e = rows[i].querySelector(cls);
				if (e.type === 'checkbox') e.checked = v; else e.value = v;
				e.dispatchEvent(new Event('input', {bubbles: true})); };
			set('.p-name', p.Name); set('.p-category', p.Category); set('.p-places', String(p.Places)); set('.p-cumulative', p.Cumulative);
		});
		return true; })()`, jsString(prizes))
	if !evalBool(t, ctx, fill) {
		t.Fatalf("the prize form has %d rows, want %d", countJS(t, ctx, `#prize-table tbody tr[data-prize]`), len(prizes))
	}
	click(t, ctx, "saving the prize list", chromedp.ID("prize-save"))
	waitJS(t, ctx, "the prize list saved or refused",
		`document.getElementById('console-msg').textContent === 'The prize list is saved.' || document.getElementById('prize-error').textContent !== ''`)
	return evalString(t, ctx, `document.getElementById('prize-error').textContent`)
}

// consoleTick gives player the category in the console's grid of the
// tournament open in ctx (the grid open) and waits for it to be saved.
func consoleTick(t *testing.T, ctx context.Context, player int64, name, category string) {
	t.Helper()
	box := fmt.Sprintf(`#cat-table tr[data-player="%d"] input[data-cat=%q]`, player, category)
	waitJS(t, ctx, "the box of "+name+" for "+category, fmt.Sprintf(`document.querySelector(%q) !== null`, box))
	click(t, ctx, "ticking "+name+" as "+category, chromedp.CSS(box))
	waitJS(t, ctx, name+"'s categories saved", fmt.Sprintf(
		`document.getElementById('console-msg').textContent === %q || document.getElementById('cat-error').textContent !== ''`,
		"The categories of "+name+" are saved."))
	if msg := evalString(t, ctx, `document.getElementById('cat-error').textContent`); msg != "" {
		t.Fatalf("ticking %s as %s: %s", name, category, msg)
	}
}

// consoleAward is a prize given as the console shows it.
type consoleAward struct {
	Title   string  `json:"title"`
	Entries []int64 `json:"entries"`
	Note    string  `json:"note"`
}

// consoleAwards reads the prizes given from the console's section.
func consoleAwards(t *testing.T, ctx context.Context) []consoleAward {
	t.Helper()
	var out []consoleAward
	raw := evalString(t, ctx, `JSON.stringify([...document.querySelectorAll('#prize-awards .award')].map(a => ({
		title: a.querySelector('h4').textContent,
		entries: [...a.querySelectorAll('li[data-entry]')].map(li => Number(li.dataset.entry)),
		note: (a.querySelector('p.muted') || {textContent: ''}).textContent })))`)
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatalf("the awards %s: %v", raw, err)
	}
	return out
}

// TestBrowserConsoleGivesPrizesByCategoryFromTheFinalStandings: a director
// sets a four-pair event's prize list in the console (a category that is
// not a slug is refused and its input marked), ticks the players'
// categories in its grid (saved on the players' profiles at once), and the
// list is frozen once the event starts. After the finish the console names
// the winners as AwardPrizes gives them: the overall first; the ladies'
// pairs, skipping the winner of the overall prize and the pair of one lady
// and one man; the over-65 prize, cumulative, to the overall winner too;
// and says that no pair qualifies for the newcomers'. The section passes
// axe on a desktop and fits a phone.
func TestBrowserConsoleGivesPrizesByCategoryFromTheFinalStandings(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	c := directorOpensClub(t, srv.URL)
	names := []string{"Elena", "Fabio", "Anna", "Bice", "Carla", "Dora", "Gino", "Ugo"}
	ids := map[string]int64{}
	for _, n := range names {
		ids[n] = c.profile(n, nil)
	}

	desk := consoleContext(t, b, 1280, 900)
	signInPage(t, desk, srv.URL, c.director, "/app/console")
	id := consoleCreateTournament(t, desk, srv.URL, "Torneo dei Premi", 1, 3)
	// Entry 1: a lady and a man; 2 and 3: ladies; 4: two over 65.
	e := []int64{0,
		c.directorEntersPair(id, ids["Elena"], ids["Fabio"]),
		c.directorEntersPair(id, ids["Anna"], ids["Bice"]),
		c.directorEntersPair(id, ids["Carla"], ids["Dora"]),
		c.directorEntersPair(id, ids["Gino"], ids["Ugo"])}
	// Round 1 seats 2 against 1 and 3 against 4.
	c.director.api.call("PUT", fmt.Sprintf("/tournaments/%d/forbidden", id),
		map[string]any{"pairs": [][]int64{{e[2], e[3]}, {e[2], e[4]}}}, nil, http.StatusOK)
	consoleOpen(t, desk, srv.URL, fmt.Sprintf("?t=%d", id))
	waitJS(t, desk, "the four entries", `document.querySelectorAll('#entries-table tbody tr[data-entry]').length === 4`)

	prizes := []consolePrize{
		{Name: "Primo assoluto", Places: 1},
		{Name: "Coppie signore", Category: "Signore!", Places: 2},
		{Name: "Over 65", Category: "over65", Places: 1, Cumulative: true},
		{Name: "Esordienti", Category: "newcomer", Places: 1},
	}
	msg := consoleSetPrizes(t, desk, prizes)
	if msg == "" || !strings.Contains(msg, "prizes[1].category") {
		t.Errorf("a category that is not a slug is refused with %q, want the field named", msg)
	}
	if !evalBool(t, desk, `document.querySelector('#prize-table tr[data-prize="1"] .p-category').getAttribute('aria-invalid') === 'true'`) {
		t.Errorf("the refused category's input is not marked invalid")
	}
	prizes[1].Category = "ladies"
	if msg := consoleSetPrizes(t, desk, prizes); msg != "" {
		t.Fatalf("the prize list was refused: %s", msg)
	}
	var tour struct {
		Prizes []struct {
			Name       string `json:"name"`
			Category   string `json:"category"`
			Places     int    `json:"places"`
			Cumulative bool   `json:"cumulative"`
		} `json:"prizes"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d", id), nil, &tour, http.StatusOK)
	var stored []consolePrize
	for _, p := range tour.Prizes {
		stored = append(stored, consolePrize{p.Name, p.Category, p.Places, p.Cumulative})
	}
	if !slices.Equal(stored, prizes) {
		t.Errorf("the API has the prize list %+v, want %+v", stored, prizes)
	}
	if evalBool(t, desk, `document.querySelector('#prize-table [aria-invalid]') !== null`) {
		t.Errorf("an input stays marked invalid after the list was saved")
	}

	// The categories, ticked in the grid: one column per category of the
	// prize list, a row per player.
	click(t, desk, "opening the players' categories", chromedp.CSS(`#cat-details > summary`))
	waitJS(t, desk, "a row per player", `document.querySelectorAll('#cat-table tbody tr[data-player]').length === 8`)
	if cols := evalString(t, desk, `[...document.querySelectorAll('#cat-table thead th.cat-col')].map(th => th.textContent).join(',')`); cols != "Ladies,Over 65,Newcomers" {
		t.Errorf("the grid's columns are %q, want the prize list's categories", cols)
	}
	for _, n := range []string{"Elena", "Anna", "Bice", "Carla", "Dora"} {
		consoleTick(t, desk, ids[n], n, "ladies")
	}
	for _, n := range []string{"Gino", "Ugo"} {
		consoleTick(t, desk, ids[n], n, "over65")
	}
	for n, want := range map[string][]string{"Elena": {"ladies"}, "Fabio": nil, "Ugo": {"over65"}} {
		var p struct {
			Categories []string `json:"categories"`
		}
		c.director.api.call("GET", fmt.Sprintf("/players/%d", ids[n]), nil, &p, http.StatusOK)
		if !slices.Equal(p.Categories, want) {
			t.Errorf("after the console's ticks %s's categories are %v, want %v", n, p.Categories, want)
		}
	}

	do(t, desk, "looking at the set-up", chromedp.ScrollIntoView(chromedp.ID("prize-form")))
	screenshot(t, desk, "console-prizes-setup-desktop")

	// Once the event runs the list is shown, frozen, without inputs.
	consoleDraw(t, desk)
	waitJS(t, desk, "the prize list frozen", visible("prize-frozen")+` && document.querySelectorAll('#prize-table input').length === 0`)
	if evalBool(t, desk, visible("prize-save")) {
		t.Errorf("the prize list can be saved once the tournament runs")
	}
	round := consoleStartRound(t, desk)

	// 4 beats 3 by a lot, 2 beats 1 by a little: 4, 2, 1, 3.
	var r struct {
		Tables []apiTable `json:"tables"`
	}
	c.director.api.call("GET", fmt.Sprintf("/tournaments/%d/rounds/%d", id, round), nil, &r, http.StatusOK)
	for _, tb := range r.Tables {
		ns := tb.NS.Entries[0].ID
		winNS := ns == e[4] || ns == e[2]
		big := ns == e[4] || tb.EW.Entries[0].ID == e[4]
		c.directorScoresWinner(id, round, tb.Number, winNS, big)
	}
	waitJS(t, desk, "every table confirmed", `[...document.querySelectorAll('#live-table tbody tr')].every(r => r.dataset.state === 'confirmed')`)
	consolePublish(t, desk)

	waitJS(t, desk, "the winners shown", `document.querySelectorAll('#prize-awards .award').length === 4`)
	got := consoleAwards(t, desk)
	want := []consoleAward{
		{Title: "Primo assoluto", Entries: []int64{e[4]}},
		{Title: "Coppie signore · Ladies", Entries: []int64{e[2], e[3]}},
		{Title: "Over 65", Entries: []int64{e[4]}},
		{Title: "Esordienti · Newcomers", Note: "No entry qualifies."},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the console gives the prizes\n%+v\nwant\n%+v", got, want)
	}
	if st := c.standings(id); len(st.Rows) != 4 || st.Rows[0].Entry.ID != e[4] || st.Rows[1].Entry.ID != e[2] || st.Rows[2].Entry.ID != e[1] {
		t.Errorf("the standings are %+v, want entries 4, 2, 1, 3", st.Rows)
	}
	href := get(t, desk, "the prizes' printout link", chromedp.Evaluate[string](`document.getElementById('print-prizes').href`))
	if !strings.HasSuffix(href, fmt.Sprintf("/api/v1/tournaments/%d/print/prizes?lang=en", id)) {
		t.Errorf("the console's prizes link is %q", href)
	}
	do(t, desk, "looking at the prizes", chromedp.ScrollIntoView(chromedp.ID("sec-prizes")))
	inspect(t, desk, "console-prizes-desktop")

	phone := consoleContext(t, b, 360, 740)
	signInPage(t, phone, srv.URL, c.director, fmt.Sprintf("/app/console?t=%d", id))
	consoleOpen(t, phone, srv.URL, fmt.Sprintf("?t=%d", id))
	waitJS(t, phone, "the winners shown", `document.querySelectorAll('#prize-awards .award').length === 4`)
	if w := pageWidth(t, phone); w > 360 {
		t.Errorf("the console with its prizes on a 360 px phone is %d px wide", w)
	}
	do(t, phone, "looking at the prizes", chromedp.ScrollIntoView(chromedp.ID("sec-prizes")))
	screenshot(t, phone, "console-prizes-phone")
}

// directorScoresWinner enters every deal of a table through the API as
// the director: the side that wins (NS when winNS) by a lot when big,
// else by a little.
func (c *club) directorScoresWinner(id int64, round, table int, winNS, big bool) {
	c.t.Helper()
	win := map[string]int{"cards": 150, "burraco": 200, "closing": 100, "total": 450}
	lose := map[string]int{"cards": 120, "burraco": 200, "total": 320}
	if big {
		win = map[string]int{"cards": 340, "burraco": 200, "closing": 100, "total": 640}
		lose = map[string]int{"cards": 95, "hand": 30, "total": 65}
	}
	ns, ew := win, lose
	if !winNS {
		ns, ew = lose, win
	}
	var sheet apiTable
	path := fmt.Sprintf("/tournaments/%d/rounds/%d/tables/%d", id, round, table)
	c.director.api.call("GET", path, nil, &sheet, http.StatusOK)
	var ds []map[string]any
	for n := 1; n <= 3; n++ {
		ds = append(ds, map[string]any{"number": n, "ns": ns, "ew": ew})
	}
	c.director.api.call("POST", path+"/scores", map[string]any{"version": sheet.Version, "deals": ds}, nil, http.StatusOK)
}
