package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/domain/tourney"
)

// The callers of the authorisation matrix.
const (
	anonymous  = "anonymous"
	member     = "member"
	referee    = "referee"
	clubAdmin  = "club_admin"
	otherAdmin = "other_club_admin"
	siteAdmin  = "site_admin"
)

var callers = []string{anonymous, member, referee, clubAdmin, otherAdmin, siteAdmin}

// fixture is club A with a member, a referee and an admin; club B with its
// own admin; a site admin; and, per caller, a fresh user to add to A, a
// member of A to remove, a player of A and a draft tournament of A to
// delete, so that every cell of the matrix starts from the same state.
type fixture struct {
	tokens      map[string]string
	clubA       int64
	victim      int64 // a member of A whose role the callers try to change
	plain       int64 // a member of A who stays a plain member
	player      int64 // a player of A without a login
	published   int64 // a tournament of A open for registration
	refereeID   int64 // the user of the referee caller
	draft       int64 // a draft tournament of A
	toAdd       map[string]int64
	toRemove    map[string]int64
	toDelete    map[string]int64
	toDeleteTnm map[string]int64  // draft tournaments of A
	toLogout    map[string]string // a live refresh token per caller
	table       int64             // an open public table of the owner of A (seat 0), 3 seats free
	playing     int64             // a playing table of the owner of A against a bot
	toJoin      map[string]int64  // open public tables, one per caller
	toTimeOut   map[string]int64  // playing tables of club A (its owner against a bot), one per caller
	toStandIn   map[string]int64  // playing tables of club A (its owner against a bot, one deal), one per caller
	season      int64             // a season of A (season_authz_test.go)
	seasonOf    map[string]int64  // seasons of A, one per caller, with the published tournament excluded
	joining     joiningFixture    // invitations and claim codes (joining_authz_test.go)
}

// loginEmail is the account every caller logs in to in the matrix.
const loginEmail = "login@a.example"

func newFixture(e *env) *fixture {
	e.t.Helper()
	ctx := context.Background()
	f := &fixture{tokens: map[string]string{}, toAdd: map[string]int64{}, toRemove: map[string]int64{}, toDelete: map[string]int64{},
		toDeleteTnm: map[string]int64{}, toLogout: map[string]string{}}
	f.tokens[siteAdmin] = e.siteAdmin().AccessToken
	owner, ownerTok := e.user("owner@a.example", "Owner A")
	var club api.Club
	e.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/clubs", Token: ownerTok.AccessToken,
		Body: api.ClubCreateRequest{Name: "Club A", City: "Roma"}}, &club)
	f.clubA = club.ID
	ownerActor := domain.Actor{UserID: owner.ID}
	add := func(clubID int64, email string, role domain.Role, by domain.Actor) int64 {
		u, err := e.svc.Auth.Register(ctx, domain.RegisterInput{Email: email, Password: "password-123", Name: email})
		if err != nil {
			e.t.Fatal(err)
		}
		if role != "" {
			if _, err := e.svc.Clubs.AddMember(ctx, by, clubID, u.ID, role); err != nil {
				e.t.Fatal(err)
			}
		}
		return u.ID
	}
	for caller, role := range map[string]domain.Role{member: domain.RoleMember, referee: domain.RoleReferee, clubAdmin: domain.RoleAdmin} {
		id := add(f.clubA, caller+"@a.example", role, ownerActor)
		if caller == referee {
			f.refereeID = id
		}
		f.tokens[caller] = e.login(caller+"@a.example", "password-123").AccessToken
	}
	ownerB, _ := e.user("owner@b.example", "Owner B")
	clubB, err := e.svc.Clubs.Create(ctx, domain.Actor{UserID: ownerB.ID}, domain.ClubInput{Name: "Club B"})
	if err != nil {
		e.t.Fatal(err)
	}
	add(clubB.ID, "admin@b.example", domain.RoleAdmin, domain.Actor{UserID: ownerB.ID})
	f.tokens[otherAdmin] = e.login("admin@b.example", "password-123").AccessToken
	f.victim = add(f.clubA, "victim@a.example", domain.RoleMember, ownerActor)
	f.plain = add(f.clubA, "plain@a.example", domain.RoleMember, ownerActor)
	f.player = f.newPlayer(e, ownerActor, "Guest")
	f.draft = f.newTournament(e, ownerActor, "Draft")
	f.published = f.newTournament(e, ownerActor, "Published")
	if _, err := e.svc.Play.Act(ctx, ownerActor, f.published, domain.TournamentCommand{Command: tourney.OpenRegistration{}}); err != nil {
		e.t.Fatal(err)
	}
	for _, c := range callers {
		f.toAdd[c] = add(0, "add-"+c+"@a.example", "", ownerActor)
		f.toRemove[c] = add(f.clubA, "remove-"+c+"@a.example", domain.RoleMember, ownerActor)
		f.toDelete[c] = f.newPlayer(e, ownerActor, "Delete "+c)
		f.toDeleteTnm[c] = f.newTournament(e, ownerActor, "Delete "+c)
	}
	f.table, f.playing, f.toJoin = newTable(e, ownerActor, 4), newTable(e, ownerActor, 2), map[string]int64{}
	if _, err := e.svc.Tables.AddBot(ctx, ownerActor, f.playing, nil); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.svc.Tables.Start(ctx, ownerActor, f.playing); err != nil {
		e.t.Fatal(err)
	}
	f.toTimeOut, f.toStandIn = map[string]int64{}, map[string]int64{}
	for _, c := range callers {
		f.toJoin[c] = newTable(e, ownerActor, 4)
		f.toTimeOut[c] = newPlayingTable(e, ownerActor, &f.clubA)
		f.toStandIn[c] = newPlayingTable(e, ownerActor, &f.clubA, domain.MatchFormat{Deals: 1})
	}
	f.newSeasons(e, ownerActor)
	f.newJoining(e, ownerActor)
	add(0, loginEmail, "", ownerActor)
	for _, c := range callers {
		f.toLogout[c] = e.login(loginEmail, "password-123").RefreshToken
	}
	return f
}

