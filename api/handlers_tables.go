package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/internal/strictjson"
)

// maxWait caps the wait of a long poll of a table's state.
const maxWait = 60 * time.Second

// tableHandlers serve the tables (/api/v1/tables): the lobby, seats,
// moves, states and their long polls, event streams, claims, rematches.
// Their files are handlers_table*.go.
type tableHandlers struct{ s *server }

// routes are the tables', all with their full patterns (see routes): each
// nested router adds half a kilobyte of frames under the handler, and a
// long poll of the state holds its goroutine's stack for up to a minute
// (issue 7). They are under the request timeout route by route, not as a
// group (routes.go).
func (h tableHandlers) routes(r routes) {
	timed := r.with(timeout(h.s.cfg.RequestTimeout))
	timed.get("/", h.listTables)
	timed.with(h.s.requireAuth).post("/", h.createTable)
	// A long poll of the state waits up to maxWait: it is not under the
	// request timeout, and times its database reads itself.
	r.get("/{tableID}/state", h.tableState)
	r.get("/{tableID}/events", h.tableEvents) // a stream: ends with the client or the server
	timed.under("/{tableID}", func(r routes) {
		r.get("/", h.getTable)
		r.get("/deals", h.listTableDeals)
		r.get("/moves", h.listTableMoves)
		auth := r.with(h.s.requireAuth)
		auth.post("/join", h.joinTable)
		auth.post("/leave", h.leaveTable)
		auth.post("/bots", h.addTableBot)
		auth.post("/start", h.startTable)
		auth.post("/cancel", h.cancelTable)
		auth.post("/rematch", h.wishRematch)
		auth.delete("/rematch", h.withdrawRematch)
		auth.post("/moves", h.playMove)
		auth.post("/timeout", h.callTimeOut)
		auth.post("/stand-ins", h.replaceSeatByBot)
		auth.post("/claim", h.claimTable)
		auth.post("/abort", h.abortTable)
		auth.get("/deals/{number}/record", h.dealRecord)
	})
}

// listTables lists the lobby.
//
//	@Summary		List tables (the lobby)
//	@ID			listTables
//	@Description	Public tables, and the private tables the caller created or sits at (a tournament's online table is its players', not the creator's: nobody creates those); newest first. Cancelled tables are not listed unless status=cancelled asks for them. The ETag names the page's content (its tables' versions, the names seated, the paging): send it back in If-None-Match for a 304 when the page has not changed (the server still reads the tables' versions, not the rows).
//	@Tags			tables
//	@Produce		json
//	@Param			open_seats	query		bool	false	"Only open tables with a free seat"
//	@Param			rules		query		string	false	"Only this rule set"	Enums(fibur, fibur-row, reale, aberto, fechado)
//	@Param			club_id		query		int		false	"Only this club's tables"
//	@Param			status		query		string	false	"Only tables with this status (cancelled: only the cancelled tables, which are otherwise left out)"	Enums(open, playing, finished, cancelled)
//	@Param			mine		query		bool	false	"Only the tables the caller created or sits at (needs a token)"
//	@Param			limit		query		int		false	"Page size, 1..100; 0 or absent means 20"	default(20)	minimum(0)	maximum(100)
//	@Param			offset		query		int		false	"Items to skip"		default(0)	minimum(0)
//	@Param			If-None-Match	header	string	false	"The ETag of the page the caller has"
//	@Success		200			{object}	TableList
//	@Header			200			{string}	ETag	"Names the page's content"
//	@Success		304			"The page has not changed (If-None-Match matched)"
//	@Failure	400	{object}	Problem	"invalid_parameter: a query parameter the schema does not allow (not a number, empty, past its bounds, not one of its values, too long, control characters), every one named in errors"
//	@Failure	422	{object}	Problem	"invalid_input: mine=true without an access token"
//	@x-auth-optional	true
//	@Router			/api/v1/tables [get]
func (h tableHandlers) listTables(w http.ResponseWriter, r *http.Request) error {
	q := query{r: r}
	f := domain.TableFilter{OpenSeats: q.bool("open_seats"), Rules: domain.RuleSet(q.enum("rules", knownRuleSet, "the rule sets of /api/v1/rules")),
		ClubID: q.int64("club_id"), Mine: q.bool("mine"),
		Status: domain.TableStatus(q.enum("status", func(s string) bool { return domain.TableStatus(s).Valid() }, "open, playing, finished, cancelled"))}
	f.Limit, f.Offset = q.page()
	if err := q.err(); err != nil {
		return err
	}
	p, err := h.s.svc.Tables.List(r.Context(), ActorFrom(r.Context()), f)
	if err != nil {
		return err
	}
	return respondStampedPage(h.s, w, r, p, h.tableBody, func(t domain.Table) any { return tableOut(t) })
}

