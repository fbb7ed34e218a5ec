package api_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// printedNumbers are the entry numbers of a printed standings' rows, in
// order (the second cell of each row).
var printedNumbers = regexp.MustCompile(`<tr><td class="n">\d+</td><td class="n">(\d+)</td>`)

// TestPrintedStandingsOfAPhaseAndGroup: on SQLite and PostgreSQL, an
// eight-pair event whose second phase is in two groups by hand. The
// printed standings of a group (of the current phase when no phase is
// named) list that group's entries in the order of GET
// …/phases/{phase}/standings?group=, and their heading names the group and
// the phase; a phase alone prints its whole field; a phase or group that is
// not there is 404 with its code, a malformed one 400 naming it.
func TestPrintedStandingsOfAPhaseAndGroup(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.openPhased([]api.TournamentPhase{
			{Name: "Uno", Movement: "danish", Rounds: 1},
			{Name: "Due", Movement: "danish", Rounds: 1, Groups: &api.TournamentGrouping{By: "hand", Count: 2}},
		})
		te.pairs(id, 8)
		te.start(id)
		rnd := rand.New(rand.NewPCG(32, 3))
		for _, tb := range te.draw(id).Tables {
			te.scores(id, 1, tb.Number, te.referee, randomDeals(rnd, 3)...)
		}
		te.closeRound(id, 1)
		var r2 api.TournamentRound
		te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee,
			Body: map[string]any{"round": 2, "groups": [][]int{{1, 3, 5, 7}, {2, 4, 6, 8}}}}, &r2)
		te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", 2, "start"), Token: te.referee}, nil)
		for _, tb := range r2.Tables {
			te.scores(id, 2, tb.Number, te.referee, randomDeals(rnd, 3)...)
		}

		numbers := func(rows []api.TournamentStanding) []string {
			var out []string
			for _, r := range rows {
				out = append(out, fmt.Sprint(r.Entry.Number))
			}
			return out
		}
		for _, tc := range []struct {
			name, query, standings string
			words                  []string
		}{
			{"GroupOfTheCurrentPhase", "?group=A&lang=en", "phases/2/standings?group=A", []string{"Standings · Group A", "Phase 2 of 2: Due · the VP carried into the phase included"}},
			{"GroupOfAPhaseInItalian", "?phase=2&group=B&lang=it", "phases/2/standings?group=B", []string{"Classifica · Girone B", "Fase 2 di 2: Due · compresi i VP portati nella fase"}},
			{"APhaseWhole", "?phase=1&lang=en", "phases/1/standings", []string{"Phase 1 of 2: Uno</div>"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var want api.TournamentPhaseStandings
				te.must(http.StatusOK, req{Method: "GET", Path: tpath(id) + "/" + tc.standings}, &want)
				res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "print", "standings") + tc.query}, nil)
				page := string(res.Body)
				var got []string
				for _, m := range printedNumbers.FindAllStringSubmatch(page, -1) {
					got = append(got, m[1])
				}
				if !slices.Equal(got, numbers(want.Rows)) {
					t.Errorf("printed entries %v, want %v", got, numbers(want.Rows))
				}
				for _, w := range tc.words {
					if !strings.Contains(page, w) {
						t.Errorf("the page lacks %q", w)
					}
				}
			})
		}

		for _, tc := range []struct {
			name, query string
			status      int
			code, field string
		}{
			{"ErrPhaseNotFound", "?phase=3", http.StatusNotFound, "phase_not_found", ""},
			{"ErrGroupNotFound", "?phase=2&group=C", http.StatusNotFound, "group_not_found", ""},
			{"ErrNoGroupsInThatPhase", "?phase=1&group=A", http.StatusNotFound, "group_not_found", ""},
			{"ErrPhaseNotPositive", "?phase=0", http.StatusBadRequest, "invalid_parameter", "phase"},
			{"ErrGroupNotALetter", "?group=ab", http.StatusBadRequest, "invalid_parameter", "group"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				p := te.problem(tc.status, req{Method: "GET", Path: tpath(id, "print", "standings") + tc.query})
				if p.Code != tc.code || (tc.field != "" && (len(p.Errors) != 1 || p.Errors[0].Field != tc.field)) {
					t.Errorf("%s: %s", tc.query, jsonOf(p))
				}
			})
		}
	})
}
