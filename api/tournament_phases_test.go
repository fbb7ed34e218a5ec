package api_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// The referees' exam (issue 32): 28 pairs; phase 1 a Mitchell of 6 rounds
// of 3 deals; phase 2 a Danish of 2 rounds in one group, carrying all;
// phase 3 a Danish of 3 rounds of 4 deals in two groups by standing
// (serpentine), carrying half. Prizes overall, per group and per category.
const examPairs = 28

func examSetup() api.TournamentCreateRequest {
	prizes := []api.TournamentPrize{
		{Name: "Assoluti", Places: 3},
		{Name: "Signore", Category: "ladies", Places: 1},
		{Name: "Girone A", Group: "A", Places: 2},
		{Name: "Girone B", Group: "B", Places: 2},
	}
	phases := []api.TournamentPhase{
		{Name: "Mitchell", Movement: "mitchell", Rounds: 6},
		{Name: "Danese", Movement: "danish", Rounds: 2, CarryOver: "all"},
		{Name: "Gironi", Movement: "danish", Rounds: 3, DealsPerRound: 4, CarryOver: "fraction", CarryOverPercent: 50,
			Groups: &api.TournamentGrouping{By: "serpentine", Count: 2}},
	}
	return api.TournamentCreateRequest{Name: "Esame arbitri", Rules: "fibur", PlayersPerTable: new(4), Kind: "pairs",
		DealsPerRound: new(3), StartsAt: new(time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)),
		TournamentSetupInput: api.TournamentSetupInput{Phases: &phases, Prizes: &prizes,
			TieBreaks: []string{"vp", "mp_difference", "mp_for", "lots"}}}
}

// vp4 is RULES §10's 4-deal VP table, written out here (as vp3 is) so that
// the test checks the server's conversion: the winner's VP of a difference.
func vp4(diff int) (winner, loser int) {
	bands := []struct{ to, w int }{{100, 10}, {300, 11}, {500, 12}, {700, 13}, {900, 14}, {1100, 15},
		{1300, 16}, {1500, 17}, {1700, 18}, {2000, 19}}
	diff = max(diff, -diff)
	for _, b := range bands {
		if diff <= b.to {
			return b.w, 20 - b.w
		}
	}
	return 20, 0
}

// examLine is one entry's round as the test scored it.
type examLine struct {
	round, phase int
	group        string
	mpFor, mpAg  int
	vpFor        int
	opponent     int64
	tableNumber  int
}

// examBook is the test's own record of the event: every line of every
// entry, from the deals it entered.
type examBook struct {
	lines map[int64][]examLine
}

// total is an entry's figures over the lines of a phase (of a group: the
// lines of that group's tables).
type total struct {
	entry                   int64
	carried, vp, mpF, mpAga int
}

func (t total) key() [3]int { return [3]int{t.vp, t.mpF - t.mpAga, t.mpF} }

func (b examBook) phaseTotals(phase int, entries []int64, carried map[int64]int) []total {
	var out []total
	for _, id := range entries {
		t := total{entry: id, carried: carried[id], vp: carried[id]}
		for _, l := range b.lines[id] {
			if l.phase == phase {
				t.vp += l.vpFor
				t.mpF += l.mpFor
				t.mpAga += l.mpAg
			}
		}
		out = append(out, t)
	}
	// The set-up's tie-breaks: VP, MP difference, MP for (then lots, which
	// the test does not predict: rows tied on all three may come either way).
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].key(), out[j].key()
		return a[0] > b[0] || a[0] == b[0] && (a[1] > b[1] || a[1] == b[1] && a[2] > b[2])
	})
	return out
}

// halfUp is the documented carry-over rounding (VP are whole numbers).
func halfUp(vp, percent int) int { return (vp*percent + 50) / 100 }