// bool reads an optional boolean parameter; false when absent.
func (q *query) bool(name string) bool {
	s, ok := q.value(name)
	if !ok {
		return false
	}
	b, err := strconv.ParseBool(s)
	q.v.Check(err == nil, name, "invalid", "must be true or false")
	return b
}

// createTable creates a table.
//
//	@Summary		Create a table
//	@ID			createTable
//	@Description	Any logged-in user; for a club table, a member of the club. The creator sits in seat (0 when absent) unless spectate. One user may have created at most 10 tables not finished (open or playing) at once (serve -max-open-tables): another is refused with 409 too_many_open_tables until one finishes. Every invalid field is listed in one invalid_input; the messages of rules, players, options and match are the rules engine's. Rules the schema cannot express: Options must apply to the rule set (GET /api/v1/rules/{ruleSet} lists each one's): another is 422 invalid_input naming options.KEY (code bad_option). fibur-row is played by 2: players 4 is 422 invalid_input naming players. seat must be below players: 422 invalid_input naming seat.
//	@Tags			tables
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			body	body		TableCreateRequest	true	"The new table"
//	@Success		201		{object}	Table
//	@Header			201		{string}	Location	"/api/v1/tables/{tableID}"
//	@Failure	400	{object}	Problem	"malformed_json: the body is not JSON, not an object, or has a field of the wrong type or an unknown field (named in errors)"
//	@Failure	403	{object}	Problem	"forbidden: a club table and the caller is not a member of the club"
//	@Failure	404	{object}	Problem	"not_found: no such club"
//	@Failure	409	{object}	Problem	"too_many_open_tables: the caller has created as many tables not finished as one may"
//	@Failure	422	{object}	Problem	"invalid_input: every invalid field listed in errors (rules, options, players, match, club_id, turn_seconds, match_seconds, seat)"
//	@Router			/api/v1/tables [post]
func (h tableHandlers) createTable(w http.ResponseWriter, r *http.Request) error {
	var req TableCreateRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	t, err := h.s.svc.Tables.Create(r.Context(), ActorFrom(r.Context()), req.input())
	if err != nil {
		return err
	}
	return created(w, fmt.Sprintf("/api/v1/tables/%d", t.ID), tableOut(t))
}

// getTable returns a table.
//
//	@Summary		Get a table
//	@ID			getTable
//	@Description	A public table for anyone; a private one for its creator, its players and holders of its invite code, and a tournament's online table also for the tournament's referees and directors when its staff_watch is on (to anyone else it is not_found). The invite code is shown only to the creator and the players (of a tournament's online table only to its players: it has no creator, and its staff see no invite code).
//	@Tags			tables
//	@Produce		json
//	@Param			tableID	path		int		true	"Table id"
//	@Param			invite	query		string	false	"The invite code of a private table"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tables/{tableID} [get]
func (h tableHandlers) getTable(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tables.Get(r.Context(), ActorFrom(r.Context()), id, r.URL.Query().Get("invite"))
	return answer(w, http.StatusOK, tableOut, t, err)
}

// joinTable seats the caller.
//
//	@Summary		Join a table
//	@ID			joinTable
//	@Description	Sit in the given seat, or the first free one. A club table only for the club's members; a private table needs its invite code. With auto_start the match starts when the last seat is taken.
//	@Tags			tables
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int			true	"Table id"
//	@Param			body	body		SeatRequest	false	"The seat (absent: the first free one) and the invite code"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json"
//	@Failure	403	{object}	Problem	"forbidden: a club table and the caller is not a member"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table without its invite code"
//	@Failure	409	{object}	Problem	"conflict: the match has started, the seat is taken, the table is full, or the caller already sits there; table_cancelled: the table was cancelled"
//	@Failure	422	{object}	Problem	"invalid_input: seat out of range"
//	@Router			/api/v1/tables/{tableID}/join [post]
func (h tableHandlers) joinTable(w http.ResponseWriter, r *http.Request) error {
	id, req, err := h.seatRequest(w, r)
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tables.Join(r.Context(), ActorFrom(r.Context()), id, req.Seat, req.Invite)
	return answer(w, http.StatusOK, tableOut, t, err)
}

