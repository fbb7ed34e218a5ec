package api

import (
	"fmt"
	"net/http"

	"github.com/burraco/burraco/domain"
)

// tournamentHandlers serve tournaments' set-up and life as a whole
// (/api/v1/tournaments): create (or import), read, change, delete, the
// lifecycle, penalties, forbidden pairs and referees. Entries, rounds with
// their score sheets, and results are entryHandlers', roundHandlers' and
// resultHandlers'.
type tournamentHandlers struct{ s *server }

func (h tournamentHandlers) routes(r routes) {
	r.get("/", h.listTournaments)
	r.under("/{tournamentID}", func(r routes) {
		auth := r.with(h.s.requireAuth) // on matched routes only: 404/405 first
		r.get("/", h.getTournament)
		auth.patch("/", h.updateTournament)
		auth.delete("/", h.deleteTournament)
		auth.post("/lifecycle", h.tournamentLifecycle)
		auth.post("/penalties", h.tournamentPenalty)
		auth.get("/forbidden", h.getTournamentForbidden)
		auth.put("/forbidden", h.setTournamentForbidden)
		r.get("/referees", h.listTournamentReferees)
		auth.put("/referees/{userID}", h.assignTournamentReferee)
		auth.delete("/referees/{userID}", h.unassignTournamentReferee)
	})
}

// clubRoutes are a club's new tournaments, under /api/v1/clubs/{clubID}.
func (h tournamentHandlers) clubRoutes(r routes) {
	auth := r.with(h.s.requireAuth)
	auth.post("/tournaments", h.createTournament)
	auth.post("/tournaments/import", h.importTournament)
}

// listTournaments lists the tournaments the caller may see.
//
//	@Summary		List tournaments
//	@ID			listTournaments
//	@Description	Every tournament that has left draft (cancelled ones included), for anyone; with an access token, also the drafts of the clubs the caller administers and the drafts they are assigned to referee (all drafts for a site admin). Ordered by start time.
//	@Tags			tournaments
//	@Produce		json
//	@Param			club_id	query		int		false	"Only the tournaments of this club"
//	@Param			status	query		string	false	"Only tournaments with this status"	Enums(draft, registration_open, registration_closed, running, finished, results_published, cancelled)
//	@Param			q		query		string	false	"Substring of the name, ignoring case and accents"
//	@Param			limit	query		int		false	"Page size, 1..100; 0 or absent means 20"	default(20)	minimum(0)	maximum(100)
//	@Param			offset	query		int		false	"Items to skip"		default(0)	minimum(0)
//	@Success		200		{object}	TournamentList
//	@Failure	400	{object}	Problem	"invalid_parameter: a query parameter the schema does not allow (not a number, empty, past its bounds, not one of its values, too long, control characters), every one named in errors"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments [get]
func (h tournamentHandlers) listTournaments(w http.ResponseWriter, r *http.Request) error {
	q := query{r: r}
	f := domain.TournamentFilter{ClubID: q.int64("club_id"), Query: q.search(),
		Status: domain.TournamentStatus(q.enum("status", func(s string) bool { return domain.TournamentStatus(s).Valid() }, "the statuses of a tournament"))}
	f.Limit, f.Offset = q.page()
	if err := q.err(); err != nil {
		return err
	}
	p, err := h.s.svc.Tournaments.List(r.Context(), ActorFrom(r.Context()), f)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, TournamentList{Items: mapSlice(p.Items, tournamentOut), Total: p.Total, Limit: p.Limit, Offset: p.Offset})
}

