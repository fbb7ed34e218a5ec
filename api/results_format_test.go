package api_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/domain/vp"
)

// resultsSchema is docs/results-format.schema.json, compiled, with its
// formats (date-time) asserted.
func resultsSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../docs/results-format.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("results-format.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("results-format.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fedPlayer is a player profile of the club with a federation id.
func (te *tourneyEnv) fedPlayer(name, fed string) int64 {
	te.t.Helper()
	var p api.Player
	te.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/players", Token: te.director,
		Body: api.PlayerCreateRequest{Name: name, ClubID: &te.club, FederationID: &fed}}, &p)
	te.nameOf[p.ID] = name
	return p.ID
}

// playedPairs is a modified Danish of five pairs (a bye each round) over
// three rounds, published: players with and without federation ids, a
// penalty, an abandonment ruled after a deal, and a pair that withdraws
// after round 2.
func (te *tourneyEnv) playedPairs() int64 {
	te.t.Helper()
	prizes := []domain.Prize{{Name: "Assoluto", Places: 2}, {Name: "Over 65", Category: "over65", Places: 1, Cumulative: true}}
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementModifiedDanish), Rounds: new(3),
		Prizes: &prizes})
	te.lifecycle(id, te.director, "open_registration")
	var entries []api.TournamentEntry
	for i := range 5 {
		a := te.fedPlayer(fmt.Sprintf("Federato %d", i+1), fmt.Sprintf("RM-%04d", i+1))
		b := te.player(fmt.Sprintf("Ospite %d", i+1), i == 0)
		entries = append(entries, te.enter(id, te.director, a, b))
	}
	te.start(id)
	rnd := rand.New(rand.NewPCG(uint64(id), 32))
	te.refereeRound(id, rnd, 3)
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "penalties"), Token: te.referee,
		Body: api.TournamentPenaltyRequest{Round: 1, Entry: entries[1].ID, VP: 2, Reason: "slow play"}}, nil)

	r := te.draw(id)
	for i, tb := range r.Tables {
		if i == 0 {
			te.scores(id, r.Number, tb.Number, te.referee, randomDeal(rnd, 1))
			te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", r.Number, "tables", tb.Number, "rulings"),
				Token: te.referee, Body: api.TournamentRulingRequest{Kind: "abandonment", Entry: tb.EW.Entries[0].ID, Reason: "left ill"}}, nil)
			continue
		}
		te.scores(id, r.Number, tb.Number, te.referee, randomDeals(rnd, 3)...)
	}
	te.closeRound(id, r.Number)
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "entries", entries[4].ID, "withdraw"), Token: te.referee,
		Body: api.TournamentWithdrawRequest{Reason: "went home"}}, nil)
	te.refereeRound(id, rnd, 3)
	te.lifecycle(id, te.referee, "finish")
	te.lifecycle(id, te.director, "publish_results")
	return id
}

// playedIndividual is a random individual event of eight players over two
// rounds, finished.
func (te *tourneyEnv) playedIndividual() int64 {
	te.t.Helper()
	id := te.tournament(domain.IndividualTournament, 3, domain.SetupInput{Movement: new(domain.MovementRandom), Rounds: new(2)})
	te.lifecycle(id, te.director, "open_registration")
	for i := range 8 {
		te.enter(id, te.director, te.fedPlayer(fmt.Sprintf("Singolo %d", i+1), fmt.Sprintf("IND-%02d", i+1)))
	}
	te.start(id)
	rnd := rand.New(rand.NewPCG(uint64(id), 33))
	for range 2 {
		te.refereeRound(id, rnd, 3)
	}
	te.lifecycle(id, te.referee, "finish")
	return id
}

