package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/burraco/burraco/domain"
)

// stateCache keeps the marshalled state of a table's current version per
// viewer, so that the polls a move wakes (every player, and any number of
// spectators) read the table and build its view once per seat, not once
// each. A state is the same for every caller with the same seat at the same
// version, except: the invite code (shown to the creator and the players:
// a seated caller always sees it, an anonymous one never; logged-in
// spectators, who might be the creator, are not cached) and the clocks'
// seconds left (a table with clocks is not cached). Only the newest version
// of a table is kept, for at most maxStateTables tables.
type stateCache struct {
	mu     sync.Mutex
	tables map[int64]*tableStates
	// ownerWrote, when set (tests only), runs in the owner of a shared
	// read between writing its result and closing done: the moment in
	// which a waiter whose request has ended must read nothing of it.
	ownerWrote func()
}

// maxStateTables bounds the cache (a few kB per seat and table).
const maxStateTables = 4096

type tableStates struct {
	version int64
	bodies  map[int]*stateCall // by viewer: the seat, or -1 for anonymous
}

// stateCall is one state being read, or read: waiters share its result.
type stateCall struct {
	done chan struct{}
	body []byte
	ok   bool
}

func newStateCache() *stateCache { return &stateCache{tables: map[int64]*tableStates{}} }

// viewerKey is the cache key of a caller at seat, and whether the caller's
// state may be cached at all.
func viewerKey(actor domain.Actor, seat int) (int, bool) {
	switch {
	case seat >= 0:
		return seat, true
	case actor.Anonymous():
		return -1, true
	}
	return 0, false
}

// answerState answers 200 with the state of table id at version (or newer)
// as the caller at seat sees it, from the cache when it holds it, else
// read (once for every concurrent caller of the same key) and cached. once
// says the caller reads this version once (a long poll: its next request
// waits for the next version): a seat's body is then released as soon as it
// is answered, instead of staying until the table moves (at human pace, four
// bodies of a few kB a table for seconds; issue 30's memory). An anonymous
// body stays: any number of spectators read it.
func (h tableHandlers) answerState(w http.ResponseWriter, r *http.Request, id int64, invite string, version int64, seat int, once bool) error {
	actor := ActorFrom(r.Context())
	key, ok := viewerKey(actor, seat)
	if !ok {
		return h.readState(w, r, id, invite)
	}
	c := h.s.states
	c.mu.Lock()
	ts := c.tables[id]
	if ts == nil || ts.version < version {
		if ts == nil && len(c.tables) >= maxStateTables {
			for old := range c.tables { // any one: maps iterate in random order
				delete(c.tables, old)
				break
			}
		}
		ts = &tableStates{version: version, bodies: map[int]*stateCall{}}
		c.tables[id] = ts
	}
	call := ts.bodies[key]
	owner := call == nil && ts.version == version
	if owner {
		call = &stateCall{done: make(chan struct{})}
		ts.bodies[key] = call
	}
	// A body held for a newer version than asked (the cache moved on) is
	// that version's state: its ETag says so, not the version asked.
	version = ts.version
	c.mu.Unlock()
	if call == nil { // the cache moved past version: read it fresh
		return h.readState(w, r, id, invite)
	}
	if owner {
		call.body, call.ok = h.stateBody(r, id, invite, version, seat)
		if c.ownerWrote != nil {
			c.ownerWrote()
		}
		close(call.done)
		if !call.ok {
			c.drop(id, version, key, call)
		}
	} else {
		select {
		case <-call.done:
		case <-r.Context().Done():
			// The owner may still be writing call: read nothing of it
			// (as the owner's failure would, the state is read afresh,
			// which ends at once on the done context).
			return h.readState(w, r, id, invite)
		}
	}
	if !call.ok {
		return h.readState(w, r, id, invite)
	}
	if once && key >= 0 {
		c.drop(id, version, key, call) // those sharing call hold it still
	}
	w.Header().Set("ETag", tableETag(id, version, seat))
	w.Header().Set("Content-Type", "application/json")
	ps, _ := h.s.svc.Tables.Presence(id)
	if len(ps) == 0 || !bytes.HasSuffix(call.body, []byte("}\n")) {
		w.Header().Set("Content-Length", strconv.Itoa(len(call.body))) // as writeJSON answers
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(call.body)
		return nil
	}
	// The cached body ends with "}\n": the presence, which changes without
	// a version, goes in as its last field, in a buffer kept for the next
	// answer (one write, no garbage).
	buf := answerBufs.Get().(*[]byte)
	end := len(call.body) - 2
	b := append((*buf)[:0], call.body[:end]...)
	b = append(appendPresence(b, ps), call.body[end:]...)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
	if cap(b) <= maxAnswerBuf {
		*buf = b
		answerBufs.Put(buf)
	}
	return nil
}

// answerBufs are the buffers of the states answered with their presence;
// one larger than maxAnswerBuf is not kept.
var answerBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

