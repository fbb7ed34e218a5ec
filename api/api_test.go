package api_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestClubsAndPlayers walks the main flows and checks bodies and headers.
func TestClubsAndPlayers(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		anna, tok := e.user("Anna@Example.com", "Anna Rossi")
		if anna.Email != "anna@example.com" || anna.SiteAdmin || tok.TokenType != "Bearer" || tok.ExpiresIn != 900 || tok.RefreshToken == "" {
			t.Fatalf("register/login: %+v %+v", anna, tok)
		}
		var me api.User
		e.must(200, req{Method: "GET", Path: "/api/v1/me", Token: tok.AccessToken}, &me)
		if diff := cmp.Diff(anna, me); diff != "" {
			t.Errorf("/me differs from the registered user (-want +got):\n%s", diff)
		}

		var club api.Club
		res := e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: tok.AccessToken,
			Body: api.ClubCreateRequest{Name: "Circolo Roma", City: "Roma"}}, &club)
		if loc := res.Header.Get("Location"); loc != fmt.Sprintf("/api/v1/clubs/%d", club.ID) {
			t.Errorf("Location %q", loc)
		}
		var got api.Club
		e.must(200, req{Method: "GET", Path: res.Header.Get("Location")}, &got)
		if diff := cmp.Diff(club, got); diff != "" {
			t.Errorf("GET after POST (-want +got):\n%s", diff)
		}
		desc := "Tuesdays"
		e.must(200, req{Method: "PATCH", Path: res.Header.Get("Location"), Token: tok.AccessToken,
			Body: api.ClubUpdateRequest{Description: &desc}}, &got)
		if got.Name != "Circolo Roma" || got.City != "Roma" || got.Description != "Tuesdays" {
			t.Errorf("PATCH changed more or less than the description: %+v", got)
		}

		var list api.ClubList
		e.must(200, req{Method: "GET", Path: "/api/v1/clubs?q=ROMA&limit=1"}, &list)
		if list.Total != 1 || len(list.Items) != 1 || list.Limit != 1 || list.Items[0].ID != club.ID {
			t.Errorf("club list: %+v", list)
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/clubs?q=nowhere"}, &list)
		if list.Total != 0 || list.Items == nil {
			t.Errorf("empty list must have total 0 and items []: %+v", list)
		}

		marco, marcoTok := e.user("marco@example.com", "Marco")
		var m api.Member
		res = e.must(201, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/members", club.ID), Token: tok.AccessToken,
			Body: api.MemberAddRequest{UserID: &marco.ID, Role: "referee"}}, &m)
		if m.Role != "referee" || m.UserID != marco.ID || res.Header.Get("Location") != fmt.Sprintf("/api/v1/clubs/%d/members/%d", club.ID, marco.ID) {
			t.Errorf("add member: %+v %v", m, res.Header)
		}
		var members api.MemberList
		e.must(200, req{Method: "GET", Path: fmt.Sprintf("/api/v1/clubs/%d/members?role=referee", club.ID), Token: tok.AccessToken}, &members)
		if members.Total != 1 || members.Items[0].UserName != "Marco" {
			t.Errorf("members filtered by role: %+v", members)
		}
		e.must(409, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/members", club.ID), Token: tok.AccessToken,
			Body: api.MemberAddRequest{UserID: &marco.ID, Role: "member"}}, nil)

		// After login a frontend asks where the user has a role.
		var mine api.MemberList
		e.must(200, req{Method: "GET", Path: "/api/v1/me/clubs", Token: marcoTok.AccessToken}, &mine)
		if len(mine.Items) != 1 || mine.Total != 1 || mine.Limit != 20 || mine.Items[0].ClubID != club.ID || mine.Items[0].ClubName != "Circolo Roma" || mine.Items[0].Role != "referee" {
			t.Errorf("marco's clubs: %+v", mine)
		}
		var other api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: tok.AccessToken, Body: api.ClubCreateRequest{Name: "Arco Club"}}, &other)
		e.must(200, req{Method: "GET", Path: "/api/v1/me/clubs", Token: tok.AccessToken}, &mine)
		if len(mine.Items) != 2 || mine.Items[0].ClubName != "Arco Club" || mine.Items[1].ClubName != "Circolo Roma" || mine.Items[1].Role != "owner" {
			t.Errorf("anna's clubs, by name: %+v", mine)
		}
		mine = api.MemberList{}
		e.must(200, req{Method: "GET", Path: "/api/v1/me/clubs?limit=1&offset=1", Token: tok.AccessToken}, &mine)
		if len(mine.Items) != 1 || mine.Total != 2 || mine.Limit != 1 || mine.Offset != 1 || mine.Items[0].ClubName != "Circolo Roma" {
			t.Errorf("anna's second club, paged: %+v", mine)
		}

		// A secretary adds a member by the email they registered with.
		lucia, _ := e.user("lucia@example.com", "Lucia")
		e.must(201, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/members", club.ID), Token: tok.AccessToken,
			Body: api.MemberAddRequest{Email: ptr("Lucia@Example.com"), Role: "member"}}, &m)
		if m.UserID != lucia.ID || m.UserName != "Lucia" || m.Role != "member" {
			t.Errorf("add member by email: %+v", m)
		}
		problemOf(t, e.must(404, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/members", club.ID), Token: tok.AccessToken,
			Body: api.MemberAddRequest{Email: ptr("nobody@example.com"), Role: "member"}}, nil), "not_found")
		for name, body := range map[string]api.MemberAddRequest{
			"neither": {Role: "king"},
			"both":    {UserID: &marco.ID, Email: ptr("marco@example.com"), Role: "king"},
		} {
			p := problemOf(t, e.must(422, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/members", club.ID), Token: tok.AccessToken,
				Body: body}, nil), "invalid_input")
			if len(p.Errors) != 2 || p.Errors[1].Field != "role" {
				t.Errorf("%s of user_id and email: want the user field and the role listed, got %+v", name, p.Errors)
			}
		}
		// A user_id of 0 is a value the client sent, not an absent field.
		for body, want := range map[string][]string{
			`{"user_id":0,"role":"member"}`:                             {"user_id:invalid"},
			`{"user_id":-4,"role":"member"}`:                            {"user_id:invalid"},
			`{"user_id":0,"email":"lucia@example.com","role":"member"}`: {"email:conflict", "user_id:invalid"},
		} {
			p := problemOf(t, e.must(422, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/members", club.ID), Token: tok.AccessToken,
				Body: body}, nil), "invalid_input")
			var got []string
			for _, f := range p.Errors {
				got = append(got, f.Field+":"+f.Code)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: fields (-want +got):\n%s", body, diff)
			}
		}

		fed := "RM-1"
		var p api.Player
		res = e.must(201, req{Method: "POST", Path: "/api/v1/players", Token: tok.AccessToken,
			Body: api.PlayerCreateRequest{Name: "Anna Rossi", FederationID: &fed, ClubID: &club.ID, UserID: &anna.ID}}, &p)
		if res.Header.Get("Location") != fmt.Sprintf("/api/v1/players/%d", p.ID) || *p.UserID != anna.ID {
			t.Errorf("create player: %+v %v", p, res.Header)
		}
		var players api.PlayerList
		e.must(200, req{Method: "GET", Path: fmt.Sprintf("/api/v1/players?club_id=%d&q=RM-1", club.ID)}, &players)
		if players.Total != 1 || players.Items[0].ID != p.ID {
			t.Errorf("player list: %+v", players)
		}
		var cleared api.Player
		e.must(200, req{Method: "PATCH", Path: res.Header.Get("Location"), Token: tok.AccessToken,
			Body: api.PlayerUpdateRequest{ClearClub: true}}, &cleared)
		e.must(200, req{Method: "GET", Path: res.Header.Get("Location")}, &cleared)
		if cleared.ClubID != nil || cleared.Name != "Anna Rossi" || *cleared.FederationID != "RM-1" {
			t.Errorf("clear_club: %+v", cleared)
		}
		e.must(204, req{Method: "DELETE", Path: res.Header.Get("Location"), Token: tok.AccessToken}, nil)
		problemOf(t, e.must(404, req{Method: "GET", Path: res.Header.Get("Location")}, nil), "not_found")
	})
}

