package api_test

import (
	"testing"

	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// The tests that play whole deals through the API and check every answer
// (leaks, records, scores) cost about tenfold under the race detector,
// which finds races as well in a few deals as in many: under it they play
// a sample (raceSample, eachStoreRaceSample), and .ci/test.sh runs them
// whole without it, beside the race step. TestRaceSamplesRunWholeInCI
// keeps its list of them and theirs the same.

// raceSample returns the elements of all at the indexes keep under the
// race detector, and all of them otherwise.
func raceSample[T any](all []T, keep ...int) []T {
	if !raceEnabled {
		return all
	}
	out := make([]T, 0, len(keep))
	for _, i := range keep {
		out = append(out, all[i])
	}
	return out
}

// eachStoreRaceSample is storetest.EachParallel, but under the race
// detector only its SQLite half runs.
func eachStoreRaceSample(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	if !raceEnabled {
		storetest.EachParallel(t, fn)
		return
	}
	t.Run(store.SQLite, func(t *testing.T) { t.Parallel(); fn(t, storetest.SQLite(t)) })
}