// seatRequest reads the table id and an optional SeatRequest body.
func (h tableHandlers) seatRequest(w http.ResponseWriter, r *http.Request) (int64, SeatRequest, error) {
	var req SeatRequest
	id, err := pathID(r, "tableID")
	if err == nil && r.ContentLength != 0 {
		err = h.s.decode(w, r, &req)
	}
	return id, req, err
}

// leaveTable frees the caller's seat.
//
//	@Summary		Leave a table
//	@ID			leaveTable
//	@Description	Before the start, the seat is freed; the last player to leave an open table cancels it (status cancelled, cancelled empty): it leaves the lobby and its creator's count of open tables. During the match, leaving forfeits it: the running deal is ended by the server (scored as it stands; its record says ended_by_referee), the caller's team loses, and the table is finished with result abandoned and abandoned_by the caller's seat (the seats stay as the record of who played).
//	@Tags			tables
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int	true	"Table id"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"conflict: the caller does not sit there, or the match is over; table_cancelled: the table was cancelled"
//	@Router			/api/v1/tables/{tableID}/leave [post]
func (h tableHandlers) leaveTable(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tables.Leave(r.Context(), ActorFrom(r.Context()), id)
	return answer(w, http.StatusOK, tableOut, t, err)
}

// addTableBot seats the built-in bot.
//
//	@Summary		Add a bot to a table
//	@ID			addTableBot
//	@Description	Only the table's creator (a tournament's online table has none: the server seats it), before the start: the built-in bot takes the given seat (or the first free one) and plays its turns at once.
//	@Tags			tables
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int			true	"Table id"
//	@Param			body	body		SeatRequest	false	"The seat (absent: the first free one)"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter or malformed_json"
//	@Failure	403	{object}	Problem	"forbidden: not the table's creator"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"conflict: the match has started, the seat is taken, or the table is full; table_cancelled: the table was cancelled"
//	@Failure	422	{object}	Problem	"invalid_input: seat out of range"
//	@Router			/api/v1/tables/{tableID}/bots [post]
func (h tableHandlers) addTableBot(w http.ResponseWriter, r *http.Request) error {
	id, req, err := h.seatRequest(w, r)
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tables.AddBot(r.Context(), ActorFrom(r.Context()), id, req.Seat)
	return answer(w, http.StatusOK, tableOut, t, err)
}

// startTable starts the match.
//
//	@Summary		Start a table's match
//	@ID			startTable
//	@Description	Only the table's creator, once every seat is taken: the first deal is dealt (the first dealer at random) and bots on turn play at once.
//	@Tags			tables
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int	true	"Table id"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	403	{object}	Problem	"forbidden: not the table's creator"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"conflict: already started, or a seat is free; table_cancelled: the table was cancelled"
//	@Router			/api/v1/tables/{tableID}/start [post]
func (h tableHandlers) startTable(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tables.Start(r.Context(), ActorFrom(r.Context()), id)
	return answer(w, http.StatusOK, tableOut, t, err)
}

// cancelTable closes an open table before its match starts.
//
//	@Summary		Cancel an open table
//	@ID			cancelTable
//	@Description	Only the table's creator (and site admins), before the start: the table is closed with status cancelled (cancelled creator), leaves the lobby (GET /api/v1/tables lists it only with status=cancelled) and no longer counts toward the creator's limit of open tables (too_many_open_tables). The seats stay as the record of who was there; nobody sits, starts or plays there any more (409 table_cancelled), and its state answers status cancelled. A table nobody starts is also cancelled when its last player leaves it (cancelled empty), and by the server once it has stayed open longer than serve's -open-table-ttl (cancelled expired, 24 h by default). A tournament's online table has no creator and is never cancelled.
//	@Tags			tables
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int	true	"Table id"
//	@Success		200		{object}	Table
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	401	{object}	Problem	"unauthenticated: no or bad token"
//	@Failure	403	{object}	Problem	"forbidden: not the table's creator (or a tournament's online table)"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"conflict: the match has started or is over (a player leaves a started match, forfeiting it); table_cancelled: already cancelled"
//	@Router			/api/v1/tables/{tableID}/cancel [post]
func (h tableHandlers) cancelTable(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	t, err := h.s.svc.Tables.Cancel(r.Context(), ActorFrom(r.Context()), id)
	return answer(w, http.StatusOK, tableOut, t, err)
}

