package printout

import (
	"bytes"
	"encoding/csv"
	"html"
	"strings"
	"testing"
	"time"
)

var at = time.Date(2026, 11, 23, 20, 30, 0, 0, time.UTC)

func sampleStandings() Standings {
	return Standings{
		Head:   Head{Tournament: "Coppa d'Autunno", Club: "Circolo <Cantù>", Generated: at, Version: 42},
		Rounds: 2, Provisional: true, TieBreaks: []string{"vp", "mp_difference", "head_to_head", "opponents_vp", "lots"},
		Rows: []StandingRow{
			{Rank: 1, Number: 7, Name: "Niccolò & Fabrizio", Players: []string{"Niccolò Rossi", "Fabrizio Cantù"}, VP: 31, MPFor: 2400, MPAgainst: 1800, MPDiff: 600, Played: 2, AheadBy: "vp"},
			{Rank: 2, Number: 3, Name: "<script>alert(1)</script>", VP: 29, MPDiff: 150, Played: 2, AheadBy: "mp_difference"},
			{Rank: 3, Number: 1, Name: "=HYPERLINK(\"http://x\")", VP: 29, MPDiff: -750, Played: 1, Byes: 1, PenaltyVP: 1},
		},
	}
}

func TestLangForPicksQueryThenHeaderThenEnglish(t *testing.T) {
	tests := []struct {
		name, query, header string
		want                Lang
		ok                  bool
	}{
		{"query it", "it", "en", Italian, true},
		{"query en over italian header", "EN", "it-IT", English, true},
		{"unknown query refused", "fr", "it", English, false},
		{"italian header", "", "it-IT,it;q=0.9,en;q=0.8", Italian, true},
		{"english preferred", "", "en-GB,it;q=0.5", English, true},
		{"other language falls back to english", "", "de-DE", English, true},
		{"no header", "", "", English, true},
		{"garbage header", "", ";;;q=x", English, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := LangFor(tt.query, tt.header)
			if got != tt.want || ok != tt.ok {
				t.Errorf("LangFor(%q, %q) = %v, %v; want %v, %v", tt.query, tt.header, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestBothLanguagesHaveEveryWord(t *testing.T) {
	for key := range words[English] {
		if _, ok := words[Italian][key]; !ok {
			t.Errorf("italian lacks %q", key)
		}
	}
	for key := range words[Italian] {
		if _, ok := words[English][key]; !ok {
			t.Errorf("english lacks %q", key)
		}
	}
}

func TestStandingsPageEscapesNamesAndSpeaksTheLanguage(t *testing.T) {
	for _, tt := range []struct {
		lang  Lang
		words []string
	}{
		{English, []string{"Standings (Provisional)", "after 2 rounds", "MP difference", "head-to-head", "Ahead by"}},
		{Italian, []string{"Classifica (Provvisoria)", "dopo 2 turni", "differenza MP", "scontro diretto", "Davanti per"}},
	} {
		var b bytes.Buffer
		if err := RenderStandings(&b, tt.lang, sampleStandings()); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		text := html.UnescapeString(page) // what the reader sees
		for _, w := range append(tt.words, "Niccolò Rossi", "+600", "-750", "@page { size: A4", `lang="`+string(tt.lang)+`"`, " 42</div>") {
			if !strings.Contains(text, w) {
				t.Errorf("%s page lacks %q", tt.lang, w)
			}
		}
		if strings.Contains(page, "<script>alert") || strings.Contains(page, "<Cantù>") {
			t.Errorf("%s page does not escape names", tt.lang)
		}
	}
}

// TestStandingsPageNamesItsPhaseAndGroup: a group's standings of a phase
// say in their heading and title which group and phase they rank, and
// whether the VP carried in count, in either language; the tournament's
// standings name neither.
func TestStandingsPageNamesItsPhaseAndGroup(t *testing.T) {
	for _, tt := range []struct {
		name         string
		lang         Lang
		phase        int
		group        string
		words, never []string
	}{
		{"GroupOfLastPhaseEnglish", English, 3, "B", []string{"<title>Standings · Group B — Coppa", "<h1>Standings · Group B (Provisional)", "Phase 3 of 3: Gironi", "the VP carried into the phase included"}, nil},
		{"GroupOfLastPhaseItalian", Italian, 3, "A", []string{"<title>Classifica · Girone A — Coppa", "<h1>Classifica · Girone A (Provvisoria)", "Fase 3 di 3: Gironi", "compresi i VP portati"}, nil},
		{"FirstPhaseCarriesNothing", English, 1, "", []string{"<h1>Standings (Provisional)", "Phase 1 of 3: Gironi"}, []string{"carried", "Group"}},
		{"TournamentNamesNoPhase", English, 0, "", []string{"<h1>Standings (Provisional)"}, []string{"Phase", "Group"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := sampleStandings()
			st.Group = tt.group
			if tt.phase > 0 {
				st.Phase, st.Phases, st.PhaseName = tt.phase, 3, "Gironi"
			}
			var b bytes.Buffer
			if err := RenderStandings(&b, tt.lang, st); err != nil {
				t.Fatal(err)
			}
			text := html.UnescapeString(b.String())
			for _, w := range tt.words {
				if !strings.Contains(text, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			for _, w := range tt.never {
				if strings.Contains(text, w) {
					t.Errorf("the page says %q", w)
				}
			}
		})
	}
}

func TestTableCardsHaveSeatsAndOneBlankRowPerDeal(t *testing.T) {
	cards := TableCards{Head: Head{Tournament: "Coppa", Generated: at}, Round: 3, Deals: 3, ExtraRows: 2,
		Tables: []TableCard{
			{Number: 1, Seats: []Seat{{Position: "NS", Number: 4, Names: []string{"Anna", "Bea"}}, {Position: "EW", Number: 9, Names: []string{"Carlo", "Dario"}}}},
			{Number: 2, Seats: []Seat{{Position: "NS", Number: 2, Names: []string{"Elsa", "Fede"}}, {Position: "EW", Number: 5, Names: []string{"Gino", "Ugo"}}}},
		},
		Byes: []string{"Zeno & Ada"}}
	var b bytes.Buffer
	if err := RenderTableCards(&b, Italian, cards); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if got := strings.Count(page, `class="card"`); got != 2 {
		t.Errorf("cards = %d, want 2", got)
	}
	// Per card: 3 deal rows + 2 tie-break rows, each with 12 blank cells.
	if got := strings.Count(page, "<td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td></td></tr>"); got != 2*(3+2) {
		t.Errorf("blank sheet rows = %d, want %d", got, 2*(3+2))
	}
	for _, w := range []string{"Turno 3", "Tavolo 2", "Anna – Bea", "Pozzetto", "Spareggio", "Riposo: Zeno &amp; Ada", "Firma NS", "Arbitro"} {
		if !strings.Contains(page, w) {
			t.Errorf("page lacks %q", w)
		}
	}
}

func TestResultsPageMarksIncompleteTables(t *testing.T) {
	r := Results{Head: Head{Tournament: "Coppa", Generated: at}, Rounds: []RoundResult{{Number: 1, Status: "playing",
		Tables: []TableResult{{Number: 1, NS: "A", EW: "B", MPNS: 1200, MPEW: 800, VPNS: 14, VPEW: 6, Done: true},
			{Number: 2, NS: "C", EW: "D", MPNS: 300, MPEW: 500, VPNS: 9, VPEW: 11}}}}}
	var b bytes.Buffer
	if err := RenderResults(&b, English, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Count(page, "incomplete") != 1 || !strings.Contains(page, "(playing)") {
		t.Errorf("results page:\n%s", page)
	}
}

func TestStandingsCSVQuotesFormulasAndReadsBack(t *testing.T) {
	var b bytes.Buffer
	if err := WriteStandingsCSV(&b, sampleStandings()); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[0][0] != "rank" || rows[1][2] != "Niccolò & Fabrizio" || rows[1][3] != "Niccolò Rossi; Fabrizio Cantù" {
		t.Fatalf("rows: %q", rows)
	}
	if got := rows[3][2]; got != `'=HYPERLINK("http://x")` {
		t.Errorf("formula cell = %q, want it quoted with an apostrophe", got)
	}
	if rows[3][7] != "-750" {
		t.Errorf("a negative number is data, not a formula: %q", rows[3][7])
	}
}

func TestRoundsAndSheetsCSVHaveOneRowPerLine(t *testing.T) {
	r := Results{Rounds: []RoundResult{{Number: 1, Status: "closed", Tables: []TableResult{{Number: 1, NS: "A", EW: "B", Done: true}}, Byes: []string{"C"}}}}
	var b bytes.Buffer
	if err := WriteRoundsCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	if rows, _ := csv.NewReader(&b).ReadAll(); len(rows) != 3 || rows[2][3] != "C" || rows[2][10] != "bye" {
		t.Errorf("rounds rows: %q", rows)
	}
	b.Reset()
	s := Sheets{Lines: []SheetLine{{Round: 1, Table: 1, Deal: 1, Side: "NS", Name: "-A", Total: -100, Pot: -100, Status: "confirmed"}}}
	if err := WriteSheetsCSV(&b, s); err != nil {
		t.Fatal(err)
	}
	if rows, _ := csv.NewReader(&b).ReadAll(); len(rows) != 2 || rows[1][6] != "'-A" || rows[1][12] != "-100" {
		t.Errorf("sheet rows: %q", rows)
	}
}

// TestEveryPageHasOneMainLandmarkAndOneTopHeading: each page (and the
// notice of one that cannot be made) is one main landmark under one h1,
// so a screen reader can jump to it and say what the page is.
func TestEveryPageHasOneMainLandmarkAndOneTopHeading(t *testing.T) {
	cards := TableCards{Head: Head{Tournament: "Coppa", Generated: at}, Round: 1, Deals: 3,
		Tables: []TableCard{{Number: 1, Seats: []Seat{{Position: "NS", Names: []string{"A"}}, {Position: "EW", Names: []string{"B"}}}}}}
	for name, render := range map[string]func(*bytes.Buffer) error{
		"standings": func(b *bytes.Buffer) error { return RenderStandings(b, English, sampleStandings()) },
		"tables":    func(b *bytes.Buffer) error { return RenderTableCards(b, Italian, cards) },
		"results": func(b *bytes.Buffer) error {
			return RenderResults(b, English, Results{Head: Head{Tournament: "Coppa"}})
		},
		"notice": func(b *bytes.Buffer) error { return RenderNotice(b, Italian, NewNotice(Italian, "not_found")) },
		"prizes": func(b *bytes.Buffer) error {
			return RenderPrizes(b, Italian, Prizes{Head: Head{Tournament: "Coppa"}, Awards: []PrizeAward{
				{Name: "Assoluto", Places: 1, Winners: []PrizeWinner{{Place: 1, Rank: 1, Number: 3, Name: "A – B", Players: []string{"A", "B"}}}},
				{Name: "Signore", Category: "ladies", Places: 2}}})
		},
		"no prizes": func(b *bytes.Buffer) error { return RenderPrizes(b, English, Prizes{Head: Head{Tournament: "Coppa"}}) },
		"prizes not final": func(b *bytes.Buffer) error {
			return RenderNotice(b, English, NewNotice(English, "standings_not_final"))
		},
	} {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if strings.Count(page, "<main>") != 1 || strings.Count(page, "</main>") != 1 || strings.Count(page, "<h1") != 1 {
			t.Errorf("%s: %d <main>, %d </main>, %d <h1>; want one of each", name, strings.Count(page, "<main>"), strings.Count(page, "</main>"), strings.Count(page, "<h1"))
		}
		if h1, main := strings.Index(page, "<h1"), strings.Index(page, "<main>"); h1 < main {
			t.Errorf("%s: the h1 is outside the main landmark", name)
		}
	}
}

// TestStandingsPageNamesPlayersOnceWhenTheEntryHasNoName: an entry without
// a name of its own is named by its players, so they are not listed again
// under it; an entry with a name has its players under it.
func TestStandingsPageNamesPlayersOnceWhenTheEntryHasNoName(t *testing.T) {
	s := Standings{Head: Head{Tournament: "Coppa", Generated: at}, Rounds: 1, Rows: []StandingRow{
		{Rank: 1, Number: 1, Name: "Anna Rossi – Bea Bianchi", Players: []string{"Anna Rossi", "Bea Bianchi"}},
		{Rank: 2, Number: 2, Name: "Le Amiche", Players: []string{"Carla Verdi", "Dora Neri"}},
	}}
	var b bytes.Buffer
	if err := RenderStandings(&b, English, s); err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(b.String())
	if strings.Contains(text, "Anna Rossi, Bea Bianchi") {
		t.Errorf("the players of an entry named by them are listed twice")
	}
	if !strings.Contains(text, "Carla Verdi, Dora Neri") {
		t.Errorf("the players of a named entry are not listed")
	}
}
