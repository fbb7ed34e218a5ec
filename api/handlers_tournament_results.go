package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/burraco/burraco/domain"
)

// resultHandlers serve what a tournament's play adds up to, under
// /api/v1/tournaments/{tournamentID}: standings, the audit trail, prizes,
// the exports (CSV, JSON, the federation's format) and the printouts.
// Their files are handlers_tournament_{results,exports,prizes}.go and
// handlers_results_format.go.
type resultHandlers struct{ s *server }

func (h resultHandlers) routes(r routes) {
	r.get("/standings", h.tournamentStandings)
	r.get("/phases", h.listTournamentPhases)
	r.get("/phases/{phase}/standings", h.tournamentPhaseStandings)
	r.with(h.s.requireAuth).get("/audit", h.tournamentAudit)
	r.get("/prizes", h.tournamentPrizes)
	r.get("/export/standings.csv", h.exportTournamentStandings)
	r.get("/export/rounds.csv", h.exportTournamentRounds)
	r.get("/export/sheets.csv", h.exportTournamentSheets)
	r.get("/export/results.json", h.exportTournamentResultsJSON)
	r.get("/export/federation.csv", h.exportTournamentFederation)
	r.get("/export/prizes.csv", h.exportTournamentPrizes)
	r.get("/print/standings", h.printTournamentStandings)
	r.get("/print/tables", h.printTournamentTables)
	r.get("/print/results", h.printTournamentResults)
	r.get("/print/prizes", h.printTournamentPrizes)
}

// playBodies keeps answers that are the same for every reader of a
// tournament — its standings, its rounds — as encoded for its latest
// ETag: a hall screen's poll answered 200 (a new screen, or a change)
// encodes them once per version, not once per screen, and when the
// tournament's stamp is in memory (domain: tournamentStamps) reads nothing
// either. At most maxPlayBodies answers are kept.
type playBodies struct {
	mu sync.Mutex
	m  map[playBodyKey]cachedBody
}

// playBodyKey is a tournament's answer: round 0 its standings, n > 0 its
// round n; list, when set, its list of rounds (all, or the latest).
type playBodyKey struct {
	id    int64
	round int
	list  roundsList
}

// roundsList is which list of rounds a playBodyKey names.
type roundsList uint8

const (
	_ roundsList = iota // the zero value: not a list (the standings, one round)
	listAllRounds
	listLatestRound
)

type cachedBody struct {
	etag string
	body []byte
}

const maxPlayBodies = 4096

func newPlayBodies() *playBodies { return &playBodies{m: map[playBodyKey]cachedBody{}} }

func (c *playBodies) get(k playBodyKey, etag string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	return e.body, ok && e.etag == etag
}

func (c *playBodies) put(k playBodyKey, etag string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok && len(c.m) >= maxPlayBodies {
		for k := range c.m { // drop any one: the cache only saves work
			delete(c.m, k)
			break
		}
	}
	c.m[k] = cachedBody{etag: etag, body: body}
}

// cachedPlay answers from c what it keeps for k at the tournament's
// current stamp (in memory, or one cheap query), and reports whether it
// did; withETag sends the ETag too, and answers 304 to If-None-Match.
// The error is the refusal of the stamp's read (nothing answered).
func (s *server) cachedPlay(w http.ResponseWriter, r *http.Request, k playBodyKey, withETag bool) (answered bool, err error) {
	st, err := s.svc.Play.Stamp(r.Context(), ActorFrom(r.Context()), k.id)
	if err != nil {
		return false, err
	}
	etag := stampETag(st)
	if withETag && etagMatches(r.Header.Get("If-None-Match"), etag) {
		return true, notModified(w, etag)
	}
	body, hit := s.playBodies.get(k, etag)
	if !hit {
		return false, nil
	}
	if withETag {
		w.Header().Set("ETag", etag)
	}
	writeBody(w, body)
	return true, nil
}

// encodePlay encodes v once for k at etag, keeps it, and sends it.
func (s *server) encodePlay(w http.ResponseWriter, r *http.Request, k playBodyKey, etag string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	body := append(b, '\n')
	s.playBodies.put(k, etag, body)
	writeBody(w, body)
	return nil
}

