package api_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
	"github.com/burraco/burraco/domain/vp"
)

// seasonEnv is a club with a season and its evenings, played through the
// API.
type seasonEnv struct {
	*tourneyEnv
	season  api.Season
	players []int64 // p[0..9]; p[0] and p[8] log in
}

func (se *seasonEnv) path(parts ...any) string {
	p := fmt.Sprintf("/api/v1/clubs/%d/seasons/%d", se.club, se.season.ID)
	for _, x := range parts {
		p += fmt.Sprintf("/%v", x)
	}
	return p
}

// ranking reads the season's ranking and its ETag.
func (se *seasonEnv) ranking() (api.SeasonRanking, string) {
	se.t.Helper()
	var r api.SeasonRanking
	res := se.must(http.StatusOK, req{Method: "GET", Path: se.path("ranking")}, &r)
	return r, res.Header.Get("ETag")
}

// patch changes the season as the director.
func (se *seasonEnv) patch(body string) {
	se.t.Helper()
	se.must(http.StatusOK, req{Method: "PATCH", Path: se.path(), Token: se.director, Body: body}, &se.season)
}

// newSeasonEnv makes the club's players and a season of March 2026 (the
// test clock's month; the evenings start a week after it).
func newSeasonEnv(t testing.TB, db *store.DB) *seasonEnv {
	t.Helper()
	te := tourneyEnvOn(t, newEnv(t, db))
	se := &seasonEnv{tourneyEnv: te}
	for i := range 10 {
		se.players = append(se.players, te.player(fmt.Sprintf("Socio %c", 'A'+i), i == 0 || i == 8))
	}
	te.must(http.StatusCreated, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/seasons", te.club), Token: te.director,
		Body: api.SeasonCreateRequest{Name: "Primavera 2026", StartsOn: "2026-03-01", EndsOn: "2026-03-31", Scheme: "placing_points"}}, &se.season)
	return se
}

// playEvening plays a tournament of kind to its end with the entries
// given (players by index), the referee entering every table's deals.
func (se *seasonEnv) playEvening(kind domain.TournamentKind, setup domain.SetupInput, rounds int, entries [][]int) int64 {
	se.t.Helper()
	id := se.tournament(kind, 3, setup)
	se.lifecycle(id, se.director, "open_registration")
	for _, e := range entries {
		var ps []int64
		for _, i := range e {
			ps = append(ps, se.players[i])
		}
		se.enter(id, se.director, ps...)
	}
	se.start(id)
	rnd := rand.New(rand.NewPCG(uint64(id), 28))
	for range rounds {
		se.refereeRound(id, rnd, 3)
	}
	se.lifecycle(id, se.referee, "finish")
	return id
}

