package api_test

import (
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/domain/tourney"
	"github.com/burraco/burraco/engine"
)

// onlineTournament creates a pairs tournament played online with the
// set-up, opens registration, enters pairs (botPairs of players without a
// login, who play by the bot) and starts it; it returns the entries.
func (te *tourneyEnv) onlineTournament(deals int, setup domain.SetupInput, botPairs int, humans ...[2]int64) (int64, []api.TournamentEntry) {
	te.t.Helper()
	setup.Played = new(domain.PlayedOnline)
	id := te.tournament(domain.PairsTournament, deals, setup)
	te.lifecycle(id, te.director, "open_registration")
	var entries []api.TournamentEntry
	for _, h := range humans {
		entries = append(entries, te.enter(id, te.director, h[0], h[1]))
	}
	for i := range botPairs {
		a := te.player(fmt.Sprintf("Bot %d-A", i+1), false)
		b := te.player(fmt.Sprintf("Bot %d-B", i+1), false)
		entries = append(entries, te.enter(id, te.director, a, b))
	}
	te.start(id)
	return id, entries
}

// TestOnlineRoundOpensOneTablePerPairingAndTheEngineFillsTheSheets: a
// round of a tournament played online opens one online table per table of
// the draw, seated as the draw says, linked both ways; tables of bots play
// their deals at once, each written into the sheet by the engine
// (confirmed, linked to its record, equal to the record's score); the
// round closes with no score entered by hand, and a score by hand is
// refused with online_sheet.
func TestOnlineRoundOpensOneTablePerPairingAndTheEngineFillsTheSheets(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineRoundBots)
}

func testOnlineRoundBots(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	id, _ := te.onlineTournament(3, domain.SetupInput{Movement: new(domain.MovementModifiedDanish), Rounds: new(2)}, 4)
	r := te.draw(id)
	r = te.round(id, r.Number)
	if len(r.Tables) != 2 {
		t.Fatalf("round 1 has %d tables, want 2", len(r.Tables))
	}
	for _, tb := range r.Tables {
		if tb.OnlineTable == 0 {
			t.Fatalf("table %d has no online table: %s", tb.Number, jsonOf(tb))
		}
		var online api.Table
		te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d", tb.OnlineTable), Token: te.referee}, &online)
		if online.Tournament == nil || online.Tournament.ID != id || online.Tournament.Round != 1 || online.Tournament.Table != tb.Number ||
			online.Status != "finished" || online.Match.Deals != 3 {
			t.Fatalf("online table %d: %s", tb.OnlineTable, jsonOf(online))
		}
		if !tb.Result.Final || len(tb.Deals) != 3 {
			t.Fatalf("table %d: not final with 3 deals: %s", tb.Number, jsonOf(tb))
		}
		for _, d := range tb.Deals {
			rec := te.dealRecord(tb.OnlineTable, d.Number)
			if !d.Engine || d.Status != "confirmed" || d.Record == nil || d.Record.Table != tb.OnlineTable || d.Record.Deal != d.Number ||
				d.NS.Total != rec[0] || d.EW.Total != rec[1] {
				t.Fatalf("table %d deal %d: %s; record totals %v", tb.Number, d.Number, jsonOf(d), rec)
			}
		}
	}
	_, etag := te.table(id, 1, 1)
	p := te.problem(http.StatusConflict, req{Method: "POST", Path: tpath(id, "rounds", 1, "tables", 1, "scores"), Token: te.referee,
		Header: map[string]string{"If-Match": etag}, Body: api.TournamentScoresRequest{Deals: []api.TournamentDealInput{randomDeal(newRand(), 4)}}})
	if p.Code != "online_sheet" {
		t.Fatalf("a score by hand: code %q, want online_sheet", p.Code)
	}
	te.closeRound(id, 1)
}

// dealRecord is the team totals of a finished deal, computed here from
// its record as the referee reads it: replayed by the engine, not taken
// from the server's score.
func (te *tourneyEnv) dealRecord(table int64, deal int) [2]int {
	te.t.Helper()
	var rec engine.Record
	te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d/deals/%d/record", table, deal), Token: te.referee}, &rec)
	g, err := rec.Replay()
	if err != nil {
		te.t.Fatalf("table %d deal %d: replaying its record: %v", table, deal, err)
	}
	sc := g.Score()
	return [2]int{sc[0].Total, sc[1].Total}
}

// TestOnlineKnockoutTablesPlayToTheTargetAndAStartIsNotRepeated: a
// knockout played online opens tables that play to the target score; each
// table's winner is the side the deal records put past the target first
// with the totals different (computed here from the records), and the
// final is drawn between the winners. Starting a started round again is
// refused and opens no second set of tables.
func TestOnlineKnockoutTablesPlayToTheTargetAndAStartIsNotRepeated(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineKnockout)
}

