package api

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// tournamentPlayRoutes are the routes of a tournament's life after its
// set-up, under /tournaments/{tournamentID}: each command maps to one
// tourney command given through Services.Play.Act, each read to
// Services.Play.Read. Commands need an access token; reads are public once
// the tournament has left draft, except the audit trail.
func (s *server) tournamentPlayRoutes(r routes) {
	auth := r.with(s.requireAuth) // on matched routes only: 404/405 first
	auth.post("/lifecycle", s.tournamentLifecycle)
	r.get("/entries", s.listTournamentEntries)
	auth.post("/entries", s.addTournamentEntry)
	r.get("/entries/{entryID}", s.getTournamentEntry)
	auth.patch("/entries/{entryID}", s.updateTournamentEntry)
	auth.post("/entries/{entryID}/check-in", s.checkInTournamentEntry)
	auth.post("/entries/{entryID}/withdraw", s.withdrawTournamentEntry)
	r.get("/entries/{entryID}/history", s.tournamentEntryHistory)
	r.get("/rounds", s.listTournamentRounds)
	auth.post("/rounds", s.drawTournamentRound)
	r.get("/rounds/{round}", s.getTournamentRound)
	auth.put("/rounds/{round}/pairings", s.overrideTournamentPairings)
	auth.post("/rounds/{round}/start", s.startTournamentRound)
	auth.post("/rounds/{round}/close", s.closeTournamentRound)
	auth.post("/rounds/{round}/reopen", s.reopenTournamentRound)
	r.get("/rounds/{round}/tables/{table}", s.getTournamentTable)
	auth.post("/rounds/{round}/tables/{table}/scores", s.enterTournamentScores)
	auth.post("/rounds/{round}/tables/{table}/confirm", s.confirmTournamentScores)
	auth.post("/rounds/{round}/tables/{table}/corrections", s.correctTournamentScore)
	auth.post("/rounds/{round}/tables/{table}/rulings", s.tournamentRuling)
	auth.post("/penalties", s.tournamentPenalty)
	r.get("/forbidden", s.getTournamentForbidden)
	auth.put("/forbidden", s.setTournamentForbidden)
	r.get("/standings", s.tournamentStandings)
	auth.get("/audit", s.tournamentAudit)
	r.get("/export/standings.csv", s.exportTournamentStandings)
	r.get("/export/rounds.csv", s.exportTournamentRounds)
	r.get("/export/sheets.csv", s.exportTournamentSheets)
	r.get("/print/standings", s.printTournamentStandings)
	r.get("/print/tables", s.printTournamentTables)
	r.get("/print/results", s.printTournamentResults)
}

// body is a command's request body as read: its bytes (for the request
// hash of its Idempotency-Key) decoded into the request type.
type body []byte

// readBody reads a JSON object into dst, as decode does; when optional,
// an empty body (no Content-Type needed) leaves dst as it is. It answers
// the problem itself and reports whether the handler may go on.
func (s *server) readBody(w http.ResponseWriter, r *http.Request, dst any, optional bool) (body, bool) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err == nil && optional && len(raw) == 0 {
		return raw, true
	}
	if mt, _, perr := mime.ParseMediaType(r.Header.Get("Content-Type")); perr != nil || mt != "application/json" {
		fail(w, r, codeUnsupportedMedia, "the request body must be application/json")
		return nil, false
	}
	if err == nil {
		err = decodeObject(raw, dst)
	}
	if err != nil {
		s.failDecode(w, r, err)
		return nil, false
	}
	return raw, true
}

// act gives cmd to tournament id as the caller, with the request's
// Idempotency-Key and a hash of its method, path and body: a retry with the
// key answers as the first request did (one event), the key with another
// request is refused. On failure it answers the problem and reports false.
func (s *server) act(w http.ResponseWriter, r *http.Request, id int64, cmd tourney.Command, b body) (domain.TournamentActed, bool) {
	out, err := s.actErr(r, id, cmd, b)
	if err != nil {
		s.failErr(w, r, err)
		return out, false
	}
	return out, true
}