// playedTeams is a round robin of two teams of two pairs with the
// organiser's VP table, one round, finished.
func (te *tourneyEnv) playedTeams() int64 {
	te.t.Helper()
	team := vp.ThreeDeal()
	id := te.tournament(domain.TeamsTournament, 3, domain.SetupInput{Movement: new(domain.MovementRoundRobin), Rounds: new(1),
		VPTable: &team, TeamPairs: new(2)})
	te.lifecycle(id, te.director, "open_registration")
	for i := range 2 {
		var ps []int64
		for j := range 4 {
			ps = append(ps, te.player(fmt.Sprintf("Squadra %d-%d", i+1, j+1), false))
		}
		te.enter(id, te.director, ps...)
	}
	te.start(id)
	te.refereeRound(id, rand.New(rand.NewPCG(uint64(id), 34)), 3)
	te.lifecycle(id, te.referee, "finish")
	return id
}

// runningPairs is a Danish of four pairs still running: round 1 closed,
// round 2's pairings published and not started.
func (te *tourneyEnv) runningPairs() int64 {
	te.t.Helper()
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	for i := range 4 {
		te.enter(id, te.director, te.fedPlayer(fmt.Sprintf("Corrente %d-A", i+1), fmt.Sprintf("RUN-%d", i+1)),
			te.player(fmt.Sprintf("Corrente %d-B", i+1), false))
	}
	te.start(id)
	te.refereeRound(id, rand.New(rand.NewPCG(uint64(id), 35)), 3)
	te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee}, nil)
	return id
}

// playedKnockout is a knockout of four pairs, finished: NS wins each
// table in three deals of 1000 to 50 (the target is 2005).
func (te *tourneyEnv) playedKnockout() int64 {
	te.t.Helper()
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementKnockout)})
	te.lifecycle(id, te.director, "open_registration")
	for i := range 4 {
		te.enter(id, te.director, te.fedPlayer(fmt.Sprintf("Eliminazione %d-A", i+1), fmt.Sprintf("KO-%d", i+1)),
			te.player(fmt.Sprintf("Eliminazione %d-B", i+1), false))
	}
	te.start(id)
	for range 2 {
		r := te.draw(id)
		for _, tb := range r.Tables {
			var deals []api.TournamentDealInput
			for n := 1; n <= 3; n++ {
				deals = append(deals, api.TournamentDealInput{Number: n, NS: parts(600, 300, 100, 0, 0), EW: parts(100, 0, 0, 50, 0)})
			}
			te.scores(id, r.Number, tb.Number, te.referee, deals...)
		}
		te.closeRound(id, r.Number)
	}
	te.lifecycle(id, te.referee, "finish")
	return id
}

// exportResults is GET …/export/results.json, its bytes and the document.
func (e *env) exportResults(id int64) ([]byte, domain.ResultsDocument) {
	e.t.Helper()
	res := e.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "export", "results.json")}, nil)
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		e.t.Fatalf("export's Content-Type %q", ct)
	}
	var doc domain.ResultsDocument
	if err := json.Unmarshal(res.Body, &doc); err != nil {
		e.t.Fatal(err)
	}
	return res.Body, doc
}

