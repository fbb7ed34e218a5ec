package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestAnExpiredAccessTokenIsRenewedAndTheRequestSentAgain(t *testing.T) {
	var mu sync.Mutex
	var seen []string // the Authorization of each table request, and each refresh
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		var in map[string]string
		_ = json.NewDecoder(r.Body).Decode(&in)
		switch r.URL.Path {
		case "/api/v1/auth/register":
			w.WriteHeader(http.StatusCreated)
			return
		case "/api/v1/auth/login":
			_ = json.NewEncoder(w).Encode(map[string]string{"access_token": "old", "refresh_token": "r1"})
			return
		case "/api/v1/auth/refresh":
			seen = append(seen, "refresh "+in["refresh_token"])
			_ = json.NewEncoder(w).Encode(map[string]string{"access_token": "new", "refresh_token": "r2"})
			return
		}
		seen = append(seen, r.Header.Get("Authorization"))
		if r.Header.Get("Authorization") != "Bearer new" {
			w.WriteHeader(http.StatusUnauthorized) // the access token expired
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c, err := signUp(t.Context(), srv.URL, srv.URL, nil, "p0@load.test")
	if err != nil {
		t.Fatal(err)
	}
	code, _, err := c.do(t.Context(), "GET", "/api/v1/tables/1/state", nil, nil, nil)
	if err != nil || code != http.StatusOK {
		t.Fatalf("%d %v, want 200", code, err)
	}
	if c.renewals.Load() != 1 {
		t.Errorf("renewals %d, want 1", c.renewals.Load())
	}
	want := []string{"Bearer old", "refresh r1", "Bearer new"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q, want %q", seen, want)
	}
}
