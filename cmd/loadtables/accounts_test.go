package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestAPlayerOfAnAccountMadeBeforeTheRunIsReachedByItsRefreshToken(t *testing.T) {
	var mu sync.Mutex
	var seen []string // each refresh's token, and each table request's Authorization
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/api/v1/auth/register", "/api/v1/auth/login":
			w.WriteHeader(http.StatusTeapot) // no sign-up, no password
			return
		case "/api/v1/auth/refresh":
			var in map[string]string
			_ = json.NewDecoder(r.Body).Decode(&in)
			seen = append(seen, "refresh "+in["refresh_token"])
			_ = json.NewEncoder(w).Encode(map[string]string{"access_token": "a-" + in["refresh_token"], "refresh_token": "next"})
			return
		}
		seen = append(seen, r.Header.Get("Authorization"))
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	accounts, err := readAccounts(strings.NewReader(
		`{"email":"p0@load.test","user_id":7,"refresh_token":"r0"}`+"\n"+`{"email":"p1@load.test","user_id":8,"refresh_token":"r1"}`+"\n"), 2)
	if err != nil {
		t.Fatal(err)
	}
	o := options{accounts: accounts}
	p, err := o.player(t.Context(), srv.URL, srv.URL, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, err := p.do(t.Context(), "GET", "/api/v1/tables/1/state", nil, nil, nil); err != nil || code != http.StatusOK {
		t.Fatalf("%d %v, want 200", code, err)
	}
	if err := p.renew(t.Context()); err != nil { // a later renewal sends the rotated token
		t.Fatal(err)
	}
	want := []string{"refresh r1", "Bearer a-r1", "refresh next"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q, want %q", seen, want)
	}
}

func TestAccountsShortOfTheRunsPlayersAreAnError(t *testing.T) {
	for _, c := range []struct{ name, out string }{
		{"Fewer", `{"email":"p0@load.test","user_id":7,"refresh_token":"r0"}` + "\n"},
		{"NotJSON", "burraco admin: something\n"},
		{"NoToken", `{"email":"p0@load.test","user_id":7}` + "\n" + `{"email":"p1@load.test","user_id":8}` + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := readAccounts(strings.NewReader(c.out), 2); err == nil {
				t.Error("no error")
			}
		})
	}
}