func problemOf(t *testing.T, res response, code string) api.Problem {
	t.Helper()
	p := problem(t, res)
	if p.Code != code {
		t.Fatalf("code %q, want %q: %+v", p.Code, code, p)
	}
	return p
}

// TestBadInput sends bad bodies, parameters and ids to every endpoint: each
// must get a 4xx problem, never a 5xx.
func TestBadInput(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		admin := e.siteAdmin().AccessToken
		var club api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: admin, Body: api.ClubCreateRequest{Name: "C"}}, &club)
		var player api.Player
		e.must(201, req{Method: "POST", Path: "/api/v1/players", Token: admin, Body: api.PlayerCreateRequest{Name: "P"}}, &player)
		var tournament api.Tournament
		e.must(201, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID), Token: admin,
			Body: api.TournamentCreateRequest{Name: "T", Rules: "fibur", PlayersPerTable: new(4), Kind: "pairs", StartsAt: new(time.Date(2026, 5, 1, 15, 0, 0, 0, time.UTC))}}, &tournament)

		withBody := []struct{ method, path string }{
			{"POST", "/api/v1/auth/register"}, {"POST", "/api/v1/auth/login"},
			{"POST", "/api/v1/auth/refresh"}, {"POST", "/api/v1/auth/logout"},
			{"POST", "/api/v1/clubs"}, {"PATCH", fmt.Sprintf("/api/v1/clubs/%d", club.ID)},
			{"POST", fmt.Sprintf("/api/v1/clubs/%d/members", club.ID)},
			{"PATCH", fmt.Sprintf("/api/v1/clubs/%d/members/1", club.ID)},
			{"POST", "/api/v1/players"}, {"PATCH", fmt.Sprintf("/api/v1/players/%d", player.ID)},
			{"POST", fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID)},
			{"PATCH", fmt.Sprintf("/api/v1/tournaments/%d", tournament.ID)},
		}
		huge := `{"name":"` + strings.Repeat("x", 100<<10) + `"}`
		// detail, when set, is a substring the problem's detail must hold:
		// it tells the decoder's verdict from an unknown-field one.
		bodies := []struct {
			name, body, contentType, code, detail string
		}{
			{"malformed", `{"name":`, "application/json", "malformed_json", ""},
			{"not JSON", `name=x`, "application/json", "malformed_json", ""},
			{"empty", ``, "application/json", "malformed_json", "empty"},
			{"array", `[]`, "application/json", "malformed_json", "must be a JSON object"},
			{"string", `"x"`, "application/json", "malformed_json", "must be a JSON object"},
			{"two objects", `{} {}`, "application/json", "malformed_json", ""},
			{"unknown field", `{"bogus":1}`, "application/json", "malformed_json", ""},
			{"wrong types", `{"name":1,"email":true,"password":[],"role":{},"user_id":"x","club_id":"x","refresh_token":5,"clear_club":"yes"}`, "application/json", "malformed_json", ""},
			{"trailing data", `{}x`, "application/json", "malformed_json", ""},
			{"huge tail", `{}` + strings.Repeat(" ", 100<<10) + `x`, "application/json", "request_too_large", ""},
			{"huge", huge, "application/json", "request_too_large", ""},
			{"text/plain", `{}`, "text/plain", "unsupported_media_type", ""},
			{"no content type", `{}`, "", "unsupported_media_type", ""},
			{"null", `null`, "application/json", "malformed_json", "must be a JSON object"},
			{"null in white space", " \n null \t", "application/json", "malformed_json", "must be a JSON object"},
			{"number", `1`, "application/json", "malformed_json", "must be a JSON object"},
			{"invalid UTF-8", "{\"name\":\"\xff\xfe\"}", "application/json", "malformed_json", "not valid UTF-8"},
			{"invalid UTF-8 in a key", "{\"\xc3\":1}", "application/json", "malformed_json", "not valid UTF-8"},
		}
		for _, ep := range withBody {
			for _, b := range bodies {
				t.Run(ep.method+" "+ep.path+"/"+b.name, func(t *testing.T) {
					r := req{Method: ep.method, Path: ep.path, Body: b.body, Token: admin, Header: map[string]string{"Content-Type": b.contentType}}
					res := e.do(r)
					if res.Status < 400 || res.Status >= 500 {
						t.Fatalf("status %d; body %s", res.Status, res.Body)
					}
					p := problemOf(t, res, b.code)
					if !strings.Contains(p.Detail, b.detail) {
						t.Fatalf("detail %q, want it to say %q", p.Detail, b.detail)
					}
					if b.name == "unknown field" && (res.Status != 400 || len(p.Errors) != 1 || p.Errors[0].Field != "bogus" || p.Errors[0].Code != "unknown_field") {
						t.Fatalf("unknown field not named: %d %+v", res.Status, p)
					}
					if b.name == "wrong types" && (res.Status != 400 || len(p.Errors) != 1 || (p.Errors[0].Code != "wrong_type" && p.Errors[0].Code != "unknown_field")) {
						t.Fatalf("wrong type not named: %d %+v", res.Status, p)
					}
				})
			}
		}

		paths := []string{"abc", "0", "-1", "1.5", "99999999999999999999", "%20"}
		for _, id := range paths {
			for _, ep := range []struct{ method, path string }{
				{"GET", "/api/v1/clubs/" + id}, {"PATCH", "/api/v1/clubs/" + id},
				{"GET", "/api/v1/clubs/" + id + "/members"}, {"POST", "/api/v1/clubs/" + id + "/members"},
				{"PATCH", fmt.Sprintf("/api/v1/clubs/%d/members/%s", club.ID, id)},
				{"DELETE", fmt.Sprintf("/api/v1/clubs/%d/members/%s", club.ID, id)},
				{"GET", "/api/v1/players/" + id}, {"PATCH", "/api/v1/players/" + id}, {"DELETE", "/api/v1/players/" + id},
				{"POST", "/api/v1/clubs/" + id + "/tournaments"},
				{"GET", "/api/v1/tournaments/" + id}, {"PATCH", "/api/v1/tournaments/" + id}, {"DELETE", "/api/v1/tournaments/" + id},
			} {
				t.Run(ep.method+" "+ep.path, func(t *testing.T) {
					res := e.do(req{Method: ep.method, Path: ep.path, Token: admin, Body: `{}`})
					p := problemOf(t, res, "invalid_parameter")
					if res.Status != 400 || len(p.Errors) != 1 || !strings.HasSuffix(p.Errors[0].Field, "ID") {
						t.Fatalf("status %d, errors %+v", res.Status, p.Errors)
					}
				})
			}
		}

		// Parameters that do not parse, or are outside what openapi.yaml
		// allows (range, enum, length), are 400 invalid_parameter (issue 29:
		// they were 422 invalid_input when only the service checked them).
		for q, code := range map[string]string{
			"/api/v1/clubs?limit=abc": "invalid_parameter", "/api/v1/clubs?limit=0.5": "invalid_parameter",
			"/api/v1/clubs?limit=1000": "invalid_parameter", "/api/v1/clubs?offset=-1": "invalid_parameter",
			"/api/v1/clubs?limit=-1": "invalid_parameter", "/api/v1/clubs?q=" + strings.Repeat("x", 101): "invalid_parameter",
			"/api/v1/players?club_id=x": "invalid_parameter", "/api/v1/players?club_id=-3": "invalid_parameter",
			"/api/v1/players?limit=101": "invalid_parameter", "/api/v1/players?offset=99999999999999999999": "invalid_parameter",
			fmt.Sprintf("/api/v1/clubs/%d/members?role=king", club.ID): "invalid_parameter",
			fmt.Sprintf("/api/v1/clubs/%d/members?limit=x", club.ID):   "invalid_parameter",
			"/api/v1/tournaments?club_id=x":                            "invalid_parameter", "/api/v1/tournaments?club_id=0": "invalid_parameter",
			"/api/v1/tournaments?limit=x": "invalid_parameter", "/api/v1/tournaments?status=over": "invalid_parameter",
			"/api/v1/tournaments?limit=101": "invalid_parameter", "/api/v1/tournaments?offset=-1": "invalid_parameter",
			"/api/v1/tournaments?q=" + strings.Repeat("x", 101): "invalid_parameter",
		} {
			t.Run("GET "+q, func(t *testing.T) {
				res := e.do(req{Method: "GET", Path: q, Token: admin})
				p := problemOf(t, res, code)
				if want := map[string]int{"invalid_parameter": 400, "invalid_input": 422}[code]; res.Status != want || len(p.Errors) == 0 {
					t.Fatalf("status %d, want %d; errors %+v", res.Status, want, p.Errors)
				}
			})
		}
	})
}

