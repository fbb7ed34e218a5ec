package pages_test

// Issue 27's score pad, for a 70-year-old on a 360 px phone: which side you
// are, large and first; checkboxes a finger can hit; a conflict that says
// which deal, who entered it and what differs; a referee's list of the
// round's tables with who sits there and how far they are.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// padRound is a started round 1 of 3-deal tables for four pairs, each pair
// a registered player (who signs in to the pad) and a partner of the club.
type padRound struct {
	c      *club
	id     int64
	tables []apiTable
	users  map[int64]*user // by entry id
}

func startPadRound(t *testing.T, base string) *padRound {
	t.Helper()
	c := directorOpensClub(t, base)
	pr := &padRound{c: c, users: map[int64]*user{}}
	pr.id = c.directorCreatesTournament("Torneo del Sabato", 1, 3)
	for i := range 4 {
		u := register(t, base, fmt.Sprintf("nonno%d@example.com", i+1), fmt.Sprintf("Nonno %d", i+1))
		e := c.directorEntersPair(pr.id, c.profile(u.Name, u), c.profile(fmt.Sprintf("Nonna %d", i+1), nil))
		pr.users[e] = u
	}
	c.directorStarts(pr.id)
	_, pr.tables = c.directorDrawsAndStartsRound(pr.id)
	return pr
}

// at is the registered player of table's NS (ns) or EW side.
func (pr *padRound) at(table int, ns bool) *user {
	tb := pr.tables[table-1]
	if ns {
		return pr.users[tb.NS.Entries[0].ID]
	}
	return pr.users[tb.EW.Entries[0].ID]
}

