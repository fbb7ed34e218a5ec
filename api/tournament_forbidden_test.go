package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestForbiddenPairsAreDeduplicatedAndBounded: the forbidden pairs are a
// set of pairs of two different entries of the tournament ([a,b] is
// [b,a]), so that a list sent many times over is stored once; a request is
// bounded in pairs and in bytes; the audit trail records what changed, not
// the list; and only the staff read the list (it says who is family).
func TestForbiddenPairsAreDeduplicatedAndBounded(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
		te.lifecycle(id, te.director, "open_registration")
		es := te.pairs(id, 4)
		a, b, c, d := es[0].ID, es[1].ID, es[2].ID, es[3].ID
		put := func(pairs [][]int64) req {
			return req{Method: "PUT", Path: tpath(id, "forbidden"), Token: te.director,
				Body: api.TournamentForbiddenRequest{Pairs: pairs, Reason: "same family"}}
		}
		get := func() [][2]int64 {
			t.Helper()
			var got api.TournamentForbidden
			te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "forbidden"), Token: te.referee}, &got)
			return idsOf(got)
		}

		t.Run("RepeatsAndReversalsAreOnePair", func(t *testing.T) {
			pairs := make([][]int64, 0, 400)
			for range 200 {
				pairs = append(pairs, []int64{c, a}, []int64{a, c})
			}
			var got api.TournamentForbidden
			te.must(http.StatusOK, put(pairs), &got)
			if want := [][2]int64{{a, c}}; !slices.Equal(idsOf(got), want) {
				t.Errorf("PUT answered %v, want %v", idsOf(got), want)
			}
			if want := [][2]int64{{a, c}}; !slices.Equal(get(), want) {
				t.Errorf("GET answered %v, want %v", get(), want)
			}
		})
		t.Run("EveryPairOfFourEntriesIsSix", func(t *testing.T) {
			var pairs [][]int64
			for range 3 {
				for _, x := range es {
					for _, y := range es {
						if x.ID != y.ID {
							pairs = append(pairs, []int64{x.ID, y.ID})
						}
					}
				}
			}
			te.must(http.StatusOK, put(pairs), nil)
			if got := get(); len(got) != 6 { // n(n-1)/2
				t.Errorf("4 entries kept apart in %d pairs, want 6: %v", len(got), got)
			}
		})
		t.Run("AuditRecordsWhatChanged", func(t *testing.T) {
			te.must(http.StatusOK, put([][]int64{{a, c}}), nil)
			te.must(http.StatusOK, put([][]int64{{b, d}, {c, a}, {d, b}}), nil) // adds {b,d}, keeps {a,c}
			events := te.audit(id)
			last := events[len(events)-1]
			if last.Kind != "forbidden_set" {
				t.Fatalf("the last event is %s, want forbidden_set", last.Kind)
			}
			data, _ := json.Marshal(last.Data)
			if want := fmt.Sprintf(`{"added":[[%d,%d]],"removed":[]}`, b, d); string(data) != want {
				t.Errorf("the audit trail recorded %s, want %s", data, want)
			}
		})
		t.Run("UnknownEntryIsNamed", func(t *testing.T) {
			p := te.problem(http.StatusUnprocessableEntity, put([][]int64{{a, b}, {c, 9999}}))
			if p.Code != "invalid_command" || len(p.Errors) != 1 || p.Errors[0].Field != "pairs[1][1]" || p.Errors[0].Code != "unknown_value" {
				t.Errorf("an unknown entry answered %+v, want invalid_command naming pairs[1][1] unknown_value", p)
			}
		})
		t.Run("EntryWithItselfIsRefused", func(t *testing.T) {
			p := te.problem(http.StatusUnprocessableEntity, put([][]int64{{b, b}}))
			if p.Code != "invalid_command" || len(p.Errors) != 1 || p.Errors[0].Field != "pairs[0]" {
				t.Errorf("a self-pair answered %+v, want invalid_command naming pairs[0]", p)
			}
		})
		t.Run("TooManyPairsAreRefused", func(t *testing.T) {
			pairs := make([][]int64, 501)
			for i := range pairs {
				pairs[i] = []int64{a, b}
			}
			p := te.problem(http.StatusUnprocessableEntity, put(pairs))
			if p.Code != "invalid_input" || len(p.Errors) != 1 || p.Errors[0].Field != "pairs" || p.Errors[0].Code != "count" {
				t.Errorf("501 pairs answered %+v, want invalid_input naming pairs (count)", p)
			}
		})
		t.Run("MegabyteBodyIsRefused", func(t *testing.T) {
			pair := fmt.Sprintf("[%d,%d],", a, b)
			body := `{"pairs":[` + strings.Repeat(pair, (1<<20)/len(pair)) + fmt.Sprintf("[%d,%d]]}", a, b)
			r := put(nil)
			r.Body = []byte(body)
			if p := te.problem(http.StatusRequestEntityTooLarge, r); p.Code != "request_too_large" {
				t.Errorf("a 1 MB body answered %s, want request_too_large", p.Code)
			}
		})
		t.Run("OnlyTheStaffReadTheList", func(t *testing.T) {
			path := tpath(id, "forbidden")
			problemOf(t, te.must(http.StatusUnauthorized, req{Method: "GET", Path: path}, nil), "unauthenticated")
			problemOf(t, te.must(http.StatusForbidden, req{Method: "GET", Path: path, Token: te.member}, nil), "forbidden")
			te.must(http.StatusOK, req{Method: "GET", Path: path, Token: te.director}, nil)
		})
	})
}

// idsOf is the entry ids of forbidden pairs.
func idsOf(f api.TournamentForbidden) [][2]int64 {
	out := make([][2]int64, len(f.Pairs))
	for i, p := range f.Pairs {
		out[i] = [2]int64{p[0].ID, p[1].ID}
	}
	return out
}