// TestInvalidFieldsAreAllListed checks that a request with several invalid
// fields gets all of them back.
func TestInvalidFieldsAreAllListed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, storetest.SQLite(t))
	p := problemOf(t, e.do(req{Method: "POST", Path: "/api/v1/auth/register", Body: api.RegisterRequest{Email: "nope", Password: "short"}}), "invalid_input")
	fields := map[string]bool{}
	for _, f := range p.Errors {
		fields[f.Field] = true
	}
	if !fields["email"] || !fields["password"] || !fields["name"] {
		t.Fatalf("want email, password and name listed: %+v", p.Errors)
	}
	p = problemOf(t, e.do(req{Method: "GET", Path: "/api/v1/clubs?limit=1000&offset=-1"}), "invalid_parameter")
	if len(p.Errors) != 2 {
		t.Fatalf("want limit and offset listed: %+v", p.Errors)
	}
}

// TestRouterProblems checks that the router's own 404 and 405 are problems.
func TestRouterProblems(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	problemOf(t, e.do(req{Method: "GET", Path: "/api/v1/nothing"}), "route_not_found")
	problemOf(t, e.do(req{Method: "GET", Path: "/nothing"}), "route_not_found")
	res := e.do(req{Method: "DELETE", Path: "/api/v1/clubs"})
	problemOf(t, res, "method_not_allowed")
	if got := res.Header.Values("Allow"); !cmp.Equal(got, []string{"GET", "POST"}) {
		t.Errorf("Allow %v, want [GET POST]", got)
	}
	res = e.do(req{Method: "PUT", Path: "/api/v1/clubs/1/members/2"})
	problemOf(t, res, "method_not_allowed")
}