const maxAnswerBuf = 64 << 10

// appendPresence appends `,"presence":[…]`, the encoding/json encoding of
// presenceOut(ps) (TestPresenceEncodingIsJSONs), without its reflection nor
// the copy: it is on every poll's answer.
func appendPresence(b []byte, ps []domain.SeatPresence) []byte {
	b = append(b, `,"presence":[`...)
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"seat":`...)
		b = strconv.AppendInt(b, int64(p.Seat), 10)
		if p.Present {
			b = append(b, `,"state":"present","since":"`...)
		} else {
			b = append(b, `,"state":"gone","since":"`...)
		}
		b = p.Since.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
		if p.WindowEnds != nil {
			b = append(b, `,"window_ends":"`...)
			b = p.WindowEnds.UTC().AppendFormat(b, time.RFC3339Nano)
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// offer keeps body as the state of table id at version for the viewer
// key, unless the cache holds a newer version of the table or already has
// that viewer's: the answer to a move is the mover's state at the new
// version, which the mover's next poll reads.
func (c *stateCache) offer(id, version int64, key int, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ts := c.tables[id]
	if ts == nil || ts.version < version {
		if ts == nil && len(c.tables) >= maxStateTables {
			return
		}
		ts = &tableStates{version: version, bodies: map[int]*stateCall{}}
		c.tables[id] = ts
	}
	if ts.version != version || ts.bodies[key] != nil {
		return
	}
	done := make(chan struct{})
	close(done)
	ts.bodies[key] = &stateCall{done: done, body: body, ok: true}
}

// stateBody reads the state for the cache: ok only when it is the state of
// exactly version and seat, without clocks.
func (h tableHandlers) stateBody(r *http.Request, id int64, invite string, version int64, seat int) ([]byte, bool) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), h.s.cfg.RequestTimeout)
	defer cancel()
	st, err := h.s.svc.Tables.State(ctx, ActorFrom(r.Context()), id, invite)
	if err != nil || st.Table.Version != version || st.Seat != seat || st.TurnLeft != nil || st.MatchLeft != nil {
		return nil, false
	}
	st.Presence = nil // answerState adds it as it is when it answers
	b, err := h.encodeState(st)
	if err != nil {
		return nil, false
	}
	return append(b, '\n'), true // as respond writes it
}

// encodeState is json.Marshal of st's answer, its table taken from the
// tables' kept encodings (stampedItems, by domain.Table.ShownStamp), which
// the lobby shares: the states of the seats of one version (and the lobby)
// encode their table once. The table is the answer's first field.
func (h tableHandlers) encodeState(st domain.TableState) ([]byte, error) {
	table, err := h.tableBody(st.Table)
	if err != nil {
		return json.Marshal(tableStateOut(st))
	}
	// The rest is written by hand (state_json.go) into a pooled buffer,
	// then copied once into a body of its exact size (the answer's bytes
	// were a fifth of a load run's allocations), with room for the newline
	// the callers append (respond's form): without it that append copied
	// every body kept in the cache into a buffer a quarter larger.
	rest := tableStateRestOut(st)
	buf := pooledBody()
	defer releaseBody(buf)
	b, ok := appendStateRest(buf.AvailableBuffer(), &rest)
	if !ok { // a value encoding/json writes otherwise (state_json.go)
		return json.Marshal(tableStateOut(st))
	}
	buf.Write(b) // the pool keeps the grown buffer
	body := make([]byte, 0, len(`{"table":`)+len(table)+len(b)+1)
	body = append(body, `{"table":`...)
	body = append(body, table...)
	return append(body, b...), nil
}

// tableBody is t's answer encoded, kept by its ShownStamp.
func (h tableHandlers) tableBody(t domain.Table) ([]byte, error) {
	key := t.ShownStamp()
	if body, ok := h.s.stampedItems.get(key); ok {
		return body, nil
	}
	var buf bytes.Buffer
	if err := encodeJSON(&buf, tableOut(t)); err != nil {
		return nil, err
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	h.s.stampedItems.put(key, body)
	return body, nil
}

// drop forgets a failed read, so that the next caller tries again.
func (c *stateCache) drop(id, version int64, key int, call *stateCall) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ts := c.tables[id]; ts != nil && ts.version == version && ts.bodies[key] == call {
		delete(ts.bodies, key)
	}
}

// readState answers the state read from the database, uncached.
func (h tableHandlers) readState(w http.ResponseWriter, r *http.Request, id int64, invite string) error {
	ctx, cancel := context.WithTimeout(r.Context(), h.s.cfg.RequestTimeout)
	defer cancel()
	st, err := h.s.svc.Tables.State(ctx, ActorFrom(r.Context()), id, invite)
	if err != nil {
		return err
	}
	etag := tableETag(id, st.Table.Version, st.Seat)
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		return notModified(w, etag)
	}
	w.Header().Set("ETag", etag)
	return respond(w, http.StatusOK, tableStateOut(st))
}
