package api

import (
	"net/http"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// getTournamentTable returns a table of a round with its score sheet.
//
//	@Summary		Get a table's score sheet
//	@ID			getTournamentTable
//	@Description	Who sits where, the deals entered (entered or confirmed, who and when), the referee's rulings and the result as it stands. The ETag carries the sheet's version and depends on this table alone (other tables being scored do not change it): send it back in If-Match with a score command; in If-None-Match for a 304 when nothing changed.
//	@Tags			scores
//	@Produce		json
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			round			path		int		true	"Round number, from 1"
//	@Param			table			path		int		true	"Table number"
//	@Param			If-None-Match	header		string	false	"The ETag of the table the caller has"
//	@Success		200				{object}	TournamentTable
//	@Header			200				{string}	ETag	"The table's sheet version and a digest of the table: it changes when this table does, not when other tables are scored"
//	@Success		304				"Nothing changed (If-None-Match matched)"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found, table_not_found"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table} [get]
func (h roundHandlers) getTournamentTable(w http.ResponseWriter, r *http.Request) error {
	a, err := pathTable(r)
	if err != nil {
		return err
	}
	read, err := h.s.readPlay(r, a.id)
	if err != nil {
		return err
	}
	t, err := tableOf(read.Snapshot, a)
	if err != nil {
		return err
	}
	body, etag, err := encodeSheet(a, newPlayView(read).tableOut(a.round, t))
	if err != nil {
		return err
	}
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		return notModified(w, etag)
	}
	w.Header().Set("ETag", etag)
	writeBody(w, body)
	return nil
}

// tableOf is the table at a of a snapshot, or round_not_found or
// table_not_found.
func tableOf(snap *tourney.Snapshot, a tableAddress) (tourney.TableView, error) {
	if a.round > len(snap.Rounds) {
		return tourney.TableView{}, domain.Errorf(domain.Code(tourney.CodeRoundNotFound), "no round %d", a.round)
	}
	t, ok := findTable(snap, a.round, a.table)
	if !ok {
		return t, domain.Errorf(domain.Code(tourney.CodeTableNotFound), "round %d has no table %d", a.round, a.table)
	}
	return t, nil
}

// sheetCommand gives a score command of table a and answers the table as
// it is after it, with its ETag; a refusal is sheetErr's.
func (h roundHandlers) sheetCommand(w http.ResponseWriter, r *http.Request, a tableAddress, cmd tourney.Command, b sentBody) error {
	out, err := h.s.act(r, a.id, cmd, b)
	if err != nil {
		return h.s.sheetErr(w, r, a, err)
	}
	t, err := tableOf(out.Snapshot, a)
	if err != nil {
		return err
	}
	body, etag, err := encodeSheet(a, newPlayView(out.TournamentRead).tableOut(a.round, t))
	if err != nil {
		return err
	}
	w.Header().Set("ETag", etag)
	writeBody(w, body)
	return nil
}

// versionOf is the sheet version a score command was sent with: the
// body's, else If-Match's. When required and neither has one, it is 422
// invalid_input naming version.
func versionOf(r *http.Request, a tableAddress, inBody int64, required bool) (int64, error) {
	if inBody != 0 {
		return inBody, nil
	}
	v := sheetVersion(r.Header.Get("If-Match"), a)
	if v == 0 && required {
		return 0, problem(string(domain.EInvalid), "the sheet's version is needed: version in the body, or the table's ETag in If-Match",
			FieldError{Field: "version", Code: "required", Message: "the sheet's version, or If-Match with the table's ETag"})
	}
	return v, nil
}

