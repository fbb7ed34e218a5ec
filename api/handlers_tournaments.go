package api

import (
	"fmt"
	"net/http"

	"github.com/burraco/burraco/domain"
)

// listTournaments lists the tournaments the caller may see.
//
//	@Summary		List tournaments
//	@ID			listTournaments
//	@Description	Published, running and finished tournaments, for anyone; with an access token, also the drafts of the clubs the caller administers (all drafts for a site admin). Ordered by start time.
//	@Tags			tournaments
//	@Produce		json
//	@Param			club_id	query		int		false	"Only the tournaments of this club"
//	@Param			status	query		string	false	"Only tournaments with this status"	Enums(draft, published, running, finished)
//	@Param			q		query		string	false	"Substring of the name, ignoring case and accents"
//	@Param			limit	query		int		false	"Page size, 1..100; 0 or absent means 20"	default(20)	minimum(0)	maximum(100)
//	@Param			offset	query		int		false	"Items to skip"		default(0)	minimum(0)
//	@Success		200		{object}	TournamentList
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (status, q at most 100 characters, limit 1..100, offset at least 0)"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments [get]
func (s *server) listTournaments(w http.ResponseWriter, r *http.Request) {
	q := query{r: r}
	f := domain.TournamentFilter{ClubID: q.int64("club_id"), Status: domain.TournamentStatus(r.URL.Query().Get("status")),
		Query: r.URL.Query().Get("q")}
	f.Limit, f.Offset = q.page()
	if !q.done(w) {
		return
	}
	p, err := s.svc.Tournaments.List(r.Context(), ActorFrom(r.Context()), f)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	respond(w, http.StatusOK, TournamentList{Items: mapSlice(p.Items, tournamentOut), Total: p.Total, Limit: p.Limit, Offset: p.Offset})
}

// createTournament creates a tournament of a club.
//
//	@Summary		Create a tournament
//	@ID			createTournament
//	@Description	Only the club's admins and owners, or a site admin. The tournament starts as a draft, seen only by them; publish it with PATCH status=published.
//	@Tags			tournaments
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int						true	"Club id"
//	@Param			body	body		TournamentCreateRequest	true	"The new tournament"
//	@Success		201		{object}	Tournament
//	@Header			201		{string}	Location	"/api/v1/tournaments/{tournamentID}"
//	@Failure	400	{object}	Problem	"invalid_parameter (a path id that is not a positive integer) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (name, description, rules, options, players_per_table, kind, deals_per_round, starts_at); the message of rules, players_per_table and options is the rules engine's"
//	@Router			/api/v1/clubs/{clubID}/tournaments [post]
func (s *server) createTournament(w http.ResponseWriter, r *http.Request) {
	clubID, ok := pathID(w, r, "clubID")
	if !ok {
		return
	}
	var req TournamentCreateRequest
	if !s.decode(w, r, &req) {
		return
	}
	t, err := s.svc.Tournaments.Create(r.Context(), ActorFrom(r.Context()), clubID, req.input())
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	created(w, fmt.Sprintf("/api/v1/tournaments/%d", t.ID), tournamentOut(t))
}

// getTournament returns a tournament.
//
//	@Summary		Get a tournament
//	@ID			getTournament
//	@Description	Anyone may get a published, running or finished tournament; a draft only the club's admins and owners, or a site admin (to anyone else it is not_found).
//	@Tags			tournaments
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{object}	Tournament
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID} [get]
func (s *server) getTournament(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r, "tournamentID")
	if !ok {
		return
	}
	t, err := s.svc.Tournaments.Get(r.Context(), ActorFrom(r.Context()), id)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	respond(w, http.StatusOK, tournamentOut(t))
}

// updateTournament changes a tournament.
//
//	@Summary		Update a tournament
//	@ID			updateTournament
//	@Description	Only the club's admins and owners, or a site admin. Absent fields are left as they are. The status moves one step forward (draft → published → running → finished) or stays; rules, players_per_table and options change only while the tournament is a draft. A new rule set without options resets the options to its defaults; options given replace the stored ones.
//	@Tags			tournaments
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int						true	"Tournament id"
//	@Param			body			body		TournamentUpdateRequest	true	"Fields to change"
//	@Success		200				{object}	Tournament
//	@Failure	400	{object}	Problem	"invalid_parameter (a path id that is not a positive integer) or malformed_json (the body; errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the tournament's club"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	409	{object}	Problem	"conflict: a status that does not move one step forward, or rules, players_per_table or options changed after draft"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (name, description, rules, options, players_per_table, kind, deals_per_round, starts_at, status)"
//	@Router			/api/v1/tournaments/{tournamentID} [patch]
func (s *server) updateTournament(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r, "tournamentID")
	if !ok {
		return
	}
	var req TournamentUpdateRequest
	if !s.decode(w, r, &req) {
		return
	}
	t, err := s.svc.Tournaments.Update(r.Context(), ActorFrom(r.Context()), id, req.patch())
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	respond(w, http.StatusOK, tournamentOut(t))
}

// deleteTournament deletes a draft tournament.
//
//	@Summary		Delete a tournament
//	@ID			deleteTournament
//	@Description	Only the club's admins and owners, or a site admin, and only while the tournament is a draft.
//	@Tags			tournaments
//	@Security		BearerAuth
//	@Param			tournamentID	path	int	true	"Tournament id"
//	@Success		204
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the tournament's club"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	409	{object}	Problem	"conflict: the tournament is no longer a draft"
//	@Router			/api/v1/tournaments/{tournamentID} [delete]
func (s *server) deleteTournament(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r, "tournamentID")
	if !ok {
		return
	}
	if err := s.svc.Tournaments.Delete(r.Context(), ActorFrom(r.Context()), id); err != nil {
		s.failErr(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