// TestSeasonRankingFollowsTheEvenings: a season of a pairs evening, an
// individual evening and a team evening (partners change from one to the
// next) ranks its players under each scheme as the test's own sums of the
// standings read back; a correction of a finished evening moves the
// ranking and its ETag, a published one cannot be corrected, and an
// excluded evening drops out until it is included again.
func TestSeasonRankingFollowsTheEvenings(t *testing.T) {
	t.Parallel()
	storetest.EachParallel(t, func(t *testing.T, db *store.DB) {
		se := newSeasonEnv(t, db)
		pairsID := se.playEvening(domain.PairsTournament, domain.SetupInput{Movement: new(domain.MovementRoundRobin), Rounds: new(3)}, 3,
			[][]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}})
		se.lifecycle(pairsID, se.director, "publish_results")
		indivID := se.playEvening(domain.IndividualTournament, domain.SetupInput{Movement: new(domain.MovementRandom), Rounds: new(3)}, 3,
			[][]int{{0}, {1}, {2}, {3}, {4}, {5}, {8}, {9}})
		se.lifecycle(indivID, se.director, "publish_results")
		team := vp.ThreeDeal() // the organiser's team table
		teamsID := se.playEvening(domain.TeamsTournament, domain.SetupInput{Movement: new(domain.MovementRoundRobin), Rounds: new(1),
			VPTable: &team, TeamPairs: new(2)}, 1, [][]int{{0, 2, 4, 6}, {1, 3, 5, 7}})

		// The team evening is finished, not published: it counts, provisionally.
		got, etag := se.ranking()
		if !got.Provisional || len(got.Season.Tournaments) != 3 {
			t.Fatalf("before publishing: provisional %v, %d tournaments", got.Provisional, len(got.Season.Tournaments))
		}
		se.checkRanking(got, pairsID, indivID, teamsID)

		// A correction of the finished team evening moves the ranking and its ETag.
		before := se.standings(teamsID)
		se.correctFirstDeal(teamsID)
		if after := se.standings(teamsID); after.Rows[0].VP == before.Rows[0].VP {
			t.Fatalf("the correction did not change the team evening's VP: %s", jsonOf(after.Rows))
		}
		res := se.do(req{Method: "GET", Path: se.path("ranking"), Header: map[string]string{"If-None-Match": etag}})
		if res.Status != http.StatusOK || res.Header.Get("ETag") == etag {
			t.Fatalf("after a correction: status %d, ETag %s (was %s)", res.Status, res.Header.Get("ETag"), etag)
		}
		mustDecode(t, res.Body, &got)
		se.checkRanking(got, pairsID, indivID, teamsID)

		// Published, the evening cannot be corrected: the ranking stays (304).
		se.lifecycle(teamsID, se.director, "publish_results")
		got, etag = se.ranking()
		if got.Provisional {
			t.Errorf("every evening published, the ranking is still provisional")
		}
		tb, tag := se.table(teamsID, 1, 1)
		problemOf(t, se.must(http.StatusConflict, req{Method: "POST", Path: tpath(teamsID, "rounds", 1, "tables", 1, "corrections"),
			Token: se.referee, Header: map[string]string{"If-Match": tag}, Body: api.TournamentCorrectionRequest{
				Deal: api.TournamentDealCorrection{Number: 1, NS: tb.Deals[0].EW, EW: tb.Deals[0].NS}, Reason: "too late"}}, nil), "results_published")
		if res := se.do(req{Method: "GET", Path: se.path("ranking"), Header: map[string]string{"If-None-Match": etag}}); res.Status != http.StatusNotModified {
			t.Errorf("nothing changed: status %d, want 304", res.Status)
		}

		// Every scheme, against the test's own computation.
		for _, body := range []string{
			`{"points_step":3,"reference_size":5}`, // a floor at 0 and fractional points
			`{"scheme":"total_vp"}`,
			`{"scheme":"average_vp","min_evenings":2}`, // players I and J played one evening: unranked
		} {
			se.patch(body)
			got, _ = se.ranking()
			se.checkRanking(got, pairsID, indivID, teamsID)
		}
		if got.PlayersRanked != 8 || got.Rows[8].Ranked || got.Rows[9].Ranked {
			t.Errorf("average_vp with 2 evenings: %d ranked; last rows %s", got.PlayersRanked, jsonOf(got.Rows[8:]))
		}
		se.checkMine(got, 0)
		se.checkMine(got, 8)

		// An excluded evening drops out, with its reason; included, it is back.
		var d api.SeasonDetail
		se.must(http.StatusOK, req{Method: "PUT", Path: se.path("exclusions", indivID), Token: se.director,
			Body: api.SeasonExclusionRequest{Reason: "A friendly evening"}}, &d)
		if i := slices.IndexFunc(d.Tournaments, func(x api.SeasonTournament) bool { return x.ID == indivID }); i < 0 ||
			d.Tournaments[i].Counted || d.Tournaments[i].Exclusion == nil || d.Tournaments[i].Exclusion.Reason != "A friendly evening" {
			t.Fatalf("the excluded evening in the season: %s", jsonOf(d.Tournaments))
		}
		got, _ = se.ranking()
		se.checkRanking(got, pairsID, teamsID)
		se.must(http.StatusOK, req{Method: "DELETE", Path: se.path("exclusions", indivID), Token: se.director}, &d)
		got, _ = se.ranking()
		se.checkRanking(got, pairsID, indivID, teamsID)

		se.checkNothingPrivate()
	})
}

// correctFirstDeal swaps the sides' scores of deal 1 at table 1 of round
// 1, as the referee, with a reason.
func (se *seasonEnv) correctFirstDeal(id int64) {
	se.t.Helper()
	tb, tag := se.table(id, 1, 1)
	d := tb.Deals[0]
	se.must(http.StatusOK, req{Method: "POST", Path: tpath(id, "rounds", 1, "tables", 1, "corrections"), Token: se.referee,
		Header: map[string]string{"If-Match": tag}, Body: api.TournamentCorrectionRequest{
			Deal: api.TournamentDealCorrection{Number: 1, NS: d.EW, EW: d.NS}, Reason: "the sides were swapped"}}, nil)
	for _, e := range se.audit(id) {
		if e.Kind == "score_corrected" && e.Reason == "the sides were swapped" {
			return
		}
	}
	se.t.Fatalf("the correction is not in the tournament's audit trail")
}

