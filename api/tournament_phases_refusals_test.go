package api_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// createPhased creates a draft of the club with the phases (and prizes) as
// the director; it returns the tournament, or the problem with status.
func (te *tourneyEnv) createPhased(phases []api.TournamentPhase, prizes []api.TournamentPrize, status int) (api.Tournament, api.Problem) {
	te.t.Helper()
	body := examSetup()
	body.Phases, body.Prizes = &phases, nil
	if prizes != nil {
		body.Prizes = &prizes
	}
	r := req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments", te.club), Token: te.director, Body: body}
	if status != http.StatusCreated {
		return api.Tournament{}, te.problem(status, r)
	}
	var t api.Tournament
	te.must(http.StatusCreated, r, &t)
	return t, api.Problem{}
}

// openPhased creates a tournament in phases, assigns the env's referee and
// opens its registration: the set-up the phases' tests share.
func (te *tourneyEnv) openPhased(phases []api.TournamentPhase) int64 {
	te.t.Helper()
	tour, _ := te.createPhased(phases, nil, http.StatusCreated)
	if _, err := te.svc.Tournaments.AssignReferee(te.t.Context(), te.owner, tour.ID, te.refereeID); err != nil {
		te.t.Fatal(err)
	}
	te.lifecycle(tour.ID, te.director, "open_registration")
	return tour.ID
}

func fields(p api.Problem) []string {
	var out []string
	for _, e := range p.Errors {
		out = append(out, e.Field+" "+e.Code)
	}
	slices.Sort(out)
	return out
}

// TestBadPhaseSetUpsAreRefused: each bad set-up of phases is 422
// invalid_input naming the field and its code; nothing is created.
func TestBadPhaseSetUpsAreRefused(t *testing.T) {
	t.Parallel()
	te := newTourneyEnv(t, storetest.SQLite(t))
	ok := api.TournamentPhase{Name: "Danese", Movement: "danish", Rounds: 2}
	two := func(f func(p *api.TournamentPhase)) []api.TournamentPhase {
		p := ok
		f(&p)
		return []api.TournamentPhase{ok, p}
	}
	cases := []struct {
		name   string
		phases []api.TournamentPhase
		prizes []api.TournamentPrize
		want   []string
	}{
		{"AKnockoutPhase", two(func(p *api.TournamentPhase) { p.Movement = "knockout" }), nil, []string{"phases[1].movement not_allowed"}},
		{"ANamelessPhase", two(func(p *api.TournamentPhase) { p.Name = "" }), nil, []string{"phases[1].name required"}},
		{"TheFirstPhaseCarriesOver", []api.TournamentPhase{{Name: "P", Movement: "danish", Rounds: 2, CarryOver: "all"}}, nil,
			[]string{"phases[0].carry_over not_allowed"}},
		{"AFractionWithoutItsPercent", two(func(p *api.TournamentPhase) { p.CarryOver = "fraction" }), nil,
			[]string{"phases[1].carry_over_percent out_of_range"}},
		{"AnUnknownCarryOver", two(func(p *api.TournamentPhase) { p.CarryOver = "half" }), nil, []string{"phases[1].carry_over invalid"}},
		{"OneGroup", two(func(p *api.TournamentPhase) { p.Groups = &api.TournamentGrouping{By: "blocks", Count: 1} }), nil,
			[]string{"phases[1].groups.count out_of_range"}},
		{"GroupsByCounty", two(func(p *api.TournamentPhase) { p.Groups = &api.TournamentGrouping{By: "county", Count: 2} }), nil,
			[]string{"phases[1].groups.by invalid"}},
		{"RegionGroupsWithACount", two(func(p *api.TournamentPhase) { p.Groups = &api.TournamentGrouping{By: "region", Count: 2} }), nil,
			[]string{"phases[1].groups.count not_allowed"}},
		{"TwoDealsWithoutAVPTable", two(func(p *api.TournamentPhase) { p.DealsPerRound = 2 }), nil, []string{"phases[1].vp_table required"}},
		{"APrizeOfAGroupNoPhaseHas", []api.TournamentPhase{ok}, []api.TournamentPrize{{Name: "A", Group: "A", Places: 1}}, []string{"prizes[0].group invalid"}},
		{"APrizeOfGroupCOfTwo", two(func(p *api.TournamentPhase) { p.Groups = &api.TournamentGrouping{By: "serpentine", Count: 2} }),
			[]api.TournamentPrize{{Name: "C", Group: "C", Places: 1}}, []string{"prizes[0].group invalid"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, p := te.createPhased(c.phases, c.prizes, http.StatusUnprocessableEntity)
			if p.Code != "invalid_input" || !slices.Equal(fields(p), c.want) {
				t.Errorf("%s: %v, want invalid_input %v", p.Code, fields(p), c.want)
			}
		})
	}
}

