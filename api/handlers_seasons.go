package api

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"

	"github.com/burraco/burraco/api/printout"
	"github.com/burraco/burraco/domain"
)

// seasonHandlers serve a club's seasons and their rankings
// (/api/v1/clubs/{clubID}/seasons); the caller's own rankings are
// meHandlers'.
type seasonHandlers struct{ s *server }

func (h seasonHandlers) routes(r routes) {
	auth := r.with(h.s.requireAuth)
	r.get("/", h.listSeasons)
	auth.post("/", h.createSeason)
	r.under("/{seasonID}", func(r routes) {
		auth := r.with(h.s.requireAuth)
		r.get("/", h.getSeason)
		auth.patch("/", h.updateSeason)
		auth.delete("/", h.deleteSeason)
		auth.put("/exclusions/{tournamentID}", h.excludeSeasonTournament)
		auth.delete("/exclusions/{tournamentID}", h.includeSeasonTournament)
		r.get("/ranking", h.seasonRanking)
		r.get("/ranking.csv", h.exportSeasonRanking)
		r.get("/print/ranking", h.printSeasonRanking)
	})
}

// clubAndSeason reads the path's club and season ids.
func clubAndSeason(r *http.Request) (clubID, seasonID int64, err error) {
	if clubID, err = pathID(r, "clubID"); err != nil {
		return 0, 0, err
	}
	seasonID, err = pathID(r, "seasonID")
	return clubID, seasonID, err
}

// listSeasons lists a club's seasons.
//
//	@Summary		List a club's seasons
//	@ID				listSeasons
//	@Description	Latest start first; current says whether today (UTC) is within a season's dates. Anyone may read them.
//	@Tags			seasons
//	@Produce		json
//	@Param			clubID	path		int	true	"Club id"
//	@Success		200		{object}	SeasonList
//	@Failure		400		{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure		404		{object}	Problem	"not_found: no such club"
//	@x-auth-optional	true
//	@Router			/api/v1/clubs/{clubID}/seasons [get]
func (h seasonHandlers) listSeasons(w http.ResponseWriter, r *http.Request) error {
	clubID, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	l, err := h.s.svc.Seasons.List(r.Context(), clubID)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, SeasonList{Items: mapSlice(l, seasonOut(h.s.cfg.Now()))})
}

// createSeason creates a season.
//
//	@Summary		Create a season
//	@ID				createSeason
//	@Description	Only the club's admins and owners, or a site admin. The season counts the club's tournaments finished or with their results published that start (UTC day) from starts_on to ends_on, both included, but for those excluded (see excludeSeasonTournament). A finished tournament counts at once (its standings are final), shown as not yet published; published results cannot be corrected, so a published evening is fixed for good.
//	@Tags			seasons
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int					true	"Club id"
//	@Param			body	body		SeasonCreateRequest	true	"The new season"
//	@Success		201		{object}	Season
//	@Header			201		{string}	Location	"/api/v1/clubs/{clubID}/seasons/{seasonID}"
//	@Failure		400		{object}	Problem	"invalid_parameter (a path id) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure		401		{object}	Problem	"unauthenticated"
//	@Failure		403		{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club"
//	@Failure		404		{object}	Problem	"not_found: no such club"
//	@Failure		422		{object}	Problem	"invalid_input: every bad field in errors (name; starts_on and ends_on dates YYYY-MM-DD, ends_on not before starts_on: code before_start; scheme: code unknown; points_step, reference_size, min_evenings out_of_range)"
//	@Router			/api/v1/clubs/{clubID}/seasons [post]
func (h seasonHandlers) createSeason(w http.ResponseWriter, r *http.Request) error {
	clubID, req, err := idAndBody[SeasonCreateRequest](h.s, w, r, "clubID")
	if err != nil {
		return err
	}
	se, err := h.s.svc.Seasons.Create(r.Context(), ActorFrom(r.Context()), clubID, domain.SeasonInput{Name: req.Name,
		StartsOn: req.StartsOn, EndsOn: req.EndsOn, Scheme: domain.SeasonScheme(req.Scheme), PointsStep: req.PointsStep,
		ReferenceSize: req.ReferenceSize, MinEvenings: req.MinEvenings})
	if err != nil {
		return err
	}
	return created(w, fmt.Sprintf("/api/v1/clubs/%d/seasons/%d", clubID, se.ID), seasonOut(h.s.cfg.Now())(se))
}

