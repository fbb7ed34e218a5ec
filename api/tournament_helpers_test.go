package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
)

// tourneyEnv is a club for whole tournaments through the API: its owner
// directs, one club referee is assigned to each tournament, and players log
// in as users with linked player profiles.
type tourneyEnv struct {
	*env
	club       int64
	owner      domain.Actor
	director   string // the owner's access token
	refereeID  int64
	referee    string
	member     string // a member of the club who plays in nothing
	seq        int
	tokenOf    map[int64]string // player profile → its user's token
	nameOf     map[int64]string
	playerUser map[int64]int64 // player profile → user id
}

func newTourneyEnv(t *testing.T, db *store.DB) *tourneyEnv {
	t.Helper()
	return tourneyEnvOn(t, newEnv(t, db))
}

// tourneyEnvOn is newTourneyEnv on a server of the test's choosing.
func tourneyEnvOn(t testing.TB, e *env) *tourneyEnv {
	t.Helper()
	te := &tourneyEnv{env: e, tokenOf: map[int64]string{}, nameOf: map[int64]string{}, playerUser: map[int64]int64{}}
	owner, tok := e.user("director@club.example", "Direttore")
	te.owner, te.director = domain.Actor{UserID: owner.ID}, tok.AccessToken
	var club api.Club
	e.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/clubs", Token: te.director,
		Body: api.ClubCreateRequest{Name: "Circolo del Burraco", City: "Roma"}}, &club)
	te.club = club.ID
	ref, refTok := e.user("arbitro@club.example", "Arbitro")
	te.refereeID, te.referee = ref.ID, refTok.AccessToken
	te.addMember(ref.ID, domain.RoleReferee)
	m, mTok := e.user("socio@club.example", "Socio")
	te.member = mTok.AccessToken
	te.addMember(m.ID, domain.RoleMember)
	return te
}

func (te *tourneyEnv) addMember(userID int64, role domain.Role) {
	te.t.Helper()
	if _, err := te.svc.Clubs.AddMember(context.Background(), te.owner, te.club, userID, role); err != nil {
		te.t.Fatal(err)
	}
}

// player is a player profile of the club; with login, a user who logs in
// and created the profile as their own.
func (te *tourneyEnv) player(name string, login bool) int64 {
	te.t.Helper()
	te.seq++
	if !login {
		var p api.Player
		te.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/players", Token: te.director,
			Body: api.PlayerCreateRequest{Name: name, ClubID: &te.club}}, &p)
		te.nameOf[p.ID] = name
		return p.ID
	}
	u, tok := te.user(fmt.Sprintf("player%d@club.example", te.seq), name)
	var p api.Player
	te.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/players", Token: tok.AccessToken,
		Body: api.PlayerCreateRequest{Name: name, UserID: &u.ID}}, &p)
	te.tokenOf[p.ID], te.nameOf[p.ID], te.playerUser[p.ID] = tok.AccessToken, name, u.ID
	return p.ID
}

// tournament creates a draft tournament of the club with the set-up, by
// the domain (its set-up fields are not part of this package's routes),
// and assigns the referee.
func (te *tourneyEnv) tournament(kind domain.TournamentKind, deals int, setup domain.SetupInput) int64 {
	te.t.Helper()
	ctx := context.Background()
	te.seq++
	t, err := te.svc.Tournaments.Create(ctx, te.owner, te.club, domain.TournamentInput{
		Name: fmt.Sprintf("Torneo %d", te.seq), Rules: "fibur", PlayersPerTable: new(4), Kind: kind,
		DealsPerRound: &deals, StartsAt: new(te.clock.Now().AddDate(0, 0, 7)), Setup: setup})
	if err != nil {
		te.t.Fatal(err)
	}
	if _, err := te.svc.Tournaments.AssignReferee(ctx, te.owner, t.ID, te.refereeID); err != nil {
		te.t.Fatal(err)
	}
	return t.ID
}

func tpath(id int64, parts ...any) string {
	p := fmt.Sprintf("/api/v1/tournaments/%d", id)
	for _, x := range parts {
		p += fmt.Sprintf("/%v", x)
	}
	return p
}

// lifecycle moves the tournament as the caller.
func (te *tourneyEnv) lifecycle(id int64, token, action string) api.TournamentProgress {
	te.t.Helper()
	var p api.TournamentProgress
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "lifecycle"), Token: token,
		Body: api.TournamentLifecycleRequest{Action: action, Reason: "test"}}, &p)
	return p
}

// enter enters an entry of players as the caller.
func (te *tourneyEnv) enter(id int64, token string, players ...int64) api.TournamentEntry {
	te.t.Helper()
	var e api.TournamentEntry
	te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "entries"), Token: token,
		Body: api.TournamentEntryRequest{Players: players}}, &e)
	return e
}

// pairs enters n pairs as the director, each of a player who logs in and a
// partner who does not; it returns the entries.
func (te *tourneyEnv) pairs(id int64, n int) []api.TournamentEntry {
	te.t.Helper()
	var out []api.TournamentEntry
	for i := range n {
		a := te.player(fmt.Sprintf("Giocatore %d-A", i+1), true)
		b := te.player(fmt.Sprintf("Giocatore %d-B", i+1), false)
		out = append(out, te.enter(id, te.director, a, b))
	}
	return out
}

// start closes registration and starts the tournament (from
// registration_open or draft).
func (te *tourneyEnv) start(id int64) {
	te.t.Helper()
	te.lifecycle(id, te.director, "close_registration")
	te.lifecycle(id, te.referee, "start")
}

