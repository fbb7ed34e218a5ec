package api_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// playedTable is what the test itself entered at a table: the record the
// standings are checked against, computed here and not by the server.
type playedTable struct {
	ns, ew int64
	deals  []api.TournamentDealInput
}

func (p playedTable) totals() (ns, ew int) {
	for _, d := range p.deals {
		ns += d.NS.Total
		ew += d.EW.Total
	}
	return ns, ew
}

// expectedTotals is each entry's VP, MP for and MP against over the
// tables played, by the test's own VP table.
type expectedTotals struct{ vp, mpFor, mpAgainst, played int }

func expectedStandings(played map[int]map[int]playedTable) map[int64]expectedTotals {
	out := map[int64]expectedTotals{}
	for _, tables := range played {
		for _, p := range tables {
			ns, ew := p.totals()
			vns, vew := vpOf(ns, ew)
			a, b := out[p.ns], out[p.ew]
			a.vp, a.mpFor, a.mpAgainst, a.played = a.vp+vns, a.mpFor+ns, a.mpAgainst+ew, a.played+1
			b.vp, b.mpFor, b.mpAgainst, b.played = b.vp+vew, b.mpFor+ew, b.mpAgainst+ns, b.played+1
			out[p.ns], out[p.ew] = a, b
		}
	}
	return out
}

// checkStandings compares the server's standings with the test's own sums,
// and checks that the rows are in VP order with consistent ranks.
func checkStandings(t *testing.T, st api.TournamentStandings, want map[int64]expectedTotals) {
	t.Helper()
	if len(st.Rows) != len(want) {
		t.Fatalf("%d standings rows, want %d", len(st.Rows), len(want))
	}
	for i, r := range st.Rows {
		w := want[r.Entry.ID]
		if r.VP != w.vp || r.MPFor != w.mpFor || r.MPAgainst != w.mpAgainst || r.MPDifference != w.mpFor-w.mpAgainst || r.Played != w.played {
			t.Errorf("entry %d: VP %d MP %d/%d (diff %d) played %d; want VP %d MP %d/%d played %d", r.Entry.ID,
				r.VP, r.MPFor, r.MPAgainst, r.MPDifference, r.Played, w.vp, w.mpFor, w.mpAgainst, w.played)
		}
		if i > 0 {
			prev := st.Rows[i-1]
			if prev.VP < r.VP || prev.Rank > r.Rank || (prev.Rank == r.Rank) != (prev.AheadBy == "") {
				t.Errorf("rows %d and %d out of order: %+v then %+v", i, i+1, prev, r)
			}
		}
	}
}

// meetings is the set of pairs of entries that met at a round's tables.
func meetings(r api.TournamentRound) map[[2]int64]bool {
	out := map[[2]int64]bool{}
	for _, t := range r.Tables {
		a, b := t.NS.Entries[0].ID, t.EW.Entries[0].ID
		out[[2]int64{min(a, b), max(a, b)}] = true
	}
	return out
}

// TestWholeTournamentModifiedDanish16Pairs runs a 16-pair modified Danish
// of 4 rounds × 3 deals through the API: pairs register themselves, a
// player of NS enters each table's deals and an opponent confirms them, the
// referee runs the rounds and corrects a deal of round 2 after round 3 was
// drawn (round 3 is drawn again on the corrected standings), and the
// standings are checked against sums the test computes with its own VP
// table, before and after the correction and at the end.
func TestWholeTournamentModifiedDanish16Pairs(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementModifiedDanish), Rounds: new(4)})
	te.lifecycle(id, te.director, "open_registration")
	var entries []api.TournamentEntry
	for i := range 16 {
		a := te.player(fmt.Sprintf("Giocatore %d-A", i+1), true)
		b := te.player(fmt.Sprintf("Giocatore %d-B", i+1), false)
		e := te.enter(id, te.tokenOf[a], a, b)
		if e.Players[0].Name != te.nameOf[a] || e.DisplayName != te.nameOf[a]+" – "+te.nameOf[b] || e.FeePaid != nil {
			t.Fatalf("entry as its player sees it: %s", jsonOf(e))
		}
		entries = append(entries, e)
	}
	te.start(id)

	rnd := rand.New(rand.NewPCG(8, 16))
	played := map[int]map[int]playedTable{}
	var previous api.TournamentRound
	for n := 1; n <= 4; n++ {
		var r api.TournamentRound
		te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee}, &r)
		if n == 3 {
			r = correctRound2(t, te, id, played, r)
		}
		te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", n, "start"), Token: te.referee}, &r)
		if len(r.Tables) != 8 || len(r.Byes) != 0 || r.Status != "playing" {
			t.Fatalf("round %d: %d tables, %d byes, %s", n, len(r.Tables), len(r.Byes), r.Status)
		}
		if n > 1 && n < 4 {
			for m := range meetings(r) {
				if meetings(previous)[m] {
					t.Errorf("round %d: %v meet again after round %d (modified Danish: no rematch)", n, m, n-1)
				}
			}
		}
		played[n] = map[int]playedTable{}
		for _, tb := range r.Tables {
			ns, ew := tb.NS.Entries[0], tb.EW.Entries[0]
			deals := randomDeals(rnd, 3)
			after := te.scores(id, n, tb.Number, te.tokenOfEntry(ns, entries), deals...)
			if len(after.Deals) != 3 || after.Deals[0].Status != "entered" || after.Deals[0].EnteredSide != "ns" || after.Result.Final {
				t.Fatalf("round %d table %d after the NS entry: %s", n, tb.Number, jsonOf(after))
			}
			after = te.confirm(id, n, tb.Number, te.tokenOfEntry(ew, entries))
			if !after.Result.Final || after.Deals[2].Status != "confirmed" || after.Deals[2].ConfirmedAt == nil {
				t.Fatalf("round %d table %d after the EW confirmation: %s", n, tb.Number, jsonOf(after))
			}
			p := playedTable{ns: ns.ID, ew: ew.ID, deals: deals}
			mns, mew := p.totals()
			if vns, vew := vpOf(mns, mew); after.Result.MPNS != mns || after.Result.VPNS != vns || after.Result.VPEW != vew {
				t.Errorf("round %d table %d: result %+v, want MP %d-%d VP %d-%d", n, tb.Number, after.Result, mns, mew, vns, vew)
			}
			played[n][tb.Number] = p
		}
		te.closeRound(id, n)
		checkStandings(t, te.standings(id), expectedStandings(played))
		previous = te.round(id, n)
	}
	te.lifecycle(id, te.referee, "finish")
	te.lifecycle(id, te.director, "publish_results")
	st := te.standings(id)
	checkStandings(t, st, expectedStandings(played))
	if st.Provisional || st.Status != "results_published" || st.AfterRound != 4 || st.LotsSeed == "" || st.Rows[0].Lot == 0 {
		t.Errorf("final standings: provisional %v, status %s, after round %d, lots seed %q, lot %d",
			st.Provisional, st.Status, st.AfterRound, st.LotsSeed, st.Rows[0].Lot)
	}
	var h api.TournamentEntryHistory
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "entries", st.Rows[0].Entry.ID, "history")}, &h)
	sum := 0
	for _, l := range h.Lines {
		sum += l.VPFor
		if l.Table == 0 || l.Opponent == nil || l.Side == "" {
			t.Errorf("history line without its table: %+v", l)
		}
	}
	if len(h.Lines) != 4 || sum != st.Rows[0].VP || h.Standing == nil || h.Standing.Rank != 1 {
		t.Errorf("history of the winner: %d lines, VP %d, standing %+v; standings say %d", len(h.Lines), sum, h.Standing, st.Rows[0].VP)
	}
}

