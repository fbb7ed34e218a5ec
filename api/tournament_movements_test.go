package api_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// refereeRound draws and starts the next round, has the referee enter each
// table's deals (confirmed at once) and closes it; it returns the round and
// what was entered.
func (te *tourneyEnv) refereeRound(id int64, rnd *rand.Rand, deals int) (api.TournamentRound, map[int]playedTable) {
	te.t.Helper()
	r := te.draw(id)
	out := map[int]playedTable{}
	for _, tb := range r.Tables {
		ds := randomDeals(rnd, deals)
		after := te.scores(id, r.Number, tb.Number, te.referee, ds...)
		if !after.Result.Final || after.Deals[0].Status != "confirmed" || after.Deals[0].EnteredSide != "" {
			te.t.Fatalf("round %d table %d after the referee's entry: %s", r.Number, tb.Number, jsonOf(after))
		}
		p := playedTable{deals: ds}
		if tb.NS != nil && len(tb.NS.Entries) == 1 {
			p.ns, p.ew = tb.NS.Entries[0].ID, tb.EW.Entries[0].ID
		}
		out[tb.Number] = p
	}
	te.closeRound(id, r.Number)
	return te.round(id, r.Number), out
}

// TestWholeTournamentMitchell12Pairs: NS pairs stay at their tables, EW
// pairs move one table each round, nobody meets twice, and the standings
// are the test's own sums.
func TestWholeTournamentMitchell12Pairs(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementMitchell), Rounds: new(5)})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 12)
	te.start(id)
	rnd := rand.New(rand.NewPCG(12, 1))
	played := map[int]map[int]playedTable{}
	met := map[[2]int64]int{}
	nsAt := map[int]int64{}
	ewAt := map[int64]int{}
	for n := 1; n <= 5; n++ {
		r, p := te.refereeRound(id, rnd, 3)
		played[n] = p
		if len(r.Tables) != 6 {
			t.Fatalf("round %d has %d tables", n, len(r.Tables))
		}
		for _, tb := range r.Tables {
			ns, ew := tb.NS.Entries[0].ID, tb.EW.Entries[0].ID
			if n == 1 {
				nsAt[tb.Number] = ns
			} else if nsAt[tb.Number] != ns {
				t.Errorf("round %d: NS of table %d is %d, was %d (NS stay)", n, tb.Number, ns, nsAt[tb.Number])
			}
			if prev, ok := ewAt[ew]; ok {
				if step := (tb.Number - prev + 6) % 6; step != 1 && step != 5 {
					t.Errorf("round %d: EW %d moved from table %d to %d", n, ew, prev, tb.Number)
				}
			}
			ewAt[ew] = tb.Number
			met[[2]int64{ns, ew}]++
		}
	}
	for m, k := range met {
		if k > 1 {
			t.Errorf("%v met %d times", m, k)
		}
	}
	if len(met) != 30 {
		t.Errorf("%d different meetings, want 30", len(met))
	}
	te.lifecycle(id, te.referee, "finish")
	checkStandings(t, te.standings(id), expectedStandings(played))
}

// TestWholeTournamentRoundRobin6Pairs: every pair meets every other exactly
// once in 5 rounds.
func TestWholeTournamentRoundRobin6Pairs(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementRoundRobin), Rounds: new(5)})
	te.lifecycle(id, te.director, "open_registration")
	entries := te.pairs(id, 6)
	te.start(id)
	rnd := rand.New(rand.NewPCG(6, 6))
	played := map[int]map[int]playedTable{}
	met := map[[2]int64]int{}
	for n := 1; n <= 5; n++ {
		r, p := te.refereeRound(id, rnd, 3)
		played[n] = p
		for m := range meetings(r) {
			met[m]++
		}
	}
	for i, a := range entries {
		for _, b := range entries[i+1:] {
			if k := met[[2]int64{min(a.ID, b.ID), max(a.ID, b.ID)}]; k != 1 {
				t.Errorf("%d and %d met %d times", a.ID, b.ID, k)
			}
		}
	}
	res := te.do(req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee})
	if p := problem(t, res); res.Status != http.StatusConflict || p.Code != "no_more_rounds" {
		t.Errorf("a sixth round: %d %s", res.Status, p.Code)
	}
	te.lifecycle(id, te.referee, "finish")
	checkStandings(t, te.standings(id), expectedStandings(played))
}

