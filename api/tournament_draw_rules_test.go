package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestAvoidRepeatOpponentsIsOffByDefaultAndStored: a new modified Danish
// follows RULES §10 (avoid_repeat_opponents false); the setting is taken
// at creation and by a patch, and read back from the database, on SQLite and
// PostgreSQL.
func TestAvoidRepeatOpponentsIsOffByDefaultAndStored(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		create := func(avoid *bool) api.Tournament {
			var out api.Tournament
			te.must(http.StatusCreated, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments", te.club), Token: te.director,
				Body: api.TournamentCreateRequest{Name: "Torneo", Rules: "fibur", PlayersPerTable: new(4), Kind: "pairs",
					StartsAt: new(te.clock.Now().AddDate(0, 0, 7)), TournamentSetupInput: api.TournamentSetupInput{AvoidRepeatOpponents: avoid}}}, &out)
			return out
		}
		if got := create(nil); got.AvoidRepeatOpponents || got.Movement != "modified_danish" {
			t.Fatalf("default: movement %s avoid_repeat_opponents %v", got.Movement, got.AvoidRepeatOpponents)
		}
		on := create(new(true))
		var read api.Tournament
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(on.ID), Token: te.director}, &read)
		if !on.AvoidRepeatOpponents || !read.AvoidRepeatOpponents {
			t.Fatalf("set at creation: %v, read back %v", on.AvoidRepeatOpponents, read.AvoidRepeatOpponents)
		}
		te.must(http.StatusOK, req{Method: "PATCH", Path: tpath(on.ID), Token: te.director,
			Body: api.TournamentUpdateRequest{TournamentSetupInput: api.TournamentSetupInput{AvoidRepeatOpponents: new(false)}}}, &read)
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(on.ID), Token: te.director}, &read)
		if read.AvoidRepeatOpponents {
			t.Fatal("patched off, still on")
		}
	})
}

// TestRoundViewSaysWhichRuleDrewItAndShowsARedraw: a modified Danish round
// says it was drawn by RULES §10's rule; a Danish round drawn again after a
// correction says so publicly (redrawn, when, which correction and why),
// and the audit's score_corrected carries both lists, kept_rounds empty.
func TestRoundViewSaysWhichRuleDrewItAndShowsARedraw(t *testing.T) {
	te := newTourneyEnv(t, storetest.SQLite(t))
	md := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementModifiedDanish), Rounds: new(3)})
	te.lifecycle(md, te.director, "open_registration")
	te.pairs(md, 4)
	te.start(md)
	if r := te.draw(md); r.Rule != "modified_danish" || r.Redrawn || r.RedrawnAt != nil || r.RedrawReason != nil {
		t.Fatalf("round 1 of a modified Danish: %s", jsonOf(r))
	}

	id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(3)})
	te.lifecycle(id, te.director, "open_registration")
	te.pairs(id, 4)
	te.start(id)
	r1 := te.draw(id)
	rnd := newRand()
	for _, tb := range r1.Tables {
		te.scores(id, 1, tb.Number, te.referee, randomDeals(rnd, 3)...)
	}
	te.closeRound(id, 1)
	var r2 api.TournamentRound
	te.must(http.StatusCreated, req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee}, &r2)
	if r2.Rule != "danish" || r2.Redrawn {
		t.Fatalf("round 2 before the correction: %s", jsonOf(r2))
	}
	tb, etag := te.table(id, 1, 1)
	fixed := api.TournamentDealCorrection{Number: 1, NS: tb.Deals[0].EW, EW: tb.Deals[0].NS}
	te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", 1, "tables", 1, "corrections"), Token: te.referee,
		Header: map[string]string{"If-Match": etag}, Body: api.TournamentCorrectionRequest{Deal: fixed, Reason: "sides swapped"}}, nil)
	got := te.round(id, 2)
	if !got.Redrawn || got.RedrawnAt == nil || got.Draws != 2 || got.RedrawReason == nil ||
		*got.RedrawReason != (api.TournamentRedrawReason{Round: 1, Table: 1, Reason: "sides swapped"}) {
		t.Fatalf("redrawn round 2: %s", jsonOf(got))
	}
	events := te.audit(id)
	last := events[len(events)-1]
	redrawn, kept := last.Data["redrawn_rounds"], last.Data["kept_rounds"]
	if last.Kind != "score_corrected" || redrawn == nil || kept == nil || len(kept.([]any)) != 0 ||
		!slices.Equal(numbers(redrawn.([]any)), []string{"2"}) {
		t.Fatalf("audit of the correction: %s", jsonOf(last))
	}
}

// numbers is a JSON array of numbers as their text.
func numbers(xs []any) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = jsonOf(x)
	}
	return out
}