// wantRow is a player's line as the test computes it.
type wantRow struct {
	id                     int64
	name                   string
	evenings, wins         int
	points, best, totalVPs float64
	ranked                 bool
	place                  int
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// wantRanking computes the ranking of the evenings' standings, as the
// season's settings describe it, with the test's own code.
func wantRanking(s api.Season, evenings []api.TournamentStandings) []wantRow {
	rows := map[int64]*wantRow{}
	for _, st := range evenings {
		var played []api.TournamentStanding
		for _, r := range st.Rows {
			if r.Played > 0 {
				played = append(played, r)
			}
		}
		n := len(played)
		for _, r := range played {
			place := 1
			for _, o := range played {
				if o.Rank < r.Rank {
					place++
				}
			}
			v := float64(r.VP)
			if s.Scheme == "placing_points" {
				v = float64(max(0, n-s.PointsStep*(place-1)))
				if s.ReferenceSize > 0 {
					v = round2(v * float64(n) / float64(s.ReferenceSize))
				}
			}
			for _, p := range r.Players {
				w := rows[p.ID]
				if w == nil {
					w = &wantRow{id: p.ID, name: p.Name, best: math.Inf(-1)}
					rows[p.ID] = w
				}
				w.evenings++
				w.totalVPs += v
				w.best = math.Max(w.best, v)
				if place == 1 {
					w.wins++
				}
			}
		}
	}
	var out []wantRow
	for _, w := range rows {
		w.points = round2(w.totalVPs)
		if s.Scheme == "average_vp" {
			w.points = round2(w.totalVPs / float64(w.evenings))
		}
		w.ranked = s.Scheme != "average_vp" || w.evenings >= s.MinEvenings
		out = append(out, *w)
	}
	key := func(w wantRow) [5]float64 {
		r := 0.0
		if w.ranked {
			r = 1
		}
		return [5]float64{r, w.points, float64(w.wins), w.best, float64(w.evenings)}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := key(out[i]), key(out[j])
		for k := range a {
			if a[k] != b[k] {
				return a[k] > b[k]
			}
		}
		if out[i].name != out[j].name {
			return strings.ToLower(out[i].name) < strings.ToLower(out[j].name)
		}
		return out[i].id < out[j].id
	})
	for i := range out {
		if !out[i].ranked {
			continue
		}
		out[i].place = i + 1
		if i > 0 && key(out[i]) == key(out[i-1]) {
			out[i].place = out[i-1].place
		}
	}
	return out
}

// checkRanking requires the ranking to be the test's own of the standings
// of the evenings counted, read back through the API.
func (se *seasonEnv) checkRanking(got api.SeasonRanking, counted ...int64) {
	se.t.Helper()
	var evenings []api.TournamentStandings
	for _, id := range counted {
		evenings = append(evenings, se.standings(id))
	}
	want := wantRanking(got.Season.Season, evenings)
	if len(got.Rows) != len(want) {
		se.t.Fatalf("%s: %d rows, want %d: %s", got.Season.Scheme, len(got.Rows), len(want), jsonOf(got.Rows))
	}
	for i, w := range want {
		g := got.Rows[i]
		if g.PlayerID != w.id || g.Name != w.name || g.Place != w.place || g.Ranked != w.ranked || g.Evenings != w.evenings ||
			g.Wins != w.wins || g.Points != w.points || g.Best != w.best || len(g.Results) != w.evenings {
			se.t.Errorf("%s row %d: got %s, want %+v", got.Season.Scheme, i, jsonOf(g), w)
		}
	}
	n := 0
	for _, t := range got.Season.Tournaments {
		if t.Counted {
			n++
		}
	}
	if n != len(counted) {
		se.t.Errorf("%d tournaments counted, want %d", n, len(counted))
	}
}

