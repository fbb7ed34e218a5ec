package api_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func BenchmarkZZHandler(b *testing.B) {
	f := newBenchFixture(b)
	h := f.server.Config.Handler
	for _, tc := range []struct{ name, path, token string }{
		{"healthz", "/healthz", ""},
		{"get-player", f.playerPath, f.userToken},
		{"list-players", "/api/v1/players", f.userToken},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest("GET", tc.path, nil)
				if tc.token != "" {
					r.Header.Set("Authorization", "Bearer "+tc.token)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatal(w.Code)
				}
			}
		})
	}
}