// getSeason returns a season with its tournaments.
//
//	@Summary		Get a season
//	@ID				getSeason
//	@Description	The season with its tournaments, by start time: those it counts (counted) and those a director excluded, with why. Anyone may read it.
//	@Tags			seasons
//	@Produce		json
//	@Param			clubID		path		int	true	"Club id"
//	@Param			seasonID	path		int	true	"Season id"
//	@Success		200			{object}	SeasonDetail
//	@Failure		400			{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure		404			{object}	Problem	"not_found: no such season of this club"
//	@x-auth-optional	true
//	@Router			/api/v1/clubs/{clubID}/seasons/{seasonID} [get]
func (h seasonHandlers) getSeason(w http.ResponseWriter, r *http.Request) error {
	clubID, id, err := clubAndSeason(r)
	if err != nil {
		return err
	}
	d, err := h.s.svc.Seasons.Get(r.Context(), clubID, id)
	return answer(w, http.StatusOK, seasonDetailOut(h.s.cfg.Now()), d, err)
}

// updateSeason changes a season.
//
//	@Summary		Update a season
//	@ID				updateSeason
//	@Description	Only the club's admins and owners, or a site admin. Absent fields are left as they are; the ranking follows at its next read.
//	@Tags			seasons
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID		path		int					true	"Club id"
//	@Param			seasonID	path		int					true	"Season id"
//	@Param			body		body		SeasonUpdateRequest	true	"Fields to change"
//	@Success		200			{object}	Season
//	@Failure		400			{object}	Problem	"invalid_parameter (a path id) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure		401			{object}	Problem	"unauthenticated"
//	@Failure		403			{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club"
//	@Failure		404			{object}	Problem	"not_found: no such season of this club"
//	@Failure		422			{object}	Problem	"invalid_input: every bad field in errors, as createSeason"
//	@Router			/api/v1/clubs/{clubID}/seasons/{seasonID} [patch]
func (h seasonHandlers) updateSeason(w http.ResponseWriter, r *http.Request) error {
	clubID, id, err := clubAndSeason(r)
	if err != nil {
		return err
	}
	var req SeasonUpdateRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	p := domain.SeasonPatch{Name: req.Name, StartsOn: req.StartsOn, EndsOn: req.EndsOn, PointsStep: req.PointsStep,
		ReferenceSize: req.ReferenceSize, MinEvenings: req.MinEvenings}
	if req.Scheme != nil {
		p.Scheme = new(domain.SeasonScheme(*req.Scheme))
	}
	se, err := h.s.svc.Seasons.Update(r.Context(), ActorFrom(r.Context()), clubID, id, p)
	return answer(w, http.StatusOK, seasonOut(h.s.cfg.Now()), se, err)
}

// deleteSeason deletes a season.
//
//	@Summary		Delete a season
//	@ID				deleteSeason
//	@Description	Only the club's admins and owners, or a site admin. Its tournaments stay as they are.
//	@Tags			seasons
//	@Security		BearerAuth
//	@Param			clubID		path	int	true	"Club id"
//	@Param			seasonID	path	int	true	"Season id"
//	@Success		204			"Deleted"
//	@Failure		400			{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure		401			{object}	Problem	"unauthenticated"
//	@Failure		403			{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club"
//	@Failure		404			{object}	Problem	"not_found: no such season of this club"
//	@Router			/api/v1/clubs/{clubID}/seasons/{seasonID} [delete]
func (h seasonHandlers) deleteSeason(w http.ResponseWriter, r *http.Request) error {
	clubID, id, err := clubAndSeason(r)
	if err != nil {
		return err
	}
	if err := h.s.svc.Seasons.Delete(r.Context(), ActorFrom(r.Context()), clubID, id); err != nil {
		return err
	}
	return noContent(w)
}