// checkMine requires the /me/rankings of player i's user to be their row
// of the ranking, with exactly the fields the player's page reads.
func (se *seasonEnv) checkMine(r api.SeasonRanking, i int) {
	se.t.Helper()
	var raw []map[string]any
	se.must(http.StatusOK, req{Method: "GET", Path: "/api/v1/me/rankings", Token: se.tokenOf[se.players[i]]}, &raw)
	if len(raw) != 1 {
		se.t.Fatalf("player %d's rankings: %v", i, raw)
	}
	var keys []string
	for k := range raw[0] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if want := []string{"club_id", "club_name", "evenings", "place", "players_ranked", "points", "scheme", "season_id", "season_name"}; !slices.Equal(keys, want) {
		se.t.Errorf("fields %v, want %v", keys, want)
	}
	row := r.Rows[slices.IndexFunc(r.Rows, func(x api.SeasonRankingRow) bool { return x.PlayerID == se.players[i] })]
	var wantPlace any
	if row.Ranked {
		wantPlace = float64(row.Place)
	}
	m := raw[0]
	if m["place"] != wantPlace || m["points"] != row.Points || m["evenings"] != float64(row.Evenings) ||
		m["players_ranked"] != float64(r.PlayersRanked) || m["season_id"] != float64(se.season.ID) || m["scheme"] != r.Season.Scheme {
		se.t.Errorf("player %d's ranking %v, want the row %s", i, m, jsonOf(row))
	}
}

// checkNothingPrivate requires the ranking's answers (JSON, CSV, page) to
// name players without any e-mail address (the players' users' are
// playerN@club.example).
func (se *seasonEnv) checkNothingPrivate() {
	se.t.Helper()
	for _, r := range []req{
		{Method: "GET", Path: se.path("ranking")},
		{Method: "GET", Path: se.path("ranking"), Header: map[string]string{"Accept": "text/csv"}},
		{Method: "GET", Path: se.path("ranking.csv")},
		{Method: "GET", Path: se.path("print", "ranking") + "?lang=it"},
		{Method: "GET", Path: se.path("print", "ranking") + "?lang=en"},
		{Method: "GET", Path: se.path()},
		{Method: "GET", Path: "/api/v1/me/rankings", Token: se.tokenOf[se.players[0]]},
	} {
		res := se.must(http.StatusOK, r, nil)
		if strings.Contains(string(res.Body), "@club.example") || !strings.Contains(string(res.Body), "Socio") && !strings.Contains(r.Path, "me/") && r.Path != se.path() {
			se.t.Errorf("%s %s: %s", r.Method, r.Path, res.Body)
		}
	}
	csv := string(se.must(http.StatusOK, req{Method: "GET", Path: se.path("ranking.csv")}, nil).Body)
	if !strings.HasPrefix(csv, "place,player_id,name,evenings,points,wins,best,scheme,provisional,tournament_") || strings.Count(csv, "\n") != 11 {
		se.t.Errorf("the CSV:\n%s", csv)
	}
	page := string(se.must(http.StatusOK, req{Method: "GET", Path: se.path("print", "ranking") + "?lang=it"}, nil).Body)
	if !strings.Contains(page, "<main>") || !strings.Contains(page, "<h1>Classifica della stagione") {
		se.t.Errorf("the page:\n%s", page)
	}
}

