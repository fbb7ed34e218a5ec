package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// Issue 17's must-show, the table-level half: the tournament's online
// settings reach the round's tables (onlineClocks) and act there.

// onlineTableOf is the online table as the referee reads it.
func (te *tourneyEnv) onlineTableOf(table int64) api.Table {
	te.t.Helper()
	var tb api.Table
	te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d", table), Token: te.referee}, &tb)
	return tb
}

// sheetOf is the sheet of the round's table played at the online table.
func (te *tourneyEnv) sheetOf(id int64, n int, table int64) api.TournamentTable {
	te.t.Helper()
	for _, tb := range te.round(id, n).Tables {
		if tb.OnlineTable == table {
			return tb
		}
	}
	te.t.Fatalf("round %d has no table played at online table %d", n, table)
	return api.TournamentTable{}
}

// tickAny runs the tables' tick at the test's clock, however many tables
// it changes.
func (te *tourneyEnv) tickAny() {
	te.t.Helper()
	if _, err := te.svc.Tables.Tick(context.Background(), te.clock.Now()); err != nil {
		te.t.Fatal(err)
	}
}

// TestOnlineTournamentAbsentPlayerStoodInByBotThenTakesTheSeatBack: at a
// table of a tournament played online with absent: bot and a 60 s grace,
// a player who stops moving gets a bot standing in once the grace has
// passed (the table shows the stand-in, the moves say by bot); their poll
// marks them back and they take the seat at their next turn (by player).
// The deal's record, linked from the sheet, keeps who chose each move of
// the seat; the sheet completes. Fails before the wiring (the table's
// policy was forfeit: the side forfeited).
func TestOnlineTournamentAbsentPlayerStoodInByBotThenTakesTheSeatBack(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineAbsentStandIn)
}

func testOnlineAbsentStandIn(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	p1, p2 := te.player("Anna", true), te.player("Aldo", true)
	id, _ := te.onlineTournament(3, domain.SetupInput{Online: &domain.OnlineSettings{Absent: domain.AbsentBot, GraceSeconds: 60,
		StaffWatch: true}}, 3,
		[2]int64{p1, p2})
	te.draw(id)
	table := te.myOnlineTable(id, te.tokenOf[p1], 1)
	if tb := te.onlineTableOf(table); tb.AbsentPolicy != "bot" || tb.GraceSeconds != 60 {
		t.Fatalf("the online table: absent_policy %q, grace %d; want bot, 60", tb.AbsentPolicy, tb.GraceSeconds)
	}
	awayTok, hereTok := te.tokenOf[p1], te.tokenOf[p2]
	st, _ := te.state(awayTok, table)
	mate, _ := te.state(hereTok, table)
	away, here := st.Seat, mate.Seat
	c := chooser{rand.New(rand.NewPCG(17, 17))}
	if st.View.Turn == here {
		st = playTurn(t, te.env, db, table, hereTok, here, c)
	}
	if st.View.Turn != away {
		t.Fatalf("turn %d, want the absent player's seat %d", st.View.Turn, away)
	}

	// Anna stops moving: after the grace a bot stands in.
	te.tick(0)
	te.clock.Add(59 * time.Second)
	te.tick(0)
	te.clock.Add(time.Second)
	te.tick(1)
	if s := te.onlineTableOf(table).Seats[away]; s.StandIn != "absent" || s.Returning {
		t.Fatalf("after the grace: seat %+v, want a bot standing in", s)
	}
	after, _ := te.state(hereTok, table)
	if by := feedBy(te.env, hereTok, table, st.Version)[away]; after.Table.Status != "playing" || after.View.Turn != here || !onlyBy(by, "bot") {
		t.Fatalf("after the grace: status %s, turn %d, the absent seat's moves by %v", after.Table.Status, after.View.Turn, by)
	}

	// The bot plays her next turn too.
	before := after.Version
	after = playTurn(t, te.env, db, table, hereTok, here, c)
	if by := feedBy(te.env, hereTok, table, before); !onlyBy(by[away], "bot") || !onlyBy(by[here], "player") || after.View.Turn != here {
		t.Fatalf("a turn later: by %v, turn %d", by, after.View.Turn)
	}

	// She polls: she is back, and takes the seat at her next turn.
	if back, _ := te.state(awayTok, table); back.Table.Seats[away].StandIn != "absent" || !back.Table.Seats[away].Returning {
		t.Fatalf("after her poll: seat %+v", back.Table.Seats[away])
	}
	mine := playTurn(t, te.env, db, table, hereTok, here, c)
	if s := mine.Table.Seats[away]; s.StandIn != "" || s.Returning || mine.View.Turn != away {
		t.Fatalf("at her next turn: seat %+v, turn %d", s, mine.View.Turn)
	}
	before = mine.Version
	playTurn(t, te.env, db, table, awayTok, away, c)
	if by := feedBy(te.env, awayTok, table, before)[away]; !onlyBy(by, "player") {
		t.Fatalf("her own turn: by %v", by)
	}

	// Both leave for good: the bots stand in for them to the match's end.
	for range 20 {
		if te.onlineTableOf(table).Status == "finished" {
			break
		}
		te.clock.Add(time.Minute)
		te.tickAny()
	}
	sheet := te.sheetOf(id, 1, table)
	if !sheet.Result.Final || len(sheet.Deals) != 3 || sheet.Deals[0].Record == nil || !sheet.Deals[0].Engine {
		t.Fatalf("the sheet: %s", jsonOf(sheet))
	}
	var rec api.DealRecord
	te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d/deals/1/record", table), Token: te.referee}, &rec)
	bys := map[string]int{}
	for _, m := range rec.Moves {
		if m.Seat == away {
			bys[m.By]++
		}
	}
	if bys["bot"] == 0 || bys["player"] == 0 {
		t.Fatalf("the record's moves of the absent seat: %v, want both the stand-in's and hers", bys)
	}
	if rec := te.dealRecord(table, 1); sheet.Deals[0].NS.Total != rec[0] || sheet.Deals[0].EW.Total != rec[1] {
		t.Fatalf("the sheet %s, the record %v", jsonOf(sheet.Deals[0]), rec)
	}
	te.closeRound(id, 1)
}

