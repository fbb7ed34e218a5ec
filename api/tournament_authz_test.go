package api_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/domain/tourney"
)

// playFixture is the authorisation matrix's club for the tournament play
// routes: the callers of the matrix (the referee is a referee of club A,
// assigned to every tournament), a player who logs in, and a shared running
// tournament for the rows that only read or change nothing others see.
// Rows that move a tournament get a fresh one per caller, built by the
// domain as its owner to the state the row needs.
type playFixture struct {
	e          *env
	tokens     map[string]string
	owner      domain.Actor
	club       int64
	refereeID  int64
	player     domain.Actor // a user with a linked profile, playing in entry 1 of every tournament
	playerProf int64
	shared     fresh
	n          int
}

// fresh is a tournament built for a row: its id, and the table entry 1
// sits at in round 1 with that sheet's version (when drawn).
type fresh struct {
	id      int64
	table   int
	version int64
}

func newPlayFixture(e *env) *playFixture {
	e.t.Helper()
	ctx := context.Background()
	pf := &playFixture{e: e, tokens: map[string]string{}}
	pf.tokens[siteAdmin] = e.siteAdmin().AccessToken
	owner, _ := e.user("owner@play.example", "Owner")
	pf.owner = domain.Actor{UserID: owner.ID}
	club, err := e.svc.Clubs.Create(ctx, pf.owner, domain.ClubInput{Name: "Play Club"})
	if err != nil {
		e.t.Fatal(err)
	}
	pf.club = club.ID
	for caller, role := range map[string]domain.Role{member: domain.RoleMember, referee: domain.RoleReferee, clubAdmin: domain.RoleAdmin} {
		u, tok := e.user(caller+"@play.example", caller)
		pf.tokens[caller] = tok.AccessToken
		if _, err := e.svc.Clubs.AddMember(ctx, pf.owner, pf.club, u.ID, role); err != nil {
			e.t.Fatal(err)
		}
		if caller == referee {
			pf.refereeID = u.ID
		}
	}
	ownerB, _ := e.user("owner@other.example", "Owner B")
	clubB, err := e.svc.Clubs.Create(ctx, domain.Actor{UserID: ownerB.ID}, domain.ClubInput{Name: "Other Club"})
	if err != nil {
		e.t.Fatal(err)
	}
	adminB, tokB := e.user("admin@other.example", "Admin B")
	if _, err := e.svc.Clubs.AddMember(ctx, domain.Actor{UserID: ownerB.ID}, clubB.ID, adminB.ID, domain.RoleAdmin); err != nil {
		e.t.Fatal(err)
	}
	pf.tokens[otherAdmin] = tokB.AccessToken
	p, _ := e.user("player@play.example", "Player")
	pf.player = domain.Actor{UserID: p.ID}
	prof, err := e.svc.Players.Create(ctx, pf.player, domain.PlayerInput{Name: "Player", UserID: &p.ID})
	if err != nil {
		e.t.Fatal(err)
	}
	pf.playerProf = prof.ID
	pf.shared = pf.build("playing")
	return pf
}

func (pf *playFixture) act(id int64, who domain.Actor, cmd tourney.Command) domain.TournamentActed {
	pf.e.t.Helper()
	out, err := pf.e.svc.Play.Act(context.Background(), who, id, domain.TournamentCommand{Command: cmd})
	if err != nil {
		pf.e.t.Fatalf("%s: %v", cmd.CommandName(), err)
	}
	return out
}

func (pf *playFixture) clubPlayer() int64 {
	pf.e.t.Helper()
	pf.n++
	p, err := pf.e.svc.Players.Create(context.Background(), pf.owner, domain.PlayerInput{Name: fmt.Sprintf("Club player %d", pf.n), ClubID: &pf.club})
	if err != nil {
		pf.e.t.Fatal(err)
	}
	return p.ID
}

// playDeal is a deal every test table plays.
var playDeal = tourney.DealInput{Number: 1,
	NS: tourney.Parts{Cards: 300, Burraco: 200, Closing: 100, Total: 600},
	EW: tourney.Parts{Cards: 150, Hand: 40, Pot: 100, Total: 10}}

// playStates are the states build knows, in the order of the lifecycle.
var playStates = []string{"draft", "open", "reg_closed", "started", "drawn", "playing", "entered", "complete", "closed"}