// tableState returns the table as the caller sees it, for polling.
//
//	@Summary		Get a table's state (poll)
//	@ID			getTableState
//	@Description	The caller's own hand and everything public (a spectator, or anyone not seated, sees no hand). ETag depends on the table, its version and the caller's seat only: send it in If-None-Match for a 304 when nothing changed. Long poll: since=VERSION&wait=SECONDS (at most 60) answers as soon as the version moves past since, or 304 when the wait ends (also when the server shuts down). One user (anonymous: one client address) may hold at most 20 long polls open at once (serve -max-long-polls): more are refused with 429 too_many_long_polls. Several server processes on one PostgreSQL database without table leases hear of each other's moves through its notifications, usually within milliseconds, and until then answer from what they know: a poll in that moment may get the version before a move another process has just acknowledged; with table leases (serve -internal-addr) every request of a table is answered by the one process that owns it (forwarded there), so no such moment, and a table whose owner process died is taken over within seconds (meanwhile 503 table_owner_moved, with Retry-After). A poll with since set to the version your own move was acknowledged at is never answered an older state (it waits, or gets 304). A private table's state is for its creator, players and holders of its invite code (a tournament's online table's, which has no creator, for its players, and for the tournament's referees and directors only while its staff_watch is on, as a spectator: without it they get not_found, whoever started the round). A cancelled table's state has status cancelled. presence says which seated players are at the table (a long poll or event stream open, or a request in the last 10 seconds) and since when the others are gone, with the end of their reconnect window; it is not part of the version nor the ETag (read it from each 200).
//	@Tags			tables
//	@Produce		json
//	@Param			tableID			path		int		true	"Table id"
//	@Param			invite			query		string	false	"The invite code of a private table"
//	@Param			since			query		int		false	"Answer when the version is past this one (long poll)"	minimum(0)
//	@Param			wait			query		int		false	"Seconds to wait for a change past since; more than 60 waits 60"	minimum(0)
//	@Param			If-None-Match	header		string	false	"The ETag of the state the caller has"
//	@Success		200				{object}	TableState
//	@Header			200				{string}	ETag	"The state's version as seen by the caller"
//	@Success		304				"Nothing changed (If-None-Match matched, or the long poll's wait ended)"
//	@Header			304				{string}	ETag	"The current version as seen by the caller"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id, since or wait that cannot be parsed"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	429	{object}	Problem	"too_many_long_polls: the caller holds as many long polls open as one may; retry after one ends"
//	@Header		429	{integer}	Retry-After	"seconds to wait before retrying"
//	@x-auth-optional	true
//	@Router			/api/v1/tables/{tableID}/state [get]
func (h tableHandlers) tableState(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	q := query{r: r}
	invite := r.URL.Query().Get("invite")
	since, hasSince := q.int64or0("since")
	wait := q.intIn("wait", 0, strictjson.MaxInteger) // capped at maxWait: issue 19
	if err := q.err(); err != nil {
		return err
	}
	if !hasSince {
		since = -1 // answer at once
	}
	long := hasSince && wait > 0
	if long { // a long poll holds its connection: counted per caller
		release, err := h.s.hold(w, r, h.s.polls, &h.s.cfg.Metrics.polls, codeTooManyLongPolls, "long polls")
		if err != nil {
			return err
		}
		if p := parkingOf(w, r); p != nil { // held without a goroutine (tables_park.go)
			parked, version, seat, err := h.park(w, r, p, id, invite, since, waitSeconds(wait), release)
			if parked {
				return nil
			}
			if err != errNotParked {
				release()
				if err != nil {
					return err
				}
				return h.answerPoll(w, r, id, invite, since, hasSince, long, version, seat)
			}
		}
		defer release()
	}
	// The version and the caller's seat come from memory (the notifier);
	// the state itself from the cache of (version, seat) when it holds it.
	version, seat, err := h.watch(r, id, invite, since, waitSeconds(wait))
	if err != nil {
		return err
	}
	return h.answerPoll(w, r, id, invite, since, hasSince, long, version, seat)
}