// TestOnlineRoundTimeLimitTimesOutEveryUnfinishedTableAndTheSheetsComplete:
// with round_seconds set, each table of the round has the round's start
// plus round_seconds as its deadline; when the clock passes it the tick
// calls the RULES §10 time-out at every unfinished table (once), the
// deal's last round is played and the match ends with that deal although
// three were due; the deal is written to the sheet (time_out), the sheet
// is final (decided by time-out) and the standings' VP are the records'
// scores through RULES §10's table. Fails before the wiring (no deadline:
// the tick changes nothing).
func TestOnlineRoundTimeLimitTimesOutEveryUnfinishedTableAndTheSheetsComplete(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineRoundTimeLimit)
}

func testOnlineRoundTimeLimit(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	var pairs [][2]int64
	tokenOfUser := map[int64]string{}
	for i := range 4 { // each pair: a player with a login and one played by the bot
		h := te.player(fmt.Sprintf("Human %d", i+1), true)
		tokenOfUser[te.playerUser[h]] = te.tokenOf[h]
		pairs = append(pairs, [2]int64{h, te.player(fmt.Sprintf("Partner %d", i+1), false)})
	}
	id, _ := te.onlineTournament(3, domain.SetupInput{Movement: new(domain.MovementModifiedDanish), Rounds: new(1),
		Online: &domain.OnlineSettings{RoundSeconds: 600, GraceSeconds: 900, StaffWatch: true}}, 0, pairs...)
	start := te.clock.Now()
	r := te.draw(id)
	if len(r.Tables) != 2 {
		t.Fatalf("%d tables", len(r.Tables))
	}
	var tables []int64
	for _, tb := range te.round(id, 1).Tables {
		online := te.onlineTableOf(tb.OnlineTable)
		if online.Deadline == nil || !online.Deadline.Equal(start.Add(600*time.Second)) || online.DeadlinePassed || online.Status != "playing" {
			t.Fatalf("table %d: deadline %v (round start %v), passed %v, status %s", tb.Number, online.Deadline, start,
				online.DeadlinePassed, online.Status)
		}
		tables = append(tables, tb.OnlineTable)
	}
	// playOn plays the humans' turns at table until it is over or until
	// the deal's turn count reaches stop (0: to the end).
	c := chooser{rand.New(rand.NewPCG(5, 7))}
	playOn := func(table int64, turns int) api.TableState {
		for i := 0; turns == 0 || i < turns; i++ {
			var ref api.Table
			te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d", table), Token: te.referee}, &ref)
			var tok string
			for _, s := range ref.Seats {
				if s.UserID != nil {
					tok = tokenOfUser[*s.UserID]
				}
			}
			st, _ := te.state(tok, table)
			if st.Table.Status == "finished" {
				return st
			}
			tok = tokenOfUser[*st.Table.Seats[st.View.Turn].UserID]
			playTurn(t, te.env, db, table, tok, st.View.Turn, c)
		}
		var tok string
		for _, s := range te.onlineTableOf(table).Seats {
			if s.UserID != nil {
				tok = tokenOfUser[*s.UserID]
			}
		}
		st, _ := te.state(tok, table)
		return st
	}
	playOn(tables[0], 3) // one table in its play, the other at its first turn

	te.tick(0)
	te.clock.Add(599 * time.Second)
	te.tick(0)
	te.clock.Add(time.Second)
	te.tick(2) // the time-out, at both tables
	te.tick(0) // once
	for _, table := range tables {
		st := playOn(table, 1)
		if !st.Table.DeadlinePassed || st.Table.DealNumber != 1 || st.View.LastRound == nil && st.Table.Status != "finished" {
			t.Fatalf("table %d after the round's time: passed %v, deal %d, last round %+v, status %s", table,
				st.Table.DeadlinePassed, st.Table.DealNumber, st.View.LastRound, st.Table.Status)
		}
		final := playOn(table, 0)
		if final.Table.Status != "finished" || len(final.Deals) != 1 {
			t.Fatalf("table %d: status %s, %d deals", table, final.Table.Status, len(final.Deals))
		}
	}
	want := map[int64]int{}
	for _, table := range tables {
		sheet := te.sheetOf(id, 1, table)
		if !sheet.Result.Final || sheet.Result.DecidedBy != "time_out" || len(sheet.Deals) != 1 || !sheet.Deals[0].TimeOut ||
			!sheet.Deals[0].Engine || sheet.Deals[0].Status != "confirmed" {
			t.Fatalf("the sheet of online table %d: %s", table, jsonOf(sheet))
		}
		rec := te.dealRecord(table, 1)
		if sheet.Deals[0].NS.Total != rec[0] || sheet.Deals[0].EW.Total != rec[1] {
			t.Fatalf("online table %d: the sheet %s, the record %v", table, jsonOf(sheet.Deals[0]), rec)
		}
		ns, ew := vpOf(rec[0], rec[1])
		want[sheet.NS.Entries[0].ID] += ns
		want[sheet.EW.Entries[0].ID] += ew
	}
	te.closeRound(id, 1)
	te.lifecycle(id, te.director, "finish")
	te.lifecycle(id, te.director, "publish_results")
	st := te.standings(id)
	if st.Status != "results_published" || len(st.Rows) != 4 {
		t.Fatalf("standings: status %s, %d rows", st.Status, len(st.Rows))
	}
	for _, row := range st.Rows {
		if row.VP != want[row.Entry.ID] {
			t.Errorf("entry %d: %d VP, the records make %d", row.Entry.ID, row.VP, want[row.Entry.ID])
		}
	}
}