// checkStandings compares the server's standings with the test's totals:
// the same figures for every entry, in an order the totals allow.
func checkPhaseStandings(t *testing.T, what string, got api.TournamentStandings, want []total) {
	t.Helper()
	if len(got.Rows) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got.Rows), len(want))
	}
	byEntry := map[int64]total{}
	for _, w := range want {
		byEntry[w.entry] = w
	}
	for i, r := range got.Rows {
		w, ok := byEntry[r.Entry.ID]
		if !ok {
			t.Fatalf("%s: row %d is entry %d, not of this standings", what, i, r.Entry.ID)
		}
		if r.VP != w.vp || r.CarriedVP != w.carried || r.MPFor != w.mpF || r.MPAgainst != w.mpAga {
			t.Errorf("%s: entry %d: vp %d (carried %d), mp %d/%d; want vp %d (carried %d), mp %d/%d", what, r.Entry.Number,
				r.VP, r.CarriedVP, r.MPFor, r.MPAgainst, w.vp, w.carried, w.mpF, w.mpAga)
		}
		if i > 0 {
			prev := byEntry[got.Rows[i-1].Entry.ID].key()
			if cur := w.key(); slices.Compare(prev[:], cur[:]) < 0 {
				t.Errorf("%s: entry %d ranked after entry %d though ahead on %v vs %v", what, r.Entry.Number, got.Rows[i-1].Entry.Number, cur, prev)
			}
		}
	}
}

func (te *tourneyEnv) phaseStandings(id int64, phase int, query string) api.TournamentPhaseStandings {
	te.t.Helper()
	var s api.TournamentPhaseStandings
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "phases", phase, "standings") + query}, &s)
	return s
}

// playExamRound draws round n (the draw seeds a phase's first round),
// starts it, and has the referee enter every table's deals from the
// seeded generator, recording each line in the book.
func (te *tourneyEnv) playExamRound(id int64, n, phase int, rnd *rand.Rand, book examBook) api.TournamentRound {
	te.t.Helper()
	r := te.draw(id)
	if r.Number != n || r.Phase != phase {
		te.t.Fatalf("drew round %d of phase %d, want %d of %d", r.Number, r.Phase, n, phase)
	}
	for _, tb := range r.Tables {
		deals := randomDeals(rnd, tb.PlannedDeals)
		te.scores(id, n, tb.Number, te.referee, deals...)
		var ns, ew int
		for _, d := range deals {
			ns, ew = ns+d.NS.Total, ew+d.EW.Total
		}
		conv := vp3
		if tb.PlannedDeals == 4 {
			conv = vp4
		}
		w, l := conv(ns - ew)
		vpNS, vpEW := w, l
		if ns < ew {
			vpNS, vpEW = l, w
		}
		a, b := tb.NS.Entries[0].ID, tb.EW.Entries[0].ID
		book.lines[a] = append(book.lines[a], examLine{round: n, phase: phase, group: tb.Group, mpFor: ns, mpAg: ew, vpFor: vpNS, opponent: b, tableNumber: tb.Number})
		book.lines[b] = append(book.lines[b], examLine{round: n, phase: phase, group: tb.Group, mpFor: ew, mpAg: ns, vpFor: vpEW, opponent: a, tableNumber: tb.Number})
	}
	te.closeRound(id, n)
	return te.round(id, n)
}

// TestRefereesExamRunThroughTheAPI plays the exam's shape through the HTTP
// API on SQLite and PostgreSQL: 28 pairs, a Mitchell phase, a Danish in
// one group carrying everything, a Danish of 4-deal rounds in two groups
// by standing carrying half. The standings of each phase, of each group and
// overall equal the test's own computation from the deals it entered (its
// own VP tables and carry-over), the groups are the serpentine of the
// standings after phase 2, their tables never mix them and are numbered on
// from group A's, and the prizes (overall, per category, per group) are the
// test's own award.
func TestRefereesExamRunThroughTheAPI(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.runExam(t)
		te.lifecycle(id, te.referee, "finish")
		te.checkExamPrizes(t, id)
	})
}