// TestJWT checks that only well-formed, correctly signed, unexpired HS256
// tokens with an expiry are accepted.
func TestJWT(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	u, tok := e.user("jwt@example.com", "J")
	sub := strconv.FormatInt(u.ID, 10)
	now := e.clock.Now()
	claims := func(mod func(*jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{"iss": "burraco", "sub": sub, "iat": now.Unix(), "exp": now.Add(time.Minute).Unix()}
		if mod != nil {
			mod(&c)
		}
		return c
	}
	hs := func(c jwt.MapClaims, key []byte) string {
		s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rs256, err := jwt.NewWithClaims(jwt.SigningMethodRS256, claims(nil)).SignedString(rsaKey)
	if err != nil {
		t.Fatal(err)
	}
	none, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims(nil)).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	hs512, err := jwt.NewWithClaims(jwt.SigningMethodHS512, claims(nil)).SignedString(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		token string
		want  int
	}{
		{"ValidLoginToken", tok.AccessToken, 200},
		{"ValidCrafted", hs(claims(nil), testSecret), 200},
		{"Expired", hs(claims(func(c *jwt.MapClaims) { (*c)["exp"] = now.Add(-time.Second).Unix() }), testSecret), 401},
		{"MissingExp", hs(claims(func(c *jwt.MapClaims) { delete(*c, "exp") }), testSecret), 401},
		{"IssuedInTheFuture", hs(claims(func(c *jwt.MapClaims) { (*c)["iat"] = now.Add(time.Hour).Unix() }), testSecret), 401},
		{"WrongIssuer", hs(claims(func(c *jwt.MapClaims) { (*c)["iss"] = "evil" }), testSecret), 401},
		{"BadSignature", hs(claims(nil), []byte("another-secret-0123456789-0123456789")), 401},
		{"AlgNone", none, 401},
		{"AlgRS256", rs256, 401},
		{"AlgHS512", hs512, 401},
		{"UnknownUser", hs(claims(func(c *jwt.MapClaims) { (*c)["sub"] = "999999" }), testSecret), 401},
		{"NonNumericSubject", hs(claims(func(c *jwt.MapClaims) { (*c)["sub"] = "anna" }), testSecret), 401},
		{"Garbage", "not.a.jwt", 401},
		// The same signature bytes with non-zero padding bits in the last
		// base64 character: lenient decoding would accept this other
		// spelling of a valid token (found by FuzzAuthorizationHeader).
		{"NonCanonicalSignature", malleate(tok.AccessToken), 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.do(req{Method: "GET", Path: "/api/v1/me", Token: c.token})
			if res.Status != c.want {
				t.Fatalf("status %d, want %d: %s", res.Status, c.want, res.Body)
			}
			if c.want == 401 {
				problemOf(t, res, "unauthenticated")
				if res.Header.Get("WWW-Authenticate") == "" {
					t.Error("401 without WWW-Authenticate")
				}
			}
		})
	}
	t.Run("ExpiresWithTheClock", func(t *testing.T) {
		e.clock.Add(15*time.Minute + time.Second)
		problemOf(t, e.do(req{Method: "GET", Path: "/api/v1/me", Token: tok.AccessToken}), "unauthenticated")
	})
	t.Run("BadAuthorizationScheme", func(t *testing.T) {
		res := e.do(req{Method: "GET", Path: "/api/v1/clubs", Header: map[string]string{"Authorization": "Basic " + tok.AccessToken}})
		problemOf(t, res, "unauthenticated")
	})
}

