package api_test

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// setCategories sets a player's category tags as the club's director.
func (te *tourneyEnv) setCategories(player int64, tags ...string) {
	te.t.Helper()
	te.must(http.StatusOK, req{Method: "PATCH", Path: fmt.Sprintf("/api/v1/players/%d", player), Token: te.director,
		Body: api.PlayerUpdateRequest{Categories: &tags}}, nil)
}

// expectedAwards is the test's own reading of the prize rules from the
// standings read back: overall prizes first, then category prizes in list
// order; an entry qualifies for a category when all its players have the
// tag; one prize per entry unless the prize is cumulative.
func expectedAwards(prizes []api.TournamentPrize, rows []api.TournamentStanding, tagged map[int64][]string) map[string][]int64 {
	qualifies := func(row api.TournamentStanding, tag string) bool {
		for _, p := range row.Players {
			if !slices.Contains(tagged[p.ID], tag) {
				return false
			}
		}
		return len(row.Players) > 0
	}
	out := map[string][]int64{}
	won := map[int64]bool{}
	give := func(p api.TournamentPrize) {
		var got []int64
		for _, row := range rows {
			if len(got) < p.Places && (p.Category == "" || qualifies(row, p.Category)) && (p.Cumulative || !won[row.Entry.ID]) {
				got = append(got, row.Entry.ID)
			}
		}
		for _, id := range got {
			won[id] = true
		}
		out[p.Name] = got
	}
	for _, p := range prizes {
		if p.Category == "" {
			give(p)
		}
	}
	for _, p := range prizes {
		if p.Category != "" {
			give(p)
		}
	}
	return out
}