// box is an element's size in CSS pixels.
func box(t *testing.T, ctx context.Context, js string) (w, h float64) {
	t.Helper()
	r := get(t, ctx, "measuring "+js, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const r = (%s).getBoundingClientRect(); return [r.width, r.height]; })()`, js)))
	return r[0], r[1]
}

// TestPadSaysYourSideAndWhatDiffersInAConflict: on a 360 px phone the pad
// says first, in large type, "You are North–South, table 1"; the Closed
// and Pot checkboxes are at least 44 px high, and a tap on their words
// ticks them. When EW entered deal 1 first, NS's pad names the deal and
// who entered it (EW, with their names), and sets their parts beside the
// ones NS typed, marking exactly the parts that differ.
func TestPadSaysYourSideAndWhatDiffersInAConflict(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	pr := startPadRound(t, srv.URL)

	ns, ew := b.newContext(360, 740), b.newContext(360, 740)
	signInPage(t, ns, srv.URL, pr.at(1, true), "/app/pad")
	waitJS(t, ns, "NS's pad", visible("pad-form"))
	waitJS(t, ns, "the side said", `document.getElementById('pad-you').textContent !== ''`)
	if you := evalString(t, ns, `document.getElementById('pad-you').textContent`); you != "You are North–South, table 1" {
		t.Errorf("the pad says %q, want You are North–South, table 1", you)
	}
	if !evalBool(t, ns, `parseFloat(getComputedStyle(document.getElementById('pad-you')).fontSize) >= 22`) {
		t.Errorf("the side is said in %s type, want at least 22px", evalString(t, ns, `getComputedStyle(document.getElementById('pad-you')).fontSize`))
	}
	if !evalBool(t, ns, `document.getElementById('pad-you').getBoundingClientRect().bottom < document.getElementById('pad-sheet-h').getBoundingClientRect().top`) {
		t.Errorf("the side is not said before the sheet's heading")
	}
	for _, id := range []string{"ns-pot", "ns-closing", "ew-pot"} {
		w, h := box(t, ns, fmt.Sprintf(`document.getElementById(%q).closest('label')`, id))
		if h < 44 || w < 44 {
			t.Errorf("the label of %s is %.0f×%.0f px, want at least 44 high and wide", id, w, h)
		}
	}
	click(t, ns, "tapping the words of Pot not taken", chromedp.CSS(`label:has(#ew-pot) span`))
	if !evalBool(t, ns, `document.getElementById('ew-pot').checked`) {
		t.Errorf("a tap on the words Pot not taken does not tick it")
	}
	click(t, ns, "tapping them again", chromedp.CSS(`label:has(#ew-pot) span`))
	checkAxe(t, ns, "the pad on a phone")
	do(t, ns, "back to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	screenshot(t, ns, "pad-side-phone")

	// EW enters deal 1 first, with NS's burraco as 300; NS, offline
	// meanwhile, sends 200.
	signInPage(t, ew, srv.URL, pr.at(1, false), "/app/pad")
	waitJS(t, ew, "EW's pad", visible("pad-form"))
	if you := evalString(t, ew, `document.getElementById('pad-you').textContent`); you != "You are East–West, table 1" {
		t.Errorf("EW's pad says %q", you)
	}
	typeDeal(t, ns, deal{ns: parts{cards: 340, burraco: 200, closed: true}, ew: parts{cards: 95, hand: 30}})
	release := blockSheetReads(t, ns, 1, 1)
	typeDeal(t, ew, deal{ns: parts{cards: 340, burraco: 300, closed: true}, ew: parts{cards: 95, hand: 30}})
	click(t, ew, "EW enters deal 1", chromedp.ID("pad-submit"))
	waitJS(t, ew, "deal 1 waiting for NS", dealsWithStatus(1, "entered"))
	click(t, ns, "NS sends deal 1 on the stale sheet", chromedp.ID("pad-submit"))
	waitJS(t, ns, "the conflict shown", visible("pad-conflict"))
	release()

	head := evalString(t, ns, `document.querySelector('#pad-conflict .conflict-head').textContent`)
	if !strings.HasPrefix(head, "Deal 1 was entered first by EW (Nonno") || !strings.Contains(head, "not confirmed") {
		t.Errorf("the conflict says %q; want the deal, who entered it (EW and their names) and that it is not confirmed", head)
	}
	differs := func(side string) string {
		return evalString(t, ns, fmt.Sprintf(`[...document.querySelectorAll('#pad-conflict table[data-side=%q] tr.differs')].map(r => r.dataset.part).join(',')`, side))
	}
	if d := differs("ns"); d != "burraco,total" {
		t.Errorf("the NS parts marked as differing are %q, want burraco,total", d)
	}
	if d := differs("ew"); d != "" {
		t.Errorf("the EW parts marked as differing are %q, want none", d)
	}
	row := evalString(t, ns, `document.querySelector('#pad-conflict table[data-side="ns"] tr[data-part="burraco"]').textContent`)
	if !strings.Contains(row, "300") || !strings.Contains(row, "200") || !strings.Contains(row, "(differs)") {
		t.Errorf("the burraco row reads %q; want theirs (300), yours (200) and (differs) in words", row)
	}
	checkAxe(t, ns, "the pad's conflict")
	do(t, ns, "looking at the conflict", chromedp.ScrollIntoView(chromedp.ID("pad-conflict")))
	screenshot(t, ns, "pad-conflict-phone")
}

// TestPadListsTheRoundsTablesForAReferee: a referee's pad is headed
// "Tables of round 1" and lists each table with its pairs' names and its
// state (here waiting for confirmation, and confirmed).
func TestPadListsTheRoundsTablesForAReferee(t *testing.T) {
	t.Parallel() // a browser and a server of its own
	b := newBrowser(t)
	srv := startServer(t)
	pr := startPadRound(t, srv.URL)

	// Table 1: a deal entered by its NS, waiting for EW; table 2 entered by
	// the director (confirmed as entered).
	var sheet apiTable
	path := fmt.Sprintf("/tournaments/%d/rounds/1/tables/1", pr.id)
	pr.at(1, true).api.call("GET", path, nil, &sheet, http.StatusOK)
	pr.at(1, true).api.call("POST", path+"/scores", map[string]any{"version": sheet.Version, "deals": []map[string]any{{"number": 1,
		"ns": map[string]int{"cards": 200, "total": 200}, "ew": map[string]int{"cards": 100, "total": 100}}}}, nil, http.StatusOK)
	pr.c.directorScores(pr.id, 1, 2, 1, 2, 3)

	ref := b.newContext(360, 740)
	signInPage(t, ref, srv.URL, pr.c.referee, "/app/pad")
	waitJS(t, ref, "the referee's list", `document.querySelectorAll('#pad-table-list a').length === 2`)
	if h := evalString(t, ref, `document.getElementById('pad-tables-h').textContent`); h != "Tables of round 1" {
		t.Errorf("the referee's list is headed %q", h)
	}
	for table, want := range map[int]string{1: "deal 1 of 3: waiting for confirmation", 2: "confirmed"} {
		a := fmt.Sprintf(`document.querySelector('#pad-table-list a[data-table="%d"]')`, table)
		if st := evalString(t, ref, a+`.querySelector('.table-state').textContent`); st != want {
			t.Errorf("table %d is listed as %q, want %q", table, st, want)
		}
		text := evalString(t, ref, a+`.textContent`)
		for _, u := range []*user{pr.at(table, true), pr.at(table, false)} {
			if !strings.Contains(text, u.Name) {
				t.Errorf("table %d's row %q does not name %s", table, text, u.Name)
			}
		}
	}
	checkAxe(t, ref, "the referee's list")
	screenshot(t, ref, "pad-referee-phone")
}
