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

// TestTournaments walks a club secretary's flow (create a draft, open it)
// and a frontend's (list and show), and checks bodies, headers and the
// refusals on the way.
func TestTournaments(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
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
			TournamentSetupOut: api.TournamentSetupOut{Movement: "modified_danish", Rounds: 4, MitchellStep: 1, TargetScore: 2005,
				VPTable: threeDealTable(), VPTableBuiltin: true, TieBreaks: []string{"vp", "mp_difference", "head_to_head", "opponents_vp", "lots"},
				RestVP: 14, RestMP: 355, Played: "live"},
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

		// The status is not PATCHed: the lifecycle's actions move it.
		p := problemOf(t, e.must(422, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"status":"registration_open"}`}, nil), "invalid_input")
		if len(p.Errors) != 1 || p.Errors[0].Field != "status" || p.Errors[0].Code != "lifecycle_action" {
			t.Errorf("PATCH status: %+v", p.Errors)
		}

		// Open for registration (by hand until the lifecycle actions exist):
		// public now.
		e.clock.Add(time.Minute)
		storetest.SetTournamentStatus(t, db, draft.ID, "registration_open", e.clock.Now())
		var published api.Tournament
		e.must(200, req{Method: "GET", Path: location}, &published)
		if published.Status != "registration_open" || !cmp.Equal(published.Options, draft.Options) {
			t.Errorf("open: %+v", published)
		}
		e.must(200, req{Method: "GET", Path: fmt.Sprintf("/api/v1/tournaments?club_id=%d&status=registration_open&q=PRIMAVERA&limit=1", club.ID)}, &list)
		if list.Total != 1 || list.Limit != 1 || len(list.Items) != 1 || !cmp.Equal(list.Items[0], published) {
			t.Errorf("public list: %+v", list)
		}

		// Open: the game is frozen, the status stays as it is, and it can
		// no longer be deleted; the set-up still changes.
		problemOf(t, e.must(409, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"rules":"reale"}`}, nil), "conflict")
		problemOf(t, e.must(409, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"options":{"target":2005}}`}, nil), "conflict")
		problemOf(t, e.must(409, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"kind":"teams","vp_table":` + twoDealJSON + `}`}, nil), "conflict")
		problemOf(t, e.must(422, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"status":"draft"}`}, nil), "invalid_input")
		problemOf(t, e.must(409, req{Method: "DELETE", Path: location, Token: secretary}, nil), "conflict")
		var got api.Tournament
		e.must(200, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"name":"Torneo di Primavera 2026","status":"registration_open","rounds":5}`}, &got)
		if got.Name != "Torneo di Primavera 2026" || got.Rules != "fibur" || got.Rounds != 5 {
			t.Errorf("renamed: %+v", got)
		}
		e.must(200, req{Method: "GET", Path: location}, &published)
		if diff := cmp.Diff(got, published); diff != "" {
			t.Errorf("GET after the PATCH (-patched +got):\n%s", diff)
		}

		// Running: the set-up is frozen too.
		storetest.SetTournamentStatus(t, db, draft.ID, "running", e.clock.Now())
		problemOf(t, e.must(409, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"rounds":6}`}, nil), "conflict")
		problemOf(t, e.must(409, req{Method: "PATCH", Path: location, Token: secretary, Body: `{"deals_per_round":4}`}, nil), "conflict")

		// A second draft, deleted.
		var second api.Tournament
		res = e.must(201, req{Method: "POST", Path: clubTournaments, Token: secretary, Body: api.TournamentCreateRequest{
			Name: "Prova", Rules: "fibur-row", PlayersPerTable: new(2), Kind: "pairs", DealsPerRound: new(2), StartsAt: &starts,
			TournamentSetupInput: api.TournamentSetupInput{VPTable: twoDealTable()}}}, &second)
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
		{"EverySetupFieldListed", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z",` +
			`"movement":"howell","mitchell_step":0,"target_score":0,"tie_breaks":["vp","vp"],"rest_vp":21,"rest_mp":7,"abandon_vp":-1,` +
			`"late_entry_round":-1,"team_pairs":2}`, 422, "invalid_input",
			[]string{"movement:invalid", "mitchell_step:out_of_range", "target_score:out_of_range", "tie_breaks[1]:duplicate", "rest_vp:out_of_range",
				"rest_mp:not_multiple_5", "abandon_vp:out_of_range", "late_entry_round:out_of_range", "team_pairs:invalid"}},
		{"EveryProblemOfAVPTable", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","deals_per_round":2,"starts_at":"2026-05-01T15:00:00Z",` +
			`"vp_table":{"bands":[{"from":0,"to":50,"winner":11,"loser":9},{"from":50,"winner":20,"loser":0}]}}`, 422, "invalid_input",
			[]string{"vp_table.bands[0]:first_not_tie", "vp_table.bands[1]:gap"}},
		{"TwoDealsNeedAVPTable", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","deals_per_round":2,"starts_at":"2026-05-01T15:00:00Z"}`,
			422, "invalid_input", []string{"vp_table:required"}},
		{"IndividualNeedsFourPlayers", `{"name":"T","rules":"fibur","players_per_table":2,"kind":"individual","starts_at":"2026-05-01T15:00:00Z"}`,
			422, "invalid_input", []string{"players_per_table:invalid"}},
		{"VPBandOfWrongType", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","vp_table":{"bands":[{"from":"0"}]}}`,
			400, "malformed_json", []string{"vp_table.bands.from:wrong_type"}},
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
		{"NotATime", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"tomorrow"}`, 400, "malformed_json", []string{"starts_at:invalid"}},
		{"EveryRequiredFieldMissing", `{}`, 422, "invalid_input",
			[]string{"name:required", "rules:required", "players_per_table:required", "kind:required", "starts_at:required"}},
		{"PlayersMissing", `{"name":"T","rules":"fibur","kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`, 422, "invalid_input",
			[]string{"players_per_table:required"}},
		// null is never taken for absent: it is refused, naming the field.
		{"PlayersNull", `{"name":"T","rules":"fibur","players_per_table":null,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`, 400, "malformed_json",
			[]string{"players_per_table:null"}},
		{"DealsPerRoundNull", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","deals_per_round":null}`,
			400, "malformed_json", []string{"deals_per_round:null"}},
		{"OptionNull", `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z","options":{"target":null}}`,
			400, "malformed_json", []string{"options.target:null"}},
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
			Body: `{"status":"published","deals_per_round":0}`}, nil), "invalid_input")
		if diff := cmp.Diff([]string{"deals_per_round:out_of_range", "status:invalid"}, fields(p)); diff != "" {
			t.Errorf("fields (-want +got):\n%s", diff)
		}
		p = problemOf(t, e.must(422, req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/tournaments/%d", tm.ID), Token: admin,
			Body: `{"players_per_table":0,"starts_at":"0001-01-01T00:00:00Z"}`}, nil), "invalid_input")
		if diff := cmp.Diff([]string{"players_per_table:invalid", "starts_at:out_of_range"}, fields(p)); diff != "" {
			t.Errorf("zero values in a patch: fields (-want +got):\n%s", diff)
		}
	})
	t.Run("DealsPerRoundAbsentIsTheDefault", func(t *testing.T) {
		var tm api.Tournament
		e.must(201, req{Method: "POST", Path: path, Token: admin,
			Body: `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`}, &tm)
		if tm.DealsPerRound != domain.DefaultDealsPerRound {
			t.Errorf("deals_per_round: got %d, want %d", tm.DealsPerRound, domain.DefaultDealsPerRound)
		}
	})
}

