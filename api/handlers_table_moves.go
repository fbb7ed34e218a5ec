package api

import (
	"encoding/json"
	"net/http"

	"github.com/burraco/burraco/domain"
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
func (h tableHandlers) listTableMoves(w http.ResponseWriter, r *http.Request) error {
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
	f, err := h.s.svc.Tables.Moves(r.Context(), ActorFrom(r.Context()), id, r.URL.Query().Get("invite"), deal, since)
	return answer(w, http.StatusOK, tableMovesOut, f, err)
}

// playMove plays a move.
//
//	@Summary		Play a move
//	@ID			playMove
//	@Description	The move in the engine's JSON notation (as in the conformance cases) and the version the caller saw: If-Match with the state's ETag, or version in the body. The bots on turn then play at once; a deal that ends is scored and the next dealt. Answers the new state as the caller sees it. Version in If-Match or in the body, one or the other (OpenAPI cannot say so): neither is 422 invalid_input naming version. The body has no field but the move's and version; OpenAPI 3.0 cannot close an allOf, so the schema does not say additionalProperties: false, but another field is 400 malformed_json (unknown_field).
//	@Tags			tables
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID			path		int			true	"Table id"
//	@Param			If-Match		header		string		false	"The ETag of the state the move was chosen from"
//	@Param			Idempotency-Key	header		string		false	"A key the caller chooses per move: a retry with the same key answers the first result instead of playing twice (kept 24 h)"
//	@Param			body			body		MoveRequest	true	"The move"
//	@Success		200				{object}	TableState
//	@Header			200				{string}	ETag	"The new state's version as seen by the caller"
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json"
//	@Failure	403	{object}	Problem	"forbidden: the caller does not sit at the table"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"version_conflict (the table moved on: current_version and errors give the current version), not_your_turn (the engine's code), or conflict (the match has not started or is over)"
//	@Failure	422	{object}	Problem	"one of the rules engine's codes (every one is listed under 422 in Problem.code's description: invalid_meld, must_keep_card, card_not_in_hand, wrong_phase, bad_notation, unknown_move, …) with a message for people; invalid_input (version missing); idempotency_key_reused"
//	@Router			/api/v1/tables/{tableID}/moves [post]
func (h tableHandlers) playMove(w http.ResponseWriter, r *http.Request) error {
	id, req, err := idAndBody[MoveRequest](h.s, w, r, "tableID")
	if err != nil {
		return err
	}
	in := domain.MoveInput{Version: req.Version, IdempotencyKey: r.Header.Get("Idempotency-Key")}
	if in.Version == 0 {
		in.Version = etagVersion(r.Header.Get("If-Match"), id)
	}
	in.Move, _ = json.Marshal(req.MoveNotation) // plain fields: cannot fail
	st, err := h.s.svc.Tables.Move(r.Context(), ActorFrom(r.Context()), id, in)
	if err != nil {
		return err
	}
	h.s.cfg.Metrics.moves.Inc()
	h.keepIfBrisk(r, id)
	w.Header().Set("ETag", tableETag(id, st.Table.Version, st.Seat))
	if st.Seat < 0 || st.TurnLeft != nil || st.MatchLeft != nil {
		return respond(w, http.StatusOK, tableStateOut(st))
	}
	// The mover's state at the new version, which their next poll reads:
	// encoded once, for both.
	body, err := h.encodeState(st)
	if err != nil {
		return err
	}
	body = append(body, '\n') // as respond writes it
	h.s.states.offer(id, st.Table.Version, st.Seat, body)
	writeBody(w, body)
	return nil
}