// createTournament creates a tournament of a club.
//
//	@Summary		Create a tournament
//	@ID			createTournament
//	@Description	Only the club's admins and owners, or a site admin. The tournament starts as a draft, seen only by them, until its registration opens (a lifecycle action). With the rules of its tables comes its set-up (movement, rounds, VP table, tie-breaks, rest and abandonment scores, ...); absent set-up fields take their defaults. Its lots seed, drawn now, stays secret. Rules the schema cannot express: Options must apply to the rule set (GET /api/v1/rules/{ruleSet} lists each one's): another is 422 invalid_input naming options.KEY (code bad_option). fibur-row is played by 2: players_per_table 4 is 422 invalid_input naming players_per_table. A vp_table starts at 0 with a tie split (winner = loser), its bands are contiguous with the last one open (no to), and each band's winner + loser is sum: else 422 invalid_input naming vp_table.bands[i] (codes such as first_from, first_not_tie, closed_last). Team events have no built-in VP table: kind teams without vp_table is 422 invalid_input naming vp_table (required). team_pairs applies to kind teams only: 422 invalid_input naming team_pairs. rounds 0 (the movement's own count) only for round_robin and knockout; mitchell, danish, modified_danish and random need 1..50: 422 invalid_input naming rounds (out_of_range). late_entry_round is at most rounds: 422 invalid_input naming late_entry_round (out_of_range). rest_vp and abandon_vp are at most the VP table's sum (vp_table.sum, 20 when absent): 422 invalid_input naming them (out_of_range).
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
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (name, description, rules, options, players_per_table, kind, deals_per_round, starts_at, movement, rounds, mitchell_step, target_score, vp_table and vp_table.bands[i] with the VP table's own codes, tie_breaks[i], rest_vp, rest_mp, abandon_vp, late_entry_round, team_pairs, played, online and online.turn_seconds, online.round_seconds, online.absent, online.grace_seconds); the message of rules, players_per_table and options is the rules engine's"
//	@Router			/api/v1/clubs/{clubID}/tournaments [post]
func (h tournamentHandlers) createTournament(w http.ResponseWriter, r *http.Request) error {
	clubID, req, err := idAndBody[TournamentCreateRequest](h.s, w, r, "clubID")
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tournaments.Create(r.Context(), ActorFrom(r.Context()), clubID, req.input())
	if err != nil {
		return err
	}
	return created(w, fmt.Sprintf("/api/v1/tournaments/%d", t.ID), tournamentOut(t))
}

// getTournament returns a tournament.
//
//	@Summary		Get a tournament
//	@ID			getTournament
//	@Description	Anyone may get a tournament that has left draft (also once cancelled); a draft only the club's admins and owners, its assigned referees (to prepare it), or a site admin (to anyone else it is not_found).
//	@Tags			tournaments
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{object}	Tournament
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID} [get]
func (h tournamentHandlers) getTournament(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tournaments.Get(r.Context(), ActorFrom(r.Context()), id)
	return answer(w, http.StatusOK, tournamentOut, t, err)
}