// TestRefreshRotation checks rotation, reuse detection and logout over HTTP.
func TestRefreshRotation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, first := e.user("rot@example.com", "R")
		refresh := func(token string) response {
			return e.do(req{Method: "POST", Path: "/api/v1/auth/refresh", Body: api.RefreshRequest{RefreshToken: token}})
		}
		res := refresh(first.RefreshToken)
		if res.Status != 200 {
			t.Fatalf("refresh: %d %s", res.Status, res.Body)
		}
		var second api.TokenResponse
		if err := json.Unmarshal(res.Body, &second); err != nil {
			t.Fatal(err)
		}
		if second.RefreshToken == first.RefreshToken || second.AccessToken == "" || res.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("refresh did not rotate: %+v", second)
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/me", Token: second.AccessToken}, nil)

		// A client that sends its expired access token along can still refresh.
		e.clock.Add(20 * time.Minute)
		problemOf(t, e.do(req{Method: "GET", Path: "/api/v1/me", Token: second.AccessToken}), "unauthenticated")
		var renewed api.TokenResponse
		e.must(200, req{Method: "POST", Path: "/api/v1/auth/refresh", Token: second.AccessToken,
			Body: api.RefreshRequest{RefreshToken: second.RefreshToken}}, &renewed)
		second = renewed

		problemOf(t, refresh(first.RefreshToken), "refresh_token_reused")
		problemOf(t, refresh(second.RefreshToken), "unauthenticated") // the family is revoked
		problemOf(t, refresh("made-up"), "unauthenticated")

		third := e.login("rot@example.com", "password-123")
		e.must(204, req{Method: "POST", Path: "/api/v1/auth/logout", Body: api.RefreshRequest{RefreshToken: third.RefreshToken}}, nil)
		problemOf(t, refresh(third.RefreshToken), "unauthenticated")
		e.must(204, req{Method: "POST", Path: "/api/v1/auth/logout", Body: api.RefreshRequest{RefreshToken: "unknown"}}, nil)

		problemOf(t, e.do(req{Method: "POST", Path: "/api/v1/auth/login",
			Body: api.LoginRequest{Email: "rot@example.com", Password: "wrong-password"}}), "unauthenticated")
	})
}