func (f *fixture) newTournament(e *env, by domain.Actor, name string) int64 {
	t, err := e.svc.Tournaments.Create(context.Background(), by, f.clubA, domain.TournamentInput{Name: name,
		Rules: "fibur", PlayersPerTable: new(4), Kind: domain.PairsTournament, StartsAt: new(e.clock.Now().AddDate(0, 0, 7))})
	if err != nil {
		e.t.Fatal(err)
	}
	return t.ID
}

func newTable(e *env, by domain.Actor, players int) int64 {
	t, err := e.svc.Tables.Create(context.Background(), by, domain.TableInput{Rules: "fibur", Players: players})
	if err != nil {
		e.t.Fatal(err)
	}
	return t.ID
}

// newPlayingTable returns a started 2-seat table of by against a bot, of
// the club when clubID is set.
func newPlayingTable(e *env, by domain.Actor, clubID *int64, match ...domain.MatchFormat) int64 {
	ctx := context.Background()
	in := domain.TableInput{Rules: "fibur", Players: 2, ClubID: clubID}
	if len(match) > 0 {
		in.Match = match[0]
	}
	t, err := e.svc.Tables.Create(ctx, by, in)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.svc.Tables.AddBot(ctx, by, t.ID, nil); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.svc.Tables.Start(ctx, by, t.ID); err != nil {
		e.t.Fatal(err)
	}
	return t.ID
}

func (f *fixture) newPlayer(e *env, by domain.Actor, name string) int64 {
	p, err := e.svc.Players.Create(context.Background(), by, domain.PlayerInput{Name: name, ClubID: &f.clubA})
	if err != nil {
		e.t.Fatal(err)
	}
	return p.ID
}

// route is one endpoint of the matrix: how to call it as a caller, and the
// status each caller must get.
type route struct {
	name string
	call func(f *fixture, caller string) req
	want map[string]int
}

// all gives every caller the same status except those listed.
func all(status int, except map[string]int) map[string]int {
	m := map[string]int{}
	for _, c := range callers {
		m[c] = status
	}
	for c, s := range except {
		m[c] = s
	}
	return m
}

// draftAdminsOnly: what adminsOnly is for a draft, which only the admins may
// see: 404 instead of 403.
func draftAdminsOnly(okStatus int) map[string]int {
	return all(http.StatusNotFound, map[string]int{anonymous: 401, clubAdmin: okStatus, siteAdmin: okStatus})
}

