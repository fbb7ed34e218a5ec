package api

import (
	"fmt"
	"net/http"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// roundHandlers serve a tournament's rounds and, in
// handlers_tournament_sheets.go, their tables' score sheets and rulings,
// under /api/v1/tournaments/{tournamentID}.
type roundHandlers struct{ s *server }

func (h roundHandlers) routes(r routes) {
	auth := r.with(h.s.requireAuth) // on matched routes only: 404/405 first
	r.get("/rounds", h.listTournamentRounds)
	auth.post("/rounds", h.drawTournamentRound)
	r.get("/rounds/{round}", h.getTournamentRound)
	auth.put("/rounds/{round}/pairings", h.overrideTournamentPairings)
	auth.post("/rounds/{round}/start", h.startTournamentRound)
	auth.post("/rounds/{round}/close", h.closeTournamentRound)
	auth.post("/rounds/{round}/reopen", h.reopenTournamentRound)
	r.get("/rounds/{round}/tables/{table}", h.getTournamentTable)
	auth.post("/rounds/{round}/tables/{table}/scores", h.enterTournamentScores)
	auth.post("/rounds/{round}/tables/{table}/confirm", h.confirmTournamentScores)
	auth.post("/rounds/{round}/tables/{table}/corrections", h.correctTournamentScore)
	auth.post("/rounds/{round}/tables/{table}/rulings", h.tournamentRuling)
}

// listTournamentRounds lists the rounds drawn.
//
//	@Summary		List a tournament's rounds
//	@ID			listTournamentRounds
//	@Description	Every round drawn, oldest first, with its tables (seats, score sheets, rulings, results), byes, team matches and knockout bracket. With latest=true only the latest round drawn (items empty before the first; current_round and planned_rounds as ever): what a console or a hall needs to follow play, a few KB where the whole list of a big event is megabytes (read an earlier round with GET …/rounds/{round}). The ETag is the tournament's version, as the standings': send it back in If-None-Match for a 304.
//	@Tags			rounds
//	@Produce		json
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			latest			query		bool	false	"Only the latest round drawn"	default(false)
//	@Param			If-None-Match	header		string	false	"The ETag of the rounds the caller has"
//	@Success		200				{object}	TournamentRoundList
//	@Header			200				{string}	ETag	"The tournament's version"
//	@Success		304				"Nothing changed (If-None-Match matched)"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer, or latest is not true or false"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/rounds [get]
func (h roundHandlers) listTournamentRounds(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	q := query{r: r}
	latest := q.bool("latest")
	if err := q.err(); err != nil {
		return err
	}
	k := playBodyKey{id: id, list: listAllRounds}
	if latest {
		k.list = listLatestRound
	}
	if answered, err := h.s.cachedPlay(w, r, k, true); answered || err != nil {
		return err
	}
	read, err := h.s.readPlay(r, id)
	if err != nil {
		return err
	}
	etag := standingsETag(read.Tournament)
	w.Header().Set("ETag", etag)
	return h.s.encodePlay(w, r, k, etag, newPlayView(read).rounds(latest))
}

// getTournamentRound returns a round.
//
//	@Summary		Get a round
//	@ID			getTournamentRound
//	@Description	The round's status, tables (seats, score sheets, rulings, results), byes, team matches and knockout bracket; the rule that drew it, and whether a score correction drew it again (redrawn, redrawn_at, redraw_reason: pairings read before redrawn_at are void).
//	@Tags			rounds
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Param			round			path		int	true	"Round number, from 1"
//	@Success		200				{object}	TournamentRound
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round} [get]
func (h roundHandlers) getTournamentRound(w http.ResponseWriter, r *http.Request) error {
	a, err := pathRound(r)
	if err != nil {
		return err
	}
	id, n := a.id, a.round
	k := playBodyKey{id: id, round: n}
	if answered, err := h.s.cachedPlay(w, r, k, false); answered || err != nil {
		return err
	}
	read, err := h.s.readPlay(r, id)
	if err != nil {
		return err
	}
	if n > len(read.Snapshot.Rounds) {
		return h.respondRound(w, r, read, n, http.StatusOK) // round_not_found
	}
	return h.s.encodePlay(w, r, k, standingsETag(read.Tournament), newPlayView(read).roundOut(read.Snapshot.Rounds[n-1]))
}

