package api

import (
	"net/http"

	"github.com/burraco/burraco/domain"
)

// claimTable claims a match an opponent walked out of.
//
//	@Summary		Claim a match an opponent left
//	@ID			claimTable
//	@Description	A seated player claims the match once an opponent has been gone (see the state's presence: no poll, no event stream, no move) past the table's reconnect_seconds. result win: the gone player's team loses (the table finishes with result claimed, winner, and abandoned_by the gone seat; at a tournament's table the sheet records it as that side's forfeit); draw: the match ends drawn (result claimed, draw true); bot: a bot stands in for each gone opponent (stand_in absent) and the match goes on, the player taking the seat back when they return. What may be claimed is the table's claim_policy: win allows win or draw, draw only draw, bot only bot, none nothing; a tournament's table takes no draw. Absent result: what the policy gives. The running deal of a win or draw is ended by the server (scored as it stands; its record says ended_by_referee). Presence is what the server process answering knows from the requests it serves: with several processes, send a table's requests to one of them.
//	@Tags			tables
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int				true	"Table id"
//	@Param			body	body		TableClaimRequest	false	"What is claimed (absent: what the table's claim_policy gives)"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json"
//	@Failure	403	{object}	Problem	"forbidden: the caller does not sit at the table"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"opponent_present: no opponent is gone; window_not_over: an opponent is gone but their reconnect window has not ended (errors[0] names window_ends, its message the time); claim_not_allowed: the claim policy does not give that; conflict: the match is not being played; table_cancelled"
//	@Failure	422	{object}	Problem	"invalid_input: result is not win, draw or bot"
//	@Router			/api/v1/tables/{tableID}/claim [post]
func (h tableHandlers) claimTable(w http.ResponseWriter, r *http.Request) error {
	var req TableClaimRequest
	id, err := pathID(r, "tableID")
	if err == nil && r.ContentLength != 0 {
		err = h.s.decode(w, r, &req)
	}
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tables.Claim(r.Context(), ActorFrom(r.Context()), id, domain.ClaimPolicy(req.Result))
	return answer(w, http.StatusOK, tableOut, t, err)
}

// abortTable aborts a match abandoned before its first move.
//
//	@Summary		Abort a match before its first move
//	@ID			abortTable
//	@Description	A seated player ends a match nobody has moved in yet (no player's move: bots' and the turn clock's do not count) once another player is gone (see the state's presence; no window to wait). The table finishes with result aborted: no winner, no draw, no result (the running deal is ended by the server). Nothing aborts a match by itself: a table everybody left is ruled by its grace period as before. A tournament's table is never aborted (abort_not_allowed): a no-show there is claimed, or forfeits after the grace period.
//	@Tags			tables
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int	true	"Table id"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	403	{object}	Problem	"forbidden: the caller does not sit at the table"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"already_started: a player has moved; opponent_present: nobody else is gone; abort_not_allowed: a tournament's table; conflict: the match is not being played; table_cancelled"
//	@Router			/api/v1/tables/{tableID}/abort [post]
func (h tableHandlers) abortTable(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tables.Abort(r.Context(), ActorFrom(r.Context()), id)
	return answer(w, http.StatusOK, tableOut, t, err)
}
