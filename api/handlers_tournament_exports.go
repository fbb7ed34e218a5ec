package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/api/printout"
	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
	"github.com/burraco/burraco/internal/strictjson"
)

// exportCSV answers a CSV export of tournament id: write fills it from the
// state read. The file is written to a buffer first, so that a failure is
// a problem and not half a file.
func (h resultHandlers) exportCSV(w http.ResponseWriter, r *http.Request, name string, write func(io.Writer, playView) error) error {
	id, read, err := h.s.playOf(r)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := write(&buf, newPlayView(read)); err != nil {
		return err
	}
	return sendFile(w, "text/csv; charset=utf-8", fmt.Sprintf("tournament-%d-%s.csv", id, name), buf.Bytes())
}

// exportTournamentStandings exports the standings as CSV.
//
//	@Summary		Export the standings (CSV)
//	@ID			exportTournamentStandings
//	@Description	One row per entry: rank, number, entry, players, VP, MP for, against and difference, played, byes, penalties, ahead_by, provisional. A header row of stable English column names; a text cell a spreadsheet would run as a formula is quoted.
//	@Tags			results
//	@Produce		text/csv
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{string}	string	"The standings"
//	@Header			200				{string}	Content-Disposition	"attachment; filename=\"tournament-{tournamentID}-standings.csv\""
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/export/standings.csv [get]
func (h resultHandlers) exportTournamentStandings(w http.ResponseWriter, r *http.Request) error {
	return h.exportCSV(w, r, "standings", func(out io.Writer, v playView) error {
		return printout.WriteStandingsCSV(out, v.printStandings(h.s.cfg.Now()))
	})
}

// exportTournamentRounds exports every round's tables as CSV.
//
//	@Summary		Export the rounds (CSV)
//	@ID			exportTournamentRounds
//	@Description	One row per table of every round (round, status, table, NS, EW, MP and VP of both sides, complete, note) and per bye.
//	@Tags			results
//	@Produce		text/csv
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{string}	string	"The rounds"
//	@Header			200				{string}	Content-Disposition	"attachment; filename=\"tournament-{tournamentID}-rounds.csv\""
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/export/rounds.csv [get]
func (h resultHandlers) exportTournamentRounds(w http.ResponseWriter, r *http.Request) error {
	return h.exportCSV(w, r, "rounds", func(out io.Writer, v playView) error {
		return printout.WriteRoundsCSV(out, v.printResults(h.s.cfg.Now(), printout.English))
	})
}

// exportTournamentSheets exports every score sheet as CSV.
//
//	@Summary		Export the score sheets (CSV)
//	@ID			exportTournamentSheets
//	@Description	One row per side of every deal entered: round, table, deal, tie-break, side, entry, the parts and total, entered or confirmed.
//	@Tags			results
//	@Produce		text/csv
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Success		200				{string}	string	"The score sheets"
//	@Header			200				{string}	Content-Disposition	"attachment; filename=\"tournament-{tournamentID}-sheets.csv\""
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/export/sheets.csv [get]
func (h resultHandlers) exportTournamentSheets(w http.ResponseWriter, r *http.Request) error {
	return h.exportCSV(w, r, "sheets", func(out io.Writer, v playView) error {
		return printout.WriteSheetsCSV(out, v.printSheets(h.s.cfg.Now()))
	})
}

// printPage answers a printable page of tournament id in the language of
// ?lang= or Accept-Language; render fills it from the state read, or
// refuses. The pages are for people: a refusal (no such tournament, no
// round drawn, a wrong ?lang=) is a page too, with the problem's status,
// saying what is missing and what to do (see failPage).
func (h resultHandlers) printPage(w http.ResponseWriter, r *http.Request, render func(io.Writer, printout.Lang, playView) error) error {
	return h.printPageOf(w, r, h.s.svc.Play.Read, render)
}