// adminsOnly: 401 anonymous, okStatus for the club admin and site admin,
// 403 for the rest.
func adminsOnly(okStatus int) map[string]int {
	return all(http.StatusForbidden, map[string]int{anonymous: 401, clubAdmin: okStatus, siteAdmin: okStatus})
}

var matrix = []route{
	// The auth endpoints ignore the Authorization header: every caller gets
	// the same answer.
	{"POST /auth/register", func(f *fixture, c string) req {
		return req{Method: "POST", Path: "/api/v1/auth/register",
			Body: api.RegisterRequest{Email: "register-" + c + "@a.example", Password: "password-123", Name: "Registered by " + c}}
	}, all(201, nil)},
	{"POST /auth/login", func(f *fixture, c string) req {
		return req{Method: "POST", Path: "/api/v1/auth/login", Body: api.LoginRequest{Email: loginEmail, Password: "password-123"}}
	}, all(200, nil)},
	{"POST /auth/refresh (a bogus token)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: "/api/v1/auth/refresh", Body: api.RefreshRequest{RefreshToken: "bogus-refresh-token-of-" + c}}
	}, all(401, nil)},
	{"POST /auth/logout", func(f *fixture, c string) req {
		return req{Method: "POST", Path: "/api/v1/auth/logout", Body: api.RefreshRequest{RefreshToken: f.toLogout[c]}}
	}, all(204, nil)},
	{"GET /rules", func(f *fixture, c string) req { return req{Method: "GET", Path: "/api/v1/rules"} },
		all(200, nil)},
	{"GET /rules/{ruleSet}", func(f *fixture, c string) req { return req{Method: "GET", Path: "/api/v1/rules/fechado"} },
		all(200, nil)},
	{"GET /me", func(f *fixture, c string) req { return req{Method: "GET", Path: "/api/v1/me"} },
		all(200, map[string]int{anonymous: 401})},
	{"GET /me/clubs", func(f *fixture, c string) req { return req{Method: "GET", Path: "/api/v1/me/clubs"} },
		all(200, map[string]int{anonymous: 401})},
	{"GET /me/tournaments", func(f *fixture, c string) req { return req{Method: "GET", Path: "/api/v1/me/tournaments"} },
		all(200, map[string]int{anonymous: 401})},
	{"GET /clubs", func(f *fixture, c string) req { return req{Method: "GET", Path: "/api/v1/clubs?q=club"} },
		all(200, nil)},
	{"POST /clubs", func(f *fixture, c string) req {
		return req{Method: "POST", Path: "/api/v1/clubs", Body: api.ClubCreateRequest{Name: "New club of " + c}}
	}, all(201, map[string]int{anonymous: 401})},
	{"GET /clubs/{id}", func(f *fixture, c string) req { return req{Method: "GET", Path: clubPath(f)} },
		all(200, nil)},
	{"PATCH /clubs/{id}", func(f *fixture, c string) req {
		city := "Milano"
		return req{Method: "PATCH", Path: clubPath(f), Body: api.ClubUpdateRequest{City: &city}}
	}, adminsOnly(200)},
	{"GET /clubs/{id}/members", func(f *fixture, c string) req {
		return req{Method: "GET", Path: clubPath(f) + "/members?role=member"}
	}, all(200, map[string]int{anonymous: 401, otherAdmin: 403})},
	{"POST /clubs/{id}/members", func(f *fixture, c string) req {
		return req{Method: "POST", Path: clubPath(f) + "/members", Body: api.MemberAddRequest{UserID: new(f.toAdd[c]), Role: "member"}}
	}, adminsOnly(201)},
	{"PATCH /clubs/{id}/members/{userID}", func(f *fixture, c string) req {
		return req{Method: "PATCH", Path: fmt.Sprintf("%s/members/%d", clubPath(f), f.victim), Body: api.MemberUpdateRequest{Role: "referee"}}
	}, adminsOnly(200)},
	{"DELETE /clubs/{id}/members/{userID}", func(f *fixture, c string) req {
		return req{Method: "DELETE", Path: fmt.Sprintf("%s/members/%d", clubPath(f), f.toRemove[c])}
	}, adminsOnly(204)},
	{"GET /players", func(f *fixture, c string) req {
		return req{Method: "GET", Path: fmt.Sprintf("/api/v1/players?club_id=%d&limit=5", f.clubA)}
	}, all(200, nil)},
	{"POST /players (a player of club A)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: "/api/v1/players", Body: api.PlayerCreateRequest{Name: "Walk-in " + c, ClubID: &f.clubA}}
	}, adminsOnly(201)},
	{"GET /players/{id}", func(f *fixture, c string) req { return req{Method: "GET", Path: playerPath(f.player)} },
		all(200, nil)},
	{"PATCH /players/{id}", func(f *fixture, c string) req {
		name := "Guest of " + c
		return req{Method: "PATCH", Path: playerPath(f.player), Body: api.PlayerUpdateRequest{Name: &name}}
	}, adminsOnly(200)},
	{"DELETE /players/{id}", func(f *fixture, c string) req { return req{Method: "DELETE", Path: playerPath(f.toDelete[c])} },
		adminsOnly(204)},
	{"GET /tournaments", func(f *fixture, c string) req {
		return req{Method: "GET", Path: fmt.Sprintf("/api/v1/tournaments?club_id=%d&limit=5", f.clubA)}
	}, all(200, nil)},
	{"POST /clubs/{id}/tournaments", func(f *fixture, c string) req {
		return req{Method: "POST", Path: clubPath(f) + "/tournaments", Body: api.TournamentCreateRequest{Name: "Torneo of " + c,
			Rules: "fibur", PlayersPerTable: new(4), Kind: "pairs", StartsAt: new(time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC))}}
	}, adminsOnly(201)},
	{"GET /tournaments/{id} (published)", func(f *fixture, c string) req {
		return req{Method: "GET", Path: tournamentPath(f.published)}
	}, all(200, nil)},
	{"GET /tournaments/{id} (draft)", func(f *fixture, c string) req {
		return req{Method: "GET", Path: tournamentPath(f.draft)}
	}, all(404, map[string]int{clubAdmin: 200, siteAdmin: 200})},
	{"PATCH /tournaments/{id} (published)", func(f *fixture, c string) req {
		desc := "Edited by " + c
		return req{Method: "PATCH", Path: tournamentPath(f.published), Body: api.TournamentUpdateRequest{Description: &desc}}
	}, adminsOnly(200)},
	{"PATCH /tournaments/{id} (draft)", func(f *fixture, c string) req {
		desc := "Edited by " + c
		return req{Method: "PATCH", Path: tournamentPath(f.draft), Body: api.TournamentUpdateRequest{Description: &desc}}
	}, draftAdminsOnly(200)},
	{"DELETE /tournaments/{id} (draft)", func(f *fixture, c string) req {
		return req{Method: "DELETE", Path: tournamentPath(f.toDeleteTnm[c])}
	}, draftAdminsOnly(204)},
	{"DELETE /tournaments/{id} (published: 409 for the admins)", func(f *fixture, c string) req {
		return req{Method: "DELETE", Path: tournamentPath(f.published)}
	}, adminsOnly(409)},
	{"GET /tournaments/{id}/referees (published)", func(f *fixture, c string) req {
		return req{Method: "GET", Path: tournamentPath(f.published) + "/referees"}
	}, all(200, nil)},
	{"GET /tournaments/{id}/referees (draft)", func(f *fixture, c string) req {
		return req{Method: "GET", Path: tournamentPath(f.draft) + "/referees"}
	}, all(404, map[string]int{clubAdmin: 200, siteAdmin: 200})},
	{"PUT /tournaments/{id}/referees/{user} (published)", func(f *fixture, c string) req {
		return req{Method: "PUT", Path: fmt.Sprintf("%s/referees/%d", tournamentPath(f.published), f.refereeID)}
	}, adminsOnly(200)},
	{"PUT /tournaments/{id}/referees/{user} (draft)", func(f *fixture, c string) req {
		return req{Method: "PUT", Path: fmt.Sprintf("%s/referees/%d", tournamentPath(f.draft), f.refereeID)}
	}, draftAdminsOnly(200)},
	{"PUT /tournaments/{id}/referees/{user} (a plain member: 422 for the admins)", func(f *fixture, c string) req {
		return req{Method: "PUT", Path: fmt.Sprintf("%s/referees/%d", tournamentPath(f.published), f.plain)}
	}, adminsOnly(422)},
	{"DELETE /tournaments/{id}/referees/{user} (published)", func(f *fixture, c string) req {
		return req{Method: "DELETE", Path: fmt.Sprintf("%s/referees/%d", tournamentPath(f.published), f.refereeID)}
	}, adminsOnly(204)},
	{"DELETE /tournaments/{id}/referees/{user} (draft)", func(f *fixture, c string) req {
		return req{Method: "DELETE", Path: fmt.Sprintf("%s/referees/%d", tournamentPath(f.draft), f.refereeID)}
	}, draftAdminsOnly(204)},
	{"GET /tables", func(f *fixture, c string) req { return req{Method: "GET", Path: "/api/v1/tables?open_seats=true"} },
		all(200, nil)},
	{"POST /tables", func(f *fixture, c string) req {
		return req{Method: "POST", Path: "/api/v1/tables", Body: api.TableCreateRequest{Rules: "fibur", Players: 2}}
	}, all(201, map[string]int{anonymous: 401})},
	{"GET /tables/{id}", func(f *fixture, c string) req { return req{Method: "GET", Path: tablePath(f.table)} },
		all(200, nil)},
	{"POST /tables/{id}/join", func(f *fixture, c string) req { return req{Method: "POST", Path: tablePath(f.toJoin[c], "join")} },
		all(200, map[string]int{anonymous: 401})},
	{"POST /tables/{id}/leave (not seated)", func(f *fixture, c string) req { return req{Method: "POST", Path: tablePath(f.table, "leave")} },
		all(409, map[string]int{anonymous: 401})},
	{"POST /tables/{id}/bots (creator only)", func(f *fixture, c string) req { return req{Method: "POST", Path: tablePath(f.table, "bots")} },
		all(403, map[string]int{anonymous: 401, siteAdmin: 200})},
	{"POST /tables/{id}/start (creator only; not full)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: tablePath(f.toJoin[c], "start")}
	}, all(403, map[string]int{anonymous: 401, siteAdmin: 409})},
	{"POST /tables/{id}/cancel (creator only)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: tablePath(f.toJoin[c], "cancel")}
	}, all(403, map[string]int{anonymous: 401, siteAdmin: 200})},
	{"GET /tables/{id}/state", func(f *fixture, c string) req { return req{Method: "GET", Path: tablePath(f.playing, "state")} },
		all(200, nil)},
	{"POST /tables/{id}/moves (not seated)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: tablePath(f.playing, "moves"), Body: `{"move":"draw","version":1}`}
	}, all(403, map[string]int{anonymous: 401})},
	{"GET /tables/{id}/events (a stream, cut after 50 ms)", func(f *fixture, c string) req {
		return req{Method: "GET", Path: tablePath(f.playing, "events"), Timeout: 50 * time.Millisecond}
	}, all(200, nil)},
	{"GET /tables/{id}/deals", func(f *fixture, c string) req { return req{Method: "GET", Path: tablePath(f.playing, "deals")} },
		all(200, nil)},
	{"GET /tables/{id}/moves (each sees only its own draws)", func(f *fixture, c string) req {
		return req{Method: "GET", Path: tablePath(f.playing, "moves")}
	}, all(200, nil)},
	{"GET /tables/{id}/deals/{n}/record (players only; running)", func(f *fixture, c string) req {
		return req{Method: "GET", Path: tablePath(f.playing, "deals", "1", "record")}
	}, all(403, map[string]int{anonymous: 401, siteAdmin: 409})},
	{"POST /tables/{id}/timeout (friendly table: its creator)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: tablePath(f.playing, "timeout")}
	}, all(403, map[string]int{anonymous: 401, siteAdmin: 200})},
	{"POST /tables/{id}/timeout (club table: its referees and admins)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: tablePath(f.toTimeOut[c], "timeout")}
	}, all(403, map[string]int{anonymous: 401, referee: 200, clubAdmin: 200, siteAdmin: 200})},
	{"POST /tables/{id}/stand-ins (club table: its referees and admins)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: tablePath(f.toStandIn[c], "stand-ins"), Body: `{"seat":0,"reason":"gone"}`}
	}, all(403, map[string]int{anonymous: 401, referee: 200, clubAdmin: 200, siteAdmin: 200})},
	{"POST /tables/{id}/claim (seated players only)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: tablePath(f.playing, "claim")}
	}, all(403, map[string]int{anonymous: 401})},
	{"POST /tables/{id}/abort (seated players only)", func(f *fixture, c string) req {
		return req{Method: "POST", Path: tablePath(f.playing, "abort")}
	}, all(403, map[string]int{anonymous: 401})},
}

