package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/burraco/burraco/domain"
)

// standingsCache keeps each tournament's standings as encoded for its
// latest ETag: a hall screen's poll answered 200 (a new screen, or a
// change) encodes them once per version, not once per screen. The
// standings are the same for every reader (nothing in them is for the
// staff only). At most maxStandingsCached tournaments are kept.
type standingsCache struct {
	mu sync.Mutex
	m  map[int64]cachedStandings
}

type cachedStandings struct {
	etag string
	body []byte
}

const maxStandingsCached = 1024

func newStandingsCache() *standingsCache { return &standingsCache{m: map[int64]cachedStandings{}} }

func (c *standingsCache) get(id int64, etag string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	return e.body, ok && e.etag == etag
}

func (c *standingsCache) put(id int64, etag string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[id]; !ok && len(c.m) >= maxStandingsCached {
		for k := range c.m { // drop any one: the cache only saves work
			delete(c.m, k)
			break
		}
	}
	c.m[id] = cachedStandings{etag: etag, body: body}
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
//	@Description	The standings as they stand, provisional while scores are being entered: total VP, then the tie-break order, each row saying which criterion put it ahead of the next. What a hall screen polls: send the ETag back in If-None-Match for a 304, answered from the tournament's version alone.
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
func (s *server) tournamentStandings(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r, "tournamentID")
	if !ok {
		return
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		st, err := s.svc.Play.Stamp(r.Context(), ActorFrom(r.Context()), id)
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		if etag := stampETag(st); etagMatches(inm, etag) {
			notModified(w, etag)
			return
		}
	}
	read, ok := s.readPlay(w, r, id)
	if !ok {
		return
	}
	etag := standingsETag(read.Tournament)
	body, ok := s.standings.get(id, etag)
	if !ok {
		b, err := json.Marshal(newPlayView(read).standings())
		if err != nil {
			s.failErr(w, r, err)
			return
		}
		body = append(b, '\n')
		s.standings.put(id, etag, body)
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// auditLimitDefault is the audit page size when the caller gives none.
const auditLimitDefault = 100

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
//	@Failure	400	{object}	Problem	"invalid_parameter: a path or query parameter is not an integer"
//	@Failure	403	{object}	Problem	"forbidden: not a referee or director of the tournament"
//	@Failure	404	{object}	Problem	"not_found: no such tournament, or a draft the caller may not see"
//	@Failure	422	{object}	Problem	"invalid_input: after below 0, limit outside 1..500 (named in errors)"
//	@Router			/api/v1/tournaments/{tournamentID}/audit [get]
func (s *server) tournamentAudit(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r, "tournamentID")
	if !ok {
		return
	}
	q := query{r: r}
	after, limit := q.int("after"), q.int("limit")
	if !q.done(w) {
		return
	}
	if r.URL.Query().Get("limit") == "" {
		limit = auditLimitDefault
	}
	events, err := s.svc.Play.Audit(r.Context(), ActorFrom(r.Context()), id, int64(after), limit)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	out := TournamentAuditList{Items: mapSlice(events, auditEventOut)}
	if len(events) == limit {
		out.NextAfter = events[len(events)-1].Seq
	}
	respond(w, http.StatusOK, out)
}
