package pages_test

// The printable pages (package printout) in the browser: on A4 (print
// media, at the width of an A4 page inside its margins) every column of
// every table is on the paper, whole; on a 360 px phone every column is
// either on the screen or in a container that scrolls sideways, with a
// visible cue, and none is cut off. The pages are rendered from models
// with the longest texts a club evening has (Italian words, long names,
// four-digit scores), served with the printouts' own policy.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/burraco/burraco/api/printout"
)

// a4Width is the width of an A4 page in CSS px (210 mm at 96 px per inch);
// a4Content is what is left inside the printouts' @page margins of 12 mm.
const (
	a4Width   = 794
	a4Height  = 1123
	a4Content = 186 / 25.4 * 96
)

var printedAt = time.Date(2026, 11, 27, 21, 40, 0, 0, time.UTC)

// longNames are players' names as long as a club's list has them, and
// the entries' own names (empty: an entry known by its players' names).
var longNames = [][]string{
	{"Maria Antonietta Abbondanzieri", "Pierfrancesco Castiglioni Brambilla"},
	{"Giuseppina Dell'Acqua", "Massimiliano Bevilacqua"},
	{"Anna Rossi", "Bea Bianchi"},
	{"Carlo Verdi", "Dario Neri"},
	{"Elisabetta Scarpellini", "Federica Montemurro"},
	{"Gianluca Santarcangelo", "Ugo Foscolo"},
	{"Ilaria Capodimonte", "Leonardo Sangiovanni"},
	{"Ottavio Pellegrini", "Rosalba Quattrocchi"},
}

var entryNames = []string{"", "Le Quattro Stagioni del Circolo", "", "I Fortunati", "", "", "Amiche di Cantù", ""}

// entryName is an entry's name as the API gives it: its own, else its
// players' joined.
func entryName(i int) string {
	if entryNames[i] != "" {
		return entryNames[i]
	}
	return strings.Join(longNames[i], " – ")
}

func sampleCards() printout.TableCards {
	c := printout.TableCards{Head: printout.Head{Tournament: "Coppa d'Autunno del Circolo", Club: "Circolo del Burraco", Generated: printedAt, Version: 96},
		Round: 3, Deals: 4, ExtraRows: 2, Byes: []string{"9. Zeno – Ada"}}
	seat := func(pos string, i int) printout.Seat {
		s := printout.Seat{Position: pos, Number: i + 11, Names: longNames[i]}
		if entryNames[i] != "" {
			s.Names = append([]string{entryNames[i]}, s.Names...)
		}
		return s
	}
	for i := range 4 {
		c.Tables = append(c.Tables, printout.TableCard{Number: i + 1, Seats: []printout.Seat{seat("NS", 2*i), seat("EW", 2*i+1)}})
	}
	return c
}

func sampleResults() printout.Results {
	r := printout.Results{Head: printout.Head{Tournament: "Coppa d'Autunno del Circolo", Club: "Circolo del Burraco", Generated: printedAt, Version: 96}}
	for n := 1; n <= 2; n++ {
		rd := printout.RoundResult{Number: n, Status: "closed", Byes: []string{"9. Zeno – Ada"}}
		if n == 2 {
			rd.Status = "playing"
		}
		for i := range 4 {
			ns, ew := 2*i, (2*i+1+2*n)%len(longNames)
			rd.Tables = append(rd.Tables, printout.TableResult{Number: i + 1,
				NS: fmt.Sprintf("%d. %s", ns+11, entryName(ns)), EW: fmt.Sprintf("%d. %s", ew+11, entryName(ew)),
				MPNS: 2315 + 10*i, MPEW: 1245, VPNS: 17, VPEW: 3, Done: n == 1 || i > 0})
		}
		rd.Tables[3].Note = "abbandono di 18. Ottavio Pellegrini – Rosalba Quattrocchi"
		r.Rounds = append(r.Rounds, rd)
	}
	return r
}