func clubPath(f *fixture) string     { return fmt.Sprintf("/api/v1/clubs/%d", f.clubA) }
func playerPath(id int64) string     { return fmt.Sprintf("/api/v1/players/%d", id) }
func tournamentPath(id int64) string { return fmt.Sprintf("/api/v1/tournaments/%d", id) }

// TestAuthorisationMatrix calls every route as every kind of caller and
// checks the status: the roles are enforced by the real services through
// the real router, on SQLite and PostgreSQL.
func TestAuthorisationMatrix(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnvServices(t, db, domain.Config{MaxOpenTables: -1}) // the fixture's owner creates a table per caller and row
		f := newFixture(e)
		for _, rt := range matrix {
			for _, c := range callers {
				t.Run(rt.name+"/"+c, func(t *testing.T) {
					r := rt.call(f, c)
					r.Token = f.tokens[c]
					res := e.do(r)
					if want := rt.want[c]; res.Status != want {
						t.Fatalf("status %d, want %d; body: %s", res.Status, want, res.Body)
					}
					if res.Status >= 400 {
						problem(t, res)
					}
				})
			}
		}
	})
}

// matrixExempt are the routes outside /api/v1, which the matrix leaves out:
// anyone may call them and they touch no data.
var matrixExempt = map[string]bool{
	"GET /healthz":      true,
	"GET /readyz":       true,
	"GET /openapi.yaml": true,
	"GET /openapi.json": true,
	"GET /":             true, // a redirect to /app/
	"GET /docs":         true, // and /docs/ and each Swagger UI file under it
	// The pages for people (api/pages): public code; what they show comes
	// from /api/v1 under its own authorisation.
	"GET /app":         true,
	"GET /app/*":       true,
	"GET /favicon.ico": true,
}

