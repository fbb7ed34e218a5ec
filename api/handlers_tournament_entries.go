package api

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// entryHandlers serve a tournament's entries (pairs or players), under
// /api/v1/tournaments/{tournamentID}.
type entryHandlers struct{ s *server }

func (h entryHandlers) routes(r routes) {
	auth := r.with(h.s.requireAuth) // on matched routes only: 404/405 first
	r.get("/entries", h.listTournamentEntries)
	auth.post("/entries", h.addTournamentEntry)
	r.get("/entries/{entryID}", h.getTournamentEntry)
	auth.patch("/entries/{entryID}", h.updateTournamentEntry)
	auth.post("/entries/{entryID}/check-in", h.checkInTournamentEntry)
	auth.post("/entries/{entryID}/withdraw", h.withdrawTournamentEntry)
	r.get("/entries/{entryID}/history", h.tournamentEntryHistory)
}

// listTournamentEntries lists a tournament's entries.
//
//	@Summary		List a tournament's entries
//	@ID			listTournamentEntries
//	@Description	Every entry, withdrawn ones included, in order of entry, with its players' names. fee_paid is shown to the tournament's referees and directors only. Anyone may read a tournament that has left draft.
//	@Tags			entries
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{object}	TournamentEntryList
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/entries [get]
func (h entryHandlers) listTournamentEntries(w http.ResponseWriter, r *http.Request) error {
	_, read, err := h.s.playOf(r)
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, newPlayView(read).entries())
}

// addTournamentEntry enters a pair, team or player.
//
//	@Summary		Enter a pair, team or player
//	@ID			addTournamentEntry
//	@Description	A player may enter an entry they play in while registration is open, without fee_paid, seed or number (staff fields: refused with 422 invalid_command, each named in errors with code not_allowed); the tournament's referees and directors any entry, with any field, before the start, and while it runs up to the late-entry round (not in a Mitchell, round robin or knockout, which are fixed at the start). A late entry plays from the next round. Rules the schema cannot express: players per entry follow the kind: 2 for pairs, 1 for individual, 2 × team_pairs for teams; another count is 422 invalid_command naming players (code count).
//	@Tags			entries
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int						true	"Tournament id"
//	@Param			Idempotency-Key	header		string					false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentEntryRequest	true	"The entry"
//	@Success		201				{object}	TournamentEntry
//	@Header			201				{string}	Location	"/api/v1/tournaments/{tournamentID}/entries/{entryID}"
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"not_your_entry: a player entering an entry they do not play in"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	409	{object}	Problem	"bad_transition (registration is not open, or the tournament is over), late_entry_closed, already_entered (a player is in another entry), duplicate_number"
//	@Failure	422	{object}	Problem	"invalid_command: every bad field listed in errors (players: count, unknown or repeated; name, club, number, seed; fee_paid, seed or number not_allowed from a player); idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/entries [post]
func (h entryHandlers) addTournamentEntry(w http.ResponseWriter, r *http.Request) error {
	id, req, b, err := withBody[TournamentEntryRequest](h.s, w, r, pathTournament, false)
	if err != nil {
		return err
	}
	out, err := h.s.act(r, id, req.command(), b)
	if err != nil {
		return err
	}
	var added tourney.EntryAdded
	if err := json.Unmarshal(out.Event.Data, &added); err != nil || out.Event.Kind != tourney.EventEntryAdded {
		return fmt.Errorf("tournament %d: event %d is not the entry added: %s", id, out.Event.Seq, out.Event.Kind)
	}
	return h.respondEntry(w, r, out.TournamentRead, added.Entry.ID, http.StatusCreated)
}

// respondEntry answers entry id of the state read, with status (201 with
// its Location).
func (h entryHandlers) respondEntry(w http.ResponseWriter, r *http.Request, read domain.TournamentRead, entry int64, status int) error {
	v := newPlayView(read)
	e, ok := v.entry(entry)
	if !ok {
		return domain.Errorf(domain.Code(tourney.CodeEntryNotFound), "no entry %d", entry)
	}
	if status == http.StatusCreated {
		return created(w, fmt.Sprintf("/api/v1/tournaments/%d/entries/%d", read.Tournament.ID, entry), v.entryOut(e))
	}
	return respond(w, status, v.entryOut(e))
}

// getTournamentEntry returns an entry.
//
//	@Summary		Get an entry
//	@ID			getTournamentEntry
//	@Description	One entry with its players' names (fee_paid for the tournament's referees and directors only).
//	@Tags			entries
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Param			entryID			path		int	true	"Entry id"
//	@Success		200				{object}	TournamentEntry
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), entry_not_found"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/entries/{entryID} [get]
func (h entryHandlers) getTournamentEntry(w http.ResponseWriter, r *http.Request) error {
	a, read, err := h.entryOf(r)
	if err != nil {
		return err
	}
	return h.respondEntry(w, r, read, a.entry, http.StatusOK)
}

// updateTournamentEntry changes an entry.
//
//	@Summary		Update an entry
//	@ID			updateTournamentEntry
//	@Description	Name, club, number, seed or fee-paid flag; absent fields stay. The tournament's referees and directors, until it finishes.
//	@Tags			entries
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int								true	"Tournament id"
//	@Param			entryID			path		int								true	"Entry id"
//	@Param			Idempotency-Key	header		string							false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentEntryUpdateRequest	true	"Fields to change"
//	@Success		200				{object}	TournamentEntry
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"referee_only: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), entry_not_found"
//	@Failure	409	{object}	Problem	"bad_transition (the tournament is over), duplicate_number"
//	@Failure	422	{object}	Problem	"invalid_command: every bad field listed in errors (name, club, number, seed); idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/entries/{entryID} [patch]
func (h entryHandlers) updateTournamentEntry(w http.ResponseWriter, r *http.Request) error {
	a, req, b, err := withBody[TournamentEntryUpdateRequest](h.s, w, r, pathEntry, false)
	if err != nil {
		return err
	}
	return h.entryCommand(w, r, a, req.command(a.entry), b)
}

