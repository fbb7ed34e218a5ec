package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// Issue 27: three holes an attack run found in the online tables.

// TestSeatedRefereeHasNoRefereePowersAtOwnTable: Piero, a club referee
// assigned to an online tournament, plays in it. At his own table every
// referee's act is refused with own_table (a stand-in for an opponent, the
// time-out), and on the sheet that table plays every staff act with
// own_side (a correction, a ruling, a penalty to his opponents or to his
// own entry). Quinto, a club referee not assigned to the tournament who
// plays in it too, referees nothing there (403 at his own table, 404 at
// the others: he is not its staff). The tournament's referee who does not
// play does all of it at Piero's table.
func TestSeatedRefereeHasNoRefereePowersAtOwnTable(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testSeatedRefereeOwnTable)
}

func testSeatedRefereeOwnTable(t *testing.T, db *store.DB) {
	te := newTourneyEnv(t, db)
	ctx := context.Background()
	piero, quinto := te.player("Piero", true), te.player("Quinto", true)
	te.addMember(te.playerUser[piero], domain.RoleReferee)
	te.addMember(te.playerUser[quinto], domain.RoleReferee)
	id, entries := te.onlineTournament(3, domain.SetupInput{}, 2, [2]int64{piero, te.player("Pia", false)},
		[2]int64{quinto, te.player("Quirino", false)})
	if _, err := te.svc.Tournaments.AssignReferee(ctx, te.owner, id, te.playerUser[piero]); err != nil {
		t.Fatal(err)
	}
	te.draw(id)
	pTok, qTok := te.tokenOf[piero], te.tokenOf[quinto]
	table := te.myOnlineTable(id, pTok, 1)
	quintos := te.myOnlineTable(id, qTok, 1)
	st, _ := te.state(pTok, table)
	if st.Table.Status != "playing" || st.Seat < 0 {
		t.Fatalf("Piero's table: status %s, seat %d", st.Table.Status, st.Seat)
	}
	opponent := (st.Seat + 1) % 4
	standIns := fmt.Sprintf("/api/v1/tables/%d/stand-ins", table)
	timeout := fmt.Sprintf("/api/v1/tables/%d/timeout", table)
	standIn := func(seat int) map[string]any { return map[string]any{"seat": seat, "reason": "he is slow"} }

	// The table: own_table for Piero, whatever he tries.
	problemOf(t, te.must(http.StatusForbidden, req{Method: "POST", Path: standIns, Token: pTok, Body: standIn(opponent)}, nil), "own_table")
	problemOf(t, te.must(http.StatusForbidden, req{Method: "POST", Path: timeout, Token: pTok}, nil), "own_table")
	if after, _ := te.state(pTok, table); after.Version != st.Version || after.Table.Seats[opponent].StandIn != "" {
		t.Fatalf("after the refusals: version %d (was %d), seat %+v", after.Version, st.Version, after.Table.Seats[opponent])
	}
	// Quinto is no referee of the tournament: not at his table, nor at
	// any other (which he does not see).
	problemOf(t, te.must(http.StatusForbidden, req{Method: "POST", Path: fmt.Sprintf("/api/v1/tables/%d/timeout", quintos),
		Token: qTok}, nil), "forbidden")
	if quintos != table {
		te.must(http.StatusNotFound, req{Method: "POST", Path: standIns, Token: qTok, Body: standIn(opponent)}, nil)
	}

	// The sheet: own_side for Piero, while the referee who does not play
	// rules there.
	sheet := te.sheetOf(id, 1, table)
	mine, theirs := sheet.NS.Entries[0].ID, sheet.EW.Entries[0].ID
	if mine != entries[0].ID {
		mine, theirs = theirs, mine
	}
	sheetPath := func(action string) string { return tpath(id, "rounds", 1, "tables", sheet.Number, action) }
	ruling := api.TournamentRulingRequest{Kind: "late_arrival", Entry: theirs, Deals: 3, Reason: "late"}
	_, etag := te.table(id, 1, sheet.Number)
	problemOf(t, te.must(http.StatusForbidden, req{Method: "POST", Path: sheetPath("rulings"), Token: pTok,
		Header: map[string]string{"If-Match": etag}, Body: ruling}, nil), "own_side")
	for _, entry := range []int64{theirs, mine} {
		problemOf(t, te.must(http.StatusForbidden, req{Method: "POST", Path: tpath(id, "penalties"), Token: pTok,
			Body: api.TournamentPenaltyRequest{Round: 1, Entry: entry, VP: 1, Reason: "slow play"}}, nil), "own_side")
	}
	te.must(http.StatusOK, req{Method: "POST", Path: sheetPath("rulings"), Token: te.referee,
		Header: map[string]string{"If-Match": etag}, Body: ruling}, nil)
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "penalties"), Token: te.referee,
		Body: api.TournamentPenaltyRequest{Round: 1, Entry: theirs, VP: 1, Reason: "slow play"}}, nil)

	// The referee who does not play calls the time-out and has bots stand
	// in for the table's players: the bots end the deal, and with it the
	// match (a tournament table's time-out ends its play).
	te.must(http.StatusOK, req{Method: "POST", Path: timeout, Token: te.referee}, nil)
	for _, s := range st.Table.Seats {
		if s.UserID != nil && te.onlineTableOf(table).Status == "playing" {
			te.must(http.StatusOK, req{Method: "POST", Path: standIns, Token: te.referee, Body: standIn(s.Seat)}, nil)
		}
	}
	if tb := te.onlineTableOf(table); tb.Status != "finished" {
		t.Fatalf("after the time-out and the stand-ins: status %s", tb.Status)
	}
	sheet = te.sheetOf(id, 1, table)
	if len(sheet.Deals) == 0 {
		t.Fatalf("the sheet has no deal: %s", jsonOf(sheet))
	}
	d := sheet.Deals[0]
	d.NS.Cards += 50
	d.NS.Total += 50
	correction := api.TournamentCorrectionRequest{Deal: api.TournamentDealCorrection{Number: d.Number, NS: d.NS, EW: d.EW},
		Reason: "a meld was not counted"}
	_, etag = te.table(id, 1, sheet.Number)
	problemOf(t, te.must(http.StatusForbidden, req{Method: "POST", Path: sheetPath("corrections"), Token: pTok,
		Header: map[string]string{"If-Match": etag}, Body: correction}, nil), "own_side")
	te.must(http.StatusOK, req{Method: "POST", Path: sheetPath("corrections"), Token: te.referee,
		Header: map[string]string{"If-Match": etag}, Body: correction}, nil)
}

