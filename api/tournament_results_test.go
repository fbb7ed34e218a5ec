package api_test

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/standings"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestWithdrawalCapOnSheetAndExports: a pair that withdraws while winning
// its table 1400–0 (19–1 by the table) keeps RULES §10's 6 VP. The table's
// sheet, export/rounds.csv, print/results and the standings all show the
// same capped 6–1, not 19 in some and 6 in others.
func TestWithdrawalCapOnSheetAndExports(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 4)
	te.start(id)
	te.draw(id)
	win := api.TournamentDealInput{NS: parts(400, 200, 100, 0, 0), EW: parts(50, 0, 0, 50, 0)}
	for n := 1; n <= 2; n++ {
		win.Number = n
		te.scores(id, 1, 1, te.referee, win)
	}
	tb, _ := te.table(id, 1, 1)
	leaver := tb.NS.Entries[0].ID
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "entries", leaver, "withdraw"), Token: te.referee,
		Body: api.TournamentWithdrawRequest{Reason: "illness"}}, nil)

	tb, _ = te.table(id, 1, 1)
	if tb.Result.DecidedBy != "withdrawal" || tb.Result.MPNS != 1400 || tb.Result.VPNS != 6 || tb.Result.VPEW != 1 {
		t.Fatalf("sheet's result: %s; want 1400–0 decided by the withdrawal, 6–1 VP", jsonOf(tb.Result))
	}
	res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "export", "rounds.csv")}, nil)
	rows, err := csv.NewReader(strings.NewReader(string(res.Body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	found := false
	for _, r := range rows[1:] {
		if r[col["round"]] == "1" && r[col["table"]] == "1" {
			found = true
			if r[col["vp_ns"]] != "6" || r[col["vp_ew"]] != "1" || r[col["mp_ns"]] != "1400" {
				t.Errorf("rounds.csv row of table 1: %v; want 6–1 VP", r)
			}
		}
	}
	if !found {
		t.Fatalf("rounds.csv has no row of round 1 table 1:\n%s", res.Body)
	}
	page := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "print", "results") + "?lang=en"}, nil)
	if want := `<td class="n">1400</td><td class="n">0</td><td class="n">6</td><td class="n">1</td>`; !strings.Contains(string(page.Body), want) {
		t.Errorf("print/results does not show 1400–0, 6–1:\n%s", page.Body)
	}
	for _, row := range te.standings(id).Rows {
		if row.Entry.ID == leaver && row.VP != 6 {
			t.Errorf("standings: the pair that withdrew has %d VP, want 6", row.VP)
		}
	}
	var hist api.TournamentEntryHistory
	te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("%s/history", tpath(id, "entries", leaver))}, &hist)
	if len(hist.Lines) != 1 || hist.Lines[0].VPFor != 6 || hist.Lines[0].VPAgainst != 1 {
		t.Errorf("history of the pair that withdrew: %s; want 6–1", jsonOf(hist))
	}
}

// TestSheetETagDependsOnThatSheetOnly: a client polling table 1's sheet
// gets 304 while table 2 is scored (the tournament's version moves on), and
// a new ETag once table 1 itself changes.
func TestSheetETagDependsOnThatSheetOnly(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 4)
	te.start(id)
	te.draw(id)
	_, etag := te.table(id, 1, 1)
	rnd := newRand()
	te.scores(id, 1, 2, te.referee, randomDeals(rnd, 2)...)
	poll := req{Method: "GET", Path: tpath(id, "rounds", 1, "tables", 1), Header: map[string]string{"If-None-Match": etag}}
	te.must(http.StatusNotModified, poll, nil)
	te.scores(id, 1, 1, te.referee, randomDeals(rnd, 1)...)
	res := te.must(http.StatusOK, poll, nil)
	if got := res.Header.Get("ETag"); got == etag || got == "" {
		t.Fatalf("table 1 changed, its ETag %q did not", got)
	}
}