// TestRateLimit checks that sign-ups and sign-ins answer 429 with
// Retry-After once a client address has used its burst, that refreshes
// and logouts have a limit of their own, that X-Forwarded-For does not get
// around it, and that tokens come back with time.
func TestRateLimit(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), func(c *api.Config) { c.AuthBurst, c.AuthPerMinute = 3, 6 })
	login := func(remote string, header map[string]string) response {
		return e.do(req{Method: "POST", Path: "/api/v1/auth/login", RemoteAddr: remote, Header: header,
			Body: api.LoginRequest{Email: "x@example.com", Password: "whatever-123"}})
	}
	for i := range 3 {
		if res := login("192.0.2.1:1000", nil); res.Status != 401 {
			t.Fatalf("attempt %d: status %d", i+1, res.Status)
		}
	}
	res := login("192.0.2.1:1001", nil)
	problemOf(t, res, "rate_limited")
	if res.Header.Get("Retry-After") != "10" {
		t.Errorf("Retry-After %q, want 10 (6 a minute)", res.Header.Get("Retry-After"))
	}
	for _, h := range []string{"X-Forwarded-For", "X-Real-IP", "True-Client-IP", "Forwarded"} {
		res := login("192.0.2.1:1002", map[string]string{h: "203.0.113.9"})
		if res.Status != 429 {
			t.Errorf("%s bypassed the limit: %d", h, res.Status)
		}
	}
	if res := e.do(req{Method: "POST", Path: "/api/v1/auth/register", RemoteAddr: "192.0.2.1:1003", Body: `{}`}); res.Status != 429 {
		t.Errorf("register shares the auth limit: %d", res.Status)
	}
	for _, path := range []string{"/api/v1/auth/refresh", "/api/v1/auth/logout"} {
		res := e.do(req{Method: "POST", Path: path, RemoteAddr: "192.0.2.1:1003", Body: api.RefreshRequest{RefreshToken: "unknown"}})
		if res.Status == 429 {
			t.Errorf("%s shares the sign-ins' limit: %d", path, res.Status)
		}
	}
	if res := login("192.0.2.2:1000", nil); res.Status != 401 {
		t.Errorf("another address is limited too: %d", res.Status)
	}
	if res := e.do(req{Method: "GET", Path: "/api/v1/clubs", RemoteAddr: "192.0.2.1:1004"}); res.Status != 200 {
		t.Errorf("non-auth endpoints are not limited: %d", res.Status)
	}
	e.clock.Add(10 * time.Second)
	if res := login("192.0.2.1:1005", nil); res.Status != 401 {
		t.Errorf("after Retry-After: status %d", res.Status)
	}
	if res := login("192.0.2.1:1006", nil); res.Status != 429 {
		t.Errorf("one token per 10 s: status %d", res.Status)
	}
}

