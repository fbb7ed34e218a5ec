package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// exampleRun sends operations' request examples to a real server.
type exampleRun struct {
	*tourneyEnv
	doc  *openapi3.T
	sent map[string]bool // "METHOD /path" of the document
	// Where and as whom each was sent, by "METHOD /path".
	paths, tokens map[string]string
	sets          map[string]map[string]any // the fields each replaced
}

// send sends the example body of the documented operation (method, path)
// to concrete, with set's fields replaced (ids the example cannot know),
// and requires a success; it decodes the answer into out.
func (x *exampleRun) send(method, path, concrete, token string, set map[string]any, hdr map[string]string, out any) {
	x.t.Helper()
	body := requestExample(x.t.(*testing.T), x.doc, method, path, set)
	res := x.do(req{Method: method, Path: concrete, Token: token, Body: body, Header: hdr})
	if res.Status < 200 || res.Status > 299 {
		x.t.Fatalf("%s %s with the example %s: status %d: %s", method, path, jsonOf(body), res.Status, res.Body)
	}
	if out != nil {
		mustDecode(x.t.(*testing.T), res.Body, out)
	}
	x.checkResponse(method, path, res)
	x.sent[method+" "+path] = true
	x.paths[method+" "+path], x.tokens[method+" "+path], x.sets[method+" "+path] = concrete, token, set
}

// checkResponse requires the answer to match the schema the document
// gives for its status.
func (x *exampleRun) checkResponse(method, path string, res response) {
	x.t.Helper()
	resp := x.doc.Paths.Value(path).GetOperation(method).Responses.Status(res.Status)
	if resp == nil || resp.Value == nil {
		x.t.Errorf("%s %s: status %d is not documented", method, path, res.Status)
		return
	}
	mt := resp.Value.Content["application/json"]
	if mt == nil || mt.Schema == nil {
		if len(res.Body) > 0 && res.Status != http.StatusNoContent {
			x.t.Errorf("%s %s: a body where the document has none: %s", method, path, res.Body)
		}
		return
	}
	var body any
	mustDecode(x.t.(*testing.T), res.Body, &body)
	if err := mt.Schema.Value.VisitJSON(body); err != nil {
		x.t.Errorf("%s %s: the answer does not match its schema: %s\n%s", method, path, schemaError(err), res.Body)
	}
}