// build is a fresh tournament of 4 pairs (entry 1 the player's), up to
// state.
func (pf *playFixture) build(state string) fresh {
	pf.e.t.Helper()
	ctx := context.Background()
	pf.n++
	t, err := pf.e.svc.Tournaments.Create(ctx, pf.owner, pf.club, domain.TournamentInput{Name: fmt.Sprintf("Play %d", pf.n),
		Rules: "fibur", PlayersPerTable: new(4), Kind: domain.PairsTournament, DealsPerRound: new(3),
		StartsAt: new(time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC)),
		Setup:    domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)}})
	if err != nil {
		pf.e.t.Fatal(err)
	}
	if _, err := pf.e.svc.Tournaments.AssignReferee(ctx, pf.owner, t.ID, pf.refereeID); err != nil {
		pf.e.t.Fatal(err)
	}
	f := fresh{id: t.ID, table: 1}
	steps := map[string]func(){
		"open": func() {
			pf.act(f.id, pf.owner, tourney.OpenRegistration{})
			pf.act(f.id, pf.owner, tourney.AddEntry{Players: []int64{pf.playerProf, pf.clubPlayer()}})
			for range 3 {
				pf.act(f.id, pf.owner, tourney.AddEntry{Players: []int64{pf.clubPlayer(), pf.clubPlayer()}})
			}
		},
		"reg_closed": func() { pf.act(f.id, pf.owner, tourney.CloseRegistration{}) },
		"started":    func() { pf.act(f.id, pf.owner, tourney.Start{}) },
		"drawn":      func() { pf.act(f.id, pf.owner, tourney.DrawRound{Round: 1}) },
		"playing":    func() { pf.act(f.id, pf.owner, tourney.StartRound{Round: 1}) },
		"entered": func() {
			pf.act(f.id, pf.player, tourney.EnterScore{Round: 1, Table: f.table, Version: f.version, Deals: []tourney.DealInput{playDeal}})
		},
		"complete": func() {
			read := pf.act(f.id, pf.owner, tourney.ConfirmScore{Round: 1, Table: f.table, Version: f.version})
			for _, tb := range read.Snapshot.Rounds[0].Tables {
				deals := []tourney.DealInput{playDeal, playDeal, playDeal}
				start := len(tb.Sheet.Deals)
				for i := range deals {
					deals[i].Number = i + 1
				}
				pf.act(f.id, pf.owner, tourney.EnterScore{Round: 1, Table: tb.Number, Version: tb.Sheet.Version, Deals: deals[start:]})
			}
		},
		"closed": func() { pf.act(f.id, pf.owner, tourney.CloseRound{Round: 1}) },
	}
	for _, s := range playStates[1:] {
		if state == "draft" {
			break
		}
		if steps[s] != nil {
			steps[s]()
			pf.locate(&f)
		}
		if s == state {
			break
		}
	}
	return f
}

// locate finds entry 1's table in round 1 and its sheet's version.
func (pf *playFixture) locate(f *fresh) {
	read, err := pf.e.svc.Play.Read(context.Background(), pf.owner, f.id)
	if err != nil {
		pf.e.t.Fatal(err)
	}
	if len(read.Snapshot.Rounds) == 0 {
		return
	}
	for _, tb := range read.Snapshot.Rounds[0].Tables {
		if tb.NS == 1 || tb.EW == 1 {
			f.table, f.version = tb.Number, tb.Sheet.Version
		}
	}
}

// playRoute is a row of the play matrix: the state of the tournament it
// needs ("" for the shared one), how to call it and the statuses.
type playRoute struct {
	name  string
	state string
	call  func(f fresh) req
	want  map[string]int
}

// staffOnly: the tournament's referee, the club's admin and a site admin
// get okStatus; a member of the club and another club's admin 403;
// anonymous 401.
func staffOnly(okStatus int) map[string]int {
	return all(http.StatusForbidden, map[string]int{anonymous: 401, referee: okStatus, clubAdmin: okStatus, siteAdmin: okStatus})
}

func sheetPath(f fresh, action string) string {
	if action == "" {
		return tpath(f.id, "rounds", 1, "tables", f.table)
	}
	return tpath(f.id, "rounds", 1, "tables", f.table, action)
}

