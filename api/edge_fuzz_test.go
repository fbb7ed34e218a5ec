package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store/storetest"
)

// The fuzz targets below drive every parser on the HTTP edge (the JSON body
// decoder, path ids, query parameters, the Authorization header and its
// JWT) through the real router, services and a SQLite file. Whatever the
// input, the answer must be a success or a 4xx problem: never a panic, never
// a 5xx. Run one for a while with e.g.
//
//	go test ./api -run '^$' -fuzz '^FuzzJSONBody$' -fuzztime 30s

// fuzzEnv is a server with no practical rate limit, a club, a member of it
// and a player; setup runs once per fuzzing process.
type fuzzEnv struct {
	*env
	token  string // a site admin's access token
	clubID int64
}

func newFuzzEnv(f *testing.F) *fuzzEnv {
	e := newEnv(f, storetest.SQLite(f), func(c *api.Config) {
		c.AuthBurst, c.AuthPerMinute, c.RefreshPerMinute = 1<<30, 1<<30, -1
		c.LoginFailuresPerAccount, c.LoginFailuresPerAddress = -1, -1
		c.MaxBodyBytes = 4 << 10
	})
	fe := &fuzzEnv{env: e, token: e.siteAdmin().AccessToken}
	var club api.Club
	e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: fe.token, Body: api.ClubCreateRequest{Name: "Fuzz"}}, &club)
	fe.clubID = club.ID
	e.must(201, req{Method: "POST", Path: "/api/v1/players", Token: fe.token, Body: api.PlayerCreateRequest{Name: "P", ClubID: &club.ID}}, nil)
	return fe
}

// serve sends r and checks the answer: below 500, and a well-formed
// problem whenever it is 4xx.
func (fe *fuzzEnv) serve(t *testing.T, r *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	fe.h.ServeHTTP(rec, r)
	checkAnswer(t, r, rec)
	return rec
}

func checkAnswer(t *testing.T, r *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Code >= 500 {
		t.Fatalf("%s %q: status %d: %s", r.Method, r.URL.String(), rec.Code, rec.Body)
	}
	if rec.Code < 400 {
		return
	}
	var p api.Problem
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("%s %q: %d with Content-Type %q", r.Method, r.URL.String(), rec.Code, ct)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Status != rec.Code || p.Code == "" {
		t.Fatalf("%s %q: bad problem %s (%v)", r.Method, r.URL.String(), rec.Body, err)
	}
}

// bodyRoutes are the operations that read a JSON body; %d is the club id.
var bodyRoutes = []struct{ method, path string }{
	{"POST", "/api/v1/auth/register"}, {"POST", "/api/v1/auth/login"},
	{"POST", "/api/v1/auth/refresh"}, {"POST", "/api/v1/auth/logout"},
	{"POST", "/api/v1/clubs"}, {"PATCH", "/api/v1/clubs/%d"},
	{"POST", "/api/v1/clubs/%d/members"}, {"PATCH", "/api/v1/clubs/%d/members/1"},
	{"POST", "/api/v1/players"}, {"PATCH", "/api/v1/players/1"},
	{"POST", "/api/v1/clubs/%d/tournaments"}, {"PATCH", "/api/v1/tournaments/1"},
}

func FuzzJSONBody(f *testing.F) {
	fe := newFuzzEnv(f)
	for i := range bodyRoutes {
		for _, body := range []string{
			`{}`, `{"name":"Anna","email":"a@example.com","password":"password-123"}`,
			`{"email":"a@example.com","password":"x"}`, `{"refresh_token":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`,
			`{"name":"C","city":"Roma","description":"d"}`, `{"user_id":1,"role":"owner"}`, `{"role":"king"}`,
			`{"name":"P","federation_id":"RM-1","club_id":1,"user_id":1}`, `{"clear_club":true,"club_id":1}`,
			`{"name":"\u0000"}`, `{"email":"a\u0000@b.c","password":"p"}`, `{"user_id":1e400}`, `{"club_id":-1}`,
			`{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","options":{"target":1005}}`,
			`{"status":"published"}`, `{"rules":"fibur-row","players_per_table":2,"options":{}}`, `{"starts_at":"0000-01-01T00:00:00Z"}`,
			`{"name":null}`, `[]`, `null`, `{"a":1}`, `{} {}`, `{`, ``, `{"name":"` + strings.Repeat("x", 5000) + `"}`,
		} {
			f.Add(i, body, "application/json")
		}
	}
	f.Add(0, `{}`, "application/json; charset=utf-8")
	f.Add(0, `{}`, "text/plain")
	f.Fuzz(func(t *testing.T, route int, body, contentType string) {
		if route < 0 {
			route = -route
		}
		rt := bodyRoutes[route%len(bodyRoutes)]
		path := rt.path
		if strings.Contains(path, "%d") {
			path = fmt.Sprintf(path, fe.clubID)
		}
		r := httptest.NewRequest(rt.method, path, strings.NewReader(body))
		r.Header.Set("Content-Type", contentType)
		r.Header.Set("Authorization", "Bearer "+fe.token)
		fe.serve(t, r)
	})
}