// draw draws the next round and starts it.
func (te *tourneyEnv) draw(id int64) api.TournamentRound {
	te.t.Helper()
	var r api.TournamentRound
	te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee}, &r)
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", r.Number, "start"), Token: te.referee}, &r)
	return r
}

func (te *tourneyEnv) round(id int64, n int) api.TournamentRound {
	te.t.Helper()
	var r api.TournamentRound
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "rounds", n)}, &r)
	return r
}

func (te *tourneyEnv) closeRound(id int64, n int) {
	te.t.Helper()
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", n, "close"), Token: te.referee}, nil)
}

func (te *tourneyEnv) standings(id int64) api.TournamentStandings {
	te.t.Helper()
	var s api.TournamentStandings
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "standings")}, &s)
	return s
}

// table reads a table and its ETag.
func (te *tourneyEnv) table(id int64, round, table int) (api.TournamentTable, string) {
	te.t.Helper()
	var t api.TournamentTable
	res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "rounds", round, "tables", table)}, &t)
	return t, res.Header.Get("ETag")
}

// scores enters deals at a table as the caller, with the table's ETag in
// If-Match; it returns the table after.
func (te *tourneyEnv) scores(id int64, round, table int, token string, deals ...api.TournamentDealInput) api.TournamentTable {
	te.t.Helper()
	_, etag := te.table(id, round, table)
	var t api.TournamentTable
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", round, "tables", table, "scores"), Token: token,
		Header: map[string]string{"If-Match": etag}, Body: api.TournamentScoresRequest{Deals: deals}}, &t)
	return t
}

// confirm confirms every entered deal of a table as the caller.
func (te *tourneyEnv) confirm(id int64, round, table int, token string) api.TournamentTable {
	te.t.Helper()
	_, etag := te.table(id, round, table)
	var t api.TournamentTable
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", round, "tables", table, "confirm"), Token: token,
		Header: map[string]string{"If-Match": etag}}, &t)
	return t
}

// audit reads the whole audit trail as the referee.
func (te *tourneyEnv) audit(id int64) []api.TournamentAuditEvent {
	te.t.Helper()
	var l api.TournamentAuditList
	te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "audit") + "?limit=500", Token: te.referee}, &l)
	return l.Items
}

// parts is one side's score with its total.
func parts(cards, burraco, closing, hand, pot int) api.TournamentParts {
	return api.TournamentParts{Cards: cards, Burraco: burraco, Closing: closing, Hand: hand, Pot: pot,
		Total: cards + burraco + closing - hand - pot}
}

// randomDeal is a plausible deal of number n: one side closes, the other
// keeps cards in hand and sometimes has not taken its pot.
func randomDeal(rnd *rand.Rand, n int) api.TournamentDealInput {
	closer := parts(5*rnd.IntN(60)+100, 50*rnd.IntN(8), 100, 0, 0)
	other := parts(5*rnd.IntN(50)+20, 50*rnd.IntN(4), 0, 5*rnd.IntN(30), 100*rnd.IntN(2))
	if rnd.IntN(2) == 0 {
		return api.TournamentDealInput{Number: n, NS: closer, EW: other}
	}
	return api.TournamentDealInput{Number: n, NS: other, EW: closer}
}

// newRand is the tests' deterministic random source.
func newRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// randomDeals is a table's deals 1..n.
func randomDeals(rnd *rand.Rand, n int) []api.TournamentDealInput {
	out := make([]api.TournamentDealInput, n)
	for i := range out {
		out[i] = randomDeal(rnd, i+1)
	}
	return out
}

// vp3 is RULES §10's 3-deal VP table, written out here so that the tests
// check the server's conversion rather than repeat it: the winner's VP of an
// MP difference.
func vp3(diff int) (winner, loser int) {
	bands := []struct{ to, w int }{{50, 10}, {150, 11}, {250, 12}, {350, 13}, {500, 14}, {650, 15},
		{800, 16}, {1000, 17}, {1250, 18}, {1500, 19}}
	if diff < 0 {
		diff = -diff
	}
	for _, b := range bands {
		if diff <= b.to {
			return b.w, 20 - b.w
		}
	}
	return 20, 0
}

// vpOf is the VP of both sides of MP totals by the 3-deal table.
func vpOf(ns, ew int) (int, int) {
	w, l := vp3(ns - ew)
	if ns >= ew {
		return w, l
	}
	return l, w
}

// problemCode sends r, checks the status and returns the problem.
func (te *tourneyEnv) problem(status int, r req) api.Problem {
	te.t.Helper()
	res := te.do(r)
	if res.Status != status {
		te.t.Fatalf("%s %s: status %d, want %d; body: %s", r.Method, r.Path, res.Status, status, res.Body)
	}
	return problem(te.t.(*testing.T), res)
}

// tokenOfEntry is the token of the entry's player who logs in ("" when
// none does).
func (te *tourneyEnv) tokenOfEntry(e api.TournamentEntryRef, entries []api.TournamentEntry) string {
	for _, x := range entries {
		if x.ID != e.ID {
			continue
		}
		for _, p := range x.Players {
			if tok := te.tokenOf[p.ID]; tok != "" {
				return tok
			}
		}
	}
	return ""
}

// jsonOf is v as indented JSON, for failure messages.
func jsonOf(v any) string {
	b, _ := json.MarshalIndent(v, "", " ")
	return strings.TrimSpace(string(b))
}