// TestPhasePlayRefusals: on SQLite and PostgreSQL, a tournament of eight
// pairs, a Danish round, then a Danish round in two groups by hand, then
// one in four groups by blocks. Drawing the hand phase before round 1 is
// closed is phase_not_final; hand groups that miss, repeat or invent an
// entry, or give the wrong number of groups, are bad_groups naming each
// place; groups on a draw that seeds nothing are bad_groups; the third
// phase's groups of two entries cannot play two rounds: group_too_small;
// unknown phases and groups are 404, a bad scope 400. The state is
// unchanged by each refusal: the right groups are then drawn.
func TestPhasePlayRefusals(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.openPhased([]api.TournamentPhase{
			{Name: "Uno", Movement: "danish", Rounds: 1},
			{Name: "Due", Movement: "danish", Rounds: 1, Groups: &api.TournamentGrouping{By: "hand", Count: 2}},
			{Name: "Tre", Movement: "round_robin", Rounds: 2, CarryOver: "none", Groups: &api.TournamentGrouping{By: "blocks", Count: 4}},
		})
		te.pairs(id, 8)
		te.start(id)
		rnd := rand.New(rand.NewPCG(7, 32))
		r := te.draw(id)
		draw := func(body map[string]any) req {
			return req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee, Body: body}
		}
		for _, tb := range r.Tables {
			te.scores(id, 1, tb.Number, te.referee, randomDeals(rnd, 3)...)
		}
		if p := te.problem(http.StatusConflict, draw(map[string]any{"round": 2, "groups": [][]int{{1, 2, 3, 4}, {5, 6, 7, 8}}})); p.Code != "phase_not_final" {
			t.Fatalf("seeding before round 1 is closed: %+v", p)
		}
		te.closeRound(id, 1)
		cases := []struct {
			name   string
			groups any
			want   []string
		}{
			{"NoGroups", nil, []string{"groups required"}},
			{"AnEntryMissing", [][]int{{1, 2, 3}, {5, 6, 7, 8}}, []string{"groups missing"}},
			{"AnEntryTwice", [][]int{{1, 2, 3, 4}, {5, 6, 7, 8, 4}}, []string{"groups[1][4] duplicate"}},
			{"AnUnknownEntry", [][]int{{1, 2, 3, 4, 9}, {5, 6, 7, 8}}, []string{"groups[0][4] entry_not_found"}},
			{"ThreeGroupsOfTwo", [][]int{{1, 2}, {3, 4}, {5, 6, 7, 8}}, []string{"groups count"}},
		}
		for _, c := range cases {
			body := map[string]any{"round": 2}
			if c.groups != nil {
				body["groups"] = c.groups
			}
			p := te.problem(http.StatusUnprocessableEntity, draw(body))
			if p.Code != "bad_groups" || !slices.Equal(fields(p), c.want) {
				t.Errorf("%s: %s %v, want bad_groups %v", c.name, p.Code, fields(p), c.want)
			}
		}
		var r2 api.TournamentRound
		te.must(http.StatusCreated, draw(map[string]any{"round": 2, "groups": [][]int{{1, 3, 5, 7}, {2, 4, 6, 8}}}), &r2)
		for _, tb := range r2.Tables {
			ns, ew := tb.NS.Entries[0].Number, tb.EW.Entries[0].Number
			if ns%2 != ew%2 || (ns%2 == 1) != (tb.Group == "A") {
				t.Errorf("round 2 table %d (group %s): %d against %d", tb.Number, tb.Group, ns, ew)
			}
		}
		te.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", 2, "start"), Token: te.referee}, nil)
		for _, tb := range r2.Tables {
			te.scores(id, 2, tb.Number, te.referee, randomDeals(rnd, 3)...)
		}
		te.closeRound(id, 2)
		if p := te.problem(http.StatusUnprocessableEntity, draw(map[string]any{"round": 3, "groups": [][]int{{1, 3, 5, 7}, {2, 4, 6, 8}}})); p.Code != "bad_groups" {
			t.Errorf("groups for blocks: %+v", p)
		}
		if p := te.problem(http.StatusConflict, draw(map[string]any{"round": 3})); p.Code != "group_too_small" {
			t.Errorf("four groups of two for a round robin of two rounds: %+v", p)
		}
		for _, c := range []struct {
			path   string
			status int
			code   string
		}{
			{"/phases/4/standings", http.StatusNotFound, "phase_not_found"},
			{"/phases/2/standings?group=C", http.StatusNotFound, "group_not_found"},
			{"/phases/3/standings?group=A", http.StatusNotFound, "group_not_found"},
			{"/phases/2/standings?scope=all", http.StatusBadRequest, "invalid_parameter"},
		} {
			if p := te.problem(c.status, req{Method: "GET", Path: tpath(id) + c.path}); p.Code != c.code {
				t.Errorf("%s: %s, want %s", c.path, p.Code, c.code)
			}
		}
	})
}