// enterTournamentScores enters deals of a table's score sheet.
//
//	@Summary		Enter scores
//	@ID			enterTournamentScores
//	@Description	The next deals of the table, or deals entered but not yet confirmed again. By a referee or director of the tournament not seated at the table (confirmed at once), or by a player seated at the table, staff included (entered, for an opponent or the staff to confirm). Every amount a multiple of 5; the parts must add up to the total; at most one side closes; each part within what the rule set makes possible. Send the sheet's version (If-Match with the table's ETag, or version in the body): a sheet that moved on answers 409 stale_sheet with its current version. The version goes in If-Match (the table's ETag) or in the body's version, one or the other (OpenAPI cannot say so): neither is 422 invalid_input naming version (required).
//	@Tags			scores
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int						true	"Tournament id"
//	@Param			round			path		int						true	"Round number, from 1"
//	@Param			table			path		int						true	"Table number"
//	@Param			If-Match		header		string					false	"The table's ETag the scores were read from (or version in the body)"
//	@Param			Idempotency-Key	header		string					false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentScoresRequest	true	"The deals"
//	@Success		200				{object}	TournamentTable
//	@Header			200				{string}	ETag	"The table's new version"
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"not_at_table: the caller neither sits at the table nor referees the tournament"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found, table_not_found"
//	@Failure	409	{object}	Problem	"stale_sheet (the sheet moved on: current_version, errors and the ETag header give its version), round_not_playing, table_complete, table_decided, already_confirmed, bad_transition, online_sheet (the tournament is played online: the engine writes its sheets)"
//	@Failure	422	{object}	Problem	"bad_score: every bad field listed in errors (deals[0].ns.cards not_multiple_5, deals[0].ew.total parts_sum, deals[0] two_closings, out_of_range, deal_order, …); invalid_input (version missing); idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/scores [post]
func (h roundHandlers) enterTournamentScores(w http.ResponseWriter, r *http.Request) error {
	a, req, b, err := withBody[TournamentScoresRequest](h.s, w, r, pathTable, false)
	if err != nil {
		return err
	}
	v, err := versionOf(r, a, req.Version, true)
	if err != nil {
		return err
	}
	deals := mapSlice(req.Deals, TournamentDealInput.input)
	return h.sheetCommand(w, r, a, tourney.EnterScore{Round: a.round, Table: a.table, Version: v, Deals: deals}, b)
}

// confirmTournamentScores confirms entered deals.
//
//	@Summary		Confirm scores
//	@ID			confirmTournamentScores
//	@Description	Confirms deals a player entered: by an opponent of the side that entered them, or a referee or director of the tournament not seated at the table; never by the side that entered them, a referee playing on it included (403 own_side). The body may be left out: then every entered deal is confirmed, at the version If-Match gives. The version goes in If-Match (the table's ETag) or in the body's version, one or the other (OpenAPI cannot say so): neither is 422 invalid_input naming version (required).
//	@Tags			scores
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int							true	"Tournament id"
//	@Param			round			path		int							true	"Round number, from 1"
//	@Param			table			path		int							true	"Table number"
//	@Param			If-Match		header		string						false	"The table's ETag the deals were read from (or version in the body)"
//	@Param			Idempotency-Key	header		string						false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentConfirmRequest	false	"The deals to confirm"
//	@Success		200				{object}	TournamentTable
//	@Header			200				{string}	ETag	"The table's new version"
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"own_side (the side that entered the deals cannot confirm them), not_at_table"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found, table_not_found, deal_not_found"
//	@Failure	409	{object}	Problem	"stale_sheet (current_version, errors and the ETag header give the current version), nothing_to_confirm, already_confirmed, round_not_playing, online_sheet (the tournament is played online: the engine writes its sheets)"
//	@Failure	422	{object}	Problem	"invalid_input (version missing); invalid_command; idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/confirm [post]
func (h roundHandlers) confirmTournamentScores(w http.ResponseWriter, r *http.Request) error {
	a, req, b, err := withBody[TournamentConfirmRequest](h.s, w, r, pathTable, true)
	if err != nil {
		return err
	}
	v, err := versionOf(r, a, req.Version, true)
	if err != nil {
		return err
	}
	return h.sheetCommand(w, r, a, tourney.ConfirmScore{Round: a.round, Table: a.table, Version: v, Deals: req.Deals}, b)
}

