package api_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store/storetest"
)

// BenchmarkSeasonRanking measures the read of a season's ranking, which
// the hall display polls between rounds, against the bare handler measured
// in the same run (tables_bench_test.go's measureReads):
//
//	go test ./api -run '^$' -bench SeasonRanking -benchtime 2000x -count 3
//
// The season counts 6 published evenings of 8 pairs (16 players, partners
// changing every evening), on SQLite, served by the real server over
// loopback HTTP.
//
//   - ranking-304: If-None-Match with the current ETag, against the bare
//     handler answering a small JSON. The ranking is computed to know its
//     ETag (a hash of the answer), so it costs nearly what a 200 does, less
//     the bytes sent;
//   - ranking-200: a full read, against the bare handler answering the
//     same bytes.
//
// Metrics as BenchmarkTablePaths: ratio (server throughput over the
// baseline's), req/s, base/s, p50-ms, p99-ms.
func BenchmarkSeasonRanking(b *testing.B) {
	se := newSeasonEnv(b, storetest.SQLite(b))
	for i := len(se.players); i < 16; i++ {
		se.players = append(se.players, se.player(fmt.Sprintf("Socio %c", 'A'+i), false))
	}
	for k := range 6 {
		var pairs [][]int
		for j := range 8 {
			pairs = append(pairs, []int{j, 8 + (j+k)%8})
		}
		id := se.playEvening(domain.PairsTournament, domain.SetupInput{Rounds: new(3)}, 3, pairs)
		se.lifecycle(id, se.director, "publish_results")
	}
	var r api.SeasonRanking
	res := se.must(http.StatusOK, req{Method: "GET", Path: se.path("ranking")}, &r)
	if len(r.Rows) != 16 || len(r.Season.Tournaments) != 6 {
		b.Fatalf("the season: %d rows, %d tournaments", len(r.Rows), len(r.Season.Tournaments))
	}
	handler := api.NewServer(api.Config{JWTSecret: testSecret, Now: se.clock.Now}, se.svc, se.db, slog.New(slog.NewTextHandler(io.Discard, nil)))
	f := &tableBench{server: httptest.NewServer(handler), bare: &bareJSON{}}
	b.Cleanup(f.server.Close)
	f.bareTS = httptest.NewServer(f.bare)
	b.Cleanup(f.bareTS.Close)
	b.Run("ranking-304", func(b *testing.B) {
		f.bare.body = []byte(`{"status":"ok"}`)
		f.measureReads(b, tableRaw("GET", se.path("ranking"), "", "", map[string]string{"If-None-Match": res.Header.Get("ETag")}), 304)
	})
	b.Run("ranking-200", func(b *testing.B) {
		req := tableRaw("GET", se.path("ranking"), "", "", nil)
		f.bare.body = f.answer(b, req)
		f.measureReads(b, req, 200)
	})
}
