package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// playingFixture is a running tournament of 4 pairs whose round 1 is being
// played at two tables, with the players' tokens by table and side.
type playingFixture struct {
	te      *tourneyEnv
	id      int64
	entries []api.TournamentEntry
	round   api.TournamentRound
}

func newPlayingFixture(t *testing.T) *playingFixture {
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	f := &playingFixture{te: te, id: id, entries: te.pairs(id, 4)}
	te.start(id)
	f.round = te.draw(id)
	return f
}

// token is the token of the player of table's side ("ns" or "ew").
func (f *playingFixture) token(table int, side string) string {
	tb := f.round.Tables[table-1]
	if side == "ns" {
		return f.te.tokenOfEntry(tb.NS.Entries[0], f.entries)
	}
	return f.te.tokenOfEntry(tb.EW.Entries[0], f.entries)
}

func (f *playingFixture) sheet(table int, action string) string {
	return tpath(f.id, "rounds", 1, "tables", table, action)
}

func (f *playingFixture) countEvents(kind string) int {
	n := 0
	for _, e := range f.te.audit(f.id) {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// TestTournamentPlayRefusals: what the API refuses, by outcome.
func TestTournamentPlayRefusals(t *testing.T) {
	t.Parallel()
	deal1 := api.TournamentDealInput{Number: 1, NS: parts(300, 200, 100, 0, 0), EW: parts(150, 0, 0, 40, 100)}
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, f *playingFixture)
	}{
		{"OwnSideConfirming403", func(t *testing.T, f *playingFixture) {
			f.te.scores(f.id, 1, 1, f.token(1, "ns"), deal1)
			_, etag := f.te.table(f.id, 1, 1)
			p := f.te.problem(http.StatusForbidden, req{Method: "POST", Path: f.sheet(1, "confirm"), Token: f.token(1, "ns"),
				Header: map[string]string{"If-Match": etag}})
			if p.Code != "own_side" {
				t.Errorf("code %s", p.Code)
			}
			if tb, _ := f.te.table(f.id, 1, 1); tb.Deals[0].Status != "entered" {
				t.Errorf("the deal is %s", tb.Deals[0].Status)
			}
		}},
		{"PlayerEnteringForAnotherTable403", func(t *testing.T, f *playingFixture) {
			_, etag := f.te.table(f.id, 1, 2)
			p := f.te.problem(http.StatusForbidden, req{Method: "POST", Path: f.sheet(2, "scores"), Token: f.token(1, "ns"),
				Header: map[string]string{"If-Match": etag}, Body: api.TournamentScoresRequest{Deals: []api.TournamentDealInput{deal1}}})
			if p.Code != "not_at_table" {
				t.Errorf("code %s", p.Code)
			}
		}},
		{"MemberEnteringScores403", func(t *testing.T, f *playingFixture) {
			_, etag := f.te.table(f.id, 1, 1)
			p := f.te.problem(http.StatusForbidden, req{Method: "POST", Path: f.sheet(1, "scores"), Token: f.te.member,
				Header: map[string]string{"If-Match": etag}, Body: api.TournamentScoresRequest{Deals: []api.TournamentDealInput{deal1}}})
			if p.Code != "not_at_table" {
				t.Errorf("code %s", p.Code)
			}
		}},
		{"StaleSheet409WithTheCurrentVersion", func(t *testing.T, f *playingFixture) {
			_, old := f.te.table(f.id, 1, 1)
			now := f.te.scores(f.id, 1, 1, f.te.referee, deal1)
			res := f.te.do(req{Method: "POST", Path: f.sheet(1, "scores"), Token: f.token(1, "ew"), Header: map[string]string{"If-Match": old},
				Body: api.TournamentScoresRequest{Deals: []api.TournamentDealInput{{Number: 2, NS: deal1.NS, EW: deal1.EW}}}})
			p := problem(t, res)
			_, etag := f.te.table(f.id, 1, 1)
			if res.Status != http.StatusConflict || p.Code != "stale_sheet" || p.CurrentVersion == nil || *p.CurrentVersion != now.Version ||
				len(p.Errors) != 1 || p.Errors[0].Field != "version" || res.Header.Get("ETag") != etag {
				t.Errorf("status %d, problem %s, ETag %q (table's %q, version %d)", res.Status, jsonOf(p), res.Header.Get("ETag"), etag, now.Version)
			}
			// The version from the problem is accepted as it is.
			f.te.must(http.StatusOK, req{Method: "POST", Path: f.sheet(1, "scores"), Token: f.te.referee,
				Body: api.TournamentScoresRequest{Version: *p.CurrentVersion, Deals: []api.TournamentDealInput{{Number: 2, NS: deal1.NS, EW: deal1.EW}}}}, nil)
		}},
		{"VersionMissing422", func(t *testing.T, f *playingFixture) {
			p := f.te.problem(http.StatusUnprocessableEntity, req{Method: "POST", Path: f.sheet(1, "scores"), Token: f.te.referee,
				Body: api.TournamentScoresRequest{Deals: []api.TournamentDealInput{deal1}}})
			if p.Code != "invalid_input" || len(p.Errors) != 1 || p.Errors[0].Field != "version" {
				t.Errorf("problem %s", jsonOf(p))
			}
		}},
		{"BadScores422ListingEveryField", func(t *testing.T, f *playingFixture) {
			before, etag := f.te.table(f.id, 1, 1)
			bad := []api.TournamentDealInput{
				{Number: 1, NS: api.TournamentParts{Cards: 100, Closing: 100, Total: 250}, EW: parts(50, 0, 100, 0, 0)},
				{Number: 5, NS: api.TournamentParts{Cards: 100, Closing: 100, Pot: 50, Total: 150}, EW: parts(50, 0, 0, 0, 0)},
			}
			p := f.te.problem(http.StatusUnprocessableEntity, req{Method: "POST", Path: f.sheet(1, "scores"), Token: f.token(1, "ns"),
				Header: map[string]string{"If-Match": etag}, Body: api.TournamentScoresRequest{Deals: bad}})
			var got []string
			for _, e := range p.Errors {
				got = append(got, e.Field+" "+e.Code)
			}
			slices.Sort(got)
			want := []string{"deals[0].ew.closing two_closings", "deals[0].ns.total parts_sum", "deals[1].number deal_order",
				"deals[1].number out_of_range", "deals[1].ns.pot out_of_range"}
			slices.Sort(want)
			if p.Code != "bad_score" || !slices.Equal(got, want) {
				t.Errorf("code %s, errors %v, want %v", p.Code, got, want)
			}
			if after, _ := f.te.table(f.id, 1, 1); after.Version != before.Version || len(after.Deals) != 0 {
				t.Errorf("the refused deals changed the sheet: %s", jsonOf(after))
			}
		}},
		{"ScoreOfTheWrongTypeIs400", func(t *testing.T, f *playingFixture) {
			p := f.te.problem(http.StatusBadRequest, req{Method: "POST", Path: f.sheet(1, "scores"), Token: f.te.referee,
				Body: `{"version":1,"deals":[{"number":1,"ns":{"cards":"many"}}]}`})
			if p.Code != "malformed_json" || len(p.Errors) != 1 || p.Errors[0].Code != "wrong_type" {
				t.Errorf("problem %s", jsonOf(p))
			}
		}},
		{"IdempotentRetrySameAnswerOneEvent", func(t *testing.T, f *playingFixture) {
			_, etag := f.te.table(f.id, 1, 1)
			r := req{Method: "POST", Path: f.sheet(1, "scores"), Token: f.token(1, "ns"),
				Header: map[string]string{"If-Match": etag, "Idempotency-Key": "sheet-1-deal-1"},
				Body:   api.TournamentScoresRequest{Deals: []api.TournamentDealInput{deal1}}}
			first, second := f.te.do(r), f.te.do(r)
			if first.Status != http.StatusOK || second.Status != first.Status || string(second.Body) != string(first.Body) ||
				second.Header.Get("ETag") != first.Header.Get("ETag") {
				t.Fatalf("first %d %s\nretry %d %s", first.Status, first.Body, second.Status, second.Body)
			}
			if n := f.countEvents("score_entered"); n != 1 {
				t.Errorf("%d score_entered events, want 1", n)
			}
			r.Body = api.TournamentScoresRequest{Deals: []api.TournamentDealInput{{Number: 1, NS: deal1.EW, EW: deal1.NS}}}
			if p := f.te.problem(http.StatusUnprocessableEntity, r); p.Code != "idempotency_key_reused" {
				t.Errorf("the key with another body: %s", p.Code)
			}
		}},
		{"IdempotentEntryRetryAnswersTheSameEntry", func(t *testing.T, f *playingFixture) {
			te := f.te
			id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
			te.lifecycle(id, te.director, "open_registration")
			a, b := te.player("Ripetuto A", true), te.player("Ripetuto B", false)
			r := req{Method: "POST", Path: tpath(id, "entries"), Token: te.tokenOf[a], Header: map[string]string{"Idempotency-Key": "enter-once"},
				Body: api.TournamentEntryRequest{Players: []int64{a, b}}}
			first, second := te.do(r), te.do(r)
			if first.Status != http.StatusCreated || second.Status != http.StatusCreated || string(first.Body) != string(second.Body) ||
				first.Header.Get("Location") != second.Header.Get("Location") {
				t.Fatalf("first %d %s\nretry %d %s", first.Status, first.Body, second.Status, second.Body)
			}
			var list api.TournamentEntryList
			te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "entries")}, &list)
			if len(list.Items) != 1 {
				t.Errorf("%d entries after a retried entry", len(list.Items))
			}
		}},
		{"PublicReadingTheAudit401Or403", func(t *testing.T, f *playingFixture) {
			if p := f.te.problem(http.StatusUnauthorized, req{Method: "GET", Path: tpath(f.id, "audit")}); p.Code != "unauthenticated" {
				t.Errorf("anonymous: %s", p.Code)
			}
			for _, tok := range []string{f.te.member, f.token(1, "ns")} {
				if p := f.te.problem(http.StatusForbidden, req{Method: "GET", Path: tpath(f.id, "audit"), Token: tok}); p.Code != "forbidden" {
					t.Errorf("a member or player: %s", p.Code)
				}
			}
		}},
		{"DraftTournamentPlayRoutes404", func(t *testing.T, f *playingFixture) {
			te := f.te
			draft := te.tournament(domain.PairsTournament, 3, domain.SetupInput{})
			p := te.player("Troppo presto", true)
			for _, r := range []req{
				{Method: "GET", Path: tpath(draft, "entries")},
				{Method: "GET", Path: tpath(draft, "standings"), Token: te.member},
				{Method: "GET", Path: tpath(draft, "rounds"), Token: te.member},
				{Method: "GET", Path: tpath(draft, "export", "standings.csv")},
				{Method: "GET", Path: tpath(draft, "print", "results")},
				{Method: "POST", Path: tpath(draft, "entries"), Token: te.tokenOf[p], Body: api.TournamentEntryRequest{Players: []int64{p}}},
				{Method: "POST", Path: tpath(draft, "lifecycle"), Token: te.member, Body: api.TournamentLifecycleRequest{Action: "open_registration"}},
			} {
				if pr := te.problem(http.StatusNotFound, r); pr.Code != "not_found" {
					t.Errorf("%s %s: %s", r.Method, r.Path, pr.Code)
				}
			}
			for _, path := range []string{tpath(draft, "entries"), tpath(draft, "standings"), tpath(draft, "rounds"),
				tpath(draft, "print", "standings"), tpath(draft, "export", "sheets.csv")} {
				for _, tok := range []string{te.director, te.referee} { // its directors and assigned referee see it
					te.must(http.StatusOK, req{Method: "GET", Path: path, Token: tok}, nil)
				}
			}
			// The referee sees the draft but may not open it: a director's action.
			if pr := te.problem(http.StatusForbidden, req{Method: "POST", Path: tpath(draft, "lifecycle"), Token: te.referee,
				Body: api.TournamentLifecycleRequest{Action: "open_registration"}}); pr.Code != "forbidden" {
				t.Errorf("the referee opening the draft: %s", pr.Code)
			}
		}},
		{"UnknownLifecycleAction422", func(t *testing.T, f *playingFixture) {
			p := f.te.problem(http.StatusUnprocessableEntity, req{Method: "POST", Path: tpath(f.id, "lifecycle"), Token: f.te.director,
				Body: api.TournamentLifecycleRequest{Action: "pause"}})
			if p.Code != "invalid_input" || p.Errors[0].Field != "action" {
				t.Errorf("problem %s", jsonOf(p))
			}
		}},
		{"ClosingARoundWithATableMissing409", func(t *testing.T, f *playingFixture) {
			p := f.te.problem(http.StatusConflict, req{Method: "POST", Path: tpath(f.id, "rounds", 1, "close"), Token: f.te.referee})
			if p.Code != "table_missing_result" {
				t.Errorf("code %s", p.Code)
			}
		}},
		{"UnknownPrintLanguage400", func(t *testing.T, f *playingFixture) {
			p := f.te.problem(http.StatusBadRequest, req{Method: "GET", Path: tpath(f.id, "print", "standings") + "?lang=fr"})
			if p.Code != "invalid_parameter" || p.Errors[0].Field != "lang" {
				t.Errorf("problem %s", jsonOf(p))
			}
		}},
		{"UnknownRoundAndTable404", func(t *testing.T, f *playingFixture) {
			for path, code := range map[string]string{
				tpath(f.id, "rounds", 9):                    "round_not_found",
				tpath(f.id, "rounds", 9, "tables", 1):       "round_not_found",
				tpath(f.id, "rounds", 1, "tables", 9):       "table_not_found",
				tpath(f.id, "entries", 99):                  "entry_not_found",
				tpath(f.id, "entries", 99, "history"):       "entry_not_found",
				tpath(f.id, "print", "tables") + "?round=4": "round_not_found",
			} {
				if p := f.te.problem(http.StatusNotFound, req{Method: "GET", Path: path}); p.Code != code {
					t.Errorf("%s: %s, want %s", path, p.Code, code)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newPlayingFixture(t)) })
	}
}