// TestRateLimitBehindTrustedProxy checks that behind a trusted reverse
// proxy each client has its own limit (one client using its burst does not
// block the others), that the access log names the client, and that a
// client talking to the server directly cannot choose its address.
func TestRateLimitBehindTrustedProxy(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), func(c *api.Config) {
		c.AuthBurst, c.AuthPerMinute = 2, 6
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	})
	login := func(remote, header, value string) int {
		return e.do(req{Method: "POST", Path: "/api/v1/auth/login", RemoteAddr: remote, Header: map[string]string{header: value},
			Body: api.LoginRequest{Email: "x@example.com", Password: "whatever-123"}}).Status
	}
	for i := range 2 {
		if got := login("10.0.0.1:1000", "X-Forwarded-For", "203.0.113.9"); got != 401 {
			t.Fatalf("attempt %d: status %d", i+1, got)
		}
	}
	if got := login("10.0.0.1:1000", "X-Forwarded-For", "203.0.113.9"); got != 429 {
		t.Errorf("the client's burst is used: status %d, want 429", got)
	}
	if got := login("10.0.0.2:1000", "Forwarded", `for="203.0.113.9:5000"`); got != 429 {
		t.Errorf("the same client through another proxy, named by Forwarded: status %d, want 429", got)
	}
	if got := login("10.0.0.1:1000", "X-Forwarded-For", "203.0.113.10"); got != 401 {
		t.Errorf("another client behind the same proxy is limited too: status %d", got)
	}
	if got := login("[fd00::1]:1000", "X-Forwarded-For", "2001:db8:5::1, 10.0.0.7"); got != 401 {
		t.Errorf("an IPv6 proxy, a chain: status %d", got)
	}
	if got := login("10.0.0.1:1000", "X-Forwarded-For", "203.0.113.9, 198.51.100.4"); got != 401 {
		t.Errorf("a spoofed address left of the proxy's is not the client: status %d", got)
	}
	// Not through the proxy: the headers are the client's own and ignored.
	for range 2 {
		login("198.51.100.7:1000", "X-Forwarded-For", "198.51.100.99")
	}
	if got := login("198.51.100.7:1000", "X-Forwarded-For", "198.51.100.100"); got != 429 {
		t.Errorf("a direct client changed its address with X-Forwarded-For: status %d", got)
	}
	if logs := e.logs.String(); !strings.Contains(logs, "remote=10.0.0.1:1000 client=203.0.113.10") {
		t.Errorf("the access log does not name the client behind the proxy:\n%s", logs)
	}
}