// TestProvisionalStandingsMarkRowsCountingUnconfirmedTables: a typed,
// unconfirmed 350–250 moves the standings; the rows it moves say they are
// provisional, and so does the list, until the table is complete and
// confirmed. Rows of tables not begun are not marked.
func TestProvisionalStandingsMarkRowsCountingUnconfirmedTables(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	entries := te.pairs(id, 4)
	te.start(id)
	te.draw(id)
	tb, _ := te.table(id, 1, 1)
	ns := te.tokenOfEntry(tb.NS.Entries[0], entries)
	d := api.TournamentDealInput{Number: 1, NS: parts(250, 0, 100, 0, 0), EW: parts(250, 0, 0, 0, 0)}
	te.scores(id, 1, 1, ns, d)
	atTable1 := map[int64]bool{tb.NS.Entries[0].ID: true, tb.EW.Entries[0].ID: true}
	check := func(when string, want bool) {
		t.Helper()
		st := te.standings(id)
		if st.ProvisionalRows != want {
			t.Errorf("%s: provisional_rows %v, want %v", when, st.ProvisionalRows, want)
		}
		for _, r := range st.Rows {
			if r.Provisional != (want && atTable1[r.Entry.ID]) {
				t.Errorf("%s: entry %d provisional %v (VP %d)", when, r.Entry.ID, r.Provisional, r.VP)
			}
		}
	}
	check("one deal entered, unconfirmed", true)
	te.confirm(id, 1, 1, te.referee)
	check("one deal of three confirmed", true)
	rnd := newRand()
	for _, deal := range randomDeals(rnd, 3)[1:] {
		te.scores(id, 1, 1, te.referee, deal)
	}
	check("the table complete and confirmed", false)
}

// TestAheadByLotsHiddenUntilTheLotsAreRevealed: two pairs tied on VP with
// only the lots left to separate them share a rank and show no ahead_by
// while the tournament runs; once it is finished (the lots revealed),
// ahead_by lots, their ranks and their lots are shown.
func TestAheadByLotsHiddenUntilTheLotsAreRevealed(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(1),
		TieBreaks: []standings.Criterion{standings.ByVP, standings.ByLots}})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 4)
	te.start(id)
	r := te.draw(id)
	same := []api.TournamentDealInput{
		{Number: 1, NS: parts(400, 0, 100, 0, 0), EW: parts(150, 0, 0, 0, 0)},
		{Number: 2, NS: parts(300, 0, 100, 0, 0), EW: parts(200, 0, 0, 0, 0)},
		{Number: 3, NS: parts(200, 0, 100, 0, 0), EW: parts(250, 0, 0, 0, 0)},
	}
	for _, tb := range r.Tables {
		te.scores(id, 1, tb.Number, te.referee, same...)
	}
	te.closeRound(id, 1)
	st := te.standings(id)
	if len(st.Rows) != 4 || st.Rows[0].VP != st.Rows[1].VP {
		t.Fatalf("the two winners should tie on VP: %s", jsonOf(st.Rows))
	}
	for _, row := range st.Rows {
		if row.AheadBy == "lots" || row.Lot != 0 {
			t.Fatalf("lots shown before the finish: %s", jsonOf(st.Rows))
		}
	}
	if st.Rows[0].Rank != 1 || st.Rows[1].Rank != 1 || st.Rows[2].Rank != 3 {
		t.Fatalf("ranks before the finish: %d %d %d, want 1 1 3", st.Rows[0].Rank, st.Rows[1].Rank, st.Rows[2].Rank)
	}
	te.lifecycle(id, te.referee, "finish")
	st = te.standings(id)
	if st.Rows[0].AheadBy != "lots" || st.Rows[0].Rank != 1 || st.Rows[1].Rank != 2 || st.Rows[0].Lot == 0 {
		t.Fatalf("after the finish: %s", jsonOf(st.Rows))
	}
}