// TestExportValidatesAgainstThePublishedSchema: the exports of a pairs
// Danish (byes, a penalty, an abandonment, a withdrawal), an individual, a
// team event and a knockout validate against docs/results-format.schema.json, carry the
// players' federation ids and never an e-mail, and are the same bytes when
// exported twice.
func TestExportValidatesAgainstThePublishedSchema(t *testing.T) {
	t.Parallel()
	schema := resultsSchema(t)
	t.Run("TheExample", func(t *testing.T) {
		f, err := os.Open("../docs/results-format.example.json")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		inst, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Fatalf("docs/results-format.example.json does not validate: %v", err)
		}
	})
	te := newTourneyEnv(t, storetest.SQLite(t))
	for name, id := range map[string]int64{"pairs": te.playedPairs(), "individual": te.playedIndividual(), "teams": te.playedTeams(),
		"knockout": te.playedKnockout(), "phased": te.playedExam(t)} {
		t.Run(name, func(t *testing.T) {
			body, doc := te.exportResults(id)
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(inst); err != nil {
				t.Fatalf("the export does not validate: %v", err)
			}
			if strings.Contains(string(body), "@") {
				t.Errorf("the export holds an @ (an e-mail?):\n%s", body)
			}
			if again, _ := te.exportResults(id); !bytes.Equal(again, body) {
				t.Errorf("two exports of the same state differ:\n%s", cmp.Diff(string(body), string(again)))
			}
			if len(doc.Standings) == 0 || len(doc.Rounds) == 0 || doc.Event.Status == "" {
				t.Errorf("an empty export: %s", body)
			}
			if wantVersion := map[bool]int{true: 2, false: 1}[name == "phased"]; doc.Version != wantVersion {
				t.Errorf("version %d, want %d", doc.Version, wantVersion)
			}
			if name == "phased" && (len(doc.Event.Phases) != 3 || len(doc.Event.Phases[2].Groups) != 2 || doc.Rounds[10].Phase != 3 ||
				doc.Rounds[10].Tables[13].Group != "B" || len(doc.PhaseStandings) != 8 || doc.Standings[0].CarriedVP == 0) {
				t.Errorf("the phased export lacks its phases, groups or phase standings: %s", body)
			}
			if name != "teams" && name != "phased" && doc.Entries[0].Players[0].FederationID == "" {
				t.Errorf("the first player's federation id is missing: %s", jsonOf(doc.Entries[0]))
			}
			if name == "pairs" && (len(doc.Penalties) != 1 || len(doc.Adjustments) != 1 || doc.Adjustments[0].DecidedBy != "abandonment" ||
				!doc.Entries[4].Withdrawn || doc.Entries[4].WithdrawnAfterRound != 2 || len(doc.Rounds[0].Byes) != 1 || doc.Event.LotsSeed == "" ||
				len(doc.Event.Prizes) != 2 || !doc.Event.Prizes[1].Cumulative) {
				t.Errorf("the pairs' export lacks what was played (a penalty, an abandonment, a withdrawal, byes, the lots, the prizes): %s", body)
			}
		})
	}
}

// TestExportRefusesWhatItMayNotShow: a draft is not exported to a
// stranger, and no tournament is exported when there is none.
func TestExportRefusesADraftToAStranger(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{})
	for _, path := range []string{tpath(id, "export", "results.json"), tpath(id, "export", "federation.csv"), tpath(9999, "export", "results.json")} {
		if p := te.problem(http.StatusNotFound, req{Method: "GET", Path: path, Token: te.member}); p.Code != "not_found" {
			t.Errorf("%s: %s, want not_found", path, p.Code)
		}
	}
}

// otherClub is a second club on the server, its owner's token.
func (te *tourneyEnv) otherClub() (int64, string) {
	te.t.Helper()
	_, tok := te.user("other@club.example", "Altro Direttore")
	var club api.Club
	te.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/clubs", Token: tok.AccessToken,
		Body: api.ClubCreateRequest{Name: "Circolo di Milano", City: "Milano"}}, &club)
	return club.ID, tok.AccessToken
}

// importResults posts a document to the club's import as token.
func (e *env) importResults(club int64, token string, body []byte) api.Tournament {
	e.t.Helper()
	var t api.Tournament
	e.must(http.StatusCreated, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments/import", club), Token: token,
		Body: body}, &t)
	return t
}

// TestExportImportExportIsIdentical: a published pairs Danish, an
// individual, a team event, a knockout, and a Danish still running (its next
// round's pairings published) exported, imported into another club and
// exported again give the same document but the club's name (the fields
// RESULTS-FORMAT.md lets differ are the club, and for a tournament not
// finished its lots and unconfirmed deals: none here); the imported tournament's
// standings, computed by the replay, are the original's, on SQLite and
// PostgreSQL.
func TestExportImportExportIsIdentical(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		club, tok := te.otherClub()
		for _, c := range []struct {
			name string
			id   int64
		}{{"pairs", te.playedPairs()}, {"individual", te.playedIndividual()}, {"teams", te.playedTeams()}, {"running", te.runningPairs()},
			{"knockout", te.playedKnockout()}, {"phased", te.playedExam(t)}} {
			body, before := te.exportResults(c.id)
			imported := te.importResults(club, tok, body)
			if imported.ClubID != club || imported.Status != before.Event.Status {
				t.Fatalf("%s: imported as %s", c.name, jsonOf(imported))
			}
			_, after := te.exportResults(imported.ID)
			if after.Event.Club != "Circolo di Milano" {
				t.Errorf("%s: the import's club is %q", c.name, after.Event.Club)
			}
			after.Event.Club = before.Event.Club
			if d := cmp.Diff(before, after); d != "" {
				t.Errorf("%s: export → import → export differs (-before +after):\n%s", c.name, d)
			}
			if d := cmp.Diff(standingRows(te.standings(c.id)), standingRows(te.standings(imported.ID))); d != "" {
				t.Errorf("%s: the imported standings differ (-original +imported):\n%s", c.name, d)
			}
			te.checkImportedPlayers(t, c.name, c.id, imported.ID, before)
			if c.name == "phased" {
				for _, q := range []string{"", "?scope=phase"} {
					a, b := te.phaseStandings(c.id, 2, q), te.phaseStandings(imported.ID, 2, q)
					if d := cmp.Diff(standingRows(a.TournamentStandings), standingRows(b.TournamentStandings)); d != "" {
						t.Errorf("phase 2%s: the imported standings differ (-original +imported):\n%s", q, d)
					}
				}
			}
		}
	})
}