// actErr is act without the answer.
func (s *server) actErr(r *http.Request, id int64, cmd tourney.Command, b body) (domain.TournamentActed, error) {
	h := sha256.New()
	h.Write([]byte(r.Method + "\n" + r.URL.Path + "\n"))
	h.Write(b)
	in := domain.TournamentCommand{Command: cmd, IdempotencyKey: r.Header.Get("Idempotency-Key"),
		RequestHash: hex.EncodeToString(h.Sum(nil))}
	return s.svc.Play.Act(r.Context(), ActorFrom(r.Context()), id, in)
}

// readPlay reads tournament id's state as the caller; on failure it
// answers the problem and reports false.
func (s *server) readPlay(w http.ResponseWriter, r *http.Request, id int64) (domain.TournamentRead, bool) {
	out, err := s.svc.Play.Read(r.Context(), ActorFrom(r.Context()), id)
	if err != nil {
		s.failErr(w, r, err)
		return out, false
	}
	return out, true
}

// pathInt reads a positive integer path parameter (a round or table
// number); on failure it answers 400 invalid_parameter and reports false.
func pathInt(w http.ResponseWriter, r *http.Request, name string) (int, bool) {
	n, err := strconv.Atoi(chi.URLParam(r, name))
	if err != nil || n <= 0 {
		failFields(w, r, codeInvalidParameter, "a path parameter is invalid",
			[]FieldError{{Field: name, Code: "invalid", Message: "must be a positive integer"}})
		return 0, false
	}
	return n, true
}

// tableAddress is the tournament, round and table of a sheet's path.
type tableAddress struct {
	id           int64
	round, table int
}

// pathTable reads /tournaments/{tournamentID}/rounds/{round}/tables/{table}.
func pathTable(w http.ResponseWriter, r *http.Request) (tableAddress, bool) {
	var a tableAddress
	var ok bool
	if a.id, ok = pathID(w, r, "tournamentID"); !ok {
		return a, false
	}
	if a.round, ok = pathInt(w, r, "round"); !ok {
		return a, false
	}
	a.table, ok = pathInt(w, r, "table")
	return a, ok
}

// failSheet answers a refused sheet command. A stale version (409
// stale_sheet) carries the sheet's current version: in current_version,
// in errors (field version, as a table's version_conflict does) and as the
// table's ETag, so that the client can reload and resend.
func (s *server) failSheet(w http.ResponseWriter, r *http.Request, a tableAddress, err error) {
	if domain.ErrorCode(err) != domain.Code(tourney.CodeStaleSheet) {
		s.failErr(w, r, err)
		return
	}
	var de *domain.Error
	errors.As(err, &de)
	p := problemOf(r, string(de.Code), domain.ErrorKind(de), de.Message)
	if read, rerr := s.svc.Play.Read(r.Context(), ActorFrom(r.Context()), a.id); rerr == nil {
		if t, ok := findTable(read.Snapshot, a.round, a.table); ok {
			v := t.Sheet.Version
			p.CurrentVersion = &v
			p.Errors = []FieldError{{Field: "version", Code: "stale", Message: "the current version is " + strconv.FormatInt(v, 10)}}
			w.Header().Set("ETag", sheetTableETag(a, newPlayView(read).tableOut(a.round, t)))
		}
	}
	writeProblem(w, p)
}

// findTable is table t of round n of a snapshot.
func findTable(snap *tourney.Snapshot, n, t int) (tourney.TableView, bool) {
	if n < 1 || n > len(snap.Rounds) {
		return tourney.TableView{}, false
	}
	for _, tb := range snap.Rounds[n-1].Tables {
		if tb.Number == t {
			return tb, true
		}
	}
	return tourney.TableView{}, false
}