// respondRound answers round n of the state read with status (201 with
// its Location).
func (h roundHandlers) respondRound(w http.ResponseWriter, r *http.Request, read domain.TournamentRead, n, status int) error {
	if n < 1 || n > len(read.Snapshot.Rounds) {
		return domain.Errorf(domain.Code(tourney.CodeRoundNotFound), "no round %d", n)
	}
	out := newPlayView(read).roundOut(read.Snapshot.Rounds[n-1])
	if status == http.StatusCreated {
		return created(w, fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d", read.Tournament.ID, n), out)
	}
	return respond(w, status, out)
}

// drawTournamentRound draws the next round.
//
//	@Summary		Draw the next round
//	@ID			drawTournamentRound
//	@Description	Publishes the pairings of the next round by the tournament's movement (Mitchell, Danish, modified Danish, round robin, random draw, knockout bracket): tables and seats, byes for an odd field (rotating), no forbidden pair. The draw is recorded: it is never drawn again by a replay, and the round's rule says what drew it. What a director can predict (docs/DRAW.md): Danish and modified Danish pair in standings order — round 1 by seed, then entry number (1–2, 3–4, …), later rounds by the standings, entries tied on everything but lots in the order of the draw of lots (revealed at the finish). A modified Danish (RULES §10) refuses only a rematch of the previous round (the entry meets the nearest one below it may meet; older rematches are allowed, not avoided) and pairs its last round as pure Danish, rematches included; the set-up's avoid_repeat_opponents avoids every earlier opponent while possible. Table 1 is the highest-placed playing entry's table, then down the standings; NS is the entry that sat NS fewer times before, the higher-placed on a tie (so in round 1). The bye goes to the lowest-placed entry among those with the fewest byes (random draw: one drawn among them; Mitchell and round robin: the fixed rotation) and counts as a round played. A score correction may draw a published round again: the round then shows redrawn, redrawn_at and redraw_reason. Referees and directors, while the tournament runs and the previous round is closed.
//	@Tags			rounds
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int						true	"Tournament id"
//	@Param			Idempotency-Key	header		string					false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentDrawRequest	false	"The round to draw (default: the next)"
//	@Success		201				{object}	TournamentRound
//	@Header			201				{string}	Location	"/api/v1/tournaments/{tournamentID}/rounds/{round}"
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	409	{object}	Problem	"bad_transition (not running, or round is not the next), round_open (the previous round is not closed), phase_not_final (a phase's first round drawn before the previous round is closed), group_too_small (a group its movement cannot play the phase's rounds in), no_more_rounds, unpairable, knockout_tied"
//	@Failure	422	{object}	Problem	"invalid_command; bad_groups (hand groups that miss, repeat or invent an entry, each in errors; groups on a draw that takes none); idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/rounds [post]
func (h roundHandlers) drawTournamentRound(w http.ResponseWriter, r *http.Request) error {
	id, req, b, err := withBody[TournamentDrawRequest](h.s, w, r, pathTournament, true)
	if err != nil {
		return err
	}
	n := req.Round
	if n == 0 {
		read, err := h.s.readPlay(r, id)
		if err != nil {
			return err
		}
		n = read.Snapshot.CurrentRound + 1
	}
	out, err := h.s.act(r, id, tourney.DrawRound{Round: n, Groups: req.Groups}, b)
	if err != nil {
		return err
	}
	if out.Replayed {
		n = drawnRound(out.Event, n)
	}
	return h.respondRound(w, r, out.TournamentRead, n, http.StatusCreated)
}

// drawnRound is the round a replayed draw drew (n when the event does not
// say).
func drawnRound(e tourney.Event, n int) int {
	if p, err := tourney.DecodeEvent(e); err == nil {
		if d, ok := p.(*tourney.RoundDrawn); ok {
			return d.Round
		}
	}
	return n
}

// overrideTournamentPairings sets a round's pairings by hand.
//
//	@Summary		Set a round's pairings by hand
//	@ID			overrideTournamentPairings
//	@Description	A referee or director sets the next round instead of a draw, or replaces the current round's pairings while they are published and no score is in, with a reason (audited). Validated: every entry once, no forbidden pair, byes only as an odd field needs. Pairs and teams give ns and ew per table; individual events n, s, e and w. Not for a knockout (its bracket decides).
//	@Tags			rounds
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int							true	"Tournament id"
//	@Param			round			path		int							true	"Round number, from 1"
//	@Param			Idempotency-Key	header		string						false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentPairingsRequest	true	"The tables and byes"
//	@Success		200				{object}	TournamentRound
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	409	{object}	Problem	"bad_transition, round_open, round_has_scores, override_knockout, no_more_rounds"
//	@Failure	422	{object}	Problem	"bad_pairings (every problem listed in errors: an entry twice or missing, a forbidden pair, a bye not needed, a table across two groups), bad_groups, reason_required, idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round}/pairings [put]
func (h roundHandlers) overrideTournamentPairings(w http.ResponseWriter, r *http.Request) error {
	a, req, b, err := withBody[TournamentPairingsRequest](h.s, w, r, pathRound, false)
	if err != nil {
		return err
	}
	read, err := h.s.readPlay(r, a.id)
	if err != nil {
		return err
	}
	cmd := req.command(a.round, read.Tournament.Kind == domain.IndividualTournament)
	return h.roundAct(w, r, a, cmd, b)
}

// startTournamentRound starts play of a round.
//
//	@Summary		Start a round
//	@ID			startTournamentRound
//	@Description	The round's pairings are published: play starts, and scores may be entered. Referees and directors.
//	@Tags			rounds
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			round			path		int		true	"Round number, from 1"
//	@Param			Idempotency-Key	header		string	false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Success		200				{object}	TournamentRound
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found"
//	@Failure	409	{object}	Problem	"bad_transition: the round's pairings are not (or no longer) just published"
//	@Failure	422	{object}	Problem	"idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round}/start [post]
func (h roundHandlers) startTournamentRound(w http.ResponseWriter, r *http.Request) error {
	return h.roundCommand(w, r, func(n int, _ TournamentReasonRequest) tourney.Command { return tourney.StartRound{Round: n} }, false)
}

// closeTournamentRound closes a round.
//
//	@Summary		Close a round
//	@ID			closeTournamentRound
//	@Description	Every table has its result (all deals confirmed) or a ruling decided it. Referees and directors.
//	@Tags			rounds
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			round			path		int		true	"Round number, from 1"
//	@Param			Idempotency-Key	header		string	false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Success		200				{object}	TournamentRound
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found"
//	@Failure	409	{object}	Problem	"table_missing_result (a table lacks deals: decide it with a ruling), unconfirmed_deals, round_not_playing"
//	@Failure	422	{object}	Problem	"idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round}/close [post]
func (h roundHandlers) closeTournamentRound(w http.ResponseWriter, r *http.Request) error {
	return h.roundCommand(w, r, func(n int, _ TournamentReasonRequest) tourney.Command { return tourney.CloseRound{Round: n} }, false)
}

// reopenTournamentRound reopens the latest round.
//
//	@Summary		Reopen a round
//	@ID			reopenTournamentRound
//	@Description	A referee or director reopens the latest round, closed, for play again, with a reason; the audit trail keeps it.
//	@Tags			rounds
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int						true	"Tournament id"
//	@Param			round			path		int						true	"Round number, from 1"
//	@Param			Idempotency-Key	header		string					false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentReasonRequest	true	"Why"
//	@Success		200				{object}	TournamentRound
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found"
//	@Failure	409	{object}	Problem	"not_latest_round, bad_transition (the round is not closed, or the tournament is finished)"
//	@Failure	422	{object}	Problem	"reason_required; idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round}/reopen [post]
func (h roundHandlers) reopenTournamentRound(w http.ResponseWriter, r *http.Request) error {
	return h.roundCommand(w, r, func(n int, req TournamentReasonRequest) tourney.Command {
		return tourney.ReopenRound{Round: n, Reason: req.Reason}
	}, true)
}

// roundCommand gives the command of a round's path (with a reason body
// when reason) and answers the round as it is after it.
func (h roundHandlers) roundCommand(w http.ResponseWriter, r *http.Request, cmd func(int, TournamentReasonRequest) tourney.Command, reason bool) error {
	a, req, b, err := withBody[TournamentReasonRequest](h.s, w, r, pathRound, !reason)
	if err != nil {
		return err
	}
	return h.roundAct(w, r, a, cmd(a.round, req), b)
}

// roundAct gives cmd to the tournament of round a and answers the round as
// it is after it.
func (h roundHandlers) roundAct(w http.ResponseWriter, r *http.Request, a roundAddress, cmd tourney.Command, b sentBody) error {
	out, err := h.s.act(r, a.id, cmd, b)
	if err != nil {
		return err
	}
	return h.respondRound(w, r, out.TournamentRead, a.round, http.StatusOK)
}

// roundAddress is a round's place in the URL path.
type roundAddress struct {
	id    int64
	round int
}

// pathRound reads /tournaments/{tournamentID}/rounds/{round}.
func pathRound(r *http.Request) (a roundAddress, err error) {
	if a.id, err = pathTournament(r); err != nil {
		return a, err
	}
	a.round, err = pathInt(r, "round")
	return a, err
}
