package api

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/tourney"
)

// A tournament's life after its set-up, under /tournaments/{tournamentID}
// (entryHandlers, roundHandlers, resultHandlers and tournamentHandlers'
// lifecycle): each command maps to one tourney command given through
// Services.Play.Act (act), each read to Services.Play.Read (readPlay).
// Commands need an access token; reads are public once the tournament has
// left draft, except the audit trail and the forbidden pairs (the staff's).

// act gives cmd to tournament id as the caller, with the request's
// Idempotency-Key and a hash of its method, path and body (its bytes as
// readJSON read them): a retry with the key answers as the first request
// did (one event), the key with another request is refused.
func (s *server) act(r *http.Request, id int64, cmd tourney.Command, b sentBody) (domain.TournamentActed, error) {
	h := sha256.New()
	h.Write([]byte(r.Method + "\n" + r.URL.Path + "\n"))
	h.Write(b.raw)
	in := domain.TournamentCommand{Command: cmd, IdempotencyKey: r.Header.Get("Idempotency-Key"),
		RequestHash: hex.EncodeToString(h.Sum(nil)), Invalid: b.invalid}
	return s.svc.Play.Act(r.Context(), ActorFrom(r.Context()), id, in)
}

// sentBody is a command's body as act needs it: its bytes (hashed for
// idempotency) and what it breaks of its schema (checkTags), which the
// service answers after the caller's rights and before the state.
type sentBody struct {
	raw     []byte
	invalid error
}

// withBody reads the path (path: the parameters a command names), then a
// command's JSON body into a Req (optional: it may be empty), with the
// body for act. A body that cannot be read is refused here; one that
// reads but breaks its schema's bounds goes on to act, which refuses it
// once the caller is known to be allowed the command.
func withBody[Req, P any](s *server, w http.ResponseWriter, r *http.Request, path func(*http.Request) (P, error), optional bool) (P, Req, sentBody, error) {
	var req Req
	p, err := path(r)
	if err != nil {
		return p, req, sentBody{}, err
	}
	b, err := s.readJSON(w, r, &req, optional)
	if err != nil {
		return p, req, sentBody{}, err
	}
	return p, req, sentBody{raw: b, invalid: checkTags(&req, b)}, nil
}

// pathTournament reads /tournaments/{tournamentID}.
func pathTournament(r *http.Request) (int64, error) { return pathID(r, "tournamentID") }

// playOf reads the tournament id of the path and its state as the caller.
func (s *server) playOf(r *http.Request) (int64, domain.TournamentRead, error) {
	id, err := pathTournament(r)
	if err != nil {
		return id, domain.TournamentRead{}, err
	}
	read, err := s.readPlay(r, id)
	return id, read, err
}

// readPlay reads tournament id's state as the caller.
func (s *server) readPlay(r *http.Request, id int64) (domain.TournamentRead, error) {
	return s.svc.Play.Read(r.Context(), ActorFrom(r.Context()), id)
}

// pathInt reads a positive integer path parameter (a round or table
// number); 400 invalid_parameter when it is not one.
func pathInt(r *http.Request, name string) (int, error) {
	n, err := strconv.Atoi(chi.URLParam(r, name))
	if err != nil || n <= 0 || n > maxInt32Param { // openapi.yaml's maximum (int32)
		return 0, problem(codeInvalidParameter, "a path parameter is invalid",
			FieldError{Field: name, Code: "invalid", Message: "must be a positive integer"})
	}
	return n, nil
}

// tableAddress is a tournament table's place in the URL path.
type tableAddress struct {
	id           int64
	round, table int
}

// pathTable reads /tournaments/{tournamentID}/rounds/{round}/tables/{table}.
func pathTable(r *http.Request) (a tableAddress, err error) {
	if a.id, err = pathTournament(r); err != nil {
		return a, err
	}
	if a.round, err = pathInt(r, "round"); err != nil {
		return a, err
	}
	a.table, err = pathInt(r, "table")
	return a, err
}

// sheetErr is the error of a refused sheet command. A stale version (409
// stale_sheet) carries the sheet's current version: in current_version,
// in errors (field version, as a table's version_conflict does) and as the
// table's ETag (set on w), so that the client can reload and resend.
func (s *server) sheetErr(w http.ResponseWriter, r *http.Request, a tableAddress, err error) error {
	var de *domain.Error
	if domain.ErrorCode(err) != domain.Code(tourney.CodeStaleSheet) || !errors.As(err, &de) {
		return err
	}
	stale := &domain.Error{Kind: domain.ErrorKind(de), Code: de.Code, Message: de.Message}
	if read, rerr := s.svc.Play.Read(r.Context(), ActorFrom(r.Context()), a.id); rerr == nil {
		if t, ok := findTable(read.Snapshot, a.round, a.table); ok {
			v := t.Sheet.Version
			stale.Current = &v
			stale.Fields = []domain.FieldError{{Field: "version", Code: "stale", Message: "the current version is " + strconv.FormatInt(v, 10)}}
			w.Header().Set("ETag", sheetTableETag(a, newPlayView(read).tableOut(a.round, t)))
		}
	}
	return stale
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