// TestRoundTablesGiveTheirStarterNothingWithoutStaffWatch: a round's
// online tables belong to the tournament. With staff_watch off, the
// referee who started the round, as every other staff member, gets 404
// for the table, its state (read or long-polled), its move feed, its
// deals, a stand-in, the time-out and a cancellation; the tables are not
// in his lobby (mine) nor in his count of open tables (he still creates
// his own under a limit of 1). With staff_watch on, the staff watch as
// spectators, with no hand, no invite code and no creator shown, and the
// starter may not cancel the table; its players see its invite code.
func TestRoundTablesGiveTheirStarterNothingWithoutStaffWatch(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testRoundTablesNotTheStarters)
}

func testRoundTablesNotTheStarters(t *testing.T, db *store.DB) {
	te := tourneyEnvOn(t, newEnvServices(t, db, domain.Config{MaxOpenTables: 1}))
	anna := te.player("Anna", true)
	closedSettings := &domain.OnlineSettings{Absent: domain.AbsentBot, GraceSeconds: 120, StaffWatch: false}
	off, _ := te.onlineTournament(3, domain.SetupInput{Online: closedSettings}, 3, [2]int64{anna, te.player("Aldo", false)})
	te.draw(off) // started by te.referee
	table := te.myOnlineTable(off, te.tokenOf[anna], 1)
	st, _ := te.state(te.tokenOf[anna], table)
	if st.Table.InviteCode == "" || st.Table.CreatorID != 0 {
		t.Fatalf("the player's read: invite code %q, creator %d; want the code, no creator", st.Table.InviteCode, st.Table.CreatorID)
	}
	path := func(parts ...any) string {
		p := fmt.Sprintf("/api/v1/tables/%d", table)
		for _, x := range parts {
			p += fmt.Sprintf("/%v", x)
		}
		return p
	}
	for who, tok := range map[string]string{"the starter": te.referee, "the director": te.director} {
		for _, r := range []req{
			{Method: "GET", Path: path()},
			{Method: "GET", Path: path("state")},
			{Method: "GET", Path: path("state") + "?since=0&wait=1"},
			{Method: "GET", Path: path("state") + fmt.Sprintf("?since=%d&wait=1", st.Version)},
			{Method: "GET", Path: path("moves")},
			{Method: "GET", Path: path("deals")},
			{Method: "GET", Path: path("deals", 1, "record")},
			{Method: "POST", Path: path("stand-ins"), Body: map[string]any{"seat": st.Seat, "reason": "slow"}},
			{Method: "POST", Path: path("timeout")},
			{Method: "POST", Path: path("cancel")},
		} {
			r.Token = tok
			if res := te.do(r); res.Status != http.StatusNotFound {
				t.Errorf("%s: %s %s: status %d, want 404; body %s", who, r.Method, r.Path, res.Status, res.Body)
			}
		}
	}
	var mine api.TableList
	te.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/tables?mine=true", Token: te.referee}, &mine)
	if mine.Total != 0 {
		t.Fatalf("the starter's lobby lists %d tables: %s", mine.Total, jsonOf(mine))
	}
	own := te.newTable(te.referee, api.TableCreateRequest{Rules: "fibur", Players: 2}) // under a limit of 1
	problemOf(t, te.must(http.StatusConflict, req{Method: "POST", Path: "/api/v1/tables", Token: te.referee,
		Body: api.TableCreateRequest{Rules: "fibur", Players: 2}}, nil), "too_many_open_tables")
	te.must(http.StatusOK, req{Method: "POST", Path: tablePath(own.ID, "cancel"), Token: te.referee}, nil)

	// staff_watch on: the staff watch, and see nothing a spectator does not.
	bice := te.player("Bice", true)
	on, _ := te.onlineTournament(3, domain.SetupInput{}, 3, [2]int64{bice, te.player("Bruno", false)})
	te.draw(on)
	watched := te.myOnlineTable(on, te.tokenOf[bice], 1)
	for who, tok := range map[string]string{"the starter": te.referee, "the director": te.director} {
		ws, res := te.state(tok, watched)
		g, _ := serverGame(t, db, watched)
		checkNoLeak(t, res.Body, g, -1)
		var tb api.Table
		te.must(http.StatusOK, req{Method: "GET", Path: tablePath(watched), Token: tok}, &tb)
		if ws.Seat != -1 || len(ws.View.Hand) != 0 || ws.Table.InviteCode != "" || tb.InviteCode != "" || tb.CreatorID != 0 {
			t.Fatalf("%s's read: seat %d, hand %v, invite code %q/%q, creator %d", who, ws.Seat, ws.View.Hand,
				ws.Table.InviteCode, tb.InviteCode, tb.CreatorID)
		}
		te.must(http.StatusOK, req{Method: "GET", Path: tablePath(watched, "moves"), Token: tok}, nil)
	}
	problemOf(t, te.must(http.StatusForbidden, req{Method: "POST", Path: tablePath(watched, "cancel"), Token: te.referee}, nil), "forbidden")
}

