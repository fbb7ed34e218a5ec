package main

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/internal/metrics"
)

// TestBatchHistogramsCountBatchesBySizeCumulatively: the group commit's
// and the moves' batches are written as Prometheus histograms of their
// sizes: cumulative buckets, the batches as _count, the members as _sum.
func TestBatchHistogramsCountBatchesBySizeCumulatively(t *testing.T) {
	var moves store.MoveBatchStats
	moves.BySize[1], moves.BySize[3], moves.BySize[40] = 5, 2, 1 // 8 batches, 5 + 6 + 40 moves
	var commits store.GroupCommitStats
	commits.BySize[2], commits.BySize[store.MaxBatch] = 4, 1
	commits.Writers = 4*2 + store.MaxBatch
	moves.Moves = 51
	var r metrics.Registry
	r.Register(func(w *metrics.Writer) { writeMoveBatches(w, moves) })
	r.Register(func(w *metrics.Writer) { writeGroupCommits(w, commits) })
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		"# TYPE burraco_db_move_batch_moves histogram",
		`burraco_db_move_batch_moves_bucket{le="1"} 5`,
		`burraco_db_move_batch_moves_bucket{le="2"} 5`,
		`burraco_db_move_batch_moves_bucket{le="4"} 7`,
		`burraco_db_move_batch_moves_bucket{le="32"} 7`,
		`burraco_db_move_batch_moves_bucket{le="64"} 8`,
		`burraco_db_move_batch_moves_bucket{le="+Inf"} 8`,
		"burraco_db_move_batch_moves_sum 51",
		"burraco_db_move_batch_moves_count 8",
		`burraco_db_group_commit_writers_bucket{le="1"} 0`,
		`burraco_db_group_commit_writers_bucket{le="2"} 4`,
		`burraco_db_group_commit_writers_bucket{le="32"} 5`,
		"burraco_db_group_commit_writers_sum 40",
		"burraco_db_group_commit_writers_count 5",
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("the scrape lacks %q:\n%s", want, body)
		}
	}
}