// answerPoll answers a poll that found version and the caller's seat: 304
// when the version is not past since or the client has its ETag, else the
// state (long: a long poll's, which reads each version once).
func (h tableHandlers) answerPoll(w http.ResponseWriter, r *http.Request, id int64, invite string, since int64, hasSince, long bool, version int64, seat int) error {
	h.keepIfBrisk(r, id)
	etag := tableETag(id, version, seat)
	if hasSince && version <= since || etagMatches(r.Header.Get("If-None-Match"), etag) {
		return notModified(w, etag)
	}
	return h.answerState(w, r, id, invite, version, seat, long)
}

// watch returns the table's version and the caller's seat, first waiting
// up to wait (capped at maxWait; cut short by the server's shutdown) for
// the version to move past since; since -1 or no wait answers at once.
func (h tableHandlers) watch(r *http.Request, id int64, invite string, since int64, wait time.Duration) (int64, int, error) {
	actor := ActorFrom(r.Context())
	if since < 0 || wait <= 0 {
		return h.s.svc.Tables.Watch(r.Context(), actor, id, invite, -1)
	}
	ctx, cancel := context.WithTimeout(r.Context(), min(wait, maxWait))
	defer cancel()
	stop := context.AfterFunc(h.s.cfg.Shutdown, cancel)
	defer stop()
	return h.s.svc.Tables.Watch(ctx, actor, id, invite, since)
}

// waitSeconds converts a wait parameter in seconds, capped at maxWait
// before the conversion: a huge count of seconds times time.Second would
// overflow into a negative wait, and a long poll into a busy loop (issue 19).
func waitSeconds(n int) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(min(n, int(maxWait/time.Second))) * time.Second
}

// int64or0 reads an optional non-negative integer parameter and whether
// it was given.
func (q *query) int64or0(name string) (int64, bool) {
	s, ok := q.value(name)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	q.v.Check(err == nil && n >= 0 && n <= strictjson.MaxInteger, name, "invalid",
		fmt.Sprintf("must be an integer from 0 to %d", int64(strictjson.MaxInteger)))
	return n, true
}

// tableETag is the ETag of a table's state as seen from seat (-1: a
// spectator): it depends on nothing else, never on the caller's token.
func tableETag(id, version int64, seat int) string {
	who := "w"
	if seat >= 0 {
		who = strconv.Itoa(seat)
	}
	return fmt.Sprintf(`"t%d.v%d.s%s"`, id, version, who)
}

// etagVersion reads the version of a table ETag (0 when it is not one).
func etagVersion(etag string, id int64) int64 {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(strings.TrimSpace(etag), "W/"), fmt.Sprintf(`"t%d.v`, id))
	if !ok {
		return 0
	}
	v, _, _ := strings.Cut(rest, ".")
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// etagMatches reports whether an If-None-Match header lists etag.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

func notModified(w http.ResponseWriter, etag string) error {
	w.Header().Set("ETag", etag)
	w.WriteHeader(http.StatusNotModified)
	return nil
}