// updateTournament changes a tournament.
//
//	@Summary		Update a tournament
//	@ID			updateTournament
//	@Description	Only the club's admins and owners, or a site admin. Absent fields are left as they are. Rules, players_per_table, options, kind and team_pairs change only while the tournament is a draft; the rest of the set-up (deals_per_round, movement, rounds, VP table, tie-breaks, ...) until it runs; name, description and starts_at any time. The status does not change here: it moves only by the lifecycle's actions (a status other than the current one is invalid_input, errors[].code lifecycle_action). A new rule set without options resets the options to its defaults; options given replace the stored ones; builtin_vp_table goes back to the built-in VP table. Rules the schema cannot express: Options must apply to the rule set (GET /api/v1/rules/{ruleSet} lists each one's): another is 422 invalid_input naming options.KEY (code bad_option). fibur-row is played by 2: players_per_table 4 is 422 invalid_input naming players_per_table. A vp_table starts at 0 with a tie split (winner = loser), its bands are contiguous with the last one open (no to), and each band's winner + loser is sum: else 422 invalid_input naming vp_table.bands[i] (codes such as first_from, first_not_tie, closed_last). Team events have no built-in VP table: kind teams without vp_table is 422 invalid_input naming vp_table (required). team_pairs applies to kind teams only: 422 invalid_input naming team_pairs. rounds 0 (the movement's own count) only for round_robin and knockout; mitchell, danish, modified_danish and random need 1..50: 422 invalid_input naming rounds (out_of_range). late_entry_round is at most rounds: 422 invalid_input naming late_entry_round (out_of_range). rest_vp and abandon_vp are at most the VP table's sum (vp_table.sum, 20 when absent): 422 invalid_input naming them (out_of_range).
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
//	@Failure	409	{object}	Problem	"conflict: rules, players_per_table, options, kind or team_pairs changed after draft, or the set-up once running"
//	@Failure	422	{object}	Problem	"invalid_input: fields that break a rule, every one listed in errors (those of createTournament, builtin_vp_table, and status: lifecycle_action when it is not the current one)"
//	@Router			/api/v1/tournaments/{tournamentID} [patch]
func (h tournamentHandlers) updateTournament(w http.ResponseWriter, r *http.Request) error {
	id, req, err := idAndBody[TournamentUpdateRequest](h.s, w, r, "tournamentID")
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tournaments.Update(r.Context(), ActorFrom(r.Context()), id, req.patch())
	return answer(w, http.StatusOK, tournamentOut, t, err)
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
func (h tournamentHandlers) deleteTournament(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	if err := h.s.svc.Tournaments.Delete(r.Context(), ActorFrom(r.Context()), id); err != nil {
		return err
	}
	return noContent(w)
}

// listTournamentReferees lists a tournament's referees.
//
//	@Summary		List a tournament's referees
//	@ID			listTournamentReferees
//	@Description	Anyone who may see the tournament (a draft: its club's admins and owners, or a site admin). By name, with each one's role in the club now.
//	@Tags			tournaments
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{object}	TournamentRefereeList
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/referees [get]
func (h tournamentHandlers) listTournamentReferees(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	refs, err := h.s.svc.Tournaments.Referees(r.Context(), ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, TournamentRefereeList{Items: mapSlice(refs, refereeOut)})
}

// assignTournamentReferee makes a club member a referee of a tournament.
//
//	@Summary		Assign a referee
//	@ID			assignTournamentReferee
//	@Description	Only the club's admins and owners, or a site admin. The user must be a member of the tournament's club with the referee role or higher. Assigning a referee again changes nothing.
//	@Tags			tournaments
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Param			userID			path		int	true	"User id of the referee"
//	@Success		200				{object}	TournamentReferee
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the tournament's club"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	422	{object}	Problem	"not_a_referee: the user is not a member of the tournament's club with the referee role or higher"
//	@Router			/api/v1/tournaments/{tournamentID}/referees/{userID} [put]
func (h tournamentHandlers) assignTournamentReferee(w http.ResponseWriter, r *http.Request) error {
	id, userID, err := pathTournamentUser(r)
	if err != nil {
		return err
	}
	ref, err := h.s.svc.Tournaments.AssignReferee(r.Context(), ActorFrom(r.Context()), id, userID)
	return answer(w, http.StatusOK, refereeOut, ref, err)
}

// unassignTournamentReferee takes a referee off a tournament.
//
//	@Summary		Unassign a referee
//	@ID			unassignTournamentReferee
//	@Description	Only the club's admins and owners, or a site admin. A user who is not a referee of the tournament is no error.
//	@Tags			tournaments
//	@Security		BearerAuth
//	@Param			tournamentID	path	int	true	"Tournament id"
//	@Param			userID			path	int	true	"User id of the referee"
//	@Success		204
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id or query parameter is not a number where one is expected (named in errors)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the tournament's club"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Router			/api/v1/tournaments/{tournamentID}/referees/{userID} [delete]
func (h tournamentHandlers) unassignTournamentReferee(w http.ResponseWriter, r *http.Request) error {
	id, userID, err := pathTournamentUser(r)
	if err != nil {
		return err
	}
	if err := h.s.svc.Tournaments.UnassignReferee(r.Context(), ActorFrom(r.Context()), id, userID); err != nil {
		return err
	}
	return noContent(w)
}

// pathTournamentUser reads the tournament and user ids of the path.
func pathTournamentUser(r *http.Request) (id, userID int64, err error) {
	if id, err = pathTournament(r); err != nil {
		return 0, 0, err
	}
	userID, err = pathID(r, "userID")
	return id, userID, err
}