// threeDealTable is RULES §10's 3-deal table as the API shows it.
func threeDealTable() *api.VPTable {
	rows := [][3]int{{0, 50, 10}, {55, 150, 11}, {155, 250, 12}, {255, 350, 13}, {355, 500, 14}, {505, 650, 15}, {655, 800, 16},
		{805, 1000, 17}, {1005, 1250, 18}, {1255, 1500, 19}, {1505, -1, 20}}
	t := &api.VPTable{Name: "3-deal", Sum: 20}
	for _, r := range rows {
		b := api.VPBand{From: r[0], Winner: r[2], Loser: 20 - r[2]}
		if r[1] >= 0 {
			b.To = new(r[1])
		}
		t.Bands = append(t.Bands, b)
	}
	return t
}

// twoDealTable is an organiser's table for 2-deal rounds.
func twoDealTable() *api.VPTable {
	return &api.VPTable{Name: "2-deal", Bands: []api.VPBand{{From: 0, To: new(30), Winner: 10, Loser: 10}, {From: 35, To: new(150), Winner: 13, Loser: 7},
		{From: 155, Winner: 20, Loser: 0}}}
}

const twoDealJSON = `{"name":"2-deal","bands":[{"from":0,"to":30,"winner":10,"loser":10},{"from":35,"to":150,"winner":13,"loser":7},{"from":155,"winner":20,"loser":0}]}`

