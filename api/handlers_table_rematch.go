package api

import (
	"net/http"
)

// wishRematch records the caller's wish to play again.
//
//	@Summary		Ask for a rematch
//	@ID			wishRematch
//	@Description	Once the match is over, each player may ask to play again with the same seats (rematch.wishes in the table lists who did). When every seated user has asked (a bot always agrees), a new table starts at once: the same creator, club, rule set, options, match, clocks, rated, private and seats, the first deal dealt by the seat after the finished match's first dealer; rematch.table_id names it. Asking again changes nothing (no new version), also once the rematch began (the answer names it). Of two players completing the agreement at once, exactly one starts the rematch.
//	@Tags			tables
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int	true	"Table id"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	401	{object}	Problem	"unauthenticated: no or bad token"
//	@Failure	403	{object}	Problem	"not_seated: the caller did not play the match"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"match_not_over: the match is not over; table_cancelled: it never started; conflict: a tournament's table (its tournament pairs the next round)"
//	@Router			/api/v1/tables/{tableID}/rematch [post]
func (h tableHandlers) wishRematch(w http.ResponseWriter, r *http.Request) error {
	return h.rematch(w, r, true)
}

// withdrawRematch withdraws the caller's wish to play again.
//
//	@Summary		Withdraw a rematch wish
//	@ID			withdrawRematch
//	@Description	Takes back the caller's wish to play again, before every player agreed; without a wish it changes nothing. Once the rematch began it cannot be withdrawn (409 rematch_started): leave the new table instead.
//	@Tags			tables
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int	true	"Table id"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	401	{object}	Problem	"unauthenticated: no or bad token"
//	@Failure	403	{object}	Problem	"not_seated: the caller did not play the match"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"match_not_over; table_cancelled; conflict: a tournament's table; rematch_started: every player agreed and the rematch began"
//	@Router			/api/v1/tables/{tableID}/rematch [delete]
func (h tableHandlers) withdrawRematch(w http.ResponseWriter, r *http.Request) error {
	return h.rematch(w, r, false)
}

func (h tableHandlers) rematch(w http.ResponseWriter, r *http.Request, want bool) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tables.Rematch(r.Context(), ActorFrom(r.Context()), id, want)
	return answer(w, http.StatusOK, tableOut, t, err)
}
