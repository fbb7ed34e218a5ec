package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
)

// BenchmarkTournamentStandings measures GET /standings, what a hall screen
// polls, on a tournament of 100 pairs after 5 rounds of 3 deals, against
// the bare-handler baselines of BenchmarkRequestPath (same metrics):
//
//	go test ./api -run '^$' -bench TournamentStandings -benchtime 5000x -count 3
//
// standings-200 is a full answer (the state cached per version, converted
// and encoded per request) against a bare handler writing the same bytes;
// standings-304 is a poll with the current ETag, answered from the
// tournament's version alone, against a bare handler answering 304.
func BenchmarkTournamentStandings(b *testing.B) {
	f := newBenchFixture(b)
	id := benchTournament(b, f)
	path := fmt.Sprintf("/api/v1/tournaments/%d/standings", id)
	res, err := http.Get(f.server.URL + path)
	if err != nil {
		b.Fatal(err)
	}
	etag := res.Header.Get("ETag")
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	b.Run("standings-200", func(b *testing.B) {
		req := rawRequest("GET", path, "", "")
		f.measure(b, req, http.StatusOK, f.bareBaseline(b, path, req))
		b.ReportMetric(float64(len(body)), "body-bytes")
	})
	b.Run("standings-304", func(b *testing.B) {
		req := rawRequestWith("GET", path, map[string]string{"If-None-Match": etag})
		f.measure(b, req, http.StatusNotModified, bare304Baseline(b, etag, req))
	})
}

// rawRequestWith is the wire form of a GET with headers.
func rawRequestWith(method, path string, headers map[string]string) []byte {
	var b bytes.Buffer
	b.WriteString(method + " " + path + " HTTP/1.1\r\nHost: bench\r\n")
	for k, v := range headers {
		b.WriteString(k + ": " + v + "\r\n")
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// bare304Baseline is a bare handler answering 304 with the ETag.
func bare304Baseline(b *testing.B, etag string, req []byte) func(n int) time.Duration {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", etag)
		w.WriteHeader(http.StatusNotModified)
	}))
	b.Cleanup(srv.Close)
	l := newBenchLoader(b, srv)
	b.Cleanup(l.close)
	return func(n int) time.Duration {
		d, _, err := l.run(n, req, http.StatusNotModified)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
}

// benchTournament plays, through the API as the site admin (who directs
// every club's tournaments), a modified Danish of 100 pairs over 5 rounds
// of 3 deals, every table entered by the staff.
func benchTournament(b *testing.B, f *benchFixture) int64 {
	b.Helper()
	call := func(method, path string, body, out any) {
		var rd io.Reader
		if body != nil {
			j, _ := json.Marshal(body)
			rd = bytes.NewReader(j)
		}
		r, _ := http.NewRequest(method, f.server.URL+path, rd)
		r.Header.Set("Authorization", "Bearer "+f.adminToken)
		if body != nil {
			r.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 300 {
			b.Fatalf("%s %s: %d %s", method, path, res.StatusCode, data)
		}
		if out != nil {
			if err := json.Unmarshal(data, out); err != nil {
				b.Fatal(err)
			}
		}
	}
	var club api.Club
	call("POST", "/api/v1/clubs", api.ClubCreateRequest{Name: "Bench Club"}, &club)
	var t api.Tournament
	call("POST", fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID), map[string]any{"name": "Bench Cup", "rules": "fibur",
		"players_per_table": 4, "kind": "pairs", "deals_per_round": 3, "starts_at": "2026-06-01T15:00:00Z",
		"movement": "modified_danish", "rounds": 5}, &t)
	tp := func(parts ...any) string { return tpath(t.ID, parts...) }
	call("POST", tp("lifecycle"), api.TournamentLifecycleRequest{Action: "open_registration"}, nil)
	for i := range 100 {
		var p1, p2 api.Player
		call("POST", "/api/v1/players", api.PlayerCreateRequest{Name: fmt.Sprintf("Bench %d A", i), ClubID: &club.ID}, &p1)
		call("POST", "/api/v1/players", api.PlayerCreateRequest{Name: fmt.Sprintf("Bench %d B", i), ClubID: &club.ID}, &p2)
		call("POST", tp("entries"), api.TournamentEntryRequest{Players: []int64{p1.ID, p2.ID}}, nil)
	}
	call("POST", tp("lifecycle"), api.TournamentLifecycleRequest{Action: "close_registration"}, nil)
	call("POST", tp("lifecycle"), api.TournamentLifecycleRequest{Action: "start"}, nil)
	rnd := rand.New(rand.NewPCG(100, 5))
	for n := 1; n <= 5; n++ {
		var r api.TournamentRound
		call("POST", tp("rounds"), nil, &r)
		call("POST", tp("rounds", n, "start"), nil, &r)
		for _, tb := range r.Tables {
			call("POST", tp("rounds", n, "tables", tb.Number, "scores"),
				api.TournamentScoresRequest{Version: tb.Version, Deals: randomDeals(rnd, 3)}, nil)
		}
		call("POST", tp("rounds", n, "close"), nil, nil)
	}
	return t.ID
}