// TestPrizesGoOnePerEntryUnlessCumulative plays a tournament of eight pairs,
// six of them of two ladies, with 3 overall prizes, a ladies' prize of 2
// places, and a cumulative ladies' prize of 2: the prizes read back are the
// test's own computation from the final standings, a ladies' pair among the
// overall winners is skipped by the ladies' prize but not by the
// cumulative one; a bad prize list is refused naming each field, and the
// list is frozen once the tournament runs; before the finish the prizes are refused with
// standings_not_final. Also the CSV and the printable page.
func TestPrizesGoOnePerEntryUnlessCumulative(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		id := te.tournament(domain.PairsTournament, 3, domain.SetupInput{Movement: new(domain.MovementDanish), Rounds: new(2)})
		prizes := []api.TournamentPrize{
			{Name: "Ladies", Category: "ladies", Places: 2},
			{Name: "Overall", Places: 3},
			{Name: "Ladies, also winners", Category: "ladies", Places: 2, Cumulative: true},
		}
		var tour api.Tournament
		te.must(http.StatusOK, req{Method: "PATCH", Path: tpath(id), Token: te.director,
			Body: api.TournamentUpdateRequest{TournamentSetupInput: api.TournamentSetupInput{Prizes: &prizes}}}, &tour)
		if len(tour.Prizes) != 3 || tour.Prizes[2] != prizes[2] {
			t.Fatalf("prize list read back: %+v", tour.Prizes)
		}
		bad := []api.TournamentPrize{{Name: "", Category: "Ladies!", Places: 0}}
		p := te.problem(http.StatusUnprocessableEntity, req{Method: "PATCH", Path: tpath(id), Token: te.director,
			Body: api.TournamentUpdateRequest{TournamentSetupInput: api.TournamentSetupInput{Prizes: &bad}}})
		if len(p.Errors) != 3 || p.Errors[0].Field != "prizes[0].name" {
			t.Fatalf("a bad prize list: %+v", p)
		}
		te.lifecycle(id, te.director, "open_registration")
		tagged := map[int64][]string{}
		for i := range 8 {
			a, b := te.player(fmt.Sprintf("A%d", i), false), te.player(fmt.Sprintf("B%d", i), false)
			te.setCategories(a, "ladies", "over65")
			tagged[a] = []string{"ladies", "over65"}
			if i < 6 {
				te.setCategories(b, "ladies")
				tagged[b] = []string{"ladies"}
			}
			te.enter(id, te.director, a, b)
		}
		te.start(id)
		none := []api.TournamentPrize{}
		if p := te.problem(http.StatusConflict, req{Method: "PATCH", Path: tpath(id), Token: te.director,
			Body: api.TournamentUpdateRequest{TournamentSetupInput: api.TournamentSetupInput{Prizes: &none}}}); p.Code != "conflict" {
			t.Fatalf("the prize list changed once running: %+v", p)
		}
		rnd := rand.New(rand.NewPCG(uint64(id), 32))
		te.refereeRound(id, rnd, 3)
		if p := te.problem(http.StatusConflict, req{Method: "GET", Path: tpath(id, "prizes")}); p.Code != "standings_not_final" {
			t.Fatalf("prizes before the finish: %+v", p)
		}
		te.refereeRound(id, rnd, 3)
		te.lifecycle(id, te.referee, "finish")

		st := te.standings(id)
		want := expectedAwards(prizes, st.Rows, tagged)
		var got api.TournamentPrizes
		te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "prizes")}, &got)
		if len(got.Awards) != 3 || got.Awards[0].Name != "Overall" || got.Awards[1].Name != "Ladies" {
			t.Fatalf("awards not overall first, then the list's order: %s", jsonOf(got))
		}
		csvRows := 1
		for _, a := range got.Awards {
			var ids []int64
			for i, w := range a.Winners {
				ids = append(ids, w.Entry.ID)
				if w.Place != i+1 || len(w.Players) != 2 {
					t.Errorf("%s: winner %d %+v", a.Name, i, w)
				}
			}
			if !slices.Equal(ids, want[a.Name]) {
				t.Errorf("%s: winners %v, want %v", a.Name, ids, want[a.Name])
			}
			csvRows += len(a.Winners)
		}
		// The rule must have been exercised: with six ladies' pairs of
		// eight, a ladies' pair is among the three overall winners, and so
		// the cumulative prize differs from the other.
		if slices.Equal(want["Ladies"], want["Ladies, also winners"]) || len(want["Ladies"]) != 2 {
			t.Fatalf("the field does not exercise the rule: %v", want)
		}

		res := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "export", "prizes.csv")}, nil)
		records, err := csv.NewReader(strings.NewReader(string(res.Body))).ReadAll()
		if err != nil || len(records) != csvRows || records[0][0] != "prize" || records[1][0] != "Overall" {
			t.Fatalf("CSV (%v): %s", err, res.Body)
		}
		page := te.must(http.StatusOK, req{Method: "GET", Path: tpath(id, "print", "prizes") + "?lang=it"}, nil)
		body := string(page.Body)
		if strings.Count(body, "<main") != 1 || strings.Count(body, "<h1") != 1 || !strings.Contains(body, "Premi") ||
			!strings.Contains(body, "Ladies, also winners") {
			t.Fatalf("printable page: %s", body)
		}
	})
}

