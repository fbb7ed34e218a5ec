package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/burraco/burraco/api/printout"
	"github.com/burraco/burraco/domain"
)

// maxResultsBytes bounds an imported results document: a tournament of a
// hundred tables over ten rounds is about a megabyte.
const maxResultsBytes = 8 << 20

// exportTournamentResultsJSON exports the results in the open format.
//
//	@Summary		Export the results (open JSON format)
//	@ID			exportTournamentResultsJSON
//	@Description	The tournament in the open, versioned results format burraco-results (docs/RESULTS-FORMAT.md; its JSON Schema is docs/results-format.schema.json, draft 2020-12): the event and its set-up, the entries with their players' names and federation ids (never e-mails), every round's tables with their deals, MP, VP and rulings, the penalties, the tables decided by a ruling or a withdrawal (adjustments) and the standings. Entries are named by their numbers. Two exports of the same state are the same bytes. POST /api/v1/clubs/{clubID}/tournaments/import reads it back.
//	@Tags			results
//	@Produce		json
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{object}	object	"The results document (docs/results-format.schema.json)"
//	@Header			200				{string}	Content-Disposition	"attachment; filename=\"tournament-{tournamentID}-results.json\""
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/export/results.json [get]
func (h resultHandlers) exportTournamentResultsJSON(w http.ResponseWriter, r *http.Request) error {
	id, doc, err := h.resultsDocument(r)
	if err != nil {
		return err
	}
	body, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	body = append(body, '\n')
	return sendFile(w, "application/json", fmt.Sprintf("tournament-%d-results.json", id), body)
}

// exportTournamentFederation exports the players' results for a
// federation's upload.
//
//	@Summary		Export the results for a federation (CSV)
//	@ID			exportTournamentFederation
//	@Description	One row per player of every entry, in the order of the standings (entries not ranked last, in number order), players in their entry's order: federation_id (empty when the profile has none), player, entry_number, entry (its name, else its players' names), place (empty when not ranked), vp, mp_for, mp_against, mp_difference, rounds_played, withdrawn, tournament, club, date (the start, YYYY-MM-DD UTC), status (the tournament's). A header row of these stable names; a text cell a spreadsheet would run as a formula is quoted.
//	@Tags			results
//	@Produce		text/csv
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{string}	string	"The players' results"
//	@Header			200				{string}	Content-Disposition	"attachment; filename=\"tournament-{tournamentID}-federation.csv\""
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/export/federation.csv [get]
func (h resultHandlers) exportTournamentFederation(w http.ResponseWriter, r *http.Request) error {
	id, doc, err := h.resultsDocument(r)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := printout.WriteFederationCSV(&buf, federationRows(doc)); err != nil {
		return err
	}
	return sendFile(w, "text/csv; charset=utf-8", fmt.Sprintf("tournament-%d-federation.csv", id), buf.Bytes())
}

func (h resultHandlers) resultsDocument(r *http.Request) (int64, domain.ResultsDocument, error) {
	id, err := pathID(r, "tournamentID")
	if err != nil {
		return 0, domain.ResultsDocument{}, err
	}
	doc, err := h.s.svc.Results.Export(r.Context(), ActorFrom(r.Context()), id)
	return id, doc, err
}

// federationRows is the document's players, ranked entries first.
func federationRows(doc domain.ResultsDocument) []printout.FederationRow {
	byNumber := map[int]domain.ResultsEntry{}
	for _, e := range doc.Entries {
		byNumber[e.Number] = e
	}
	var rows []printout.FederationRow
	ranked := map[int]bool{}
	add := func(e domain.ResultsEntry, st domain.ResultsStanding) {
		name := e.Name
		if name == "" { // as the standings name an entry without a name: its players
			names := make([]string, len(e.Players))
			for i, p := range e.Players {
				names[i] = p.Name
			}
			name = strings.Join(names, " – ")
		}
		for _, p := range e.Players {
			rows = append(rows, printout.FederationRow{FederationID: p.FederationID, Player: p.Name, Number: e.Number,
				Entry: name, Place: st.Rank, VP: st.VP, MPFor: st.MPFor, MPAgainst: st.MPAgainst, MPDiff: st.MPDiff,
				Played: st.Played, Withdrawn: e.Withdrawn, Tournament: doc.Event.Name, Club: doc.Event.Club,
				Date: doc.Event.StartsAt.UTC().Format("2006-01-02"), Status: doc.Event.Status})
		}
	}
	for _, st := range doc.Standings {
		ranked[st.Entry] = true
		add(byNumber[st.Entry], st)
	}
	rest := make([]int, 0, len(doc.Entries))
	for _, e := range doc.Entries {
		if !ranked[e.Number] {
			rest = append(rest, e.Number)
		}
	}
	slices.Sort(rest)
	for _, n := range rest {
		add(byNumber[n], domain.ResultsStanding{})
	}
	return rows
}

// importTournament creates a tournament from a results document.
//
//	@Summary		Import a tournament (open JSON format)
//	@ID			importTournament
//	@Description	For the club's admins and owners, or a site admin: a tournament moved from another server, or an archive. The body is a results document (GET …/export/results.json; docs/RESULTS-FORMAT.md), at most 8 MiB and 1000 entries; fields this server does not know are ignored. The tournament is created in the club and its commands replayed as the caller (entries, pairings as the document seats them, scores entered by the staff, withdrawals, rulings, penalties, closing, finishing, publishing), so its standings are computed here, not copied. Players are matched by federation id (unique on the server), else created as profiles of the club without an account. A document this server cannot read is 422 unsupported_format; a document whose fields break a rule, or whose commands the tournament refuses, is 422 with the fields named by their place in the document (entries[2].players[0].name, rounds[1].tables[0].deals, …).
//	@Tags			tournaments
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			clubID	path		int		true	"Club id"
//	@Param			body	body		object	true	"The results document (docs/results-format.schema.json)"
//	@Success		201		{object}	Tournament
//	@Header			201		{string}	Location	"/api/v1/tournaments/{tournamentID}"
//	@Failure	400	{object}	Problem	"invalid_parameter (a path id that is not a positive integer) or malformed_json (the body is not a JSON object)"
//	@Failure	403	{object}	Problem	"forbidden: the caller lacks the role this needs: admin of the club"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@Failure	413	{object}	Problem	"request_too_large: the document is larger than 8 MiB"
//	@Failure	415	{object}	Problem	"unsupported_media_type: send Content-Type: application/json"
//	@Failure	422	{object}	Problem	"unsupported_format (format is not burraco-results, or version not 1); invalid_input (every field that breaks a rule, named by its place in the document; wrong_type for a value of the wrong type); or the code of a command the replayed tournament refused, its field the place in the document"
//	@Router			/api/v1/clubs/{clubID}/tournaments/import [post]
func (h tournamentHandlers) importTournament(w http.ResponseWriter, r *http.Request) error {
	clubID, err := pathID(r, "clubID")
	if err != nil {
		return err
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return problem(codeUnsupportedMedia, "the request body must be application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxResultsBytes))
	if err != nil {
		return decodeProblem(err)
	}
	if !json.Valid(body) {
		var v any
		return decodeProblem(json.Unmarshal(body, &v))
	}
	t, err := h.s.svc.Results.Import(r.Context(), ActorFrom(r.Context()), clubID, body)
	if err != nil {
		return err
	}
	return created(w, fmt.Sprintf("/api/v1/tournaments/%d", t.ID), tournamentOut(t))
}