// TestHealth checks liveness, readiness with the database up and down.
func TestHealth(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		e.must(200, req{Method: "GET", Path: "/healthz"}, nil)
		e.must(200, req{Method: "GET", Path: "/readyz"}, nil)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		problemOf(t, e.do(req{Method: "GET", Path: "/readyz"}), "service_unavailable")
		e.must(200, req{Method: "GET", Path: "/healthz"}, nil)
	})
}

// TestDocsAndCORS checks the served spec, Swagger UI and a CORS preflight.
func TestDocsAndCORS(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	res := e.must(200, req{Method: "GET", Path: "/openapi.yaml"}, nil)
	if string(res.Body) != "openapi: 3.0.3\n" || res.Header.Get("Content-Type") != "application/yaml" {
		t.Errorf("/openapi.yaml: %q %v", res.Body, res.Header)
	}
	res = e.must(200, req{Method: "GET", Path: "/docs/index.html"}, nil)
	if !strings.Contains(string(res.Body), "swagger") {
		t.Errorf("/docs/index.html is not Swagger UI: %.200s", res.Body)
	}
	res = e.do(req{Method: "OPTIONS", Path: "/api/v1/clubs", Header: map[string]string{
		"Origin": "https://play.example", "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "authorization,content-type"}})
	if res.Status != 200 || res.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(res.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Errorf("preflight: %d %v", res.Status, res.Header)
	}
	res = e.do(req{Method: "GET", Path: "/api/v1/clubs", Header: map[string]string{"Origin": "https://play.example"}})
	if !strings.Contains(res.Header.Get("Access-Control-Expose-Headers"), "Location") {
		t.Errorf("Location is not exposed to browsers: %v", res.Header)
	}
}

// TestRequestID checks that a sane client request id is kept and echoed,
// and a forged one replaced.
func TestRequestID(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	res := e.do(req{Method: "GET", Path: "/nothing", Header: map[string]string{"X-Request-ID": "abc-123"}})
	if problem(t, res).RequestID != "abc-123" {
		t.Errorf("client request id not kept")
	}
	res = e.do(req{Method: "GET", Path: "/nothing", Header: map[string]string{"X-Request-ID": "bad id\nlevel=ERROR"}})
	if id := problem(t, res).RequestID; strings.ContainsAny(id, " \n=") {
		t.Errorf("forged request id kept: %q", id)
	}
}

// malleate flips the unused low bits of the last base64url character of a
// JWT's 32-byte signature, which a lenient decoder ignores.
func malleate(token string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, token[len(token)-1])
	return token[:len(token)-1] + string(alphabet[last^1])
}
