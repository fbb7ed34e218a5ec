package api_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// TestTournaments walks a club secretary's flow (create a draft, publish
// it) and a frontend's (list and show), and checks bodies, headers and the
// refusals on the way.
func TestTournaments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		_, tok := e.user("segretaria@example.com", "Sara")
		secretary := tok.AccessToken
		var club api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: secretary, Body: api.ClubCreateRequest{Name: "Circolo Roma"}}, &club)
		clubTournaments := fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID)

		target, direction := 1005, "anticlockwise"
		starts := time.Date(2026, 4, 18, 17, 0, 0, 0, time.FixedZone("CEST", 2*3600))
		var draft api.Tournament
		res := e.must(201, req{Method: "POST", Path: clubTournaments, Token: secretary, Body: api.TournamentCreateRequest{
			Name: "Torneo di Primavera", Rules: "fibur", PlayersPerTable: new(4), Kind: "pairs", StartsAt: &starts,
			Options: &api.TableOptionsInput{Target: &target, Direction: &direction}}}, &draft)
		location := fmt.Sprintf("/api/v1/tournaments/%d", draft.ID)
		if res.Header.Get("Location") != location {
			t.Errorf("Location %q, want %q", res.Header.Get("Location"), location)
		}
		want := api.Tournament{ID: draft.ID, ClubID: club.ID, ClubName: "Circolo Roma", Name: "Torneo di Primavera",
			Rules: "fibur", PlayersPerTable: 4, Kind: "pairs", DealsPerRound: 3, StartsAt: starts.UTC(), Status: "draft",
			Options: api.TableOptions{SemiClean: new(true), SemiCleanSet: new("exactly8"), PotPenaltyIfNeither: true, ClosingDiscard: "no_wild",
				Direction: "anticlockwise", Target: 1005, JokerPoints: new(30), Jokers: new(true)}, // canastra_bonus, aberto_sets, …: not fibur's (RULES §11)
			CreatedAt: e.clock.Now(), UpdatedAt: e.clock.Now()}
		if diff := cmp.Diff(want, draft); diff != "" {
			t.Errorf("created (-want +got):\n%s", diff)
		}

		// A draft is the club's business until it is published.
		problemOf(t, e.must(404, req{Method: "GET", Path: location}, nil), "not_found")
		var list api.TournamentList
		e.must(200, req{Method: "GET", Path: "/api/v1/tournaments"}, &list)
		if list.Total != 0 || list.Items == nil {
			t.Errorf("anonymous list shows a draft: %+v", list)
		}
		e.must(200, req{Method: "GET", Path: "/api/v1/tournaments?status=draft", Token: secretary}, &list)
		if list.Total != 1 || list.Items[0].ID != draft.ID {
			t.Errorf("the secretary's drafts: %+v", list)
		}

		e.clock.Add(time.Minute)
		var published api.Tournament
		e.must(200, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"status":"published"}`}, &published)
		if published.Status != "published" || !published.UpdatedAt.After(draft.UpdatedAt) || !cmp.Equal(published.Options, draft.Options) {
			t.Errorf("published: %+v", published)
		}
		var got api.Tournament
		e.must(200, req{Method: "GET", Path: location}, &got)
		if diff := cmp.Diff(published, got); diff != "" {
			t.Errorf("GET after publishing (-patched +got):\n%s", diff)
		}
		e.must(200, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tournaments?club_id=%d&status=published&q=PRIMAVERA&limit=1", club.ID)}, &list)
		if list.Total != 1 || list.Limit != 1 || len(list.Items) != 1 || !cmp.Equal(list.Items[0], published) {
			t.Errorf("public list: %+v", list)
		}

		// Published: the game is frozen, the status only moves forward, and
		// it can no longer be deleted.
		problemOf(t, e.must(409, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"rules":"reale"}`}, nil), "conflict")
		problemOf(t, e.must(409, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"options":{"target":2005}}`}, nil), "conflict")
		problemOf(t, e.must(409, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"status":"draft"}`}, nil), "conflict")
		problemOf(t, e.must(409, req{Method: "DELETE", Path: location, Token: secretary}, nil), "conflict")
		e.must(200, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"name":"Torneo di Primavera 2026","status":"published"}`}, &got)
		if got.Name != "Torneo di Primavera 2026" || got.Rules != "fibur" {
			t.Errorf("renamed: %+v", got)
		}

		// A second draft, deleted.
		var second api.Tournament
		res = e.must(201, req{Method: "POST", Path: clubTournaments, Token: secretary, Body: api.TournamentCreateRequest{
			Name: "Prova", Rules: "fibur-row", PlayersPerTable: new(2), Kind: "individual", DealsPerRound: new(2), StartsAt: &starts}}, &second)
		e.must(204, req{Method: "DELETE", Path: res.Header.Get("Location"), Token: secretary}, nil)
		problemOf(t, e.must(404, req{Method: "GET", Path: res.Header.Get("Location"), Token: secretary}, nil), "not_found")
	})
}

// TestTournamentInvalidInput checks that every invalid field is listed, and
// that the engine's verdict on the rule set, players and options is passed
// on.
func TestTournamentInvalidInput(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t))
	admin := e.siteAdmin().AccessToken
	var club api.Club
	e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: admin, Body: api.ClubCreateRequest{Name: "C"}}, &club)
	path := fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID)
	fields := func(p api.Problem) []string {
		var out []string
		for _, f := range p.Errors {
			out = append(out, f.Field+":"+f.Code)
		}
		return out
	}
	tests := []struct {
		name   string
		body   string
		status int
		code   string
		want   []string
	}{
		{"EveryFieldListed", `{"name":"","rules":"","players_per_table":3,"kind":"solo","deals_per_round":9}`, 422, "invalid_input",
			[]string{"name:required", "rules:required", "players_per_table:invalid", "kind:invalid", "deals_per_round:out_of_range", "starts_at:required"}},
		{"UnknownRuleSet", `{"name":"T","rules":"poker","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`, 422, "invalid_input",
			[]string{"rules:invalid"}},
		{"FiburRowOfFour", `{"name":"T","rules":"fibur-row","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`, 422, "invalid_input",
			[]string{"players_per_table:invalid"}},
		{"UnknownOptionValue", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","options":{"direction":"sideways"}}`,
			422, "invalid_input", []string{"options:invalid"}},
		{"OptionOfAnotherRuleSet", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","options":{"real_canastra":true}}`,
			422, "invalid_input", []string{"options:invalid"}},
		{"UnknownOptionKey", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","options":{"bogus":1}}`,
			400, "malformed_json", []string{"bogus:unknown_field"}},
		{"OptionOfWrongType", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","options":{"target":"high"}}`,
			400, "malformed_json", []string{"options.target:wrong_type"}},
		{"NotATime", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"tomorrow"}`, 400, "malformed_json", nil},
		{"EveryRequiredFieldMissing", `{}`, 422, "invalid_input",
			[]string{"name:required", "rules:required", "players_per_table:required", "kind:required", "starts_at:required"}},
		{"PlayersMissing", `{"name":"T","rules":"fibur","kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`, 422, "invalid_input",
			[]string{"players_per_table:required"}},
		{"PlayersNull", `{"name":"T","rules":"fibur","players_per_table":null,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`, 422, "invalid_input",
			[]string{"players_per_table:required"}},
		// A zero the client sent is checked as a value, never taken for an
		// absent field (deals_per_round 0 was stored as 3).
		{"PlayersZero", `{"name":"T","rules":"fibur","players_per_table":0,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`, 422, "invalid_input",
			[]string{"players_per_table:invalid"}},
		{"DealsPerRoundZero", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","deals_per_round":0}`,
			422, "invalid_input", []string{"deals_per_round:out_of_range"}},
		{"StartsAtZeroTime", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"0001-01-01T00:00:00Z"}`, 422, "invalid_input",
			[]string{"starts_at:out_of_range"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := problemOf(t, e.must(tt.status, req{Method: "POST", Path: path, Token: admin, Body: tt.body}, nil), tt.code)
			if diff := cmp.Diff(tt.want, fields(p)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			if tt.code == "invalid_input" && p.Errors[0].Message == "" {
				t.Errorf("no message: %+v", p.Errors)
			}
		})
	}
	t.Run("StatusListedWithTheOtherFields", func(t *testing.T) {
		var tm api.Tournament
		e.must(201, req{Method: "POST", Path: path, Token: admin, Body: `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`}, &tm)
		p := problemOf(t, e.must(422, req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/tournaments/%d", tm.ID), Token: admin,
			Body: `{"status":"over","deals_per_round":0}`}, nil), "invalid_input")
		if diff := cmp.Diff([]string{"deals_per_round:out_of_range", "status:invalid"}, fields(p)); diff != "" {
			t.Errorf("fields (-want +got):\n%s", diff)
		}
		p = problemOf(t, e.must(422, req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/tournaments/%d", tm.ID), Token: admin,
			Body: `{"players_per_table":0,"starts_at":"0001-01-01T00:00:00Z"}`}, nil), "invalid_input")
		if diff := cmp.Diff([]string{"players_per_table:invalid", "starts_at:out_of_range"}, fields(p)); diff != "" {
			t.Errorf("zero values in a patch: fields (-want +got):\n%s", diff)
		}
	})
	t.Run("DealsPerRoundAbsentOrNullIsTheDefault", func(t *testing.T) {
		for _, deals := range []string{``, `,"deals_per_round":null`} {
			var tm api.Tournament
			e.must(201, req{Method: "POST", Path: path, Token: admin,
				Body: `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"` + deals + `}`}, &tm)
			if tm.DealsPerRound != domain.DefaultDealsPerRound {
				t.Errorf("deals_per_round %q: got %d, want %d", deals, tm.DealsPerRound, domain.DefaultDealsPerRound)
			}
		}
	})
}