func sampleStandingsPage() printout.Standings {
	s := printout.Standings{Head: printout.Head{Tournament: "Coppa d'Autunno del Circolo", Club: "Circolo del Burraco", Generated: printedAt, Version: 96},
		Rounds: 3, Provisional: true, TieBreaks: []string{"vp", "mp_difference", "head_to_head", "opponents_vp", "lots"}}
	aheadBy := []string{"vp", "mp_difference", "head_to_head", "opponents_vp", "lots", "vp", "mp_for", ""}
	for i, names := range longNames {
		s.Rows = append(s.Rows, printout.StandingRow{Rank: i + 1, Number: i + 11, Name: entryName(i), Players: names,
			VP: 60 - 5*i, MPFor: 10250 - 500*i, MPAgainst: 8125 + 300*i, MPDiff: 2125 - 800*i, Played: 3, Byes: i % 2,
			PenaltyVP: i % 3, PenaltyMP: 100 * (i % 2), AheadBy: aheadBy[i]})
	}
	return s
}

// printoutServer serves the sample printouts (/tables, /results,
// /standings, ?lang=it or en) as the API does, with their policy.
func printoutServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l := printout.Lang(r.URL.Query().Get("lang"))
		var b bytes.Buffer
		var err error
		switch r.URL.Path {
		case "/tables":
			err = printout.RenderTableCards(&b, l, sampleCards())
		case "/results":
			err = printout.RenderResults(&b, l, sampleResults())
		case "/standings":
			err = printout.RenderStandings(&b, l, sampleStandingsPage())
		case "/notice":
			err = printout.RenderNotice(&b, l, printout.NewNotice(l, "round_not_found"))
		default:
			http.NotFound(w, r)
			return
		}
		if err != nil {
			t.Errorf("rendering %s: %v", r.URL.Path, err)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", printout.ContentSecurityPolicy)
		_, _ = w.Write(b.Bytes())
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// layoutProblems is what a page shows badly, measured in the browser: a
// table cell hidden, cut off by a container that hides its overflow, off
// the page, or whose content overflows it; on paper (print) any container
// that would scroll; on a screen a container that scrolls sideways with no
// visible cue before it.
const layoutProblems = `(() => {
  const print = matchMedia('print').matches;
  const vw = document.documentElement.clientWidth;
  const out = [];
  const what = (e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') +
    ' "' + e.textContent.trim().replace(/\s+/g, ' ').slice(0, 40) + '"';
  const clips = (v) => v === 'hidden' || v === 'clip';
  const scrolls = (v) => v === 'auto' || v === 'scroll';
  if (document.documentElement.scrollWidth > vw + 1) out.push('the page is ' + document.documentElement.scrollWidth + ' px wide in ' + vw + ' px');
  for (const cell of document.querySelectorAll('th, td')) {
    const cs = getComputedStyle(cell);
    const r = cell.getBoundingClientRect();
    if (cs.display === 'none' || cs.visibility !== 'visible' || r.width < 1) { out.push('hidden: ' + what(cell)); continue; }
    if (cell.scrollWidth > cell.clientWidth + 1) out.push('its content overflows ' + what(cell) + ' (' + cell.scrollWidth + ' > ' + cell.clientWidth + ')');
    let scroller = null;
    for (let a = cell.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const as = getComputedStyle(a), ar = a.getBoundingClientRect();
      if (scrolls(as.overflowX)) { scroller = scroller || a; continue; }
      if (!scroller && clips(as.overflowX) && (r.right > ar.right + 1 || r.left < ar.left - 1)) out.push(what(cell) + ' is cut off by ' + what(a));
      if (clips(as.overflowY) && r.bottom > ar.bottom + 1) out.push(what(cell) + ' is cut off at the bottom by ' + what(a));
    }
    if (!scroller && r.right > vw + 1) out.push(what(cell) + ' is off the page (right edge ' + Math.round(r.right) + ' > ' + vw + ')');
  }
  for (const e of document.body.querySelectorAll('*')) {
    const cs = getComputedStyle(e);
    if ((clips(cs.overflowX) && e.scrollWidth > e.clientWidth + 1) || (clips(cs.overflowY) && e.scrollHeight > e.clientHeight + 1))
      out.push(what(e) + ' hides part of its content (' + e.scrollWidth + 'x' + e.scrollHeight + ' in ' + e.clientWidth + 'x' + e.clientHeight + ')');
    if (!scrolls(cs.overflowX) || e.scrollWidth <= e.clientWidth + 1) continue;
    if (print) { out.push(what(e) + ' would need scrolling on paper'); continue; }
    const cue = e.previousElementSibling;
    if (!cue || !cue.classList.contains('scroll-hint') || cue.offsetParent === null) out.push(what(e) + ' scrolls sideways with no visible cue before it');
  }
  if (print) for (const h of document.querySelectorAll('.scroll-hint')) if (h.offsetParent !== null) out.push('the scroll hint is printed: ' + what(h));
  return out;
})()`

// viewAs opens url in ctx laid out as on A4 paper (print media, an A4
// page's width) or on a phone's screen.
func viewAs(t *testing.T, ctx context.Context, url string, a4 bool) {
	t.Helper()
	media := ""
	w, h := int64(360), int64(740)
	if a4 {
		media, w, h = "print", a4Width, a4Height
	}
	do(t, ctx, "opening "+url, chromedp.EmulateViewport(w, h), chromedp.Navigate(url))
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media}); err != nil {
		t.Fatal(err)
	}
}