// runExam creates, enters and plays the exam, checking the standings of
// every phase and group against the book; it returns the tournament id.
func (te *tourneyEnv) runExam(t *testing.T) int64 {
	t.Helper()
	var tour api.Tournament
	te.must(http.StatusCreated, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments", te.club), Token: te.director,
		Body: examSetup()}, &tour)
	if len(tour.Phases) != 3 || tour.Rounds != 11 || tour.Movement != "mitchell" || tour.Phases[2].FirstRound != 9 ||
		tour.Phases[2].VPTable == nil || tour.Phases[1].CarryOver != "all" {
		t.Fatalf("the exam's set-up read back: %s", jsonOf(tour.TournamentSetupOut))
	}
	if _, err := te.svc.Tournaments.AssignReferee(t.Context(), te.owner, tour.ID, te.refereeID); err != nil {
		t.Fatal(err)
	}
	id := tour.ID
	te.lifecycle(id, te.director, "open_registration")
	for i := range examPairs {
		a, b := te.player(fmt.Sprintf("Esame %d-A", i+1), false), te.player(fmt.Sprintf("Esame %d-B", i+1), false)
		if i%4 == 1 { // seven ladies' pairs
			te.setCategories(a, "ladies")
			te.setCategories(b, "ladies")
		}
		te.enter(id, te.director, a, b)
	}
	te.start(id)
	rnd := rand.New(rand.NewPCG(2026, 32))
	book := examBook{lines: map[int64][]examLine{}}
	var all []int64
	for _, r := range te.standings(id).Rows {
		all = append(all, r.Entry.ID)
	}
	slices.Sort(all)
	if len(all) != examPairs {
		t.Fatalf("%d entries ranked, want %d", len(all), examPairs)
	}

	for n := 1; n <= 6; n++ {
		r := te.playExamRound(id, n, 1, rnd, book)
		if len(r.Tables) != 14 || r.Rule != "mitchell" || r.Tables[0].Group != "" {
			t.Fatalf("Mitchell round %d: %d tables, rule %s", n, len(r.Tables), r.Rule)
		}
	}
	p1 := book.phaseTotals(1, all, nil)
	checkPhaseStandings(t, "phase 1", te.phaseStandings(id, 1, "").TournamentStandings, p1)
	carry2 := map[int64]int{}
	for _, x := range p1 {
		carry2[x.entry] = x.vp
	}
	for n := 7; n <= 8; n++ {
		te.playExamRound(id, n, 2, rnd, book)
	}
	p2 := book.phaseTotals(2, all, carry2)
	checkPhaseStandings(t, "phase 2 overall", te.phaseStandings(id, 2, "").TournamentStandings, p2)
	checkPhaseStandings(t, "phase 2 alone", te.phaseStandings(id, 2, "?scope=phase").TournamentStandings, book.phaseTotals(2, all, nil))
	after2 := te.standings(id)
	checkPhaseStandings(t, "standings after phase 2", after2, p2)

	// The serpentine of the standings after phase 2 (their order checked
	// against the test's totals just above).
	groups := map[string][]int64{}
	for i, r := range after2.Rows {
		g := []string{"A", "B", "B", "A"}[i%4]
		groups[g] = append(groups[g], r.Entry.ID)
	}
	carry3 := map[int64]int{}
	for _, x := range p2 {
		carry3[x.entry] = halfUp(x.vp, 50)
	}
	for n := 9; n <= 11; n++ {
		r := te.playExamRound(id, n, 3, rnd, book)
		for i, tb := range r.Tables {
			g := "A"
			if i >= 7 {
				g = "B"
			}
			if tb.Number != i+1 || tb.Group != g || tb.PlannedDeals != 4 ||
				!slices.Contains(groups[g], tb.NS.Entries[0].ID) || !slices.Contains(groups[g], tb.EW.Entries[0].ID) {
				t.Fatalf("round %d table %d (group %q, %d deals): %d against %d, want both of group %s", n, tb.Number, tb.Group,
					tb.PlannedDeals, tb.NS.Entries[0].ID, tb.EW.Entries[0].ID, g)
			}
		}
	}
	var phases api.TournamentPhaseList
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "phases")}, &phases)
	if phases.Current != 3 || len(phases.Items) != 3 || len(phases.Items[2].Groups) != 2 || phases.Items[0].Status != "done" {
		t.Fatalf("phases: %s", jsonOf(phases))
	}
	for _, g := range phases.Items[2].Groups {
		var got []int64
		for _, e := range g.Entries {
			got = append(got, e.ID)
		}
		if d := cmp.Diff(groups[g.Name], got); d != "" {
			t.Errorf("group %s (-serpentine +server):\n%s", g.Name, d)
		}
	}
	checkPhaseStandings(t, "overall", te.standings(id), book.phaseTotals(3, all, carry3))
	res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "phases", 3, "standings") + "?group=A"}, nil)
	if etag := res.Header.Get("ETag"); etag == "" ||
		te.do(req{Method: "GET", Path: tpath(id, "phases", 3, "standings") + "?group=A", Header: map[string]string{"If-None-Match": etag}}).Status != http.StatusNotModified {
		t.Errorf("a group's standings polled with their ETag: not 304 (ETag %q)", etag)
	}
	checkPhaseStandings(t, "phase 3 alone", te.phaseStandings(id, 3, "?scope=phase").TournamentStandings, book.phaseTotals(3, all, nil))
	for g, members := range groups {
		checkPhaseStandings(t, "group "+g, te.phaseStandings(id, 3, "?group="+g).TournamentStandings, book.phaseTotals(3, members, carry3))
	}
	return id
}