// excludeSeasonTournament takes a tournament out of a season.
//
//	@Summary		Exclude a tournament from a season
//	@ID				excludeSeasonTournament
//	@Description	Only the club's admins and owners, or a site admin: the tournament no longer counts in the season's ranking; the season lists it with the reason, who and when. Excluding it again replaces the reason. DELETE puts it back.
//	@Tags			seasons
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID			path		int						true	"Club id"
//	@Param			seasonID		path		int						true	"Season id"
//	@Param			tournamentID	path		int						true	"Tournament id"
//	@Param			body			body		SeasonExclusionRequest	true	"Why"
//	@Success		200				{object}	SeasonDetail
//	@Failure		400				{object}	Problem	"invalid_parameter (a path id) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure		401				{object}	Problem	"unauthenticated"
//	@Failure		403				{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club"
//	@Failure		404				{object}	Problem	"not_found: no such season of this club, or no such tournament"
//	@Failure		422				{object}	Problem	"tournament_of_another_club: the tournament is not the season's club's; invalid_input: reason missing or longer than 1000 characters"
//	@Router			/api/v1/clubs/{clubID}/seasons/{seasonID}/exclusions/{tournamentID} [put]
func (h seasonHandlers) excludeSeasonTournament(w http.ResponseWriter, r *http.Request) error {
	clubID, id, err := clubAndSeason(r)
	if err != nil {
		return err
	}
	tournamentID, req, err := idAndBody[SeasonExclusionRequest](h.s, w, r, "tournamentID")
	if err != nil {
		return err
	}
	d, err := h.s.svc.Seasons.Exclude(r.Context(), ActorFrom(r.Context()), clubID, id, tournamentID, req.Reason)
	return answer(w, http.StatusOK, seasonDetailOut(h.s.cfg.Now()), d, err)
}

// includeSeasonTournament puts an excluded tournament back.
//
//	@Summary		Include an excluded tournament again
//	@ID				includeSeasonTournament
//	@Description	Only the club's admins and owners, or a site admin: the tournament counts again (if it is finished within the season's dates).
//	@Tags			seasons
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID			path		int	true	"Club id"
//	@Param			seasonID		path		int	true	"Season id"
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{object}	SeasonDetail
//	@Failure		400				{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure		401				{object}	Problem	"unauthenticated"
//	@Failure		403				{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club"
//	@Failure		404				{object}	Problem	"not_found: no such season of this club, or the tournament is not excluded from it"
//	@Router			/api/v1/clubs/{clubID}/seasons/{seasonID}/exclusions/{tournamentID} [delete]
func (h seasonHandlers) includeSeasonTournament(w http.ResponseWriter, r *http.Request) error {
	clubID, id, err := clubAndSeason(r)
	if err != nil {
		return err
	}
	tournamentID, err := pathID(r, "tournamentID")
	if err != nil {
		return err
	}
	d, err := h.s.svc.Seasons.Include(r.Context(), ActorFrom(r.Context()), clubID, id, tournamentID)
	return answer(w, http.StatusOK, seasonDetailOut(h.s.cfg.Now()), d, err)
}