// printPageOf is printPage with the tournament's state read by read (the
// prize list reads its awards with it).
func (h resultHandlers) printPageOf(w http.ResponseWriter, r *http.Request,
	read func(context.Context, domain.Actor, int64) (domain.TournamentRead, error),
	render func(io.Writer, printout.Lang, playView) error) error {
	lang, langOK := langOf(r)
	id, err := strconv.ParseInt(chi.URLParam(r, "tournamentID"), 10, 64)
	if err != nil || id <= 0 || id > strictjson.MaxInteger {
		h.s.failPage(w, r, lang, printout.Head{}, newProblem(r, codeInvalidParameter, "a path parameter is invalid"),
			FieldError{Field: "tournamentID", Code: "invalid", Message: "must be a positive integer"})
		return nil
	}
	if !langOK {
		h.s.failPage(w, r, lang, printout.Head{}, newProblem(r, codeInvalidParameter, "the language is not one the printouts have"),
			FieldError{Field: "lang", Code: "invalid", Message: "must be it or en"})
		return nil
	}
	state, err := read(r.Context(), ActorFrom(r.Context()), id)
	if err != nil {
		h.s.failPage(w, r, lang, printout.Head{}, h.s.problemOfErr(r, err))
		return nil
	}
	v := newPlayView(state)
	var buf bytes.Buffer
	if err := render(&buf, lang, v); err != nil {
		h.s.failPage(w, r, lang, v.head(h.s.cfg.Now()), h.s.problemOfErr(r, err))
		return nil
	}
	writePage(w, lang, http.StatusOK, buf.Bytes())
	return nil
}

// failPage answers a printable page that cannot be made. A person's
// browser (its Accept names text/html) gets an HTML page with p's status
// saying what is missing and what to do, the stable code printed small
// and in X-Problem-Code; any other client gets p as problem+json, as from
// every other route.
func (s *server) failPage(w http.ResponseWriter, r *http.Request, lang printout.Lang, head printout.Head, p Problem, fields ...FieldError) {
	s.failPageWith(w, r, lang, printout.NewNotice(lang, p.Code), head, p, fields...)
}

// failPageWith is failPage with the notice's words chosen by the caller
// (a season's page names a season, not a tournament).
func (s *server) failPageWith(w http.ResponseWriter, r *http.Request, lang printout.Lang, n printout.Notice, head printout.Head, p Problem, fields ...FieldError) {
	if len(fields) > 0 {
		p.Errors = fields
	}
	if !wantsHTML(r.Header.Get("Accept")) {
		writeProblem(w, p)
		return
	}
	n.Head, n.RequestID = head, p.RequestID
	var buf bytes.Buffer
	if err := printout.RenderNotice(&buf, lang, n); err != nil {
		s.failErr(w, r, err) // the notice template is constant: a failure here is a bug, answered as one
		return
	}
	if p.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	w.Header().Set("X-Problem-Code", p.Code)
	writePage(w, lang, p.Status, buf.Bytes())
}

// wantsHTML reports whether an Accept header names HTML, as every
// browser's navigation does; API clients name JSON, or nothing.
func wantsHTML(accept string) bool {
	return strings.Contains(strings.ToLower(accept), "text/html")
}