// checkExamPrizes: the prizes read back are the test's own award from the
// final standings and the groups' standings: the whole field's first, then
// the groups', then the category's, one prize per entry.
func (te *tourneyEnv) checkExamPrizes(t *testing.T, id int64) {
	t.Helper()
	overall := te.standings(id).Rows
	groupRows := map[string][]api.TournamentStanding{}
	for _, g := range []string{"A", "B"} {
		groupRows[g] = te.phaseStandings(id, 3, "?group="+g).Rows
	}
	ladies := func(r api.TournamentStanding) bool { return (r.Entry.Number-1)%4 == 1 }
	won := map[int64]bool{}
	give := func(rows []api.TournamentStanding, places int, ok func(api.TournamentStanding) bool) []int64 {
		var out []int64
		for _, r := range rows {
			if len(out) < places && !won[r.Entry.ID] && ok(r) {
				out = append(out, r.Entry.ID)
			}
		}
		for _, e := range out {
			won[e] = true
		}
		return out
	}
	any := func(api.TournamentStanding) bool { return true }
	want := map[string][]int64{}
	want["Assoluti"] = give(overall, 3, any)
	want["Girone A"] = give(groupRows["A"], 2, any)
	want["Girone B"] = give(groupRows["B"], 2, any)
	want["Signore"] = give(overall, 1, ladies)
	var got api.TournamentPrizes
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "prizes")}, &got)
	var order []string
	for _, a := range got.Awards {
		order = append(order, a.Name)
		var winners []int64
		for _, w := range a.Winners {
			winners = append(winners, w.Entry.ID)
		}
		if !slices.Equal(winners, want[a.Name]) {
			t.Errorf("%s: winners %v, want %v", a.Name, winners, want[a.Name])
		}
	}
	if d := cmp.Diff([]string{"Assoluti", "Girone A", "Girone B", "Signore"}, order); d != "" {
		t.Errorf("the awards' order (-want +got):\n%s", d)
	}
}

// playedExam is the exam, played, finished and its results published.
func (te *tourneyEnv) playedExam(t *testing.T) int64 {
	t.Helper()
	id := te.runExam(t)
	te.lifecycle(id, te.referee, "finish")
	te.lifecycle(id, te.director, "publish_results")
	return id
}