// TestTournamentStandingsETag: a hall screen's poll answers 304 while
// nothing changed, and the new standings with a new ETag once a score is
// in; a table's ETag works the same way.
func TestTournamentStandingsETag(t *testing.T) {
	f := newPlayingFixture(t)
	te := f.te
	first := te.must(http.StatusOK, req{Method: "GET", Path: tpath(f.id, "standings")}, nil)
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	if res := te.do(req{Method: "GET", Path: tpath(f.id, "standings"), Header: map[string]string{"If-None-Match": etag}}); res.Status != http.StatusNotModified ||
		res.Header.Get("ETag") != etag || len(res.Body) != 0 {
		t.Fatalf("unchanged: %d %q", res.Status, res.Header.Get("ETag"))
	}
	_, tableTag := te.table(f.id, 1, 1)
	if res := te.do(req{Method: "GET", Path: tpath(f.id, "rounds", 1, "tables", 1), Header: map[string]string{"If-None-Match": tableTag}}); res.Status != http.StatusNotModified {
		t.Errorf("unchanged table: %d", res.Status)
	}
	te.scores(f.id, 1, 1, te.referee, randomDeals(newRand(), 3)...)
	var st api.TournamentStandings
	res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(f.id, "standings"), Header: map[string]string{"If-None-Match": etag}}, &st)
	if res.Header.Get("ETag") == etag || !st.Provisional || st.AfterRound != 1 || st.Rows[0].Played != 1 {
		t.Errorf("after a score: ETag %q (was %q), standings %s", res.Header.Get("ETag"), etag, jsonOf(st))
	}
	if res := te.do(req{Method: "GET", Path: tpath(f.id, "rounds", 1, "tables", 1), Header: map[string]string{"If-None-Match": tableTag}}); res.Status != http.StatusOK {
		t.Errorf("changed table: %d", res.Status)
	}
	if res := te.do(req{Method: "GET", Path: tpath(f.id, "standings"), Header: map[string]string{"If-None-Match": `"nope"`}}); res.Status != http.StatusOK {
		t.Errorf("another ETag: %d", res.Status)
	}
}

