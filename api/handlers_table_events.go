package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/burraco/burraco/domain"
)

// tableEvents streams a table's moves, deal changes and states as
// server-sent events.
//
//	@Summary		Stream a table's states (server-sent events)
//	@ID			streamTableEvents
//	@Description	A text/event-stream of the table as the caller sees it. Each event has an event name, an id (a table version) and one data line of JSON; openapi.yaml describes an event as an object {event, id, data} (TableEvent, one schema per event name, told apart by event) so that a generated client switches on event and reads data typed. "state" (id: VERSION, data: the TableState of the state endpoint) is the whole state; before it come, in the order they happened since the previous event, "move" (id: the move's VERSION, data: a PlayedMove as the move feed gives it, cards drawn by another seat hidden), one per move, bot moves one by one, so that a client can animate them, and "deal" (id: the VERSION that dealt the next deal, data: a DealChange: the ended deal with its score, the next deal as dealt) between the last move of a deal and the first of the next. The first event is the current state, unless Last-Event-ID (an EventSource resuming) names the current version (then nothing is resent) or an earlier one (then the moves and deal changes past it come first, from the deal it was in, then the state: none is skipped); an id past the current version gets the current state. States of versions that pass while an event is being written are coalesced (moves and deal changes never are). A comment line (": heartbeat") comes every 15 s when nothing changed. The stream is not under the request timeout; it ends when the client goes or the server shuts down (an EventSource reconnects with Last-Event-ID). A private table's events are for its creator, players and holders of its invite code. One user (anonymous: one client address) may hold at most 10 streams open at once (serve -max-event-streams): more are refused with 429 too_many_event_streams.
//	@Tags			tables
//	@Produce		text/event-stream
//	@Param			tableID			path		int		true	"Table id"
//	@Param			invite			query		string	false	"The invite code of a private table"
//	@Param			Last-Event-ID	header		string	false	"The version of the last event received: the stream starts past it"
//	@Success		200				{object}	TableEvent	"A stream of events: move (data: PlayedMove), deal (data: DealChange), state (data: TableState)"
//	@Failure	400	{object}	Problem	"invalid_parameter: a path id that is not a positive integer"
//	@Failure	404	{object}	Problem	"not_found: no such table, or a private table the caller may not see"
//	@Failure	429	{object}	Problem	"too_many_event_streams: the caller holds as many streams open as one may; retry after one ends"
//	@Header		429	{integer}	Retry-After	"seconds to wait before retrying"
//	@x-auth-optional	true
//	@Router			/api/v1/tables/{tableID}/events [get]
func (h tableHandlers) tableEvents(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "tableID")
	if err != nil {
		return err
	}
	release, err := h.s.hold(w, r, h.s.streams, &h.s.cfg.Metrics.streams, codeTooManyEventStreams, "event streams")
	if err != nil {
		return err
	}
	defer release()
	invite := r.URL.Query().Get("invite")
	actor := ActorFrom(r.Context())
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(h.s.cfg.Shutdown, cancel)
	defer stop()
	version, _, err := h.s.svc.Tables.Watch(ctx, actor, id, invite, -1) // visible? (answered from memory when known)
	if err != nil {
		return err
	}
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{}) // a stream outlives the server's write timeout
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil // the headers are the answer: a stream of nothing would never end
	}
	// Resuming at the current version: nothing to resend. Behind it, the
	// moves after the version the client saw, then the state. Past it (an
	// id the client made up, or from before a restore), the current state
	// first: waiting past a future id would leave the stream silent until
	// the table caught up with it (issue 19).
	pos := streamPos{version: -1}
	if sent := lastEventID(r); sent == version {
		pos.version = version
	} else if sent >= 0 && sent < version {
		pos.version = sent
	}
	if err := rc.Flush(); err != nil {
		return nil // the client is gone
	}
	for ctx.Err() == nil {
		if pos, err = h.nextEvent(ctx, w, actor, id, invite, pos); err != nil {
			if ctx.Err() == nil {
				h.s.log.WarnContext(r.Context(), "table events", "table_id", id, "request_id", RequestIDFrom(r.Context()), "err", err)
			}
			return nil // the status is sent: the stream ends
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
	}
	return nil
}

// streamPos is where an event stream stands: the version of the last
// event sent (-1: none yet).
type streamPos struct {
	version int64
}

// nextEvent waits up to a heartbeat for the table to move past pos and
// writes the moves made since (one event each, in order) and then the state,
// or a heartbeat comment when nothing moved; it returns where the stream
// stands then.
func (h tableHandlers) nextEvent(ctx context.Context, w http.ResponseWriter, actor domain.Actor, id int64, invite string, pos streamPos) (streamPos, error) {
	if pos.version >= 0 {
		wait, cancel := context.WithTimeout(ctx, h.s.cfg.EventsHeartbeat)
		version, _, err := h.s.svc.Tables.Watch(wait, actor, id, invite, pos.version)
		cancel()
		switch {
		case err != nil:
			return pos, err
		case ctx.Err() != nil:
			return pos, nil
		case version <= pos.version:
			_, err := fmt.Fprint(w, ": heartbeat\n\n")
			return pos, err
		}
	}
	read, cancel := context.WithTimeout(ctx, h.s.cfg.RequestTimeout)
	defer cancel()
	st, err := h.s.svc.Tables.State(read, actor, id, invite)
	if err != nil {
		return pos, err
	}
	if pos.version >= 0 {
		// Read after the state, the moves up to its version are all there.
		if err := h.writeMoves(read, w, actor, id, invite, pos, st.Table); err != nil {
			return pos, err
		}
	}
	err = writeEvent(w, eventState, st.Table.Version, tableStateOut(st))
	return streamPos{version: st.Table.Version}, err
}

// writeMoves writes, up to table t's version, a "move" event for each
// move past pos, and a "deal" event between the moves of a deal that ended
// and those of the next: the feed answers from the deal pos is in, which
// may be before t's (a stream resumed, or a deal that ended while an event
// was being written), so that no move and no deal change is skipped.
func (h tableHandlers) writeMoves(ctx context.Context, w http.ResponseWriter, actor domain.Actor, id int64, invite string, pos streamPos, t domain.Table) error {
	if t.DealNumber == 0 {
		return nil
	}
	since := pos.version
	for {
		f, err := h.s.svc.Tables.Moves(ctx, actor, id, invite, 0, since)
		if err != nil {
			return err
		}
		for _, m := range f.Moves {
			if m.Version > t.Version {
				return nil
			}
			if err := writeEvent(w, eventMove, m.Version, playedMoveOut(f.Deal, m)); err != nil {
				return err
			}
		}
		c := f.Change
		if c == nil || c.Version > t.Version || c.Version <= since {
			return nil // (a change without a version is from before moves had them)
		}
		if err := writeEvent(w, eventDeal, c.Version, dealChangeOut(*c)); err != nil {
			return err
		}
		since = c.Version
	}
}

// writeEvent writes one server-sent event.
func writeEvent(w http.ResponseWriter, event string, id int64, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", id, event, data)
	return err
}

// lastEventID reads the Last-Event-ID header: a version, or -1.
func lastEventID(r *http.Request) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(r.Header.Get("Last-Event-ID")), 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}