// TestOnlineTournamentRefereeStandInIsInTheAuditTrail: the tournament's
// referee replaces a player of an online table by a bot, with a reason:
// the table shows the stand-in, and the tournament's audit trail has it
// (by the referee, with the table, the seat and the reason). A player of
// the table may not; the sheet is not touched. Fails before (the
// replacement stayed at the table).
func TestOnlineTournamentRefereeStandInIsInTheAuditTrail(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineRefereeStandIn)
}

func testOnlineRefereeStandIn(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	p1, p2 := te.player("Anna", true), te.player("Aldo", true)
	id, _ := te.onlineTournament(3, domain.SetupInput{}, 3, [2]int64{p1, p2})
	te.draw(id)
	table := te.myOnlineTable(id, te.tokenOf[p1], 1)
	st, _ := te.state(te.tokenOf[p1], table)
	path := fmt.Sprintf("/api/v1/tables/%d/stand-ins", table)
	body := map[string]any{"seat": st.Seat, "reason": "lost connection"}
	problemOf(t, te.must(http.StatusForbidden, req{Method: "POST", Path: path, Token: te.tokenOf[p2], Body: body}, nil), "forbidden")
	before := len(te.audit(id))
	var replaced api.TableState
	te.must(http.StatusOK, req{Method: "POST", Path: path, Token: te.referee, Body: body}, &replaced)
	if s := replaced.Table.Seats[st.Seat]; s.StandIn != "referee" || s.StandInReason != "lost connection" {
		t.Fatalf("after the replacement: seat %+v", s)
	}
	var found *api.TournamentAuditEvent
	for _, e := range te.audit(id)[before:] {
		if e.Kind == "stand_in" {
			found = &e
		}
	}
	want := fmt.Sprintf("online table %d: a bot stands in for seat %d: lost connection", table, st.Seat)
	if found == nil || found.By != te.refereeID || found.Reason != want || found.Data["online_table"] != float64(table) ||
		found.Data["seat"] != float64(st.Seat) || found.Data["round"] != float64(1) {
		t.Fatalf("the audit trail's stand-in: %s; want by %d, reason %q", jsonOf(found), te.refereeID, want)
	}
	if sheet := te.sheetOf(id, 1, table); len(sheet.Deals) != 0 || sheet.Result.Final {
		t.Fatalf("the sheet: %s", jsonOf(sheet))
	}
}

