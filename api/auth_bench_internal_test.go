package api

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// BenchmarkAuthenticate is what every authenticated request (a poll, say)
// pays to know its caller: the access token checked (from the cache of
// verified tokens) and its user looked up (from the cache of actors):
//
//	go test ./api -run '^$' -bench Authenticate -count 5
func BenchmarkAuthenticate(b *testing.B) {
	svc := domain.NewServices(storetest.SQLite(b), domain.Config{PasswordParams: domain.TestPasswordParams})
	h := NewServer(Config{JWTSecret: []byte(strings.Repeat("k", 32))}, svc, nil, slog.New(slog.DiscardHandler)).(front)
	post := func(path, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	post("/api/v1/auth/register", `{"email":"anna@example.com","password":"password-123","name":"Anna"}`)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if w := post("/api/v1/auth/login", `{"email":"anna@example.com","password":"password-123"}`); w.Code != http.StatusOK {
		b.Fatalf("login: %d %s", w.Code, w.Body)
	} else if err := json.Unmarshal(w.Body.Bytes(), &tok); err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := h.s.actorOf(ctx, tok.AccessToken); err != nil {
			b.Fatal(err)
		}
	}
}