// idRoutes are the operations with an id in the path; {} marks the fuzzed
// segment.
var idRoutes = []struct{ method, path string }{
	{"GET", "/api/v1/clubs/{}"}, {"PATCH", "/api/v1/clubs/{}"},
	{"GET", "/api/v1/clubs/{}/members"}, {"POST", "/api/v1/clubs/{}/members"},
	{"PATCH", "/api/v1/clubs/1/members/{}"}, {"DELETE", "/api/v1/clubs/1/members/{}"},
	{"GET", "/api/v1/players/{}"}, {"PATCH", "/api/v1/players/{}"}, {"DELETE", "/api/v1/players/{}"},
	{"POST", "/api/v1/clubs/{}/tournaments"},
	{"GET", "/api/v1/tournaments/{}"}, {"PATCH", "/api/v1/tournaments/{}"}, {"DELETE", "/api/v1/tournaments/{}"},
}

func FuzzPathID(f *testing.F) {
	fe := newFuzzEnv(f)
	for i := range idRoutes {
		for _, id := range []string{"1", "0", "-1", "abc", "1.5", "99999999999999999999", "9223372036854775807",
			"+1", "0x10", " 1", "1/", "", "%", "%00", "\x00", "١", "1e3"} {
			f.Add(i, id, false)
			f.Add(i, id, true)
		}
	}
	f.Fuzz(func(t *testing.T, route int, id string, raw bool) {
		if route < 0 {
			route = -route
		}
		rt := idRoutes[route%len(idRoutes)]
		r := httptest.NewRequest(rt.method, "/", strings.NewReader(`{}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+fe.token)
		if raw { // as a client would send it: escaped, decoded by net/http
			r.URL.RawPath = strings.Replace(rt.path, "{}", escapeSegment(id), 1)
		}
		r.URL.Path = strings.Replace(rt.path, "{}", id, 1)
		fe.serve(t, r)
	})
}

// escapeSegment percent-encodes everything but unreserved characters.
func escapeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func FuzzQuery(f *testing.F) {
	fe := newFuzzEnv(f)
	lists := []string{"/api/v1/clubs", "/api/v1/players", "/api/v1/clubs/%d/members", "/api/v1/tournaments"}
	for i := range lists {
		for _, q := range []string{"", "q=anna", "q=%25_%5C", "q=a%00b", "q=%ff", "limit=1&offset=0", "limit=0", "limit=101",
			"limit=-1", "limit=abc", "offset=-1", "offset=9223372036854775807", "offset=99999999999999999999",
			"club_id=1", "club_id=0", "club_id=x", "role=owner", "role=king", "role=", "q=" + strings.Repeat("x", 101),
			"limit=1&limit=2", "q=a;b", "%zz=1", "q=%", "club_id=1&q=P&limit=100&offset=1",
			"status=draft", "status=over", "status=a%00b", "club_id=1&status=published&q=T"} {
			f.Add(i, q)
		}
	}
	f.Fuzz(func(t *testing.T, list int, rawQuery string) {
		if list < 0 {
			list = -list
		}
		path := lists[list%len(lists)]
		if strings.Contains(path, "%d") {
			path = fmt.Sprintf(path, fe.clubID)
		}
		r := httptest.NewRequest("GET", path, nil)
		r.URL.RawQuery = rawQuery
		r.Header.Set("Authorization", "Bearer "+fe.token)
		fe.serve(t, r)
	})
}

func FuzzAuthorizationHeader(f *testing.F) {
	fe := newFuzzEnv(f)
	sign := func(method jwt.SigningMethod, key any, claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(method, claims).SignedString(key)
		if err != nil {
			f.Fatal(err)
		}
		return s
	}
	exp := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for _, h := range []string{
		"Bearer " + fe.token, "bearer " + fe.token, "Bearer  " + fe.token, "Bearer " + fe.token + "x",
		"Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Token abc", " ", "Bearer a.b.c", "Bearer ...", "Bearer e30.e30.",
		"Bearer " + sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, jwt.MapClaims{"sub": "1", "iss": "burraco", "exp": exp}),
		"Bearer " + sign(jwt.SigningMethodHS256, testSecret, jwt.MapClaims{"sub": "1", "iss": "burraco"}),
		"Bearer " + sign(jwt.SigningMethodHS256, testSecret, jwt.MapClaims{"sub": "x", "iss": "burraco", "exp": exp}),
		"Bearer " + sign(jwt.SigningMethodHS256, testSecret, jwt.MapClaims{"sub": "-1", "iss": "burraco", "exp": exp}),
		"Bearer " + sign(jwt.SigningMethodHS256, testSecret, jwt.MapClaims{"sub": "999999", "iss": "burraco", "exp": exp}),
		"Bearer " + sign(jwt.SigningMethodHS256, testSecret, jwt.MapClaims{"sub": 1, "iss": "burraco", "exp": "soon"}),
		"Bearer " + sign(jwt.SigningMethodHS512, testSecret, jwt.MapClaims{"sub": "1", "iss": "burraco", "exp": exp}),
	} {
		f.Add(h, false)
		f.Add(h, true)
	}
	f.Fuzz(func(t *testing.T, header string, private bool) {
		path := "/api/v1/clubs"
		if private {
			path = "/api/v1/me"
		}
		r := httptest.NewRequest("GET", path, nil)
		r.Header["Authorization"] = []string{header}
		rec := fe.serve(t, r)
		if rec.Code != 200 && rec.Code != 401 {
			t.Fatalf("Authorization %q: status %d: %s", header, rec.Code, rec.Body)
		}
		if rec.Code == 200 && header != "" && !bytes.Contains([]byte(header), []byte(fe.token)) && private {
			t.Fatalf("Authorization %q accepted", header)
		}
	})
}