// TestWholeTournamentIndividual8Players: partners change every round and
// never repeat; each player scores their partnership's VP.
func TestWholeTournamentIndividual8Players(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.IndividualTournament, 3, domain.SetupInput{Movement: new(domain.MovementRandom), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	for i := range 8 {
		p := te.player(fmt.Sprintf("Singolo %d", i+1), true)
		te.enter(id, te.tokenOf[p], p) // each player enters themself
	}
	te.start(id)
	rnd := rand.New(rand.NewPCG(8, 8))
	partners := map[[2]int64]int{}
	want := map[int64]expectedTotals{}
	for n := 1; n <= 3; n++ {
		r, p := te.refereeRound(id, rnd, 3)
		seen := map[int64]bool{}
		for _, tb := range r.Tables {
			ns, ew := p[tb.Number].totals()
			vns, vew := vpOf(ns, ew)
			for _, side := range []struct {
				s          *api.TournamentSide
				vp, mf, ma int
			}{{tb.NS, vns, ns, ew}, {tb.EW, vew, ew, ns}} {
				if len(side.s.Entries) != 2 || len(side.s.Players) != 2 {
					t.Fatalf("round %d table %d: a side of %d entries", n, tb.Number, len(side.s.Entries))
				}
				a, b := side.s.Entries[0].ID, side.s.Entries[1].ID
				partners[[2]int64{min(a, b), max(a, b)}]++
				for _, e := range side.s.Entries {
					seen[e.ID] = true
					w := want[e.ID]
					w.vp, w.mpFor, w.mpAgainst, w.played = w.vp+side.vp, w.mpFor+side.mf, w.mpAgainst+side.ma, w.played+1
					want[e.ID] = w
				}
			}
		}
		if len(seen) != 8 {
			t.Errorf("round %d seats %d players, want 8", n, len(seen))
		}
	}
	for pair, k := range partners {
		if k > 1 {
			t.Errorf("partners %v together %d times", pair, k)
		}
	}
	te.lifecycle(id, te.referee, "finish")
	checkStandings(t, te.standings(id), want)
}

// TestWholeTournamentKnockoutDecidedByATieBreakDeal: a table tied at the
// target plays a tie-break deal that decides it; the winners meet in the
// final, whose winner tops the standings.
func TestWholeTournamentKnockoutDecidedByATieBreakDeal(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementKnockout), TargetScore: new(1005)})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 4)
	te.start(id)

	r1 := te.draw(id)
	if len(r1.Tables) != 2 || len(r1.Bracket) != 4 || r1.Tables[0].PlannedDeals != 0 {
		t.Fatalf("round 1: %s", jsonOf(r1))
	}
	tied := api.TournamentDealInput{Number: 1, NS: parts(305, 600, 100, 0, 0), EW: parts(405, 600, 0, 0, 0)}
	after := te.scores(id, 1, 1, te.referee, tied)
	if after.Result.Complete || after.Result.Winner != nil {
		t.Fatalf("a table tied at the target is not decided: %s", jsonOf(after.Result))
	}
	decider := api.TournamentDealInput{Number: 2, NS: parts(200, 100, 0, 50, 0), EW: parts(200, 0, 100, 0, 0)}
	after = te.scores(id, 1, 1, te.referee, decider)
	ew1 := r1.Tables[0].EW.Entries[0]
	if !after.Deals[1].TieBreak || after.Deals[0].TieBreak || !after.Result.Complete || after.Result.Winner == nil || after.Result.Winner.ID != ew1.ID {
		t.Fatalf("the tie-break deal decides for EW (250 to 300): %s", jsonOf(after))
	}
	extra := api.TournamentDealInput{Number: 3, NS: parts(100, 0, 100, 0, 0), EW: parts(50, 0, 0, 0, 0)}
	_, etag := te.table(id, 1, 1)
	if p := te.problem(http.StatusConflict, req{Method: "POST", Path: tpath(id, "rounds", 1, "tables", 1, "scores"), Token: te.referee,
		Header: map[string]string{"If-Match": etag}, Body: api.TournamentScoresRequest{Deals: []api.TournamentDealInput{extra}}}); p.Code != "table_complete" {
		t.Errorf("a deal after the decision: %s", p.Code)
	}
	after = te.scores(id, 1, 2, te.referee, api.TournamentDealInput{Number: 1, NS: parts(505, 500, 100, 0, 0), EW: parts(200, 100, 0, 100, 0)})
	ns2 := r1.Tables[1].NS.Entries[0]
	if after.Result.Winner == nil || after.Result.Winner.ID != ns2.ID {
		t.Fatalf("table 2: %s", jsonOf(after.Result))
	}
	te.closeRound(id, 1)

	r2 := te.draw(id)
	if len(r2.Tables) != 1 {
		t.Fatalf("the final: %s", jsonOf(r2))
	}
	finalists := map[int64]bool{r2.Tables[0].NS.Entries[0].ID: true, r2.Tables[0].EW.Entries[0].ID: true}
	if !finalists[ew1.ID] || !finalists[ns2.ID] {
		t.Fatalf("the final is %v, want the winners %d and %d", finalists, ew1.ID, ns2.ID)
	}
	after = te.scores(id, 2, 1, te.referee, api.TournamentDealInput{Number: 1, NS: parts(505, 500, 100, 0, 0), EW: parts(200, 100, 0, 100, 0)})
	champion := after.Result.Winner
	te.closeRound(id, 2)
	res := te.do(req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee})
	if res.Status != http.StatusConflict {
		t.Errorf("a round after the final: %d %s", res.Status, res.Body)
	}
	te.lifecycle(id, te.referee, "finish")
	st := te.standings(id)
	if champion == nil || st.Rows[0].Entry.ID != champion.ID || st.Rows[0].VP != 2 {
		t.Errorf("standings of the knockout: %s; champion %+v", jsonOf(st.Rows), champion)
	}
}