// checkLayout fails the test with every layout problem of the page of ctx.
func checkLayout(t *testing.T, ctx context.Context, what string, a4 bool) {
	t.Helper()
	problems := get(t, ctx, "measuring "+what, chromedp.Evaluate[[]string](layoutProblems))
	for _, p := range problems {
		t.Errorf("%s: %s", what, p)
	}
	if a4 {
		// The page's content is as wide as an A4 page inside its margins.
		if w := get(t, ctx, "the body's width", chromedp.Evaluate[float64](`document.body.getBoundingClientRect().width`)); w > a4Content+1 {
			t.Errorf("%s: the content is %.0f px wide, wider than an A4 page inside its margins (%.0f px)", what, w, a4Content)
		}
	}
}

// pdfPages prints the page of ctx to an A4 PDF as a browser's print
// dialog does (the page's own @page size and margins) and counts its pages.
func pdfPages(t *testing.T, ctx context.Context) int {
	t.Helper()
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PreferCSSPageSize: new(true)})
	if err != nil {
		t.Fatalf("printing to PDF: %v", err)
	}
	return len(regexp.MustCompile(`/Type\s*/Page\b[^s]`).FindAll(res.Data, -1))
}

// TestBrowserTableCardsFitA4WithEveryColumn: a round's table cards print
// two to an A4 page, every column of the score sheet on the paper and
// wide enough to write in; on a 360 px phone (and a screen just too
// narrow for the sheet) the sheet scrolls sideways with a cue, none of its
// columns hidden. Both languages (the Italian words are the longer).
func TestBrowserTableCardsFitA4WithEveryColumn(t *testing.T) {
	t.Parallel() // a browser of its own
	b := newBrowser(t)
	base := printoutServer(t)
	for _, lang := range []string{"it", "en"} {
		url := base + "/tables?lang=" + lang
		ctx := b.newContext(a4Width, a4Height)
		viewAs(t, ctx, url, true)
		checkLayout(t, ctx, "table cards ("+lang+") on A4", true)
		// Every cell a referee writes in is at least 12 mm wide (45 px).
		narrow := get(t, ctx, "the sheet's cells", chromedp.Evaluate[[]string](`[...document.querySelectorAll('.sheet tbody td')]
			.filter(c => c.getBoundingClientRect().width < 45).map(c => c.cellIndex + ': ' + c.getBoundingClientRect().width.toFixed(1))`))
		if len(narrow) > 0 {
			t.Errorf("table cards (%s) on A4: cells narrower than 12 mm: %v", lang, narrow)
		}
		if lang == "it" {
			screenshot(t, ctx, "print-tables-a4")
		}
		if n, want := pdfPages(t, ctx), len(sampleCards().Tables)/2; n != want {
			t.Errorf("table cards (%s): %d cards print on %d A4 pages, want two to a page (%d)", lang, len(sampleCards().Tables), n, want)
		}

		phone := b.newContext(360, 740)
		viewAs(t, phone, url, false)
		checkLayout(t, phone, "table cards ("+lang+") on a phone", false)
		if lang == "it" {
			screenshot(t, phone, "print-tables-phone")
		}
		// A tablet just too narrow for the sheet, and a desktop's screen.
		for _, w := range []int64{740, 1280} {
			ctx := b.newContext(w, 800)
			do(t, ctx, "opening "+url, chromedp.Navigate(url))
			checkLayout(t, ctx, fmt.Sprintf("table cards (%s) on a %d px screen", lang, w), false)
		}
	}
}

