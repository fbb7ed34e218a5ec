package api

import (
	"net/http"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// tournamentLifecycle moves a tournament along its lifecycle.
//
//	@Summary		Move a tournament along its lifecycle
//	@ID			tournamentLifecycle
//	@Description	One explicit action: open_registration (directors: the club's admins and owners, site admins; from draft, which makes the tournament public, or from registration_closed), close_registration (directors: check-in time), start (referees and directors; entries that did not check in are left out when some did), finish (referees and directors; every round closed), publish_results (directors; from finished), cancel (directors, with a reason; from any status before finished).
//	@Tags			tournaments
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int							true	"Tournament id"
//	@Param			Idempotency-Key	header		string						false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentLifecycleRequest	true	"The action"
//	@Success		200				{object}	TournamentProgress
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"forbidden (an action for the club's admins), referee_only"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	409	{object}	Problem	"bad_transition (not from this status), round_open (finish with a round not closed), not_enough_entries (start)"
//	@Failure	422	{object}	Problem	"invalid_input (action unknown), reason_required (cancel), invalid_setup (start: the movement cannot be played with this field, errors says why), idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/lifecycle [post]
func (h tournamentHandlers) tournamentLifecycle(w http.ResponseWriter, r *http.Request) error {
	id, req, b, err := withBody[TournamentLifecycleRequest](h.s, w, r, pathTournament, false)
	if err != nil {
		return err
	}
	cmd, ok := req.command()
	if !ok {
		return problem(string(domain.EInvalid), "the action is not known", FieldError{Field: "action", Code: "invalid",
			Message: "must be open_registration, close_registration, start, finish, publish_results or cancel"})
	}
	out, err := h.s.act(r, id, cmd, b)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, newPlayView(out.TournamentRead).progress())
}

// tournamentPenalty gives a penalty.
//
//	@Summary		Give a penalty
//	@ID			giveTournamentPenalty
//	@Description	A referee or director takes VP and/or MP from an entry, with a reason, for a round or (round absent) the event; the standings show it. While the tournament runs or is finished. Answers every penalty given. Rules the schema cannot express: a penalty takes vp or mp (or both), not neither: 422 invalid_command naming vp (required); round and entry must exist in the tournament: 422 invalid_command naming them (unknown_value).
//	@Tags			scores
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int							true	"Tournament id"
//	@Param			Idempotency-Key	header		string						false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentPenaltyRequest	true	"The penalty"
//	@Success		200				{object}	TournamentPenaltyList
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament; own_side: a referee who plays the entry or sits with it at a table of the round (of any round, for a penalty of the event)"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), entry_not_found"
//	@Failure	409	{object}	Problem	"bad_transition: the tournament is not running or finished"
//	@Failure	422	{object}	Problem	"invalid_command (every bad field listed in errors: round, vp, mp), reason_required, idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/penalties [post]
func (h tournamentHandlers) tournamentPenalty(w http.ResponseWriter, r *http.Request) error {
	id, req, b, err := withBody[TournamentPenaltyRequest](h.s, w, r, pathTournament, false)
	if err != nil {
		return err
	}
	cmd := tourney.Penalty{Round: req.Round, Entry: req.Entry, VP: req.VP, MP: req.MP, Reason: req.Reason}
	out, err := h.s.act(r, id, cmd, b)
	if err != nil {
		return err
	}
	v := newPlayView(out.TournamentRead)
	return respond(w, http.StatusOK, TournamentPenaltyList{Items: mapSlice(v.snap.Penalties, v.penaltyOut), Version: v.snap.Seq})
}

// setTournamentForbidden sets the pairs kept apart.
//
//	@Summary		Set the forbidden pairings
//	@ID			setTournamentForbidden
//	@Description	A referee or director sets the pairs of entries that must not meet (it replaces the list), e.g. of the same family; entries of the same club are kept apart by the set-up's forbid_same_club. A Mitchell or round robin keeps the list it started with: its schedule is fixed at the start. The list is a set: [a,b] is [b,a], a pair given twice is kept once, and the answer gives each pair lower id first. At most 500 pairs per request (and in the list), each of two different entries of the tournament; a body over 32 KiB is 413. The audit trail's forbidden_set event records the pairs added and removed (events before 2026-11-28 have the whole list as pairs).
//	@Tags			rounds
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int							true	"Tournament id"
//	@Param			Idempotency-Key	header		string						false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentForbiddenRequest	true	"The pairs"
//	@Success		200				{object}	TournamentForbidden
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	409	{object}	Problem	"bad_transition: the tournament is over"
//	@Failure	413	{object}	Problem	"request_too_large: the body is over 32 KiB"
//	@Failure	422	{object}	Problem	"invalid_input (a pair that is not two ids, or more than 500 pairs: errors names pairs, code count), invalid_command (every unknown entry or self-pair listed in errors), idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/forbidden [put]
func (h tournamentHandlers) setTournamentForbidden(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxForbiddenBody)
	id, req, b, err := withBody[TournamentForbiddenRequest](h.s, w, r, pathTournament, false)
	if err != nil {
		return err
	}
	cmd, err := req.command()
	if err != nil {
		return err
	}
	out, err := h.s.act(r, id, cmd, b)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, newPlayView(out.TournamentRead).forbidden())
}

// getTournamentForbidden returns the pairs kept apart.
//
//	@Summary		Get the forbidden pairings
//	@ID			getTournamentForbidden
//	@Description	The pairs of entries that must not meet, as set with PUT (each pair lower id first): what a director's console shows before changing the list (PUT replaces it). For the tournament's referees and directors only, as the audit trail: a pair is kept apart because its players are family, which a club does not publish. The reasons given are in the audit trail only.
//	@Tags			rounds
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Security		BearerAuth
//	@Success		200				{object}	TournamentForbidden
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	401	{object}	Problem	"unauthenticated: no access token, or an invalid or expired one"
//	@Failure	403	{object}	Problem	"forbidden: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Router			/api/v1/tournaments/{tournamentID}/forbidden [get]
func (h tournamentHandlers) getTournamentForbidden(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	read, err := h.s.readPlay(r, id)
	if err != nil {
		return err
	}
	if _, err := read.ForbiddenPairs(ActorFrom(r.Context())); err != nil {
		return err
	}
	return respond(w, http.StatusOK, newPlayView(read).forbidden())
}

// maxForbiddenBody bounds a PUT of forbidden pairs: tourney.MaxForbiddenPairs
// pairs of five-digit ids take 7 KB, a reason of 1000 characters at most 6 KB more.
const maxForbiddenBody = 32 << 10