// TestOpenTableCancelledOrExpiredLeavesTheCount: ten tables created and
// left by their creator are cancelled at once (empty), and an eleventh is
// allowed. A creator cancels an open table: it leaves the lobby (listed
// only under status=cancelled), its state says cancelled, and joining,
// starting or cancelling it again is 409 table_cancelled; someone else
// may not cancel it, nor may anyone cancel a table being played. A table
// left open is cancelled (expired) by the sweep once the TTL has passed by
// the injected clock, not a minute before, which frees its creator's
// count; a long poll of it answers the change.
func TestOpenTableCancelledOrExpiredLeavesTheCount(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, testOpenTablesEnd)
}

func testOpenTablesEnd(t *testing.T, db *store.DB) {
	e := newEnv(t, db)
	_, sara := e.user("sara@example.com", "Sara")
	_, bruno := e.user("bruno@example.com", "Bruno")
	_, carla := e.user("carla@example.com", "Carla")
	fibur := api.TableCreateRequest{Rules: "fibur", Players: 2}

	// Ten created and left: none counts, none is in the lobby.
	for range domain.DefaultMaxOpenTables {
		tb := e.newTable(sara.AccessToken, fibur)
		var left api.Table
		e.must(http.StatusOK, req{Method: "POST", Path: tablePath(tb.ID, "leave"), Token: sara.AccessToken}, &left)
		if left.Status != "cancelled" || left.Cancelled != "empty" || left.FinishedAt == nil {
			t.Fatalf("a table left by everyone: status %s, cancelled %q, finished_at %v", left.Status, left.Cancelled, left.FinishedAt)
		}
	}
	if lobby := lobbyOf(e, ""); lobby.Total != 0 {
		t.Fatalf("the lobby lists %d tables left by everyone", lobby.Total)
	}
	x := e.newTable(sara.AccessToken, fibur) // the eleventh

	// Cancelled by its creator, not by a player.
	e.must(http.StatusOK, req{Method: "POST", Path: tablePath(x.ID, "join"), Token: bruno.AccessToken}, nil)
	problemOf(t, e.must(http.StatusForbidden, req{Method: "POST", Path: tablePath(x.ID, "cancel"), Token: bruno.AccessToken}, nil), "forbidden")
	e.must(http.StatusOK, req{Method: "POST", Path: tablePath(x.ID, "leave"), Token: bruno.AccessToken}, nil)
	var cancelled api.Table
	e.must(http.StatusOK, req{Method: "POST", Path: tablePath(x.ID, "cancel"), Token: sara.AccessToken}, &cancelled)
	if cancelled.Status != "cancelled" || cancelled.Cancelled != "creator" {
		t.Fatalf("cancelled: status %s, cancelled %q", cancelled.Status, cancelled.Cancelled)
	}
	if st, _ := e.state(sara.AccessToken, x.ID); st.Table.Status != "cancelled" || st.Version != cancelled.Version {
		t.Fatalf("the cancelled table's state: status %s, version %d (cancelled at %d)", st.Table.Status, st.Version, cancelled.Version)
	}
	if lobby := lobbyOf(e, ""); lobby.Total != 0 {
		t.Fatalf("the lobby lists the cancelled table: %s", jsonOf(lobby))
	}
	if lobby := lobbyOf(e, "?status=cancelled"); lobby.Total != domain.DefaultMaxOpenTables+1 {
		t.Fatalf("status=cancelled lists %d tables, want %d", lobby.Total, domain.DefaultMaxOpenTables+1)
	}
	for _, r := range []req{
		{Method: "POST", Path: tablePath(x.ID, "join"), Token: carla.AccessToken},
		{Method: "POST", Path: tablePath(x.ID, "bots"), Token: sara.AccessToken},
		{Method: "POST", Path: tablePath(x.ID, "start"), Token: sara.AccessToken},
		{Method: "POST", Path: tablePath(x.ID, "cancel"), Token: sara.AccessToken},
		{Method: "POST", Path: tablePath(x.ID, "moves"), Token: sara.AccessToken, Body: fmt.Sprintf(`{"move":"draw","version":%d}`, cancelled.Version)},
	} {
		problemOf(t, e.must(http.StatusConflict, r, nil), "table_cancelled")
	}

	// A table being played is not cancelled.
	playing := e.newTable(carla.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, AutoStart: true})
	e.must(http.StatusOK, req{Method: "POST", Path: tablePath(playing.ID, "bots"), Token: carla.AccessToken}, nil)
	problemOf(t, e.must(http.StatusConflict, req{Method: "POST", Path: tablePath(playing.ID, "cancel"), Token: carla.AccessToken}, nil), "conflict")

	// Expiry: Bruno fills his limit with tables nobody joins.
	var waiting []int64
	for range domain.DefaultMaxOpenTables {
		waiting = append(waiting, e.newTable(bruno.AccessToken, fibur).ID)
	}
	problemOf(t, e.must(http.StatusConflict, req{Method: "POST", Path: "/api/v1/tables", Token: bruno.AccessToken, Body: fibur}, nil),
		"too_many_open_tables")
	polled := make(chan response, 1)
	go func() { // anonymous (the table is public): no token to expire with the clock
		polled <- e.do(req{Method: "GET", Path: tablePath(waiting[0], "state") + "?since=1&wait=30", Timeout: 20 * time.Second})
	}()
	time.Sleep(100 * time.Millisecond) // the poll waits, most likely; answered at once after the sweep, it must say the same
	e.clock.Add(domain.DefaultOpenTableTTL - time.Minute)
	if n, err := e.svc.Tables.CloseStale(context.Background(), e.clock.Now()); err != nil || n != 0 {
		t.Fatalf("a minute before the TTL: %d closed, err %v", n, err)
	}
	e.clock.Add(time.Minute)
	n, err := e.svc.Tables.CloseStale(context.Background(), e.clock.Now())
	if err != nil || n != domain.DefaultMaxOpenTables {
		t.Fatalf("at the TTL: %d closed, want %d (Bruno's); err %v", n, domain.DefaultMaxOpenTables, err)
	}
	select {
	case res := <-polled:
		var st api.TableState
		if err := json.Unmarshal(res.Body, &st); err != nil || res.Status != http.StatusOK || st.Table.Status != "cancelled" ||
			st.Table.Cancelled != "expired" {
			t.Fatalf("the waiting poll: status %d, %s", res.Status, res.Body)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the poll waiting on an expired table did not wake")
	}
	bruno = e.login("bruno@example.com", "password-123") // a day-old token has expired
	if st, _ := e.state(bruno.AccessToken, waiting[len(waiting)-1]); st.Table.Status != "cancelled" || st.Table.Cancelled != "expired" {
		t.Fatalf("an expired table: status %s, cancelled %q", st.Table.Status, st.Table.Cancelled)
	}
	e.newTable(bruno.AccessToken, fibur)
	if lobby := lobbyOf(e, "?status=open"); lobby.Total != 1 {
		t.Fatalf("the open lobby lists %d tables, want Bruno's new one: %s", lobby.Total, jsonOf(lobby))
	}
}

// lobbyOf is the lobby as an anonymous caller reads it, with query q.
func lobbyOf(e *env, q string) api.TableList {
	e.t.Helper()
	var l api.TableList
	e.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/tables" + q}, &l)
	return l
}