// writeBody sends a JSON body with 200.
func writeBody(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// standingsETag is the ETag of a tournament's standings: its version (the
// last event of its log) and the time of its last change (a set-up edit
// before the start changes no version but may change the order).
func standingsETag(t domain.Tournament) string {
	return stampETag(domain.TournamentStamp{ID: t.ID, Version: t.Version, UpdatedAt: t.UpdatedAt})
}

// stampETag is standingsETag from a poll's stamp.
func stampETag(st domain.TournamentStamp) string {
	return fmt.Sprintf(`"ts%d.v%d.u%d"`, st.ID, st.Version, st.UpdatedAt.UnixMicro())
}

// tournamentStandings returns the standings.
//
//	@Summary		Get the standings
//	@ID			getTournamentStandings
//	@Description	The standings as they stand, provisional while scores are being entered: total VP, then the tie-break order, each row saying which criterion put it ahead of the next. What a hall screen polls: send the ETag back in If-None-Match for a 304, answered from the tournament's version alone (kept in memory: no database query).
//	@Tags			results
//	@Produce		json
//	@Param			tournamentID	path		int		true	"Tournament id"
//	@Param			If-None-Match	header		string	false	"The ETag of the standings the caller has"
//	@Success		200				{object}	TournamentStandings
//	@Header			200				{string}	ETag	"The tournament's version"
//	@Success		304				"Nothing changed (If-None-Match matched)"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path parameter is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tournaments/{tournamentID}/standings [get]
func (h resultHandlers) tournamentStandings(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	k := playBodyKey{id: id}
	if answered, err := h.s.cachedPlay(w, r, k, true); answered || err != nil {
		return err
	}
	read, err := h.s.readPlay(r, id)
	if err != nil {
		return err
	}
	etag := standingsETag(read.Tournament)
	w.Header().Set("ETag", etag)
	return h.s.encodePlay(w, r, k, etag, newPlayView(read).standings())
}

// auditLimitDefault is the audit page size when the caller gives none.
const auditLimitDefault = 100

// auditLimitMax is the largest audit page (the service's bound too).
const auditLimitMax = 500

// tournamentAudit returns the audit trail.
//
//	@Summary		Get the audit trail
//	@ID			getTournamentAudit
//	@Description	Every event of the tournament's log, oldest first: who did what, when and why (entries, draws, overrides, scores entered and confirmed, corrections with the deal before and after, rulings, penalties, reopened rounds). For the tournament's referees and directors.
//	@Tags			results
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tournamentID	path		int	true	"Tournament id"
//	@Param			after			query		int	false	"Only events after this seq"	default(0)	minimum(0)
//	@Param			limit			query		int	false	"Page size, 1..500"	default(100)	minimum(1)	maximum(500)
//	@Success		200				{object}	TournamentAuditList
//	@Failure	400	{object}	Problem	"invalid_parameter: a path or query parameter is not an integer, or out of its range (after below 0, limit outside 1..500), named in errors"
//	@Failure	403	{object}	Problem	"forbidden: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Router			/api/v1/tournaments/{tournamentID}/audit [get]
func (h resultHandlers) tournamentAudit(w http.ResponseWriter, r *http.Request) error {
	id, err := pathTournament(r)
	if err != nil {
		return err
	}
	q := query{r: r}
	after, _ := q.int64or0("after")
	limit := q.intIn("limit", 1, auditLimitMax)
	if err := q.err(); err != nil {
		return err
	}
	if _, given := q.value("limit"); !given {
		limit = auditLimitDefault
	}
	events, err := h.s.svc.Play.Audit(r.Context(), ActorFrom(r.Context()), id, after, limit)
	if err != nil {
		return err
	}
	out := TournamentAuditList{Items: mapSlice(events, auditEventOut)}
	if len(events) == limit {
		out.NextAfter = events[len(events)-1].Seq
	}
	return respond(w, http.StatusOK, out)
}