// TestWholeTournamentOddFieldWithByes: 7 pairs, one bye a round, never
// twice to the same pair; a bye scores the rest score (14 VP, 355 MP).
func TestWholeTournamentOddFieldWithByes(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 7)
	te.start(id)
	rnd := rand.New(rand.NewPCG(7, 7))
	played := map[int]map[int]playedTable{}
	byes := map[int64]int{}
	for n := 1; n <= 3; n++ {
		r, p := te.refereeRound(id, rnd, 3)
		played[n] = p
		if len(r.Tables) != 3 || len(r.Byes) != 1 {
			t.Fatalf("round %d: %d tables, byes %v", n, len(r.Tables), r.Byes)
		}
		byes[r.Byes[0].ID] = n
	}
	if len(byes) != 3 {
		t.Errorf("byes went to %v: the same pair twice", byes)
	}
	te.lifecycle(id, te.referee, "finish")
	want := expectedStandings(played)
	for e := range byes {
		w := want[e]
		w.vp, w.mpFor, w.played = w.vp+14, w.mpFor+355, w.played+1 // played counts the bye
		want[e] = w
	}
	st := te.standings(id)
	checkStandings(t, st, want)
	for e, n := range byes {
		var h api.TournamentEntryHistory
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "entries", e, "history")}, &h)
		l := h.Lines[n-1]
		if !l.Bye || l.VPFor != 14 || l.MPFor != 355 || l.Opponent != nil || l.Table != 0 || h.Standing.Byes != 1 {
			t.Errorf("entry %d's bye in round %d: %+v", e, n, l)
		}
	}
}

// TestWholeTournamentWithdrawal: an entry withdrawn while its table plays
// forfeits it (decided as a withdrawal, its VP capped), is paired no more,
// and the odd field left gets a bye; a player may not withdraw once the
// tournament runs.
func TestWholeTournamentWithdrawal(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementModifiedDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	entries := te.pairs(id, 6)
	te.start(id)
	rnd := rand.New(rand.NewPCG(6, 1))
	te.refereeRound(id, rnd, 3)

	r2 := te.draw(id)
	tb := r2.Tables[0]
	quitter, stayer := tb.NS.Entries[0], tb.EW.Entries[0]
	te.scores(id, 2, tb.Number, te.referee, randomDeal(rnd, 1))
	if p := te.problem(http.StatusForbidden, req{Method: "POST", Path: tpath(id, "entries", quitter.ID, "withdraw"),
		Token: te.tokenOfEntry(quitter, entries), Body: api.TournamentWithdrawRequest{Reason: "tired"}}); p.Code != "not_your_entry" {
		t.Errorf("a player withdrawing while running: %s", p.Code)
	}
	var w api.TournamentEntry
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "entries", quitter.ID, "withdraw"), Token: te.referee,
		Body: api.TournamentWithdrawRequest{Reason: "illness"}}, &w)
	if !w.Withdrawn || w.WithdrawnAfterRound != 2 {
		t.Errorf("withdrawn entry: %s", jsonOf(w))
	}
	forfeited, _ := te.table(id, 2, tb.Number)
	if forfeited.Result.DecidedBy != "withdrawal" || forfeited.Result.Left == nil || forfeited.Result.Left.ID != quitter.ID || !forfeited.Result.Complete {
		t.Errorf("the forfeited table: %s", jsonOf(forfeited))
	}
	for _, other := range r2.Tables[1:] {
		te.scores(id, 2, other.Number, te.referee, randomDeals(rnd, 3)...)
	}
	te.closeRound(id, 2)

	r3 := te.draw(id)
	if len(r3.Tables) != 2 || len(r3.Byes) != 1 {
		t.Fatalf("round 3 of 5 pairs: %d tables, %d byes", len(r3.Tables), len(r3.Byes))
	}
	for _, x := range r3.Tables {
		if x.NS.Entries[0].ID == quitter.ID || x.EW.Entries[0].ID == quitter.ID || r3.Byes[0].ID == quitter.ID {
			t.Fatalf("the withdrawn entry is paired in round 3: %s", jsonOf(r3))
		}
	}
	var h api.TournamentEntryHistory
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "entries", quitter.ID, "history")}, &h)
	if len(h.Lines) < 2 || !h.Lines[1].Left || h.Lines[1].VPFor > 6 {
		t.Errorf("the withdrawn entry's round 2: %s", jsonOf(h.Lines))
	}
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "entries", stayer.ID, "history")}, &h)
	if len(h.Lines) < 2 || !h.Lines[1].Deserted {
		t.Errorf("its opponent's round 2: %s", jsonOf(h.Lines))
	}
}