// TestCategoriesAreSetByDirectorsOnly: a player's categories are set by the
// directors of the player's club, not by the player, a referee or a plain
// member; they are validated (slugs, at most 10), kept sorted without
// repeats, and shown on the profile only to the player and the directors
// (never in a list, never to anyone else).
func TestCategoriesAreSetByDirectorsOnly(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		te := newTourneyEnv(t, db)
		u, tok := te.user("anna@club.example", "Anna")
		te.addMember(u.ID, domain.RoleMember)
		var own api.Player
		te.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/players", Token: tok.AccessToken,
			Body: api.PlayerCreateRequest{Name: "Anna", UserID: &u.ID, ClubID: &te.club}}, &own)
		path := fmt.Sprintf("/api/v1/players/%d", own.ID)
		tags := func(t ...string) *[]string { return &t }
		eleven := tags("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k")
		for _, tc := range []struct {
			name   string
			token  string
			tags   *[]string
			status int
			code   string
			field  string
		}{
			{"ErrUnauthenticatedForAnonymous", "", tags("ladies"), 401, "unauthenticated", ""},
			{"ErrForbiddenForThePlayerThemself", tok.AccessToken, tags("ladies"), 403, "forbidden", ""},
			{"ErrForbiddenForTheClubReferee", te.referee, tags("ladies"), 403, "forbidden", ""},
			{"ErrForbiddenForAMember", te.member, tags("ladies"), 403, "forbidden", ""},
			{"ErrInvalidForANonSlug", te.director, tags("ladies", "Over 65"), 422, "invalid_input", "categories[1]"},
			{"ErrInvalidForMoreThanTen", te.director, eleven, 422, "invalid_input", "categories"},
			{"SetSortedByTheDirector", te.director, tags("over65", "ladies", "ladies"), 200, "", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := te.do(req{Method: "PATCH", Path: path, Token: tc.token, Body: api.PlayerUpdateRequest{Categories: tc.tags}})
				if res.Status != tc.status {
					t.Fatalf("status %d, want %d: %s", res.Status, tc.status, res.Body)
				}
				if tc.status == 200 {
					return
				}
				p := problem(t, res)
				if p.Code != tc.code || (tc.field != "" && !slices.ContainsFunc(p.Errors, func(f api.FieldError) bool { return f.Field == tc.field })) {
					t.Fatalf("problem %+v, want %s naming %q", p, tc.code, tc.field)
				}
			})
		}
		want := []string{"ladies", "over65"}
		for _, c := range []struct {
			who   string
			token string
			sees  bool
		}{{"anonymous", "", false}, {"a member", te.member, false}, {"the referee", te.referee, false},
			{"the player", tok.AccessToken, true}, {"the director", te.director, true}} {
			var seen api.Player
			te.must(http.StatusOK, req{Method: "GET", Path: path, Token: c.token}, &seen)
			if c.sees != slices.Equal(seen.Categories, want) || (!c.sees && seen.Categories != nil) {
				t.Errorf("%s reads the categories %v (sees them: %v)", c.who, seen.Categories, c.sees)
			}
		}
		var list api.PlayerList
		te.must(http.StatusOK, req{Method: "GET", Path: fmt.Sprintf("/api/v1/players?club_id=%d", te.club), Token: te.director}, &list)
		for _, p := range list.Items {
			if p.Categories != nil {
				t.Errorf("a list shows categories: %+v", p)
			}
		}
		var read api.Player
		// The player still edits the rest of their profile, which leaves the
		// categories as they are.
		te.must(http.StatusOK, req{Method: "PATCH", Path: path, Token: tok.AccessToken,
			Body: api.PlayerUpdateRequest{Name: new("Anna Rossi")}}, &read)
		if !slices.Equal(read.Categories, []string{"ladies", "over65"}) {
			t.Fatalf("a name change touched the categories: %v", read.Categories)
		}
	})
}

// The prize routes' rows of the play authorisation matrix: anyone who
// sees the tournament reads its prizes; the shared tournament is not
// finished, so each answers standings_not_final to every caller, never
// 401 or 403 (TestPrizesGoOnePerEntryUnlessCumulative reads them given).
func init() {
	notFinal := all(http.StatusConflict, nil)
	playMatrix = append(playMatrix,
		playRoute{"GET /prizes", "", func(f fresh) req { return req{Method: "GET", Path: tpath(f.id, "prizes")} }, notFinal},
		playRoute{"GET /export/prizes.csv", "", func(f fresh) req {
			return req{Method: "GET", Path: tpath(f.id, "export", "prizes.csv")}
		}, notFinal},
		playRoute{"GET /print/prizes", "", func(f fresh) req {
			return req{Method: "GET", Path: tpath(f.id, "print", "prizes") + "?lang=it"}
		}, notFinal},
	)
}