var playMatrix = []playRoute{
	{"POST /lifecycle open_registration (draft)", "draft", func(f fresh) req {
		return req{Method: "POST", Path: tpath(f.id, "lifecycle"), Body: api.TournamentLifecycleRequest{Action: "open_registration"}}
	}, all(404, map[string]int{anonymous: 401, referee: 403, clubAdmin: 200, siteAdmin: 200})}, // the assigned referee sees the draft, does not open it
	{"POST /lifecycle close_registration (directors only)", "open", func(f fresh) req {
		return req{Method: "POST", Path: tpath(f.id, "lifecycle"), Body: api.TournamentLifecycleRequest{Action: "close_registration"}}
	}, adminsOnly(200)},
	{"POST /lifecycle start (staff)", "reg_closed", func(f fresh) req {
		return req{Method: "POST", Path: tpath(f.id, "lifecycle"), Body: api.TournamentLifecycleRequest{Action: "start"}}
	}, staffOnly(200)},
	{"GET /entries", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "entries")} }, all(200, nil)},
	{"GET /entries (draft)", "draft", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "entries")} },
		all(404, map[string]int{referee: 200, clubAdmin: 200, siteAdmin: 200})},
	{"POST /entries (another's pair: staff)", "open", func(f fresh) req {
		return req{Method: "POST", Path: tpath(f.id, "entries"), Body: api.TournamentEntryRequest{Players: []int64{9001, 9002}}}
	}, nil}, // filled in by playMatrixWants: the players are made per caller
	{"GET /entries/{id}", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "entries", 1)} }, all(200, nil)},
	{"PATCH /entries/{id}", "", func(f fresh) req {
		return req{Method: "PATCH", Path: tpath(f.id, "entries", 2), Body: api.TournamentEntryUpdateRequest{Name: new("Renamed")}}
	}, staffOnly(200)},
	{"POST /entries/{id}/check-in (another's entry)", "open", func(f fresh) req {
		return req{Method: "POST", Path: tpath(f.id, "entries", 2, "check-in")}
	}, staffOnly(200)},
	{"POST /entries/{id}/withdraw (running: staff)", "playing", func(f fresh) req {
		return req{Method: "POST", Path: tpath(f.id, "entries", 2, "withdraw"), Body: api.TournamentWithdrawRequest{Reason: "ill"}}
	}, staffOnly(200)},
	{"GET /entries/{id}/history", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "entries", 1, "history")} },
		all(200, nil)},
	{"GET /rounds", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "rounds")} }, all(200, nil)},
	{"POST /rounds", "started", func(f fresh) req { return req{Method: "POST", Path: tpath(f.id, "rounds")} }, staffOnly(201)},
	{"GET /rounds/{round}", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "rounds", 1)} }, all(200, nil)},
	{"PUT /rounds/{round}/pairings", "started", func(f fresh) req {
		return req{Method: "PUT", Path: tpath(f.id, "rounds", 1, "pairings"), Body: api.TournamentPairingsRequest{Reason: "by hand",
			Tables: []api.TournamentPairingTable{{Number: 1, NS: 1, EW: 4}, {Number: 2, NS: 2, EW: 3}}}}
	}, staffOnly(200)},
	{"POST /rounds/{round}/start", "drawn", func(f fresh) req { return req{Method: "POST", Path: tpath(f.id, "rounds", 1, "start")} },
		staffOnly(200)},
	{"POST /rounds/{round}/close", "complete", func(f fresh) req { return req{Method: "POST", Path: tpath(f.id, "rounds", 1, "close")} },
		staffOnly(200)},
	{"POST /rounds/{round}/reopen", "closed", func(f fresh) req {
		return req{Method: "POST", Path: tpath(f.id, "rounds", 1, "reopen"), Body: api.TournamentReasonRequest{Reason: "a late correction"}}
	}, staffOnly(200)},
	{"GET /rounds/{round}/tables/{table}", "", func(f fresh) req { return req{Method: "GET", Path: sheetPath(f, "")} }, all(200, nil)},
	{"POST .../scores (not at the table: staff)", "playing", func(f fresh) req {
		return req{Method: "POST", Path: sheetPath(f, "scores"), Body: api.TournamentScoresRequest{Version: f.version,
			Deals: []api.TournamentDealInput{{Number: 1, NS: parts(300, 200, 100, 0, 0), EW: parts(150, 0, 0, 40, 100)}}}}
	}, staffOnly(200)},
	{"POST .../confirm (not an opponent: staff)", "entered", func(f fresh) req {
		return req{Method: "POST", Path: sheetPath(f, "confirm"), Body: api.TournamentConfirmRequest{Version: f.version}}
	}, staffOnly(200)},
	{"POST .../corrections", "complete", func(f fresh) req {
		return req{Method: "POST", Path: sheetPath(f, "corrections"), Body: api.TournamentCorrectionRequest{Version: f.version,
			Deal: api.TournamentDealCorrection{Number: 1, NS: parts(300, 100, 100, 0, 0), EW: parts(150, 0, 0, 40, 100)}, Reason: "typo"}}
	}, staffOnly(200)},
	{"POST .../rulings", "playing", func(f fresh) req {
		return req{Method: "POST", Path: sheetPath(f, "rulings"), Body: api.TournamentRulingRequest{Kind: "late_arrival", Entry: 1, Deals: 2,
			Reason: "late"}}
	}, staffOnly(200)},
	{"POST /penalties", "", func(f fresh) req {
		return req{Method: "POST", Path: tpath(f.id, "penalties"), Body: api.TournamentPenaltyRequest{Entry: 2, VP: 1, Reason: "slow play"}}
	}, staffOnly(200)},
	{"PUT /forbidden", "", func(f fresh) req {
		return req{Method: "PUT", Path: tpath(f.id, "forbidden"), Body: api.TournamentForbiddenRequest{Pairs: [][]int64{{3, 4}}}}
	}, staffOnly(200)},
	{"GET /forbidden", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "forbidden")} }, staffOnly(200)},
	{"GET /standings", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "standings")} }, all(200, nil)},
	{"GET /phases", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "phases")} }, all(200, nil)},
	{"GET /phases/1/standings", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "phases", 1, "standings")} }, all(200, nil)},
	{"GET /audit", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "audit")} },
		all(403, map[string]int{anonymous: 401, referee: 200, clubAdmin: 200, siteAdmin: 200})},
	{"GET /export/standings.csv", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "export", "standings.csv")} }, all(200, nil)},
	{"GET /export/rounds.csv", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "export", "rounds.csv")} }, all(200, nil)},
	{"GET /export/sheets.csv", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "export", "sheets.csv")} }, all(200, nil)},
	{"GET /export/results.json", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "export", "results.json")} }, all(200, nil)},
	{"GET /export/federation.csv", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "export", "federation.csv")} }, all(200, nil)},
	{"GET /print/standings", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "print", "standings")} }, all(200, nil)},
	{"GET /print/tables", "", func(f fresh) req {
		return req{Method: "GET", Path: tpath(f.id, "print", "tables") + "?round=1&lang=it"}
	}, all(200, nil)},
	{"GET /print/results", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "print", "results") + "?lang=en"} }, all(200, nil)},
}

