package api_test

import (
	"net/http"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTournamentRoundsListETagAndLatest: GET …/rounds carries the
// tournament's version as its ETag and answers 304 to it until something
// changes; ?latest=true lists only the latest round (none before the
// first) with the same counts; a round started says when (started_at,
// the audit trail's round_started); a latest that is no boolean is refused by
// name. On SQLite and PostgreSQL.
func TestTournamentRoundsListETagAndLatest(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
		te.lifecycle(id, te.director, "open_registration")
		te.pairs(id, 4)
		te.start(id)
		var none api.TournamentRoundList
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "rounds") + "?latest=true"}, &none)
		if len(none.Items) != 0 || none.CurrentRound != 0 || none.PlannedRounds != 3 {
			t.Errorf("latest before the first round: %s", jsonOf(none))
		}

		// A round says when its play started (started_at), once it has.
		var r1 api.TournamentRound
		te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee}, &r1)
		if r1.StartedAt != nil {
			t.Errorf("a round drawn, not started, has started_at %v", r1.StartedAt)
		}
		te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", 1, "start"), Token: te.referee}, &r1)
		var started *api.TournamentAuditEvent
		for _, e := range te.audit(id) {
			if e.Kind == "round_started" {
				started = &e
			}
		}
		if started == nil || r1.StartedAt == nil || !r1.StartedAt.Equal(started.At) {
			t.Errorf("round 1 started at %v, the audit trail's round_started %+v", r1.StartedAt, started)
		}
		rnd := newRand()
		for _, tb := range r1.Tables {
			te.scores(id, 1, tb.Number, te.referee, randomDeals(rnd, 3)...)
		}
		te.closeRound(id, 1)
		te.draw(id)

		for _, tc := range []struct {
			name, query string
			rounds      []int
		}{
			{"AllRounds", "", []int{1, 2}},
			{"LatestOnly", "?latest=true", []int{2}},
			{"LatestFalseIsAll", "?latest=false", []int{1, 2}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				path := tpath(id, "rounds") + tc.query
				var list api.TournamentRoundList
				res := te.must(http.StatusOK, req{Method: "GET", Path: path}, &list)
				var got []int
				for _, r := range list.Items {
					got = append(got, r.Number)
				}
				if jsonOf(got) != jsonOf(tc.rounds) || list.CurrentRound != 2 || list.PlannedRounds != 3 || len(list.Items[len(list.Items)-1].Tables) != 2 {
					t.Errorf("rounds %v (current %d of %d), want %v", got, list.CurrentRound, list.PlannedRounds, tc.rounds)
				}
				etag := res.Header.Get("ETag")
				if etag == "" {
					t.Fatal("no ETag")
				}
				if res := te.do(req{Method: "GET", Path: path, Header: map[string]string{"If-None-Match": etag}}); res.Status != http.StatusNotModified ||
					res.Header.Get("ETag") != etag || len(res.Body) != 0 {
					t.Errorf("unchanged: %d %q, %d bytes", res.Status, res.Header.Get("ETag"), len(res.Body))
				}
			})
		}

		t.Run("ChangedAfterAScore", func(t *testing.T) {
			first := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "rounds") + "?latest=true"}, nil)
			etag := first.Header.Get("ETag")
			te.scores(id, 2, 1, te.referee, randomDeals(rnd, 3)...)
			var list api.TournamentRoundList
			res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "rounds") + "?latest=true",
				Header: map[string]string{"If-None-Match": etag}}, &list)
			if res.Header.Get("ETag") == etag || len(list.Items) != 1 || len(list.Items[0].Tables[0].Deals) != 3 {
				t.Errorf("after a score: ETag %q (was %q), %s", res.Header.Get("ETag"), etag, jsonOf(list))
			}
		})

		t.Run("ErrLatestNotABoolean", func(t *testing.T) {
			p := te.problem(http.StatusBadRequest, req{Method: "GET", Path: tpath(id, "rounds") + "?latest=yes"})
			if p.Code != "invalid_parameter" || len(p.Errors) != 1 || p.Errors[0].Field != "latest" {
				t.Errorf("latest=yes: %s", jsonOf(p))
			}
		})
	})
}