// TestGroupsByRegionFollowThePlayersProfiles: on SQLite and PostgreSQL,
// players' regions (set on create and by PATCH, read back) make a phase's
// groups: the regions by name, the entries without one last; groups given
// with that draw are refused, the profiles decide.
func TestGroupsByRegionFollowThePlayersProfiles(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.openPhased([]api.TournamentPhase{
			{Name: "Uno", Movement: "danish", Rounds: 1},
			{Name: "Regioni", Movement: "danish", Rounds: 1, Groups: &api.TournamentGrouping{By: "region"}},
		})
		regions := []string{"Veneto", "Lazio", "", "Lazio", "Veneto", "", "Lazio", "Veneto", "", ""}
		for i, region := range regions {
			var a api.Player
			te.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/players", Token: te.director,
				Body: api.PlayerCreateRequest{Name: fmt.Sprintf("R%d-A", i), ClubID: &te.club, Region: region}}, &a)
			b := te.player(fmt.Sprintf("R%d-B", i), false)
			if i == 2 || i == 5 { // the partner's region counts when the first player has none
				var got api.Player
				te.must(http.StatusOK, req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/players/%d", b), Token: te.director,
					Body: api.PlayerUpdateRequest{Region: new("Umbria")}}, &got)
				if got.Region != "Umbria" {
					t.Fatalf("region read back: %+v", got)
				}
				regions[i] = "Umbria"
			}
			te.enter(id, te.director, a.ID, b)
		}
		te.start(id)
		r := te.draw(id)
		rnd := rand.New(rand.NewPCG(8, 32))
		for _, tb := range r.Tables {
			te.scores(id, 1, tb.Number, te.referee, randomDeals(rnd, 3)...)
		}
		te.closeRound(id, 1)
		if p := te.problem(http.StatusUnprocessableEntity, req{Method: "POST", Path: tpath(id, "rounds"), Token: te.referee,
			Body: map[string]any{"round": 2, "groups": [][]int{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}}}}); p.Code != "bad_groups" {
			t.Fatalf("groups given for a phase by region: %+v", p)
		}
		r2 := te.draw(id)
		want := map[string]string{"Lazio": "A", "Umbria": "B", "Veneto": "C", "": "D"}
		for _, tb := range r2.Tables {
			for _, e := range []api.TournamentEntryRef{tb.NS.Entries[0], tb.EW.Entries[0]} {
				if g := want[regions[e.Number-1]]; g != tb.Group {
					t.Errorf("table %d (group %s): entry %d of region %q, whose group is %s", tb.Number, tb.Group, e.Number, regions[e.Number-1], g)
				}
			}
		}
		var phases api.TournamentPhaseList
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "phases")}, &phases)
		var sizes []int
		for _, g := range phases.Items[1].Groups {
			sizes = append(sizes, len(g.Entries))
		}
		if !slices.Equal(sizes, []int{3, 2, 3, 2}) {
			t.Errorf("group sizes %v, want Lazio 3, Umbria 2, Veneto 3, none 2", sizes)
		}
	})
}
