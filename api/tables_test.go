package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/engine"
)

// tablePath is the path of a table, or of one of its endpoints.
func tablePath(id int64, rest ...string) string {
	p := fmt.Sprintf("/api/v1/tables/%d", id)
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

// newTable creates a table as token and returns it.
func (e *env) newTable(token string, body any) api.Table {
	e.t.Helper()
	var tb api.Table
	e.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/tables", Token: token, Body: body}, &tb)
	return tb
}

// state gets a table's state as token and checks its ETag.
func (e *env) state(token string, id int64) (api.TableState, response) {
	e.t.Helper()
	var st api.TableState
	res := e.must(http.StatusOK, req{Method: "GET", Path: tablePath(id, "state"), Token: token}, &st)
	seat := "w"
	if st.Seat >= 0 {
		seat = strconv.Itoa(st.Seat)
	}
	if want := fmt.Sprintf(`"t%d.v%d.s%s"`, id, st.Version, seat); res.Header.Get("ETag") != want {
		e.t.Fatalf("ETag %q, want %q", res.Header.Get("ETag"), want)
	}
	return st, res
}

// serverGame loads a table's running deal as the server stores it: what
// the tests compare the responses with, and where they find legal moves.
func serverGame(t *testing.T, db *store.DB, id int64) (*engine.Game, domain.Table) {
	t.Helper()
	var g *engine.Game
	var tb domain.Table
	err := db.View(context.Background(), func(tx domain.Tx) error {
		var err error
		if tb, err = tx.Tables().Get(id); err != nil {
			return err
		}
		d, err := tx.Tables().Deal(id, tb.DealNumber)
		if err != nil {
			return err
		}
		g, err = storedGame(tx, d)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return g, tb
}

// storedGame is a deal's game as stored: its position continued by the
// moves logged after it (see domain.PositionEvery).
func storedGame(tx domain.Tx, d domain.TableDeal) (*engine.Game, error) {
	g, err := engine.ParsePosition(d.Position)
	if err != nil {
		return nil, err
	}
	moves, err := tx.Tables().MovesFrom(d.TableID, d.Number, d.Moves)
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		var mv engine.Move
		if err := json.Unmarshal(m.Move, &mv); err != nil {
			return nil, err
		}
		if err := g.Apply(m.Seat, mv); err != nil {
			return nil, fmt.Errorf("logged move %d: %w", m.Index, err)
		}
	}
	return g, nil
}

// cardToken finds card notations in a JSON text.
var cardToken = regexp.MustCompile(`"([A2-9TJQK][SHDC]|JK)"`)

// checkNoLeak checks a response seen by seat (-1: a spectator) against the
// server's game: every card it names is in the seat's hand or in a public
// place (melds, the visible pile, rows), and its view is exactly the
// engine's View for that seat.
func checkNoLeak(t *testing.T, body []byte, g *engine.Game, seat int) {
	t.Helper()
	seen := map[string]bool{}
	add := func(cs []engine.Card) {
		for _, c := range cs {
			seen[c.String()] = true
		}
	}
	if seat >= 0 {
		add(g.Hand(seat))
	}
	for team := range g.Rules().Teams() {
		for _, m := range g.Melds(team) {
			add(m.Cards)
		}
	}
	for s := range g.Players() {
		add(g.Row(s))
	}
	if pile := g.Pile(); g.Rules().ID == engine.Fechado && len(pile) > 0 {
		add(pile[len(pile)-1:])
	} else {
		add(pile)
	}
	for _, m := range cardToken.FindAllSubmatch(body, -1) {
		if !seen[string(m[1])] {
			t.Fatalf("seat %d is shown %s, which it may not see; body: %s", seat, m[1], body)
		}
	}
	var got struct {
		View json.RawMessage `json:"view"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if got.View == nil { // a move's answer after the match ended shows the last deal
		return
	}
	want, _ := json.Marshal(g.View(seat))
	var a, b any
	_ = json.Unmarshal(got.View, &a)
	_ = json.Unmarshal(want, &b)
	// start_totals is the engine's totals under the name that says which
	// totals they are; totals stays one release as its deprecated alias.
	if v, ok := a.(map[string]any); ok {
		if !cmp.Equal(v["start_totals"], v["totals"]) {
			t.Fatalf("view of seat %d: start_totals %v, totals %v", seat, v["start_totals"], v["totals"])
		}
		delete(v, "start_totals")
		// A spectator's view has no hand, where the engine writes null:
		// the schema's hand is an array, never null.
		if hand, has := v["hand"]; seat < 0 && has {
			t.Fatalf("a spectator's view has hand %v; want it absent", hand)
		}
		if seat < 0 {
			delete(b.(map[string]any), "hand")
		}
	}
	// cmp.Diff only to explain a difference: on these decoded JSON values
	// reflect.DeepEqual decides the same, and cmp.Diff was the largest cost
	// of the table tests (profiled), which check after every move.
	if !reflect.DeepEqual(b, a) {
		t.Fatalf("view of seat %d is not the engine's (-engine +response):\n%s", seat, cmp.Diff(b, a))
	}
}

// chooser picks a human's moves: legal ones only, found with the engine on
// the server's game (test code only), at random but ending turns soon.
type chooser struct{ rng *rand.Rand }

func (c chooser) choose(g *engine.Game, seat int) engine.Move {
	moves := g.LegalMoves(seat)
	var takes, lays, discards []engine.Move
	for _, m := range moves {
		switch m.Kind {
		case engine.Draw, engine.Pickup:
			takes = append(takes, m)
		case engine.MeldCards, engine.AttachCards:
			lays = append(lays, m)
		case engine.Discard:
			discards = append(discards, m)
		}
	}
	pick := func(ms []engine.Move) engine.Move { return ms[c.rng.IntN(len(ms))] }
	switch {
	case len(takes) > 0:
		return pick(takes)
	case len(lays) > 0 && (len(discards) == 0 || c.rng.IntN(2) == 0):
		return pick(lays)
	case len(discards) > 0:
		return pick(discards)
	}
	return pick(moves)
}

// moveBody is a move's notation with the version the client saw.
func moveBody(t *testing.T, m engine.Move, version int64) []byte {
	t.Helper()
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	_ = json.Unmarshal(b, &obj)
	if version != 0 {
		obj["version"] = version
	}
	b, _ = json.Marshal(obj)
	return b
}

// playHuman plays a human seat's turns until the match ends, polling the
// state between moves and checking every response for leaks; spectators
// poll too. It returns the last state and the number of moves played.
func playHuman(t *testing.T, e *env, db *store.DB, id int64, token string, seat int, c chooser, spectator string) (api.TableState, int) {
	t.Helper()
	moves := 0
	for range 5000 {
		st, res := e.state(token, id)
		if st.Table.Status == "finished" {
			return st, moves
		}
		g, _ := serverGame(t, db, id)
		checkNoLeak(t, res.Body, g, seat)
		if spectator != "" {
			_, sres := e.state(spectator, id)
			checkNoLeak(t, sres.Body, g, -1)
		}
		if st.View.Turn != seat {
			t.Fatalf("the human's turn should have come (bots play at once): turn %d, seat %d", st.View.Turn, seat)
		}
		m := c.choose(g, seat)
		mres := e.must(200, req{Method: "POST", Path: tablePath(id, "moves"), Token: token, Body: moveBody(t, m, st.Version)}, nil)
		moves++
		var after api.TableState
		_ = json.Unmarshal(mres.Body, &after)
		if after.Table.Status != "finished" {
			g, _ = serverGame(t, db, id)
			checkNoLeak(t, mres.Body, g, seat)
		}
		if after.Version <= st.Version {
			t.Fatalf("version did not grow: %d after %d", after.Version, st.Version)
		}
	}
	t.Fatal("the match did not end")
	return api.TableState{}, 0
}

// TestTableMatchFourPlayers plays a whole 4-player fibur match of 2 deals:
// three bots and one human who posts moves chosen from its own legal
// moves, while a spectator watches; no response shows anyone a card they
// may not see, and the finished deals' records replay to their scores.
func TestTableMatchFourPlayers(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user("sara@example.com", "Sara")
		_, spec := e.user("vito@example.com", "Vito")
		tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 4, Match: &api.MatchFormat{Deals: 2}})
		if tb.Status != "open" || tb.FreeSeats != 3 || tb.Seats[0].Name != "Sara" || tb.InviteCode == "" {
			t.Fatalf("created: %+v", tb)
		}
		for range 3 {
			e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, &tb)
		}
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, nil), "conflict")
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: tok.AccessToken}, &tb)
		if tb.Status != "playing" || tb.DealNumber != 1 {
			t.Fatalf("started: %+v", tb)
		}
		// Nothing of the running deal is reachable: its record is a 409.
		problemOf(t, e.must(409, req{Method: "GET", Path: tablePath(tb.ID, "deals", "1", "record"), Token: tok.AccessToken}, nil), "conflict")
		sst, _ := e.state(spec.AccessToken, tb.ID)
		if sst.Seat != -1 || len(sst.View.Hand) != 0 || sst.Table.InviteCode != "" {
			t.Fatalf("spectator state: seat %d, hand %v, invite %q", sst.Seat, sst.View.Hand, sst.Table.InviteCode)
		}

		final, moves := playHuman(t, e, db, tb.ID, tok.AccessToken, 0, chooser{rand.New(rand.NewPCG(1, 2))}, spec.AccessToken)
		if final.Table.DealNumber != 2 || len(final.Deals) != 2 || moves == 0 {
			t.Fatalf("final: deal %d, %d deals, %d human moves", final.Table.DealNumber, len(final.Deals), moves)
		}
		totals := []int{0, 0}
		for _, d := range final.Deals {
			totals[0] += d.Score[0].Total
			totals[1] += d.Score[1].Total
		}
		if !cmp.Equal(final.MatchTotals, totals) {
			t.Errorf("totals %v, want %v", final.MatchTotals, totals)
		}
		switch {
		case totals[0] == totals[1]:
			if !final.Table.Draw || final.Table.Winner != nil {
				t.Errorf("tied %v: draw %v winner %v", totals, final.Table.Draw, final.Table.Winner)
			}
		case final.Table.Winner == nil || totals[*final.Table.Winner] < totals[1-*final.Table.Winner]:
			t.Errorf("totals %v: winner %v", totals, final.Table.Winner)
		}
		checkRecords(t, e, tok.AccessToken, tb.ID, final.Deals)
		// Deals pass clockwise.
		if final.Deals[1].Dealer != (final.Deals[0].Dealer+1)%4 {
			t.Errorf("dealers %d then %d", final.Deals[0].Dealer, final.Deals[1].Dealer)
		}
		// The spectator may not read records; the match is over for moves.
		problemOf(t, e.must(403, req{Method: "GET", Path: tablePath(tb.ID, "deals", "1", "record"), Token: spec.AccessToken}, nil), "forbidden")
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tok.AccessToken,
			Body: fmt.Sprintf(`{"move":"draw","version":%d}`, final.Version)}, nil), "conflict")
	})
}

// checkRecords reads every finished deal's record and replays it with the
// engine to the stored score.
func checkRecords(t *testing.T, e *env, token string, id int64, deals []api.TableDeal) {
	t.Helper()
	var list api.TableDealList
	e.must(200, req{Method: "GET", Path: tablePath(id, "deals"), Token: token}, &list)
	if diff := cmp.Diff(deals, list.Items); diff != "" {
		t.Errorf("deals list (-state +list):\n%s", diff)
	}
	seeds := map[string]bool{}
	for _, d := range deals {
		res := e.must(200, req{Method: "GET", Path: tablePath(id, "deals", strconv.Itoa(d.Number), "record"), Token: token}, nil)
		var rec engine.Record
		if err := json.Unmarshal(res.Body, &rec); err != nil {
			t.Fatalf("record %d does not read as an engine.Record: %v", d.Number, err)
		}
		var out api.DealRecord
		_ = json.Unmarshal(res.Body, &out)
		if rec.Dealer != d.Dealer || len(rec.Moves) == 0 || out.Seed == "" || out.Moves[0].At.IsZero() {
			t.Errorf("record %d: dealer %d, %d moves, seed %q", d.Number, rec.Dealer, len(rec.Moves), out.Seed)
		}
		if out.Cards == nil || rec.Cards == nil || len(out.Cards.Hands) != len(rec.Cards.Hands) {
			t.Errorf("record %d carries no dealt cards (replay checks that they are the seed's)", d.Number)
		}
		if seeds[out.Seed] {
			t.Errorf("deal %d reuses a seed", d.Number)
		}
		seeds[out.Seed] = true
		g, err := rec.Replay()
		if err != nil {
			t.Fatalf("record %d: %v", d.Number, err)
		}
		if !g.Over() {
			t.Fatalf("record %d does not end the deal", d.Number)
		}
		if diff := cmp.Diff(convertScores(g.Score()), d.Score); diff != "" {
			t.Errorf("record %d replays to another score (-replay +stored):\n%s", d.Number, diff)
		}
	}
}

func convertScores(s []engine.Score) []api.TeamScore {
	out := make([]api.TeamScore, len(s))
	for i, x := range s {
		out[i] = api.TeamScore{Cards: x.Cards, Bonus: x.Bonus, Closing: x.Closing, Hand: x.Hand, Pot: x.Pot, Total: x.Total}
	}
	return out
}

// TestTableMatchTwoPlayersToTarget plays a 2-player match against a bot to
// a low target: it ends when a team reaches it with the lead, after
// tie-break deals (marked) while tied.
func TestTableMatchTwoPlayersToTarget(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user("sara@example.com", "Sara")
		tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Seat: ptr(1),
			Match: &api.MatchFormat{Target: 300}, AutoStart: true})
		if tb.Match.Target != 300 || tb.Seats[1].Name != "Sara" {
			t.Fatalf("created: %+v", tb)
		}
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken, Body: api.SeatRequest{Seat: ptr(0)}}, &tb)
		if tb.Status != "playing" {
			t.Fatalf("auto_start: the last seat taken should start the match: %+v", tb)
		}
		final, _ := playHuman(t, e, db, tb.ID, tok.AccessToken, 1, chooser{rand.New(rand.NewPCG(3, 4))}, "")
		w := final.Table.Winner
		if w == nil || final.Table.Draw || final.MatchTotals[*w] < 300 || final.MatchTotals[*w] <= final.MatchTotals[1-*w] {
			t.Fatalf("final: winner %v, totals %v", w, final.MatchTotals)
		}
		totals := []int{0, 0}
		for i, d := range final.Deals {
			tied := i > 0 && totals[0] == totals[1] && totals[0] >= 300
			if d.TieBreak != tied {
				t.Errorf("deal %d: tie_break %v after totals %v", d.Number, d.TieBreak, totals)
			}
			if i < len(final.Deals)-1 && (totals[0]+d.Score[0].Total >= 300 || totals[1]+d.Score[1].Total >= 300) &&
				totals[0]+d.Score[0].Total != totals[1]+d.Score[1].Total {
				t.Errorf("deal %d decided the match but play went on", d.Number)
			}
			totals[0] += d.Score[0].Total
			totals[1] += d.Score[1].Total
		}
		checkRecords(t, e, tok.AccessToken, tb.ID, final.Deals)
	})
}

func ptr[T any](v T) *T { return &v }

// twoHumans starts a 2-player fibur table of two humans and returns it
// with the tokens of seat 0 and seat 1.
func twoHumans(e *env) (api.Table, [2]string) {
	e.t.Helper()
	_, a := e.user("anna@example.com", "Anna")
	_, b := e.user("bruno@example.com", "Bruno")
	tb := e.newTable(a.AccessToken, api.TableCreateRequest{Rules: "fibur", Players: 2, Match: &api.MatchFormat{Deals: 1},
		GraceSeconds: ptr(0)}) // no forfeit for absence: tests move the clock by days
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "join"), Token: b.AccessToken}, nil)
	e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "start"), Token: a.AccessToken}, &tb)
	return tb, [2]string{a.AccessToken, b.AccessToken}
}

// TestTableMoveRefusals: each way a move is refused, with its status and
// code, and that a refused move changes nothing.
func TestTableMoveRefusals(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := twoHumans(e)
		_, other := e.user("carla@example.com", "Carla")
		st, res := e.state(tokens[0], tb.ID)
		turn := st.View.Turn
		mover, waiter := tokens[turn], tokens[1-turn]
		moves := tablePath(tb.ID, "moves")
		post := func(token string, body any, hdr map[string]string) req {
			return req{Method: "POST", Path: moves, Token: token, Body: body, Header: hdr}
		}
		draw := fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version)

		p := problemOf(t, e.must(409, post(mover, fmt.Sprintf(`{"move":"draw","version":%d}`, st.Version-1), nil), nil), "version_conflict")
		if len(p.Errors) != 1 || p.Errors[0].Field != "version" || p.Errors[0].Message != fmt.Sprintf("the current version is %d", st.Version) {
			t.Errorf("version_conflict errors: %+v", p.Errors)
		}
		problemOf(t, e.must(409, post(waiter, draw, nil), nil), "not_your_turn")
		problemOf(t, e.must(403, post(other.AccessToken, draw, nil), nil), "forbidden")
		problemOf(t, e.must(401, post("", draw, nil), nil), "unauthenticated")
		problemOf(t, e.must(422, post(mover, fmt.Sprintf(`{"move":"discard","card":"KS","version":%d}`, st.Version), nil), nil), "wrong_phase")
		problemOf(t, e.must(422, post(mover, fmt.Sprintf(`{"move":"fly","version":%d}`, st.Version), nil), nil), "unknown_move")
		problemOf(t, e.must(422, post(mover, `{"move":"draw"}`, nil), nil), "invalid_input")
		problemOf(t, e.must(400, post(mover, `{"move":"draw","sneaky":1}`, nil), nil), "malformed_json")
		if again, _ := e.state(tokens[0], tb.ID); again.Version != st.Version {
			t.Fatalf("refused moves changed the version: %d → %d", st.Version, again.Version)
		}

		// If-Match with the ETag stands for version.
		e.must(200, post(mover, `{"move":"draw"}`, map[string]string{"If-Match": res.Header.Get("ETag")}), &st)
		g, _ := serverGame(t, db, tb.ID)
		m, code := invalidMeld(g, turn)
		if code == "" {
			t.Skip("no three cards of this hand fail as a meld")
		}
		p = problemOf(t, e.must(422, post(mover, moveBody(t, m, st.Version), nil), nil), code)
		if p.Detail == "" || p.Title == "" {
			t.Errorf("refusal without a message: %+v", p)
		}
	})
}

// invalidMeld finds three cards of seat's hand that the engine refuses as
// a meld, and the code it refuses them with.
func invalidMeld(g *engine.Game, seat int) (engine.Move, string) {
	h := g.Hand(seat)
	for i := range h {
		for j := i + 1; j < len(h); j++ {
			for k := j + 1; k < len(h); k++ {
				m := engine.MeldMove(h[i], h[j], h[k])
				if err := g.Check(seat, m); engine.ErrorCode(err) == engine.ErrInvalidMeld {
					return m, string(engine.ErrInvalidMeld)
				}
			}
		}
	}
	return engine.Move{}, ""
}

// TestTableLobbyAndSeats: creating with every problem at once, the lobby's
// filters and paging, private tables behind their invite code, club tables
// for members, seats (join, leave, bots) and starting.
func TestTableLobbyAndSeats(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, a := e.user("anna@example.com", "Anna")
		_, b := e.user("bruno@example.com", "Bruno")
		_, c := e.user("carla@example.com", "Carla")
		ta, tbk, tc := a.AccessToken, b.AccessToken, c.AccessToken

		p := problemOf(t, e.must(422, req{Method: "POST", Path: "/api/v1/tables", Token: ta,
			Body: `{"rules":"fibur","players":3,"options":{"target":-5,"real_canastra":true},"match":{"deals":2,"target":100},"turn_seconds":1,"match_seconds":5,"seat":7}`}, nil), "invalid_input")
		fields := map[string]bool{}
		for _, f := range p.Errors {
			fields[f.Field] = true
		}
		for _, f := range []string{"players", "options.target", "options.real_canastra", "match", "turn_seconds", "match_seconds"} {
			if !fields[f] {
				t.Errorf("no error on %s: %+v", f, p.Errors)
			}
		}
		problemOf(t, e.must(401, req{Method: "POST", Path: "/api/v1/tables", Body: api.TableCreateRequest{Rules: "fibur", Players: 2}}, nil), "unauthenticated")

		pub := e.newTable(ta, api.TableCreateRequest{Rules: "fibur", Players: 4})
		if pub.Match.Target != 2005 || pub.Match.Deals != 0 {
			t.Errorf("default match: %+v", pub.Match)
		}
		priv := e.newTable(ta, api.TableCreateRequest{Rules: "reale", Players: 2, Private: true})
		var club api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: ta, Body: api.ClubCreateRequest{Name: "Circolo"}}, &club)
		clubTable := e.newTable(ta, api.TableCreateRequest{Rules: "fibur", Players: 2, ClubID: &club.ID})

		var list api.TableList
		e.must(200, req{Method: "GET", Path: "/api/v1/tables", Token: tbk}, &list)
		if list.Total != 2 || list.Items[0].ID != clubTable.ID || list.Items[1].ID != pub.ID || list.Items[0].InviteCode != "" {
			t.Errorf("Bruno's lobby: %+v", list)
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/tables?limit=1&offset=1"}, &list)
		if list.Total != 2 || len(list.Items) != 1 || list.Items[0].ID != pub.ID {
			t.Errorf("anonymous page 2: %+v", list)
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/tables?rules=reale", Token: ta}, &list)
		if list.Total != 1 || list.Items[0].ID != priv.ID || list.Items[0].InviteCode != priv.InviteCode {
			t.Errorf("Anna's reale tables: %+v", list)
		}
		e.must(200, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tables?club_id=%d&open_seats=true&status=open", club.ID)}, &list)
		if list.Total != 1 || list.Items[0].ID != clubTable.ID {
			t.Errorf("club filter: %+v", list)
		}
		e.must(400, req{Method: "GET", Path: "/api/v1/tables?open_seats=maybe"}, nil)
		problemOf(t, e.must(400, req{Method: "GET", Path: "/api/v1/tables?status=lost"}, nil), "invalid_parameter")

		// A private table does not exist without its code.
		problemOf(t, e.must(404, req{Method: "GET", Path: tablePath(priv.ID), Token: tbk}, nil), "not_found")
		problemOf(t, e.must(404, req{Method: "GET", Path: tablePath(priv.ID, "state"), Token: tbk}, nil), "not_found")
		problemOf(t, e.must(404, req{Method: "POST", Path: tablePath(priv.ID, "join"), Token: tbk}, nil), "not_found")
		var got api.Table
		e.must(200, req{Method: "GET", Path: tablePath(priv.ID) + "?invite=" + priv.InviteCode, Token: tbk}, &got)
		if got.InviteCode != "" {
			t.Errorf("a guest with the code is shown it: %+v", got)
		}
		e.must(200, req{Method: "POST", Path: tablePath(priv.ID, "join"), Token: tbk, Body: api.SeatRequest{Invite: priv.InviteCode}}, &got)
		if got.FreeSeats != 0 || got.Seats[1].Name != "Bruno" || got.InviteCode != priv.InviteCode || got.Status != "open" {
			t.Errorf("joined: %+v", got)
		}
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(priv.ID, "join"), Token: tbk}, nil), "conflict")
		problemOf(t, e.must(403, req{Method: "POST", Path: tablePath(priv.ID, "start"), Token: tbk}, nil), "forbidden")
		e.must(200, req{Method: "POST", Path: tablePath(priv.ID, "leave"), Token: tbk}, &got)
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(priv.ID, "start"), Token: ta}, nil), "conflict")
		// Bruno no longer sits there: the private table is hidden again.
		problemOf(t, e.must(404, req{Method: "POST", Path: tablePath(priv.ID, "leave"), Token: tbk}, nil), "not_found")

		// Club tables seat members only.
		problemOf(t, e.must(403, req{Method: "POST", Path: tablePath(clubTable.ID, "join"), Token: tc}, nil), "forbidden")
		problemOf(t, e.must(403, req{Method: "POST", Path: "/api/v1/tables", Token: tc,
			Body: api.TableCreateRequest{Rules: "fibur", Players: 2, ClubID: &club.ID}}, nil), "forbidden")

		// Seats: a given one, taken, out of range; bots by the creator only.
		problemOf(t, e.must(422, req{Method: "POST", Path: tablePath(pub.ID, "join"), Token: tbk, Body: api.SeatRequest{Seat: ptr(4)}}, nil), "invalid_input")
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(pub.ID, "join"), Token: tbk, Body: api.SeatRequest{Seat: ptr(0)}}, nil), "conflict")
		e.must(200, req{Method: "POST", Path: tablePath(pub.ID, "join"), Token: tbk, Body: api.SeatRequest{Seat: ptr(2)}}, &got)
		problemOf(t, e.must(403, req{Method: "POST", Path: tablePath(pub.ID, "bots"), Token: tbk}, nil), "forbidden")
		e.must(200, req{Method: "POST", Path: tablePath(pub.ID, "bots"), Token: ta}, &got)
		if !got.Seats[1].Bot || got.Seats[1].Name != "bot" || got.FreeSeats != 1 {
			t.Errorf("bot seated: %+v", got.Seats)
		}
		e.must(200, req{Method: "POST", Path: tablePath(pub.ID, "join"), Token: tc}, &got)
		if got.Seats[3].Name != "Carla" || got.Status != "open" {
			t.Errorf("Carla joined: %+v", got)
		}
		e.must(200, req{Method: "POST", Path: tablePath(pub.ID, "start"), Token: ta}, &got)
		problemOf(t, e.must(409, req{Method: "POST", Path: tablePath(pub.ID, "start"), Token: ta}, nil), "conflict")
		// Leaving a running match forfeits it: TestTableAbandon.
		e.must(200, req{Method: "GET", Path: "/api/v1/tables?status=playing&mine=true", Token: tc}, &list)
		if list.Total != 1 || list.Items[0].ID != pub.ID {
			t.Errorf("Carla's playing tables: %+v", list)
		}
		problemOf(t, e.must(404, req{Method: "GET", Path: tablePath(999)}, nil), "not_found")
	})
}

// TestTableContinuesAfterRestart: a new server process over the same
// database (fresh services, nothing in memory) shows the same state and
// plays the table on to its end.
func TestTableContinuesAfterRestart(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		tb, tokens := twoHumans(e)
		c := chooser{rand.New(rand.NewPCG(5, 6))}
		play := func(e *env, n int) api.TableState {
			var st api.TableState
			for range n {
				st, _ = e.state(tokens[0], tb.ID)
				if st.Table.Status == "finished" {
					break
				}
				g, _ := serverGame(t, db, tb.ID)
				turn := st.View.Turn
				e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[turn],
					Body: moveBody(t, c.choose(g, turn), st.Version)}, nil)
			}
			return st
		}
		play(e, 15)
		before, bres := e.state(tokens[1], tb.ID)
		restarted := newEnv(t, db)
		after, ares := restarted.state(tokens[1], tb.ID)
		// Presence is each process's memory of its polls: the restarted
		// server has seen Tom poll just now, and Anna not at all.
		before.Presence, after.Presence = nil, nil
		if b, a := mustJSON(before), mustJSON(after); b != a || bres.Header.Get("ETag") != ares.Header.Get("ETag") {
			t.Fatalf("state after a restart differs:\n%s\n%s", b, a)
		}
		if after.Version != before.Version {
			t.Fatalf("version %d after restart, %d before", after.Version, before.Version)
		}
		if st := play(restarted, 2000); st.Table.Status != "finished" {
			t.Fatalf("the restarted table did not finish: %+v", st.Table)
		}
		var final api.TableState
		restarted.must(200, req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: tokens[0]}, &final)
		checkRecords(t, restarted, tokens[0], tb.ID, final.Deals)
	})
}

// TestTableBadInput sends bad bodies and ids to the tables' endpoints:
// each gets a 4xx problem with its code, never a 5xx.
func TestTableBadInput(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	tb, tokens := twoHumans(e)
	open := e.newTable(tokens[0], api.TableCreateRequest{Rules: "fibur", Players: 4})
	bodies := []struct{ name, body, contentType, code string }{
		{"malformed", `{"seat":`, "application/json", "malformed_json"},
		{"array", `[]`, "application/json", "malformed_json"},
		{"unknown field", `{"bogus":1}`, "application/json", "malformed_json"},
		{"wrong types", `{"seat":"x","rules":1,"version":"x","move":3}`, "application/json", "malformed_json"},
		{"trailing data", `{}x`, "application/json", "malformed_json"},
		{"huge", `{"rules":"` + strings.Repeat("x", 100<<10) + `"}`, "application/json", "request_too_large"},
		{"text/plain", `{}`, "text/plain", "unsupported_media_type"},
	}
	for _, path := range []string{"/api/v1/tables", tablePath(open.ID, "join"), tablePath(open.ID, "bots"), tablePath(tb.ID, "moves")} {
		for _, b := range bodies {
			t.Run(path+"/"+b.name, func(t *testing.T) {
				res := e.do(req{Method: "POST", Path: path, Body: b.body, Token: tokens[0], Header: map[string]string{"Content-Type": b.contentType}})
				problemOf(t, res, b.code)
				if res.Status < 400 || res.Status >= 500 {
					t.Fatalf("status %d", res.Status)
				}
			})
		}
	}
	for _, path := range []string{"/api/v1/tables/0", "/api/v1/tables/x/state", "/api/v1/tables/-1/deals", tablePath(tb.ID, "deals", "0", "record")} {
		problemOf(t, e.must(400, req{Method: "GET", Path: path, Token: tokens[0]}, nil), "invalid_parameter")
	}
	problemOf(t, e.must(404, req{Method: "GET", Path: tablePath(tb.ID, "deals", "9", "record"), Token: tokens[0]}, nil), "not_found")
	problemOf(t, e.must(404, req{Method: "POST", Path: tablePath(999, "moves"), Token: tokens[0], Body: `{"move":"draw","version":1}`}, nil), "not_found")
}

// TestTableLeakFreeOtherRuleSets plays a deal of fechado (only the pile's
// top card is public), fibur-row (public rows) and aberto against a bot,
// checking every state of the player and of a spectator. Under the race
// detector it plays fechado alone (raceSample).
func TestTableLeakFreeOtherRuleSets(t *testing.T) {
	t.Parallel()
	db := storetest.SQLite(t)
	e := newEnv(t, db)
	_, tok := e.user("sara@example.com", "Sara")
	_, spec := e.user("vito@example.com", "Vito")
	for i, rules := range raceSample([]string{"fechado", "fibur-row", "aberto"}, 0) {
		tb := e.newTable(tok.AccessToken, api.TableCreateRequest{Rules: rules, Players: 2, Match: &api.MatchFormat{Deals: 1}, AutoStart: true})
		e.must(200, req{Method: "POST", Path: tablePath(tb.ID, "bots"), Token: tok.AccessToken}, nil)
		final, _ := playHuman(t, e, db, tb.ID, tok.AccessToken, 0, chooser{rand.New(rand.NewPCG(uint64(i), 9))}, spec.AccessToken)
		if len(final.Deals) != 1 {
			t.Fatalf("%s deals: %+v", rules, final.Deals)
		}
		checkRecords(t, e, tok.AccessToken, tb.ID, final.Deals)
	}
}