// TestSeasonRefusals: what a season refuses, with its code.
func TestSeasonRefusals(t *testing.T) {
	t.Parallel()
	se := newSeasonEnv(t, storetest.SQLite(t))
	clubSeasons := fmt.Sprintf("/api/v1/clubs/%d/seasons", se.club)
	// Another club, with a tournament of its own.
	_, otherTok := se.user("altro@club.example", "Altro")
	var other api.Club
	se.must(http.StatusCreated, req{Method: "POST", Path: "/api/v1/clubs", Token: otherTok.AccessToken, Body: api.ClubCreateRequest{Name: "Altro circolo"}}, &other)
	var theirs api.Tournament
	se.must(http.StatusCreated, req{Method: "POST", Path: fmt.Sprintf("/api/v1/clubs/%d/tournaments", other.ID), Token: otherTok.AccessToken,
		Body: `{"name":"Loro","rules":"fibur","players_per_table":4,"kind":"pairs","starts_at":"2026-03-10T20:00:00Z"}`}, &theirs)
	ours := se.tournament(domain.PairsTournament, 3, domain.SetupInput{})
	good := `{"name":"S","starts_on":"2026-03-01","ends_on":"2026-03-31","scheme":"total_vp"}`

	for _, tt := range []struct {
		name   string
		r      req
		status int
		code   string
		field  string // the field errors names, when given
	}{
		{"EndBeforeStartIsInvalid", req{Method: "POST", Path: clubSeasons, Token: se.director,
			Body: `{"name":"S","starts_on":"2026-03-31","ends_on":"2026-03-01","scheme":"total_vp"}`}, 422, "invalid_input", "ends_on"},
		{"UnknownSchemeIsInvalid", req{Method: "POST", Path: clubSeasons, Token: se.director,
			Body: `{"name":"S","starts_on":"2026-03-01","ends_on":"2026-03-31","scheme":"golf"}`}, 422, "invalid_input", "scheme"},
		{"NotADateIsInvalid", req{Method: "POST", Path: clubSeasons, Token: se.director,
			Body: `{"name":"S","starts_on":"1 March","ends_on":"2026-03-31","scheme":"total_vp"}`}, 422, "invalid_input", "starts_on"},
		{"NegativeStepIsInvalid", req{Method: "PATCH", Path: se.path(), Token: se.director, Body: `{"points_step":-1}`}, 422, "invalid_input", "points_step"},
		{"MemberCreatingIsForbidden", req{Method: "POST", Path: clubSeasons, Token: se.member, Body: good}, 403, "forbidden", ""},
		{"AnonymousCreatingIsUnauthenticated", req{Method: "POST", Path: clubSeasons, Body: good}, 401, "unauthenticated", ""},
		{"MemberExcludingIsForbidden", req{Method: "PUT", Path: se.path("exclusions", ours), Token: se.member, Body: `{"reason":"x"}`}, 403, "forbidden", ""},
		{"OtherClubsTournamentIsRefused", req{Method: "PUT", Path: se.path("exclusions", theirs.ID), Token: se.director,
			Body: `{"reason":"not ours"}`}, 422, "tournament_of_another_club", ""},
		{"ExclusionWithoutReasonIsInvalid", req{Method: "PUT", Path: se.path("exclusions", ours), Token: se.director, Body: `{"reason":"  "}`}, 422, "invalid_input", "reason"},
		{"IncludingWhatIsNotExcludedIsNotFound", req{Method: "DELETE", Path: se.path("exclusions", ours), Token: se.director}, 404, "not_found", ""},
		{"SeasonOfAnotherClubIsNotFound", req{Method: "GET", Path: fmt.Sprintf("/api/v1/clubs/%d/seasons/%d/ranking", other.ID, se.season.ID)}, 404, "not_found", ""},
		{"OtherClubsDirectorIsForbidden", req{Method: "DELETE", Path: se.path(), Token: otherTok.AccessToken}, 403, "forbidden", ""},
		{"MyRankingsNeedALogin", req{Method: "GET", Path: "/api/v1/me/rankings"}, 401, "unauthenticated", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := problemOf(t, se.must(tt.status, tt.r, nil), tt.code)
			if tt.field != "" && !slices.ContainsFunc(p.Errors, func(e api.FieldError) bool { return e.Field == tt.field }) {
				t.Errorf("errors %+v do not name %s", p.Errors, tt.field)
			}
		})
	}
	t.Run("EndBeforeStartSaysBeforeStart", func(t *testing.T) {
		p := problemOf(t, se.must(422, req{Method: "PATCH", Path: se.path(), Token: se.director, Body: `{"ends_on":"2026-02-01"}`}, nil), "invalid_input")
		if len(p.Errors) != 1 || p.Errors[0].Code != "before_start" {
			t.Errorf("errors %+v", p.Errors)
		}
	})
	t.Run("MissingSeasonsPageSaysSoToABrowser", func(t *testing.T) {
		res := se.must(http.StatusNotFound, req{Method: "GET", Path: fmt.Sprintf("%s/%d/print/ranking?lang=en", clubSeasons, se.season.ID+100),
			Header: map[string]string{"Accept": "text/html"}}, nil)
		if body := string(res.Body); res.Header.Get("X-Problem-Code") != "not_found" || !strings.Contains(body, "Season not found") {
			t.Errorf("the page: %s %s", res.Header.Get("X-Problem-Code"), body)
		}
	})
	t.Run("DirectorDeletesAndTheSeasonIsGone", func(t *testing.T) {
		se.must(http.StatusNoContent, req{Method: "DELETE", Path: se.path(), Token: se.director}, nil)
		se.must(http.StatusNotFound, req{Method: "GET", Path: se.path()}, nil)
		var l api.SeasonList
		se.must(http.StatusOK, req{Method: "GET", Path: clubSeasons}, &l)
		if len(l.Items) != 0 {
			t.Errorf("seasons left: %s", jsonOf(l))
		}
	})
}