// correctTournamentScore replaces a deal on the sheet.
//
//	@Summary		Correct a deal
//	@ID			correctTournamentScore
//	@Description	A referee or director replaces a deal already on the sheet, with a reason, in a round being played or closed, until the results are published. VP and standings follow; Danish pairings drawn on the old results and not yet played are drawn again (the audit trail's score_corrected event lists redrawn_rounds and kept_rounds). The audit trail keeps who, when, why, the deal before and after. The version goes in If-Match (the table's ETag) or in the body's version, one or the other (OpenAPI cannot say so): neither is 422 invalid_input naming version (required).
//	@Tags			scores
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int							true	"Tournament id"
//	@Param			round			path		int							true	"Round number, from 1"
//	@Param			table			path		int							true	"Table number"
//	@Param			If-Match		header		string						false	"The table's ETag the deal was read from (or version in the body)"
//	@Param			Idempotency-Key	header		string						false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentCorrectionRequest	true	"The deal as it should be, and why"
//	@Success		200				{object}	TournamentTable
//	@Header			200				{string}	ETag	"The table's new version"
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament; own_side: a referee who plays at the table"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found, table_not_found, deal_not_found"
//	@Failure	409	{object}	Problem	"stale_sheet (current_version, errors and the ETag header give the current version), knockout_result_locked, bad_transition"
//	@Failure	422	{object}	Problem	"bad_score (every bad field listed in errors), reason_required, invalid_input (version missing), idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/corrections [post]
func (h roundHandlers) correctTournamentScore(w http.ResponseWriter, r *http.Request) error {
	a, req, b, err := withBody[TournamentCorrectionRequest](h.s, w, r, pathTable, false)
	if err != nil {
		return err
	}
	v, err := versionOf(r, a, req.Version, true)
	if err != nil {
		return err
	}
	return h.sheetCommand(w, r, a, tourney.CorrectScore{Round: a.round, Table: a.table, Version: v, Deal: req.Deal.input(), Reason: req.Reason}, b)
}

// tournamentRuling records a referee's ruling at a table.
//
//	@Summary		Make a ruling
//	@ID			makeTournamentRuling
//	@Description	A referee or director decides at a table of a round being played: time_out (the deal in play scored as it stands, no closing, no more deals), abandonment (entry left: it keeps at most the abandonment VP, the other side what it scored or the rest score), bye (entry did not turn up: the others score a bye), late_arrival (entry came late: the table plays deals deals). The sheet's version is checked when given (body or If-Match). The version goes in If-Match (the table's ETag) or in the body's version, one or the other (OpenAPI cannot say so): neither is 422 invalid_input naming version (required).
//	@Tags			scores
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int						true	"Tournament id"
//	@Param			round			path		int						true	"Round number, from 1"
//	@Param			table			path		int						true	"Table number"
//	@Param			If-Match		header		string					false	"The table's ETag (optional)"
//	@Param			Idempotency-Key	header		string					false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentRulingRequest	true	"The ruling"
//	@Success		200				{object}	TournamentTable
//	@Header			200				{string}	ETag	"The table's new version"
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament; own_side: a referee who plays at the table"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found, table_not_found, entry_not_found"
//	@Failure	409	{object}	Problem	"stale_sheet (current_version, errors and the ETag header give the current version), table_decided, table_complete, round_not_playing, unconfirmed_deals, knockout_tied"
//	@Failure	422	{object}	Problem	"invalid_command (every bad field listed in errors: kind, entry, deal, deals), bad_score, idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/rounds/{round}/tables/{table}/rulings [post]
func (h roundHandlers) tournamentRuling(w http.ResponseWriter, r *http.Request) error {
	a, req, b, err := withBody[TournamentRulingRequest](h.s, w, r, pathTable, false)
	if err != nil {
		return err
	}
	v, _ := versionOf(r, a, req.Version, false)
	return h.sheetCommand(w, r, a, req.command(a, v), b)
}