// TestBrowserResultsAndStandingsFitA4WithEveryColumn: the results (MP and
// VP of both sides) and the standings (every column) print whole on A4,
// and on a 360 px phone none of their columns is hidden: what does not fit
// the screen scrolls sideways, with a cue.
func TestBrowserResultsAndStandingsFitA4WithEveryColumn(t *testing.T) {
	t.Parallel() // a browser of its own
	b := newBrowser(t)
	base := printoutServer(t)
	for _, name := range []string{"results", "standings"} {
		for _, lang := range []string{"it", "en"} {
			url := base + "/" + name + "?lang=" + lang
			ctx := b.newContext(a4Width, a4Height)
			viewAs(t, ctx, url, true)
			checkLayout(t, ctx, name+" ("+lang+") on A4", true)

			phone := b.newContext(360, 740)
			viewAs(t, phone, url, false)
			checkLayout(t, phone, name+" ("+lang+") on a phone", false)
			// print-standings-phone.png is the console's test's, of a
			// tournament it played.
			if lang == "en" && name == "results" {
				screenshot(t, phone, "print-results-phone")
			}
		}
	}
}

// TestBrowserPrintoutsHaveAMainLandmarkAndAHeading: every printout (and
// the notice of one that cannot be made) passes axe-core with no
// violation at all, moderate ones included: a main landmark, one top-level
// heading, the scrolling regions named.
func TestBrowserPrintoutsHaveAMainLandmarkAndAHeading(t *testing.T) {
	t.Parallel() // a browser of its own
	b := newBrowser(t)
	base := printoutServer(t)
	for _, name := range []string{"tables", "results", "standings", "notice"} {
		for _, a4 := range []bool{false, true} {
			ctx := b.newContext(360, 740)
			viewAs(t, ctx, base+"/"+name+"?lang=it", a4)
			what := fmt.Sprintf("print/%s (a4=%v)", name, a4)
			for _, v := range axeEveryViolation(t, ctx, what) {
				t.Errorf("%s: axe %s (%s): %s at %v", what, v.ID, v.Impact, v.Help, v.Nodes)
			}
			if n := countJS(t, ctx, "main h1"); n != 1 {
				t.Errorf("%s has %d h1 in its main landmark, want 1", what, n)
			}
		}
	}
}

// axeEveryViolation runs axe-core in the page of ctx and returns every
// violation, whatever its impact (checkAxe fails only on the serious and
// critical ones).
func axeEveryViolation(t *testing.T, ctx context.Context, page string) []axeViolation {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](axeScript(t))); err != nil {
		t.Fatalf("%s: injecting axe-core: %v", page, err)
	}
	raw := get(t, ctx, page+": running axe-core", chromedp.Evaluate[string](
		`axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		t.Fatalf("%s: axe's answer: %v", page, err)
	}
	return vs
}
