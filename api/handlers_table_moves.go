package api

import (
	"net/http"
)

// listTableMoves returns a deal's moves past a version, and the change to
// the next deal when it has ended.
//
//	@Summary		List a deal's moves (the move feed)
//	@ID			listTableMoves
//	@Description	The moves of a deal that made a version past since, in order, as the caller sees them, with the deal as dealt (start): each move has its own table version (a bot's too), so a client follows a table move by move, animating each. Without deal, the deal a follower who saw version since is in: the current deal, or an earlier one when since is before the current deal began. When the deal answered has ended and the next was dealt, deal_change says so (its score, and the next deal as dealt), after the items, and version is the change's: passing version as since reads the next deal, so a follower who passes each answer's version as the next since reads every move once, across deal changes. The notation of every move is public; of what a move took, a card drawn from the stock and a pot's cards are shown to the seat that took them only, never to another seat (a partner included) nor to a spectator (drawn_hidden says a card was drawn). Without since, the whole deal (the current one without deal). Dealing a deal, calling a time-out and the other changes are versions without a move. Moves played before moves had versions of their own have version 0 and no taken. Seen by whoever may see the table.
//	@Tags			tables
//	@Produce		json
//	@Param			tableID	path		int		true	"Table id"
//	@Param			since	query		int		false	"Only the moves past this version (absent: the whole deal); without deal, it also chooses the deal: the one a follower at this version is in"	minimum(0)
//	@Param			deal	query		int		false	"The deal, from 1 (absent: the current deal)"	minimum(1)
//	@Param			invite	query		string	false	"The invite code of a private table"
//	@Success		200		{object}	TableMoves
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id, since or deal that cannot be parsed"
//	@Failure	404	{object}	Problem	"not_found: no such table or deal (also before the start), or a private table the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tables/{tableID}/moves [get]
func (s *server) listTableMoves(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	q := query{r: r}
	since, hasSince := q.int64or0("since")
	deal := q.intIn("deal", 1, maxInt32Param)
	if err := q.err(); err != nil {
		return err
	}
	if !hasSince {
		since = -1
	}
	f, err := s.svc.Tables.Moves(r.Context(), ActorFrom(r.Context()), id, r.URL.Query().Get("invite"), deal, since)
	return answer(w, http.StatusOK, tableMovesOut, f, err)
}