// TestAuthorisationMatrixCoversEveryRoute walks the real router: every
// method and route under /api/v1 must be called by a row of the matrix, so
// that a new endpoint cannot ship without its authorisation being pinned
// down; every route outside /api/v1 must be listed in matrixExempt.
func TestAuthorisationMatrixCoversEveryRoute(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	mux := e.h.(chi.Routes)
	normalise := func(pattern string) string {
		for strings.Contains(pattern, "/*/") {
			pattern = strings.ReplaceAll(pattern, "/*/", "/")
		}
		if pattern != "/" {
			pattern = strings.TrimSuffix(pattern, "/")
		}
		return pattern
	}
	// The routes the matrix calls, found as the router finds them.
	covered := map[string]bool{}
	f := &fixture{clubA: 1, victim: 2, player: 3, published: 4, draft: 5}
	for _, rt := range matrix {
		r := rt.call(f, anonymous)
		path, _, _ := strings.Cut(r.Path, "?")
		pattern := mux.Find(chi.NewRouteContext(), r.Method, path)
		if pattern == "" {
			t.Errorf("matrix row %q calls %s %s, which is not routed", rt.name, r.Method, path)
			continue
		}
		covered[r.Method+" "+normalise(pattern)] = true
		for _, c := range callers {
			if _, ok := rt.want[c]; !ok {
				t.Errorf("matrix row %q has no expected status for %s", rt.name, c)
			}
		}
	}
	for name, r := range playMatrixRequests() { // the tournament play rows (tournament_authz_test.go)
		path, _, _ := strings.Cut(r.Path, "?")
		if pattern := mux.Find(chi.NewRouteContext(), r.Method, path); pattern != "" {
			covered[r.Method+" "+normalise(pattern)] = true
		} else {
			t.Errorf("play matrix row %q calls %s %s, which is not routed", name, r.Method, path)
		}
	}
	routes := 0
	err := chi.Walk(mux, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes++
		key := method + " " + normalise(route)
		switch {
		case strings.HasPrefix(route, "/api/v1/"):
			if !covered[key] {
				t.Errorf("%s has no row in the authorisation matrix", key)
			}
		case matrixExempt[key], method == "GET" && strings.HasPrefix(route, "/docs/"):
		default:
			t.Errorf("%s is outside /api/v1 and not in matrixExempt", key)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if routes < len(matrixExempt)+20 {
		t.Fatalf("walked only %d routes", routes)
	}
}