func testOnlineKnockout(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	id, _ := te.onlineTournament(3, domain.SetupInput{Movement: new(domain.MovementKnockout)}, 4)
	var winners []int64
	for n := 1; n <= 2; n++ {
		r := te.draw(id)
		if n == 1 {
			p := te.problem(http.StatusConflict, req{Method: "POST", Path: tpath(id, "rounds", 1, "start"), Token: te.referee})
			if n := te.onlineTablesOpened(id); p.Code != "round_not_playing" || n != 2 {
				t.Fatalf("a second start: %q, %d online tables; want round_not_playing, 2", p.Code, n)
			}
		}
		for _, tb := range te.round(id, r.Number).Tables {
			var online api.Table
			te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d", tb.OnlineTable), Token: te.referee}, &online)
			if online.Match.Target != tourney.DefaultTargetScore || online.Match.Deals != 0 || len(tb.Deals) != online.DealNumber {
				t.Fatalf("round %d table %d: online %s, sheet %s", n, tb.Number, jsonOf(online), jsonOf(tb))
			}
			var ns, ew int
			var winner int64
			for _, d := range tb.Deals {
				rec := te.dealRecord(tb.OnlineTable, d.Number)
				ns, ew = ns+rec[0], ew+rec[1]
				if winner == 0 && (ns >= tourney.DefaultTargetScore || ew >= tourney.DefaultTargetScore) && ns != ew {
					winner = tb.NS.Entries[0].ID
					if ew > ns {
						winner = tb.EW.Entries[0].ID
					}
				}
			}
			if winner == 0 || tb.Result.Winner == nil || tb.Result.Winner.ID != winner || !tb.Result.Final {
				t.Fatalf("round %d table %d: the records make %d the winner; the sheet: %s", n, tb.Number, winner, jsonOf(tb))
			}
			winners = append(winners, winner)
		}
		te.closeRound(id, n)
	}
	final := te.round(id, 2).Tables[0]
	if got := []int64{final.NS.Entries[0].ID, final.EW.Entries[0].ID}; !sameSet(got, winners[:2]) {
		t.Fatalf("the final is %v, the semi-finals' winners %v", got, winners[:2])
	}
}

// onlineTablesOpened counts the online tables of tournament id, in the
// database: they are in nobody's lobby but their players'.
func (te *tourneyEnv) onlineTablesOpened(id int64) int {
	te.t.Helper()
	var n int
	if err := te.db.SQL().QueryRow("SELECT count(*) FROM tables WHERE tournament_id = $1", id).Scan(&n); err != nil {
		te.t.Fatal(err)
	}
	return n
}

func sameSet(a, b []int64) bool {
	return len(a) == 2 && len(b) == 2 && (a[0] == b[0] && a[1] == b[1] || a[0] == b[1] && a[1] == b[0])
}

// TestOnlineTableLeftIsRuledAnAbandonmentOnTheSheet: a player who leaves
// an online table of a round forfeits it; the sheet is ruled an
// abandonment by their entry in the same transaction (with the reason, in
// the audit trail), and the round closes.
func TestOnlineTableLeftIsRuledAnAbandonmentOnTheSheet(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineLeft)
}

func testOnlineLeft(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	p1, p2 := te.player("Lea", true), te.player("Leo", false)
	id, entries := te.onlineTournament(3, domain.SetupInput{Online: &domain.OnlineSettings{Absent: domain.AbsentForfeit}}, 3,
		[2]int64{p1, p2})
	te.draw(id)
	table := te.myOnlineTable(id, te.tokenOf[p1], 1)
	te.must(http.StatusOK, req{Method: "POST", Path: fmt.Sprintf("/api/v1/tables/%d/leave", table), Token: te.tokenOf[p1]}, nil)
	for _, tb := range te.round(id, 1).Tables {
		if tb.OnlineTable != table {
			continue
		}
		left := tb.Result.Left
		if tb.Result.DecidedBy != "abandonment" || left == nil || left.ID != entries[0].ID || !tb.Result.Final {
			t.Fatalf("the table left: %s", jsonOf(tb))
		}
	}
	te.auditHas(id, "ruling", fmt.Sprintf("online table %d: seat 0's side forfeited (abandoned)", table))
	te.closeRound(id, 1)
}

// TestOnlineRoundStartIsAllOrNothing: when opening a round's tables fails
// part-way (here the bot of a table fails, after other tables were
// created and played), nothing of the start stays: the round is still
// published, with no online tables and no events; the retry opens each
// table once.
func TestOnlineRoundStartIsAllOrNothing(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineStartAtomic)
}

func testOnlineStartAtomic(t *testing.T, db *store.DB) {
	var calls, failAt atomic.Int64
	failAt.Store(300) // a bot move well into the round's tables
	bot := func(g *engine.Game, seat int, seed uint64) (engine.Move, error) {
		if calls.Add(1) == failAt.Load() {
			return engine.Move{}, errors.New("the bot broke")
		}
		return domain.EngineBot(g, seat, seed)
	}
	te := tourneyEnvOn(t, newEnvServices(t, db, domain.Config{Bot: bot}))
	id, _ := te.onlineTournament(3, domain.SetupInput{Movement: new(domain.MovementModifiedDanish), Rounds: new(1)}, 8)
	te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee}, nil)
	version := te.round(id, 1)
	te.must(http.StatusInternalServerError, req{Method: "POST", Path: tpath(id, "rounds", 1, "start"), Token: te.referee}, nil)
	if calls.Load() < failAt.Load() {
		t.Fatalf("the bot was called %d times: the failure came before any table played", calls.Load())
	}
	after := te.round(id, 1)
	if n := te.onlineTablesOpened(id); after.Status != "pairings_published" || after.Tables[0].OnlineTable != 0 || n != 0 ||
		jsonOf(after) != jsonOf(version) {
		t.Fatalf("after a failed start: round %s, %d online tables", jsonOf(after), n)
	}
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", 1, "start"), Token: te.referee}, nil)
	if n := te.onlineTablesOpened(id); n != 4 {
		t.Fatalf("the retried start opened %d tables, want 4", n)
	}
	te.closeRound(id, 1)
}