// standingRows is the standings without ids: each row's number, rank and
// scores.
func standingRows(s api.TournamentStandings) string {
	var b strings.Builder
	for _, r := range s.Rows {
		fmt.Fprintf(&b, "%d #%d vp=%d mp=%d/%d played=%d byes=%d penalty=%d/%d ahead_by=%s\n", r.Rank, r.Entry.Number, r.VP,
			r.MPFor, r.MPAgainst, r.Played, r.Byes, r.PenaltyVP, r.PenaltyMP, r.AheadBy)
	}
	return fmt.Sprintf("provisional=%v after=%d\n%s", s.Provisional, s.AfterRound, b.String())
}

// TestImportRefusesWhatItCannotRead: another format or version is
// unsupported_format; a document breaking the rules is 422 naming each
// field by its place; a body past 8 MiB is 413; a club member who does not
// direct it is refused; nothing is created by any of them.
func TestImportRefusesWhatItCannotRead(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	body, _ := te.exportResults(te.playedIndividual())
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	entry0 := func(m map[string]any) map[string]any { return m["entries"].([]any)[0].(map[string]any) }
	table0 := func(m map[string]any) map[string]any {
		return m["rounds"].([]any)[0].(map[string]any)["tables"].([]any)[0].(map[string]any)
	}
	path := fmt.Sprintf("/api/v1/clubs/%d/tournaments/import", te.club)
	for _, c := range []struct {
		name   string
		token  string
		body   []byte
		status int
		code   string
		field  string
	}{
		{"UnsupportedFormat", te.director, edit(func(m map[string]any) { m["format"] = "usebio" }), 422, "unsupported_format", ""},
		// Versions 1 and 2 (a tournament in phases) are read; 3 is not.
		{"UnsupportedVersion", te.director, edit(func(m map[string]any) { m["version"] = 3 }), 422, "unsupported_format", ""},
		{"NoFormatAtAll", te.director, []byte(`{"name":"x"}`), 422, "unsupported_format", ""},
		{"NotJSON", te.director, []byte(`{"format":`), 400, "malformed_json", ""},
		{"PlayerWithoutName", te.director, edit(func(m map[string]any) {
			entry0(m)["players"].([]any)[0].(map[string]any)["name"] = ""
		}), 422, "invalid_input", "entries[0].players[0].name"},
		{"TableOfAnUnknownEntry", te.director, edit(func(m map[string]any) { table0(m)["ns"] = []any{99, 98} }), 422, "invalid_input", "rounds[0].tables[0].ns"},
		{"WrongType", te.director, edit(func(m map[string]any) { m["event"].(map[string]any)["rounds"] = "three" }), 422, "invalid_input", "event.rounds"},
		{"BadLotsSeed", te.director, edit(func(m map[string]any) { m["event"].(map[string]any)["lots_seed"] = "-1" }), 422, "invalid_input", "event.lots_seed"},
		{"BadEventName", te.director, edit(func(m map[string]any) { m["event"].(map[string]any)["name"] = "" }), 422, "invalid_input", "event.name"},
		{"ImpossibleDeal", te.director, edit(func(m map[string]any) {
			d := table0(m)["deals"].([]any)[0].(map[string]any)["ns"].(map[string]any)
			d["cards"], d["total"] = 3, 3
		}), 422, "bad_score", "rounds[0].tables[0].deals"},
		{"TooLarge", te.director, append(append([]byte(`{"format":"burraco-results","version":1,"pad":"`), bytes.Repeat([]byte("x"), 8<<20)...), '"', '}'), 413, "request_too_large", ""},
		{"NotADirector", te.member, body, 403, "forbidden", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := te.problem(c.status, req{Method: "POST", Path: path, Token: c.token, Body: c.body})
			if p.Code != c.code {
				t.Fatalf("code %s, want %s: %s", p.Code, c.code, jsonOf(p))
			}
			if c.field == "" {
				return
			}
			for _, f := range p.Errors {
				if strings.HasPrefix(f.Field, c.field) {
					return
				}
			}
			t.Fatalf("no error names %s: %s", c.field, jsonOf(p))
		})
	}
	var list api.TournamentList
	te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tournaments?club_id=%d", te.club), Token: te.director}, &list)
	if list.Total != 1 {
		t.Errorf("the refused imports left tournaments: %d in the club, want the one played", list.Total)
	}
}