// correctRound2 is the referee's correction of deal 2 at table 1 of round
// 2, made while round 3 is drawn but not started: the two entries of that
// table move by the VP the test computes, nobody else does, round 3 is
// drawn again, and the audit trail keeps the deal before and after.
func correctRound2(t *testing.T, te *tourneyEnv, id int64, played map[int]map[int]playedTable, r3 api.TournamentRound) api.TournamentRound {
	t.Helper()
	before := te.standings(id)
	p := played[2][1]
	old := p.deals[1]
	fixed := api.TournamentDealCorrection{Number: 2, NS: parts(600, 1000, 100, 0, 0), EW: parts(100, 0, 0, 200, 100)}
	tb, etag := te.table(id, 2, 1)
	var after api.TournamentTable
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", 2, "tables", 1, "corrections"), Token: te.referee,
		Header: map[string]string{"If-Match": etag},
		Body:   api.TournamentCorrectionRequest{Deal: fixed, Reason: "NS's burraco were left off the sheet"}}, &after)
	if after.Version <= tb.Version || after.Deals[1].Corrections != 1 || after.Deals[1].NS.Total != 1700 {
		t.Fatalf("corrected table: %s", jsonOf(after))
	}
	oldNS, oldEW := p.totals()
	p.deals = slices.Clone(p.deals)
	p.deals[1] = api.TournamentDealInput{Number: 2, NS: fixed.NS, EW: fixed.EW}
	played[2][1] = p
	newNS, newEW := p.totals()
	ons, oew := vpOf(oldNS, oldEW)
	nns, nwe := vpOf(newNS, newEW)
	if nns == ons {
		t.Fatalf("the correction should change the VP (%d-%d → %d-%d)", ons, oew, nns, nwe)
	}
	vpBefore := map[int64]int{}
	for _, row := range before.Rows {
		vpBefore[row.Entry.ID] = row.VP
	}
	afterSt := te.standings(id)
	for _, row := range afterSt.Rows {
		want := vpBefore[row.Entry.ID]
		switch row.Entry.ID {
		case p.ns:
			want += nns - ons
		case p.ew:
			want += nwe - oew
		}
		if row.VP != want {
			t.Errorf("after the correction, entry %d has %d VP, want %d", row.Entry.ID, row.VP, want)
		}
	}
	if afterSt.Version <= before.Version {
		t.Errorf("standings version %d after %d", afterSt.Version, before.Version)
	}
	events := te.audit(id)
	last := events[len(events)-1]
	var data struct {
		Round         int                                  `json:"round"`
		Table         int                                  `json:"table"`
		Deal          api.TournamentDealInput              `json:"deal"`
		Before        struct{ NS, EW api.TournamentParts } `json:"before"`
		RedrawnRounds []int                                `json:"redrawn_rounds"`
	}
	raw, _ := json.Marshal(last.Data)
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	if last.Kind != "score_corrected" || last.Reason == "" || data.Round != 2 || data.Table != 1 ||
		data.Before.NS != old.NS || data.Deal.NS != fixed.NS || !slices.Equal(data.RedrawnRounds, []int{3}) {
		t.Errorf("audit of the correction: %s", jsonOf(last))
	}
	redrawn := te.round(id, 3)
	if redrawn.Draws != 2 || r3.Draws != 1 || redrawn.Status != "pairings_published" {
		t.Errorf("round 3 draws: %d before, %d after the correction", r3.Draws, redrawn.Draws)
	}
	return redrawn
}