// TestTournamentExportsAndPrintouts: the CSV exports are attachments of
// text/csv with a header row and a row per line; the printable pages are
// HTML in the language asked for.
func TestTournamentExportsAndPrintouts(t *testing.T) {
	f := newPlayingFixture(t)
	te := f.te
	rnd := newRand()
	for _, tb := range f.round.Tables {
		te.scores(f.id, 1, tb.Number, te.referee, randomDeals(rnd, 3)...)
	}
	for name, lines := range map[string]int{"standings": 1 + 4, "rounds": 1 + 2, "sheets": 1 + 2*3*2} {
		res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(f.id, "export", name+".csv")}, nil)
		disp := fmt.Sprintf(`attachment; filename="tournament-%d-%s.csv"`, f.id, name)
		if res.Header.Get("Content-Type") != "text/csv; charset=utf-8" || res.Header.Get("Content-Disposition") != disp {
			t.Errorf("%s: %q, %q", name, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"))
		}
		if got := countLines(res.Body); got != lines {
			t.Errorf("%s.csv has %d lines, want %d:\n%s", name, got, lines, res.Body)
		}
	}
	for _, tc := range []struct {
		path, lang, accept, want string
	}{
		{"standings", "it", "", "Classifica"},
		{"standings", "", "it-IT,it;q=0.9", "Classifica"},
		{"standings", "", "", "Standings"},
		{"tables", "en", "it", "Table cards"},
		{"results", "it", "", "Risultati"},
	} {
		path := tpath(f.id, "print", tc.path)
		if tc.lang != "" {
			path += "?lang=" + tc.lang
		}
		res := te.must(http.StatusOK, req{Method: "GET", Path: path, Header: map[string]string{"Accept-Language": tc.accept}}, nil)
		if res.Header.Get("Content-Type") != "text/html; charset=utf-8" || !contains(res.Body, tc.want) || !contains(res.Body, f.entries[0].Players[0].Name) {
			t.Errorf("%s: %q without %q or the names:\n%.300s", path, res.Header.Get("Content-Type"), tc.want, res.Body)
		}
	}
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

func contains(b []byte, s string) bool { return s != "" && strings.Contains(string(b), s) }