// callTimeOut is the referee's time-out of the running deal.
//
//	@Summary		Call the referee's time-out
//	@ID			callTableTimeOut
//	@Description	The referee's time-out (RULES §10): the running deal's last round of turns is played, then the deal ends and is scored as it stands (a closing during the round scores as always). The state's view.last_round says whose turn ends the deal and how many turns are left; the deal's record keeps timeout_at. Allowed to the table's referee: at a tournament's online table the tournament's referees and directors (while its staff_watch is on); at a club table the club's referees, admins and owners; at a friendly table its creator; site admins. Never to someone seated at the table, whoever they are (403 own_table): nobody referees their own match. Answers the new state as the caller sees it.
//	@Tags			tables
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int	true	"Table id"
//	@Success		200		{object}	TableState
//	@Header			200		{string}	ETag	"The new state's version as seen by the caller"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	403	{object}	Problem	"forbidden: not the table's referee; own_table: the caller sits at the table"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"conflict: the match is not being played"
//	@Failure	422	{object}	Problem	"not_allowed: the time-out was already called in this deal"
//	@Router			/api/v1/tables/{tableID}/timeout [post]
func (h tableHandlers) callTimeOut(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	st, err := h.s.svc.Tables.CallTimeOut(r.Context(), ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	w.Header().Set("ETag", tableETag(id, st.Table.Version, st.Seat))
	return respond(w, http.StatusOK, tableStateOut(st))
}

// replaceSeatByBot is a referee's replacement of a player by a bot.
//
//	@Summary		Replace a player by a bot (referee)
//	@ID			replaceTableSeatByBot
//	@Description	A referee's decision, with its reason: a bot stands in for the seat's player and plays its turns (at once when it is on turn), its moves marked by bot in the move feed, the last move and the deal's record; the seat shows stand_in referee and the reason. The player takes the seat back at their next turn once they are back: any request of theirs on the table (reading it, its state or its moves, a poll, a move attempt) marks the seat returning. Allowed to the table's referee: at a tournament's online table the tournament's referees and directors (while its staff_watch is on); at a club table the club's referees, admins and owners; at a friendly table its creator; site admins. Never to someone seated at the table, whoever they are (403 own_table): nobody referees their own match. Answers the new state as the caller sees it.
//	@Tags			tables
//	@Accept			json
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int					true	"Table id"
//	@Param			body	body		StandInRequest		true	"Which seat, and why"
//	@Success		200		{object}	TableState
//	@Header			200		{string}	ETag	"The new state's version as seen by the caller"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer; malformed_json: the body"
//	@Failure	403	{object}	Problem	"forbidden: not the table's referee; own_table: the caller sits at the table"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"conflict: the match is not being played, the seat is a bot's, or a bot already stands in for it"
//	@Failure	422	{object}	Problem	"invalid_input: seat (required, below the table's players), reason (required, at most 500 characters)"
//	@Router			/api/v1/tables/{tableID}/stand-ins [post]
func (h tableHandlers) replaceSeatByBot(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	var req StandInRequest
	if err := h.s.decode(w, r, &req); err != nil {
		return err
	}
	seat := -1
	if req.Seat != nil {
		seat = *req.Seat
	}
	st, err := h.s.svc.Tables.ReplaceByBot(r.Context(), ActorFrom(r.Context()), id, seat, req.Reason)
	if err != nil {
		return err
	}
	w.Header().Set("ETag", tableETag(id, st.Table.Version, st.Seat))
	return respond(w, http.StatusOK, tableStateOut(st))
}

// listTableDeals lists a table's deals.
//
//	@Summary		List a table's deals
//	@ID			listTableDeals
//	@Description	Every deal dealt, with the score of those that ended (the running one without). Seen by whoever may see the table.
//	@Tags			tables
//	@Produce		json
//	@Param			tableID	path		int		true	"Table id"
//	@Param			invite	query		string	false	"The invite code of a private table"
//	@Success		200		{object}	TableDealList
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@x-auth-optional	true
//	@Router			/api/v1/tables/{tableID}/deals [get]
func (h tableHandlers) listTableDeals(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	ds, err := h.s.svc.Tables.Deals(r.Context(), ActorFrom(r.Context()), id, r.URL.Query().Get("invite"))
	if err != nil {
		return err
	}
	return respond(w, http.StatusOK, TableDealList{Items: mapSlice(ds, tableDealOut)})
}

// dealRecord returns a finished deal's record.
//
//	@Summary		Get a finished deal's record
//	@ID			getDealRecord
//	@Description	For the table's players and creator (at a tournament's online table, its players and, while staff_watch is on, the tournament's referees and directors), once the deal has ended: the engine.Record JSON (seed, dealer, the cards dealt, every move with its seat, time and whether the server played it) that `burraco replay` reads. The cards (hands, rows, discard, pots, stock top first) make the record self-contained: applying the moves to them rebuilds every position without the server's shuffle; they are what the seed deals. A running deal's record is a 409 and reveals nothing.
//	@Tags			tables
//	@Produce		json
//	@Security		BearerAuth
//	@Param			tableID	path		int	true	"Table id"
//	@Param			number	path		int	true	"Deal number, from 1"
//	@Success		200		{object}	DealRecord
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	403	{object}	Problem	"forbidden: not a player nor the creator of the table"
//	@Failure	404	{object}	Problem	"not_found: no such table or deal, or a private table the caller may not see"
//	@Failure	409	{object}	Problem	"conflict: the deal is still being played"
//	@Router			/api/v1/tables/{tableID}/deals/{number}/record [get]
func (h tableHandlers) dealRecord(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	n, err := pathID(r, "number")
	if err != nil {
		return err
	}
	rec, err := h.s.svc.Tables.Record(r.Context(), ActorFrom(r.Context()), id, int(n))
	return answer(w, http.StatusOK, dealRecordOut, rec, err)
}