// TestFederationCSVHasOneRowPerPlayer: the federation's upload has its
// documented header and one row per player of every entry, ranked entries
// in the standings' order with their place, VP and MP, the withdrawn pair
// marked, federation ids where the profiles have them.
func TestFederationCSVHasOneRowPerPlayer(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	id := te.playedPairs()
	_, doc := te.exportResults(id)
	res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "export", "federation.csv")}, nil)
	rows, err := csv.NewReader(bytes.NewReader(res.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := "federation_id,player,entry_number,entry,place,vp,mp_for,mp_against,mp_difference,rounds_played,withdrawn,tournament,club,date,status"
	if got := strings.Join(rows[0], ","); got != want {
		t.Fatalf("header %s, want %s", got, want)
	}
	if len(rows) != 1+10 {
		t.Fatalf("%d rows, want a header and 10 players", len(rows))
	}
	first := doc.Standings[0]
	if r := rows[1]; r[0] != fmt.Sprintf("RM-%04d", first.Entry) || r[2] != fmt.Sprint(first.Entry) || r[4] != "1" ||
		r[5] != fmt.Sprint(first.VP) || r[8] != fmt.Sprint(first.MPDiff) || r[13] != doc.Event.StartsAt.Format("2006-01-02") {
		t.Errorf("the first row %q does not match the winner %s", r, jsonOf(first))
	}
	withdrawn := 0
	for _, r := range rows[1:] {
		if r[10] == "true" {
			withdrawn++
			if r[2] != "5" {
				t.Errorf("entry %s is marked withdrawn", r[2])
			}
		}
	}
	if withdrawn != 2 {
		t.Errorf("%d rows marked withdrawn, want the two players of entry 5", withdrawn)
	}
}

// checkImportedPlayers: the imported entries play as the original's
// profiles where the players have a federation id (the same person on the
// server), and as new profiles of the importing club where they have none.
func (te *tourneyEnv) checkImportedPlayers(t *testing.T, name string, original, imported int64, doc domain.ResultsDocument) {
	t.Helper()
	var was, is api.TournamentEntryList
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(original, "entries") + "?limit=500", Token: te.director}, &was)
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(imported, "entries") + "?limit=500", Token: te.director}, &is)
	if len(was.Items) != len(is.Items) {
		t.Fatalf("%s: %d entries imported, want %d", name, len(is.Items), len(was.Items))
	}
	for i, e := range was.Items {
		for j, p := range e.Players {
			same := is.Items[i].Players[j].ID == p.ID
			if fed := doc.Entries[i].Players[j].FederationID; same != (fed != "") {
				t.Errorf("%s: entry %d's player %q (federation id %q) imported as profile %d, was %d", name, e.Number, p.Name, fed,
					is.Items[i].Players[j].ID, p.ID)
			}
		}
	}
}