// TestEveryRequestExampleSucceeds sends the example request body of every
// operation that takes one, as openapi.yaml shows it, to a real server
// (SQLite), in an order that gives each the state it needs, and requires
// success. Only the fields an example cannot know are replaced: ids of
// what the run created, versions, invite codes and tokens. An operation
// left out must say why in notSent.
func TestEveryRequestExampleSucceeds(t *testing.T) {
	x := runExamples(t)
	t.Run("EveryOperationWithABodyIsSentOrExcused", func(t *testing.T) {
		var missing []string
		for path, item := range x.doc.Paths.Map() {
			for method, op := range item.Operations() {
				key := method + " " + path
				if op.RequestBody != nil && !x.sent[key] && notSent[key] == "" {
					missing = append(missing, key)
				}
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("request examples neither sent nor excused:\n%s", strings.Join(missing, "\n"))
		}
	})
}

// runExamples sends the examples, as TestEveryRequestExampleSucceeds
// describes, and returns the run: where each went, as whom.
func runExamples(t *testing.T) *exampleRun {
	doc := loadOpenAPI(t)
	// The property tests send the create-table example many times over:
	// the per-user limit of open tables is off.
	te := tourneyEnvOn(t, newEnvServices(t, storetest.SQLite(t), domain.Config{MaxOpenTables: -1}))
	x := &exampleRun{tourneyEnv: te, doc: doc, sent: map[string]bool{}, paths: map[string]string{}, tokens: map[string]string{},
		sets: map[string]map[string]any{}}

	// Accounts: the example's address registers, logs in, refreshes and
	// logs out.
	x.send("POST", "/api/v1/auth/register", "/api/v1/auth/register", "", nil, nil, nil)
	var tok api.TokenResponse
	x.send("POST", "/api/v1/auth/login", "/api/v1/auth/login", "", nil, nil, &tok)
	x.send("POST", "/api/v1/auth/refresh", "/api/v1/auth/refresh", "", map[string]any{"refresh_token": tok.RefreshToken}, nil, &tok)
	x.send("POST", "/api/v1/auth/logout", "/api/v1/auth/logout", "", map[string]any{"refresh_token": tok.RefreshToken}, nil, nil)
	anna := te.login("anna@example.com", "correct horse battery").AccessToken
	var me api.User
	te.must(200, req{Method: "GET", Path: "/api/v1/me", Token: anna}, &me)

	// A club of Anna's, a member, a player.
	var club api.Club
	x.send("POST", "/api/v1/clubs", "/api/v1/clubs", anna, nil, nil, &club)
	clubPath := fmt.Sprintf("/api/v1/clubs/%d", club.ID)
	x.send("PATCH", "/api/v1/clubs/{clubID}", clubPath, anna, nil, nil, nil)
	marco, marcoTok := te.user("marco@example.com", "Marco")
	x.send("POST", "/api/v1/clubs/{clubID}/members", clubPath+"/members", anna, map[string]any{"user_id": marco.ID}, nil, nil)
	x.send("PATCH", "/api/v1/clubs/{clubID}/members/{userID}", fmt.Sprintf("%s/members/%d", clubPath, marco.ID), anna, nil, nil, nil)
	var player api.Player
	x.send("POST", "/api/v1/players", "/api/v1/players", anna, map[string]any{"club_id": club.ID, "user_id": me.ID}, nil, &player)
	x.send("PATCH", "/api/v1/players/{playerID}", fmt.Sprintf("/api/v1/players/%d", player.ID), anna, map[string]any{"club_id": club.ID}, nil, nil)

	// An invitation of the club: Nina accepts it and claims the profile
	// Anna made for her.
	var inv api.NewInvitation
	x.send("POST", "/api/v1/clubs/{clubID}/invitations", clubPath+"/invitations", anna, nil, nil, &inv)
	_, ninaTok := te.user("nina@example.com", "Nina")
	te.must(200, req{Method: "POST", Path: "/api/v1/invitations/" + inv.Token + "/accept", Token: ninaTok.AccessToken}, nil)
	te.must(201, req{Method: "POST", Path: "/api/v1/players", Token: anna, Body: api.PlayerCreateRequest{Name: "Nina", ClubID: &club.ID}}, nil)
	var codes api.ClaimCodeList
	te.must(200, req{Method: "GET", Path: clubPath + "/claim-codes", Token: anna}, &codes)
	ninaCode := ""
	for _, c := range codes.Items {
		if c.Name == "Nina" {
			ninaCode = c.Code
		}
	}
	x.send("POST", "/api/v1/players/claim", "/api/v1/players/claim", ninaTok.AccessToken, map[string]any{"code": ninaCode}, nil, nil)

	// A club table: Marco joins, a bot takes a seat.
	var table api.Table
	x.send("POST", "/api/v1/tables", "/api/v1/tables", anna, map[string]any{"club_id": club.ID}, nil, &table)
	x.send("POST", "/api/v1/tables/{tableID}/join", tablePath(table.ID, "join"), marcoTok.AccessToken, map[string]any{"invite": table.InviteCode}, nil, nil)
	x.send("POST", "/api/v1/tables/{tableID}/bots", tablePath(table.ID, "bots"), anna, map[string]any{"invite": table.InviteCode, "seat": 2}, nil, nil)

	// A tournament of Anna's club, its set-up changed, registration open.
	var tm api.Tournament
	x.send("POST", "/api/v1/clubs/{clubID}/tournaments", clubPath+"/tournaments", anna, nil, nil, &tm)
	x.send("PATCH", "/api/v1/tournaments/{tournamentID}", tpath(tm.ID), anna, nil, nil, nil)
	x.send("POST", "/api/v1/tournaments/{tournamentID}/lifecycle", tpath(tm.ID, "lifecycle"), anna, nil, nil, nil)

	// Five pairs enter (the first by the example); one withdraws.
	players := make([]int64, 10)
	for i := range players {
		var p api.Player
		te.must(201, req{Method: "POST", Path: "/api/v1/players", Token: anna,
			Body: api.PlayerCreateRequest{Name: fmt.Sprintf("Giocatore %d", i+1), ClubID: &club.ID}}, &p)
		players[i] = p.ID
	}
	// Marco plays in the second pair, with a profile of his own, so that
	// a deal he enters waits for confirmation.
	var marcoPlayer api.Player
	te.must(201, req{Method: "POST", Path: "/api/v1/players", Token: marcoTok.AccessToken,
		Body: api.PlayerCreateRequest{Name: "Marco", UserID: &marco.ID}}, &marcoPlayer)
	players[2] = marcoPlayer.ID
	var first api.TournamentEntry
	x.send("POST", "/api/v1/tournaments/{tournamentID}/entries", tpath(tm.ID, "entries"), anna,
		map[string]any{"players": []int64{players[0], players[1]}}, nil, &first)
	entries := []int64{first.ID}
	for i := 2; i < len(players); i += 2 {
		entries = append(entries, te.enter(tm.ID, anna, players[i], players[i+1]).ID)
	}
	x.send("PATCH", "/api/v1/tournaments/{tournamentID}/entries/{entryID}", tpath(tm.ID, "entries", first.ID), anna, nil, nil, nil)
	x.send("PUT", "/api/v1/tournaments/{tournamentID}/forbidden", tpath(tm.ID, "forbidden"), anna,
		map[string]any{"pairs": [][]int64{{entries[0], entries[1]}}}, nil, nil)
	x.send("POST", "/api/v1/tournaments/{tournamentID}/entries/{entryID}/withdraw", tpath(tm.ID, "entries", entries[4], "withdraw"), anna, nil, nil, nil)
	entries = entries[:4]
	te.must(200, req{Method: "POST", Path: tpath(tm.ID, "lifecycle"), Token: anna, Body: api.TournamentLifecycleRequest{Action: "close_registration"}}, nil)
	for _, id := range entries {
		x.send("POST", "/api/v1/tournaments/{tournamentID}/entries/{entryID}/check-in", tpath(tm.ID, "entries", id, "check-in"), anna, nil, nil, nil)
	}
	te.must(200, req{Method: "POST", Path: tpath(tm.ID, "lifecycle"), Token: anna, Body: api.TournamentLifecycleRequest{Action: "start"}}, nil)

	// Round 1: drawn, its pairings replaced by hand, started, scored,
	// corrected, ruled on, closed and reopened; a penalty.
	x.send("POST", "/api/v1/tournaments/{tournamentID}/rounds", tpath(tm.ID, "rounds"), anna, map[string]any{"round": 1}, nil, nil)
	x.send("PUT", "/api/v1/tournaments/{tournamentID}/rounds/{round}/pairings", tpath(tm.ID, "rounds", 1, "pairings"), anna,
		map[string]any{"tables": []map[string]any{{"number": 1, "ns": entries[0], "ew": entries[2]}, {"number": 2, "ns": entries[1], "ew": entries[3]}}}, nil, nil)
	te.must(200, req{Method: "POST", Path: tpath(tm.ID, "rounds", 1, "start"), Token: anna}, nil)
	version := func(table int) int64 {
		tb, _ := te.table(tm.ID, 1, table)
		return tb.Version
	}
	sheet := func(table int, what string) string { return tpath(tm.ID, "rounds", 1, "tables", table, what) }
	x.send("POST", "/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/scores", sheet(1, "scores"), anna,
		map[string]any{"version": version(1)}, nil, nil)
	x.send("POST", "/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/corrections", sheet(1, "corrections"), anna,
		map[string]any{"version": version(1), "deal": correction(t, x, 1)}, nil, nil)
	_, etag := te.table(tm.ID, 1, 2)
	te.must(200, req{Method: "POST", Path: sheet(2, "scores"), Token: marcoTok.AccessToken, Header: map[string]string{"If-Match": etag},
		Body: api.TournamentScoresRequest{Deals: []api.TournamentDealInput{randomDeal(newRand(), 1)}}}, nil)
	x.send("POST", "/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/confirm", sheet(2, "confirm"), anna,
		map[string]any{"version": version(2), "deals": []int{1}}, nil, nil)
	x.send("POST", "/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/rulings", sheet(2, "rulings"), anna,
		map[string]any{"version": version(2), "entry": entries[1]}, nil, nil)
	x.send("POST", "/api/v1/tournaments/{tournamentID}/penalties", tpath(tm.ID, "penalties"), anna,
		map[string]any{"entry": entries[0], "round": 1}, nil, nil)
	rnd := newRand()
	for table := 1; table <= 2; table++ {
		for {
			tb, etag := te.table(tm.ID, 1, table)
			if tb.Result.Complete {
				break
			}
			te.must(200, req{Method: "POST", Path: sheet(table, "scores"), Token: anna, Header: map[string]string{"If-Match": etag},
				Body: api.TournamentScoresRequest{Deals: []api.TournamentDealInput{randomDeal(rnd, len(tb.Deals)+1)}}}, nil)
		}
	}
	te.must(200, req{Method: "POST", Path: tpath(tm.ID, "rounds", 1, "close"), Token: anna}, nil)
	x.send("POST", "/api/v1/tournaments/{tournamentID}/rounds/{round}/reopen", tpath(tm.ID, "rounds", 1, "reopen"), anna, nil, nil, nil)

	// A season of Anna's club, changed; the tournament taken out of it.
	var season api.Season
	x.send("POST", "/api/v1/clubs/{clubID}/seasons", clubPath+"/seasons", anna, nil, nil, &season)
	seasonPath := fmt.Sprintf("%s/seasons/%d", clubPath, season.ID)
	x.send("PATCH", "/api/v1/clubs/{clubID}/seasons/{seasonID}", seasonPath, anna, nil, nil, nil)
	x.send("PUT", "/api/v1/clubs/{clubID}/seasons/{seasonID}/exclusions/{tournamentID}", fmt.Sprintf("%s/exclusions/%d", seasonPath, tm.ID),
		anna, nil, nil, nil)

	// The table fills with a second bot and starts; whoever's turn it is
	// draws.
	te.must(200, req{Method: "POST", Path: tablePath(table.ID, "bots"), Token: anna, Body: api.SeatRequest{Seat: ptr(3)}}, nil)
	te.must(200, req{Method: "POST", Path: tablePath(table.ID, "start"), Token: anna}, nil)
	st, _ := te.state(anna, table.ID)
	mover := map[int]string{0: anna, 1: marcoTok.AccessToken}[st.View.Turn]
	if mover == "" {
		t.Fatalf("the bots did not play to a human's turn: turn %d", st.View.Turn)
	}
	x.send("POST", "/api/v1/tables/{tableID}/moves", tablePath(table.ID, "moves"), mover, map[string]any{"version": st.Version}, nil, nil)
	// A site admin has a bot stand in for Marco: Anna, the club's owner,
	// plays at the table, and nobody referees their own match (own_table).
	x.send("POST", "/api/v1/tables/{tableID}/stand-ins", tablePath(table.ID, "stand-ins"), te.siteAdmin().AccessToken, nil, nil, nil)

	return x
}

// notSent are the operations whose example this test does not send, and
// why.
var notSent = map[string]string{
	"POST /api/v1/clubs/{clubID}/players/import": "its body is a CSV file, not JSON: TestImportDryRunWritesNothingAndReportsEachLine sends files",
	"POST /api/v1/clubs/{clubID}/tournaments/import": "its body is a whole results document (docs/results-format.schema.json), " +
		"not an example: TestExportImportExportIsIdentical sends exports",
	"POST /api/v1/tables/{tableID}/claim": "succeeds only once an opponent has been gone past the reconnect window, " +
		"which takes the clock: TestClaimAfterTheWindowEndsTheMatch sends it",
}

func mustDecode(t *testing.T, body []byte, out any) {
	t.Helper()
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
}

// correction is the example's deal correction, for deal number n.
func correction(t *testing.T, x *exampleRun, n int) map[string]any {
	t.Helper()
	d := requestExample(t, x.doc, "POST", "/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/corrections", nil)["deal"].(map[string]any)
	d["number"] = n
	return d
}
