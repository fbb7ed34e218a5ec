package api_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestSelfEntryCannotSetFeeOrSeed: a player entering themself may not say
// the fee is paid, nor pick a seed or a number (issue 19): 422
// invalid_command naming each such field (not_allowed), and nothing is
// entered; the same entry without them is accepted, and the staff may set
// them as they may change them later.
func TestSelfEntryCannotSetFeeOrSeed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
		te.lifecycle(id, te.director, "open_registration")
		a, b := te.player("Anna Rossi", true), te.player("Bruno Bianchi", false)
		for _, c := range []struct {
			name   string
			body   api.TournamentEntryRequest
			fields []string
		}{
			{"FeePaidRefused", api.TournamentEntryRequest{FeePaid: true}, []string{"fee_paid"}},
			{"SeedRefused", api.TournamentEntryRequest{Seed: 1}, []string{"seed"}},
			{"NumberRefused", api.TournamentEntryRequest{Number: 7}, []string{"number"}},
			{"AllNamed", api.TournamentEntryRequest{FeePaid: true, Seed: 2, Number: 9}, []string{"fee_paid", "seed", "number"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				c.body.Players = []int64{a, b}
				res := te.do(req{Method: "POST", Path: tpath(id, "entries"), Token: te.tokenOf[a], Body: c.body})
				if res.Status != http.StatusUnprocessableEntity {
					t.Fatalf("status %d, want 422: %s", res.Status, res.Body)
				}
				p := problem(t, res)
				var got []string
				for _, f := range p.Errors {
					if f.Code != "not_allowed" {
						t.Errorf("field %s: code %s", f.Field, f.Code)
					}
					got = append(got, f.Field)
				}
				if p.Code != "invalid_command" || !slices.Equal(got, c.fields) {
					t.Errorf("code %s, fields %v; want invalid_command naming %v", p.Code, got, c.fields)
				}
			})
		}
		var list api.TournamentEntryList
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "entries"), Token: te.director}, &list)
		if len(list.Items) != 0 {
			t.Fatalf("refused entries were entered: %s", jsonOf(list))
		}
		own := te.enter(id, te.tokenOf[a], a, b)
		if own.Number != 1 || own.Seed != 0 {
			t.Errorf("the player's own entry: %s", jsonOf(own))
		}
		c, d := te.player("Carla Verdi", false), te.player("Dario Neri", false)
		var staff api.TournamentEntry
		te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "entries"), Token: te.referee,
			Body: api.TournamentEntryRequest{Players: []int64{c, d}, FeePaid: true, Seed: 1, Number: 9}}, &staff)
		if staff.FeePaid == nil || !*staff.FeePaid || staff.Seed != 1 || staff.Number != 9 {
			t.Errorf("the referee's entry: %s", jsonOf(staff))
		}
	})
}