// TestOnlineTournamentStaffWatchLetsItsRefereesWatchAsSpectatorsAndRule:
// with staff_watch on, the tournament's staff who did not start the round
// (its director, a second assigned referee) read its online tables as a
// spectator does (no seat, no hidden card: checked against the server's
// game), long-poll them and read their moves, and the referee replaces a
// player and calls the time-out there; a player of another table and a
// member of the club do not see the table. With staff_watch off no staff
// member sees it, the round's starter included (issue 27).
func TestOnlineTournamentStaffWatchLetsItsRefereesWatchAsSpectatorsAndRule(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOnlineStaffWatch)
}

func testOnlineStaffWatch(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	ctx := context.Background()
	ref2, ref2Tok := te.user("secondo@club.example", "Secondo")
	te.addMember(ref2.ID, domain.RoleReferee)
	a1, b1 := te.player("Anna", true), te.player("Bice", true)
	id, _ := te.onlineTournament(3, domain.SetupInput{}, 2, [2]int64{a1, te.player("Aldo", false)},
		[2]int64{b1, te.player("Bruno", false)})
	if _, err := te.svc.Tournaments.AssignReferee(ctx, te.owner, id, ref2.ID); err != nil {
		t.Fatal(err)
	}
	te.draw(id)
	table := te.myOnlineTable(id, te.tokenOf[a1], 1)
	var other int64 // a table Bice does not play at
	bices := te.myOnlineTable(id, te.tokenOf[b1], 1)
	for _, tb := range te.round(id, 1).Tables {
		if tb.OnlineTable != bices {
			other = tb.OnlineTable
		}
	}
	for _, tok := range []string{te.director, ref2Tok.AccessToken} {
		st, res := te.state(tok, table)
		if st.Seat != -1 || st.Table.Status != "playing" || st.Table.InviteCode != "" {
			t.Fatalf("the staff's read: seat %d, status %s, invite code %q", st.Seat, st.Table.Status, st.Table.InviteCode)
		}
		g, _ := serverGame(t, db, table)
		checkNoLeak(t, res.Body, g, -1)
		var polled api.TableState
		te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d/state?since=%d&wait=5", table, st.Version-1),
			Token: tok}, &polled)
		if polled.Version != st.Version || polled.Seat != -1 {
			t.Fatalf("the staff's long poll: version %d (read %d), seat %d", polled.Version, st.Version, polled.Seat)
		}
		te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d/moves", table), Token: tok}, nil)
	}
	for _, tok := range []string{te.tokenOf[b1], te.member} {
		te.must(http.StatusNotFound, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d/state", other), Token: tok}, nil)
		te.must(http.StatusNotFound, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d/state?since=0&wait=1", other), Token: tok}, nil)
	}
	te.must(http.StatusNotFound, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d/state", table), Token: te.member}, nil)

	// The second referee rules at the table.
	st, _ := te.state(te.tokenOf[a1], table)
	te.must(http.StatusOK, req{Method: "POST", Path: fmt.Sprintf("/api/v1/tables/%d/stand-ins", table), Token: ref2Tok.AccessToken,
		Body: map[string]any{"seat": st.Seat, "reason": "seen disconnected"}}, nil)
	te.auditHas(id, "stand_in", fmt.Sprintf("online table %d: a bot stands in for seat %d: seen disconnected", table, st.Seat))
	var called api.TableState
	te.must(http.StatusOK, req{Method: "POST", Path: fmt.Sprintf("/api/v1/tables/%d/timeout", table), Token: ref2Tok.AccessToken}, &called)
	if called.View.LastRound == nil && called.Table.Status != "finished" {
		t.Fatalf("after the time-out: %s", jsonOf(called.View))
	}

	// staff_watch off: the staff see nothing, whoever started the round.
	c1 := te.player("Carla", true)
	off, _ := te.onlineTournament(3, domain.SetupInput{Online: &domain.OnlineSettings{StaffWatch: false}}, 3,
		[2]int64{c1, te.player("Carlo", false)})
	if _, err := te.svc.Tournaments.AssignReferee(ctx, te.owner, off, ref2.ID); err != nil {
		t.Fatal(err)
	}
	te.draw(off)
	closed := te.myOnlineTable(off, te.tokenOf[c1], 1)
	for _, tok := range []string{te.director, ref2Tok.AccessToken, te.referee} {
		te.must(http.StatusNotFound, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables/%d/state", closed), Token: tok}, nil)
		te.must(http.StatusNotFound, req{Method: "POST", Path: fmt.Sprintf("/api/v1/tables/%d/timeout", closed), Token: tok}, nil)
	}
}