// checkInTournamentEntry checks an entry in or out.
//
//	@Summary		Check an entry in
//	@ID			checkInTournamentEntry
//	@Description	Marks the entry present (undo: not present), by one of its players or the tournament's referees and directors, before the start. When some entry has checked in, the start leaves out those that have not. The body may be left out.
//	@Tags			entries
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int							true	"Tournament id"
//	@Param			entryID			path		int							true	"Entry id"
//	@Param			Idempotency-Key	header		string						false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentCheckInRequest	false	"Undo a check-in"
//	@Success		200				{object}	TournamentEntry
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"not_your_entry: a player checking in another entry"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), entry_not_found"
//	@Failure	409	{object}	Problem	"bad_transition (the tournament has started), entry_withdrawn"
//	@Failure	422	{object}	Problem	"idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/entries/{entryID}/check-in [post]
func (h entryHandlers) checkInTournamentEntry(w http.ResponseWriter, r *http.Request) error {
	a, req, b, err := withBody[TournamentCheckInRequest](h.s, w, r, pathEntry, true)
	if err != nil {
		return err
	}
	return h.entryCommand(w, r, a, tourney.CheckIn{Entry: a.entry, Undo: req.Undo}, b)
}

// withdrawTournamentEntry withdraws an entry.
//
//	@Summary		Withdraw an entry
//	@ID			withdrawTournamentEntry
//	@Description	Before the start by one of its players or the staff; while running by the tournament's referees and directors. The entry gets no more pairings; its table of the current round, when not complete, is forfeited (decided as an abandonment by it). The body may be left out.
//	@Tags			entries
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int							true	"Tournament id"
//	@Param			entryID			path		int							true	"Entry id"
//	@Param			Idempotency-Key	header		string						false	"A key the caller chooses per request: a retry with the same key answers as the first request did: the same status, and the tournament as it was right after that request, even when it has moved on since (kept 24 h)"
//	@Param			body			body		TournamentWithdrawRequest	false	"Why"
//	@Success		200				{object}	TournamentEntry
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json (errors names a wrong_type or unknown_field)"
//	@Failure	403	{object}	Problem	"not_your_entry: a player withdrawing another entry, or any entry once the tournament runs"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), entry_not_found"
//	@Failure	409	{object}	Problem	"bad_transition (the tournament is over), entry_withdrawn (already)"
//	@Failure	422	{object}	Problem	"invalid_command (errors: reason too long); idempotency_key_reused"
//	@Router			/api/v1/tournaments/{tournamentID}/entries/{entryID}/withdraw [post]
func (h entryHandlers) withdrawTournamentEntry(w http.ResponseWriter, r *http.Request) error {
	a, req, b, err := withBody[TournamentWithdrawRequest](h.s, w, r, pathEntry, true)
	if err != nil {
		return err
	}
	return h.entryCommand(w, r, a, tourney.Withdraw{Entry: a.entry, Reason: req.Reason}, b)
}

// tournamentEntryHistory returns an entry's rounds.
//
//	@Summary		Get an entry's history
//	@ID			getTournamentEntryHistory
//	@Description	The entry's place in the standings and its rounds as the standings count them: table, opponent, MP and VP for and against, byes, abandonments; and its penalties.
//	@Tags			entries
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Param			entryID			path		int	true	"Entry id"
//	@Success		200				{object}	TournamentEntryHistory
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), entry_not_found"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/entries/{entryID}/history [get]
func (h entryHandlers) tournamentEntryHistory(w http.ResponseWriter, r *http.Request) error {
	a, read, err := h.entryOf(r)
	if err != nil {
		return err
	}
	hist, ok := newPlayView(read).history(a.entry)
	if !ok {
		return domain.Errorf(domain.Code(tourney.CodeEntryNotFound), "no entry %d", a.entry)
	}
	return respond(w, http.StatusOK, hist)
}

// pathEntry reads the tournament and entry ids of an entry's path; 400
// invalid_parameter when one is not a positive integer.
func pathEntry(r *http.Request) (a entryAddress, err error) {
	if a.id, err = pathTournament(r); err != nil {
		return a, err
	}
	a.entry, err = pathID(r, "entryID")
	return a, err
}

// entryOf reads the entry address of the path and its tournament's state
// as the caller.
func (h entryHandlers) entryOf(r *http.Request) (entryAddress, domain.TournamentRead, error) {
	a, err := pathEntry(r)
	if err != nil {
		return a, domain.TournamentRead{}, err
	}
	read, err := h.s.readPlay(r, a.id)
	return a, read, err
}

// entryAddress is an entry's place in the URL path.
type entryAddress struct{ id, entry int64 }

// entryCommand gives a command about one entry and answers the entry as
// it is after it.
func (h entryHandlers) entryCommand(w http.ResponseWriter, r *http.Request, a entryAddress, cmd tourney.Command, b sentBody) error {
	out, err := h.s.act(r, a.id, cmd, b)
	if err != nil {
		return err
	}
	return h.respondEntry(w, r, out.TournamentRead, a.entry, http.StatusOK)
}