// seasonRanking answers a season's ranking.
//
//	@Summary		A season's ranking
//	@ID				getSeasonRanking
//	@Description	The club's season ranking (classifica del circolo), computed at each read from the current standings of the tournaments the season counts, so a correction before the results are published, a penalty, an exclusion or a change of the season shows at once. One row per player who played an evening counted: a pairs entry credits both players, a team entry each member, an individual entry its player; names are the players' display names (never an e-mail address). The ETag names the answer's content (a hash of it; the tournaments' versions are in it): send it back in If-None-Match for a 304 while nothing changed. Accept: text/csv answers the CSV of exportSeasonRanking. Anyone may read it.
//	@Tags			seasons
//	@Produce		json
//	@Produce		text/csv
//	@Param			clubID			path		int		true	"Club id"
//	@Param			seasonID		path		int		true	"Season id"
//	@Param			If-None-Match	header		string	false	"The ETag of the ranking the caller has"
//	@Success		200				{object}	SeasonRanking
//	@Success		304				"The ranking has not changed (If-None-Match matched)"
//	@Header			200				{string}	ETag	"The ranking's content"
//	@Failure		400				{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure		404				{object}	Problem	"not_found: no such season of this club"
//	@x-auth-optional	true
//	@Router			/api/v1/clubs/{clubID}/seasons/{seasonID}/ranking [get]
func (h seasonHandlers) seasonRanking(w http.ResponseWriter, r *http.Request) error {
	if strings.Contains(r.Header.Get("Accept"), "text/csv") {
		return h.exportSeasonRanking(w, r)
	}
	clubID, id, err := clubAndSeason(r)
	if err != nil {
		return err
	}
	body, err := h.rankingBody(r, clubID, id)
	if err != nil {
		return err
	}
	sum := fnv.New64a()
	_, _ = sum.Write(body)
	etag := `"r` + strconv.FormatUint(sum.Sum64(), 36) + `"`
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		return notModified(w, etag)
	}
	w.Header().Set("ETag", etag)
	writeBody(w, body)
	return nil
}

// rankingBody is a season's ranking encoded. The encoding is kept by the
// ranking's basis (what it is computed from: the season, its exclusions,
// its tournaments' versions), so a poll while nothing changed costs the
// basis's few light statements, not the ranking; the ETag is a hash of the
// bytes all the same.
func (h seasonHandlers) rankingBody(r *http.Request, clubID, id int64) ([]byte, error) {
	basis, err := h.s.svc.Seasons.Basis(r.Context(), clubID, id)
	if err != nil {
		return nil, err
	}
	if body, ok := h.s.stamped.get(fmt.Sprintf("season/%d/%s", id, basis)); ok {
		return body, nil
	}
	rk, err := h.s.svc.Seasons.Ranking(r.Context(), clubID, id)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := encodeJSON(&buf, seasonRankingOut(h.s.cfg.Now(), rk)); err != nil {
		return nil, err
	}
	h.s.stamped.put(fmt.Sprintf("season/%d/%s", id, rk.Basis), buf.Bytes())
	return buf.Bytes(), nil
}

// exportSeasonRanking exports a season's ranking as CSV.
//
//	@Summary		Export a season's ranking (CSV)
//	@ID				exportSeasonRanking
//	@Description	One row per player, in the ranking's order: place (empty when not ranked), player_id, name, evenings, points, wins, best, scheme, provisional, then one column per evening counted, tournament_ID, with the points it scored the player (empty when they did not play it). A header row of stable English column names; a name a spreadsheet would run as a formula is quoted. No e-mail address.
//	@Tags			seasons
//	@Produce		text/csv
//	@Param			clubID		path		int	true	"Club id"
//	@Param			seasonID	path		int	true	"Season id"
//	@Success		200			{string}	string	"The ranking"
//	@Header			200			{string}	Content-Disposition	"attachment; filename=\"season-{seasonID}-ranking.csv\""
//	@Failure		400			{object}	Problem	"invalid_parameter: a path id is not a positive integer"
//	@Failure		404			{object}	Problem	"not_found: no such season of this club"
//	@x-auth-optional	true
//	@Router			/api/v1/clubs/{clubID}/seasons/{seasonID}/ranking.csv [get]
func (h seasonHandlers) exportSeasonRanking(w http.ResponseWriter, r *http.Request) error {
	clubID, id, err := clubAndSeason(r)
	if err != nil {
		return err
	}
	rk, err := h.s.svc.Seasons.Ranking(r.Context(), clubID, id)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := printout.WriteSeasonRankingCSV(&buf, printRanking(h.s, rk)); err != nil {
		return err
	}
	return sendFile(w, "text/csv; charset=utf-8", fmt.Sprintf("season-%d-ranking.csv", id), buf.Bytes())
}