// writePage sends a printable page (or its notice) with status.
func writePage(w http.ResponseWriter, lang printout.Lang, status int, body []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", printout.ContentSecurityPolicy) // static pages: no script, their own style only
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Language", string(lang))
	w.Header().Set("Vary", "Accept, Accept-Language")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// printTournamentStandings prints the standings.
//
//	@Summary		Print the standings
//	@ID			printTournamentStandings
//	@Description	A printable A4 page of the standings, also read on a phone (360 px: the optional columns are left out there), in Italian or English (?lang=, else Accept-Language, else English). With phase or group, the overall standings of that phase (its rounds plus the VP carried into it) and of that group only, as GET …/phases/{phase}/standings gives them (docs/PHASES.md): group alone is the current phase's group; the page's title names them.
//	@Tags			results
//	@Produce		html
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			phase			query		int		false	"A phase, from 1 (default: the current phase when group is given; else the tournament's standings)"	minimum(1)
//	@Param			group			query		string	false	"A group of the phase, A to Z"	Enums(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z)
//	@Param			lang			query		string	false	"it or en"	Enums(it, en)
//	@Param			Accept-Language	header		string	false	"Used when lang is absent"
//	@Success		200				{string}	string	"The page"
//	@Header			200				{string}	Content-Security-Policy	"default-src 'none' and the page's own inline style by its hash: static HTML, no script"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer, phase is not one, group is not a letter A to Z, or lang is not it or en (each named in errors). Like every refusal of a printable page: a Problem, or for a browser (Accept naming text/html) an HTML page with this status saying what is wrong and what to do, its code in X-Problem-Code"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), phase_not_found, group_not_found (not seeded yet); for a browser an HTML page, see 400"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/print/standings [get]
func (h resultHandlers) printTournamentStandings(w http.ResponseWriter, r *http.Request) error {
	q := query{r: r}
	phase := q.intIn("phase", 1, maxInt32Param) // 0: absent
	group := q.enum("group", isGroupName, "A to Z")
	if err := q.v.Err(); err != nil {
		lang, _ := langOf(r)
		var de *domain.Error
		errors.As(err, &de)
		h.s.failPage(w, r, lang, printout.Head{}, newProblem(r, codeInvalidParameter, "some query parameters are invalid"), fieldErrorsOut(de.Fields)...)
		return nil
	}
	return h.printPage(w, r, func(out io.Writer, l printout.Lang, v playView) error {
		if phase == 0 && group == "" {
			return printout.RenderStandings(out, l, v.printStandings(h.s.cfg.Now()))
		}
		pv, err := v.phaseOf(h.s.cfg.Now(), phase, group)
		if err != nil {
			return err
		}
		return printout.RenderStandings(out, l, pv)
	})
}

// printTournamentTables prints a round's table cards.
//
//	@Summary		Print a round's table cards
//	@ID			printTournamentTables
//	@Description	The table cards of a round to hand out: each table's seats with the entries' numbers and players, and a blank score sheet (one row per deal, spare rows for a knockout's tie-break deals), on A4, in Italian or English.
//	@Tags			results
//	@Produce		html
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			round			query		int		false	"Round number (default: the latest drawn)"	minimum(1)
//	@Param			lang			query		string	false	"it or en"	Enums(it, en)
//	@Param			Accept-Language	header		string	false	"Used when lang is absent"
//	@Success		200				{string}	string	"The page"
//	@Header			200				{string}	Content-Security-Policy	"default-src 'none' and the page's own inline style by its hash: static HTML, no script"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter or round is not a positive integer, or lang is not it or en. Like every refusal of a printable page: a Problem, or for a browser (Accept naming text/html) an HTML page with this status saying what is wrong and what to do, its code in X-Problem-Code"
//	@Failure	404	{object}	Problem	"not_found (no such tournament, or a draft the caller may not see), round_not_found (also before the first draw: the page says to draw the round first); for a browser an HTML page, see 400"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/print/tables [get]
func (h resultHandlers) printTournamentTables(w http.ResponseWriter, r *http.Request) error {
	q := query{r: r}
	round := q.intIn("round", 1, maxInt32Param) // 0: absent, the current round
	if err := q.err(); err != nil {
		lang, _ := langOf(r)
		h.s.failPage(w, r, lang, printout.Head{}, newProblem(r, codeInvalidParameter, "some query parameters are invalid"),
			FieldError{Field: "round", Code: "invalid", Message: "must be a positive integer"})
		return nil
	}
	return h.printPage(w, r, func(out io.Writer, l printout.Lang, v playView) error {
		n := v.snap.CurrentRound
		if round != 0 {
			n = round
		}
		if n < 1 || n > len(v.snap.Rounds) {
			return domain.Errorf(domain.Code(tourney.CodeRoundNotFound), "no round %d", n)
		}
		return printout.RenderTableCards(out, l, v.printTables(h.s.cfg.Now(), v.snap.Rounds[n-1]))
	})
}

// printTournamentResults prints the results of every round.
//
//	@Summary		Print the results
//	@ID			printTournamentResults
//	@Description	Every round's tables with MP and VP, rulings noted, byes, on A4 and on a phone, in Italian or English. Before the first draw the page says there are no results yet and when they appear.
//	@Tags			results
//	@Produce		html
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			lang			query		string	false	"it or en"	Enums(it, en)
//	@Param			Accept-Language	header		string	false	"Used when lang is absent"
//	@Success		200				{string}	string	"The page"
//	@Header			200				{string}	Content-Security-Policy	"default-src 'none' and the page's own inline style by its hash: static HTML, no script"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer, or lang is not it or en. Like every refusal of a printable page: a Problem, or for a browser (Accept naming text/html) an HTML page with this status saying what is wrong and what to do, its code in X-Problem-Code"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see (for a browser an HTML page, see 400)"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/print/results [get]
func (h resultHandlers) printTournamentResults(w http.ResponseWriter, r *http.Request) error {
	return h.printPage(w, r, func(out io.Writer, l printout.Lang, v playView) error {
		return printout.RenderResults(out, l, v.printResults(h.s.cfg.Now(), l))
	})
}

// langOf is the printout's language: ?lang=, else Accept-Language, else
// English; ok is false when lang is given but not it or en (an empty
// ?lang= included: the schema's enum does not hold it).
func langOf(r *http.Request) (printout.Lang, bool) {
	given, has := r.URL.Query()["lang"]
	l, ok := printout.LangFor(r.URL.Query().Get("lang"), r.Header.Get("Accept-Language"))
	if has && len(given) > 0 && given[0] == "" {
		ok = false
	}
	return l, ok
}

// sendFile answers a file to save, whole.
func sendFile(w http.ResponseWriter, contentType, name string, body []byte) error {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	return nil
}