// TestTournamentSetupThroughTheAPI creates a tournament with its own VP
// table and tie-breaks, reads them back, and goes back to the built-in
// table with builtin_vp_table.
func TestTournamentSetupThroughTheAPI(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		admin := e.siteAdmin().AccessToken
		var club api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: admin, Body: api.ClubCreateRequest{Name: "C"}}, &club)
		var tm api.Tournament
		e.must(201, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID), Token: admin,
			Body: `{"name":"Mitchell","rules":"fibur","players_per_table":4,"kind":"pairs","deals_per_round":2,"starts_at":"2026-05-01T15:00:00Z",` +
				`"movement":"mitchell","rounds":6,"mitchell_step":2,"vp_table":` + twoDealJSON + `,"tie_breaks":["vp","mp_for","lots"],` +
				`"rest_vp":12,"rest_mp":300,"abandon_vp":5,"remaining_gets_rest":true,"forbid_same_club":true,"late_entry_round":2}`}, &tm)
		want := api.TournamentSetupOut{Movement: "mitchell", Rounds: 6, MitchellStep: 2, TargetScore: 2005, VPTable: twoDealTable(),
			TieBreaks: []string{"vp", "mp_for", "lots"}, RestVP: 12, RestMP: 300, AbandonVP: 5, RemainingGetsRest: true, ForbidSameClub: true,
			LateEntryRound: 2, Played: "live"}
		if diff := cmp.Diff(want, tm.TournamentSetupOut); diff != "" {
			t.Errorf("created (-want +got):\n%s", diff)
		}
		path := fmt.Sprintf("/api/v1/tournaments/%d", tm.ID)
		var got api.Tournament
		e.must(200, req{Method: "GET", Path: path, Token: admin}, &got)
		if diff := cmp.Diff(tm, got); diff != "" {
			t.Errorf("GET (-created +got):\n%s", diff)
		}
		e.must(200, req{Method: "PATCH", Path: path, Token: admin, Body: `{"deals_per_round":4,"builtin_vp_table":true,"tie_breaks":[]}`}, &got)
		if !got.VPTableBuiltin || got.VPTable == nil || got.VPTable.Name != "4-deal" || len(got.TieBreaks) != 5 {
			t.Errorf("back to the built-in table and tie-breaks: %+v", got.TournamentSetupOut)
		}
		p := problemOf(t, e.must(422, req{Method: "PATCH", Path: path, Token: admin, Body: `{"builtin_vp_table":true,"vp_table":` + twoDealJSON + `}`}, nil),
			"invalid_input")
		if len(p.Errors) != 1 || p.Errors[0].Field != "builtin_vp_table" {
			t.Errorf("a table and the built-in at once: %+v", p.Errors)
		}
	})
}

// TestTournamentRefereesThroughTheAPI assigns the club's referee, lists and
// takes them off, and refuses a plain member with not_a_referee.
func TestTournamentRefereesThroughTheAPI(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db)
		owner, tok := e.user("owner@example.com", "Olga")
		var club api.Club
		e.must(201, req{Method: "POST", Path: "/api/v1/clubs", Token: tok.AccessToken, Body: api.ClubCreateRequest{Name: "C"}}, &club)
		ref, _ := e.user("rita@example.com", "Rita")
		plain, _ := e.user("marco@example.com", "Marco")
		for u, role := range map[int64]domain.Role{ref.ID: domain.RoleReferee, plain.ID: domain.RoleMember} {
			if _, err := e.svc.Clubs.AddMember(t.Context(), domain.Actor{UserID: owner.ID}, club.ID, u, role); err != nil {
				t.Fatal(err)
			}
		}
		var tm api.Tournament
		e.must(201, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments", club.ID), Token: tok.AccessToken,
			Body: `{"name":"T","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-05-01T15:00:00Z"}`}, &tm)
		refs := fmt.Sprintf("/api/v1/tournaments/%d/referees", tm.ID)
		var got api.TournamentReferee
		e.must(200, req{Method: "PUT", Path: fmt.Sprintf("%s/%d", refs, ref.ID), Token: tok.AccessToken}, &got)
		want := api.TournamentReferee{UserID: ref.ID, Name: "Rita", Role: "referee", AssignedAt: e.clock.Now()}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("assigned (-want +got):\n%s", diff)
		}
		e.must(200, req{Method: "PUT", Path: fmt.Sprintf("%s/%d", refs, ref.ID), Token: tok.AccessToken}, &got) // again: no change
		problemOf(t, e.must(422, req{Method: "PUT", Path: fmt.Sprintf("%s/%d", refs, plain.ID), Token: tok.AccessToken}, nil), "not_a_referee")
		problemOf(t, e.must(400, req{Method: "PUT", Path: refs + "/zero", Token: tok.AccessToken}, nil), "invalid_parameter")
		var list api.TournamentRefereeList
		e.must(200, req{Method: "GET", Path: refs, Token: tok.AccessToken}, &list)
		if diff := cmp.Diff([]api.TournamentReferee{want}, list.Items); diff != "" {
			t.Errorf("listed (-want +got):\n%s", diff)
		}
		e.must(204, req{Method: "DELETE", Path: fmt.Sprintf("%s/%d", refs, ref.ID), Token: tok.AccessToken}, nil)
		e.must(200, req{Method: "GET", Path: refs, Token: tok.AccessToken}, &list)
		if list.Items == nil || len(list.Items) != 0 {
			t.Errorf("after DELETE: %+v, want an empty list", list)
		}
	})
}