// TestPlayAuthorisationMatrix calls every tournament play route as every
// kind of caller and checks the status, on SQLite and PostgreSQL.
func TestPlayAuthorisationMatrix(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		pf := newPlayFixture(e)
		for _, rt := range playMatrix {
			for _, c := range callers {
				t.Run(rt.name+"/"+c, func(t *testing.T) {
					f, want := pf.shared, rt.want
					if rt.state != "" {
						f = pf.build(rt.state)
					}
					r := rt.call(f)
					if want == nil { // POST /entries: a pair of club players made for the call
						r.Body = api.TournamentEntryRequest{Players: []int64{pf.clubPlayer(), pf.clubPlayer()}}
						want = all(http.StatusForbidden, map[string]int{anonymous: 401, referee: 201, clubAdmin: 201, siteAdmin: 201})
					}
					r.Token = pf.tokens[c]
					res := e.do(r)
					if res.Status != want[c] {
						t.Fatalf("status %d, want %d; body: %s", res.Status, want[c], res.Body)
					}
					if res.Status >= 400 {
						problem(t, res)
					}
				})
			}
		}
	})
}

// TestPlayerChecksInOnlyTheirOwnEntry: a player, no referee, checks their
// own entry in and out before the start, and not another.
func TestPlayerChecksInOnlyTheirOwnEntry(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	pf := newPlayFixture(e)
	tok := e.login("player@play.example", "password-123").AccessToken
	open := pf.build("open")
	var entry api.TournamentEntry
	e.must(http.StatusOK, req{Method: "POST", Path: tpath(open.id, "entries", 1, "check-in"), Token: tok}, &entry)
	if !entry.CheckedIn || entry.FeePaid != nil {
		t.Errorf("checked in: %s", jsonOf(entry))
	}
	e.must(http.StatusOK, req{Method: "POST", Path: tpath(open.id, "entries", 1, "check-in"), Token: tok,
		Body: api.TournamentCheckInRequest{Undo: true}}, &entry)
	if entry.CheckedIn {
		t.Errorf("undone: %s", jsonOf(entry))
	}
	res := e.do(req{Method: "POST", Path: tpath(open.id, "entries", 2, "check-in"), Token: tok})
	if p := problem(t, res); res.Status != http.StatusForbidden || p.Code != "not_your_entry" {
		t.Errorf("another entry: %d %s", res.Status, p.Code)
	}
}

// playMatrixRequests is a request of every row, for the check that every
// route has a row (TestAuthorisationMatrixCoversEveryRoute).
func playMatrixRequests() map[string]req {
	out := map[string]req{}
	for _, rt := range playMatrix {
		out[rt.name] = rt.call(fresh{id: 4, table: 1, version: 1})
	}
	return out
}