// printSeasonRanking prints a season's ranking.
//
//	@Summary		Print a season's ranking
//	@ID				printSeasonRanking
//	@Description	A printable A4 page of the season's ranking, also read on a phone (360 px: wins and best evening are left out there), in Italian or English (?lang=, else Accept-Language, else English): place, player, evenings, points. The per-evening breakdown is in the JSON and the CSV.
//	@Tags			seasons
//	@Produce		html
//	@Param			clubID			path		int		true	"Club id"
//	@Param			seasonID		path		int		true	"Season id"
//	@Param			lang			query		string	false	"it or en"	Enums(it, en)
//	@Param			Accept-Language	header		string	false	"Used when lang is absent"
//	@Success		200				{string}	string	"The page"
//	@Header			200				{string}	Content-Security-Policy	"default-src 'none' and the page's own inline style by its hash: static HTML, no script"
//	@Failure		400				{object}	Problem	"invalid_parameter: a path id is not a positive integer, or lang is not it or en (for a browser, Accept naming text/html, an HTML page with this status saying what is wrong, its code in X-Problem-Code)"
//	@Failure		404				{object}	Problem	"not_found: no such season of this club (for a browser an HTML page, see 400)"
//	@x-auth-optional	true
//	@Router			/api/v1/clubs/{clubID}/seasons/{seasonID}/print/ranking [get]
func (h seasonHandlers) printSeasonRanking(w http.ResponseWriter, r *http.Request) error {
	lang, langOK := langOf(r)
	clubID, id, err := clubAndSeason(r)
	if err != nil {
		h.s.failPage(w, r, lang, printout.Head{}, h.s.problemOfErr(r, err))
		return nil
	}
	if !langOK {
		h.s.failPage(w, r, lang, printout.Head{}, newProblem(r, codeInvalidParameter, "the language is not one the printouts have"),
			FieldError{Field: "lang", Code: "invalid", Message: "must be it or en"})
		return nil
	}
	rk, err := h.s.svc.Seasons.Ranking(r.Context(), clubID, id)
	if err != nil {
		p := h.s.problemOfErr(r, err)
		h.s.failPageWith(w, r, lang, printout.NewSeasonNotice(lang, p.Code), printout.Head{}, p)
		return nil
	}
	var buf bytes.Buffer
	if err := printout.RenderSeasonRanking(&buf, lang, printRanking(h.s, rk)); err != nil {
		return err
	}
	writePage(w, lang, http.StatusOK, buf.Bytes())
	return nil
}

// printRanking is a ranking as the printout package writes it.
func printRanking(s *server, rk domain.SeasonRanking) printout.SeasonRanking {
	se := rk.Season.Season
	out := printout.SeasonRanking{Club: se.ClubName, Season: se.Name, Scheme: string(se.Scheme), StartsOn: se.StartsOn,
		EndsOn: se.EndsOn, Generated: s.cfg.Now(), Provisional: rk.Provisional}
	for _, t := range rk.Season.Tournaments {
		if t.Excluded == nil {
			out.Evenings = append(out.Evenings, t.ID)
		}
	}
	for _, r := range rk.Rows {
		row := printout.SeasonRankingRow{Place: r.Place, PlayerID: r.PlayerID, Name: r.Name, Evenings: r.Evenings,
			Points: r.Points, Wins: r.Wins, Best: r.Best, Results: map[int64]float64{}}
		for _, x := range r.Results {
			row.Results[x.TournamentID] = x.Points
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}
