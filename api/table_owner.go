package api

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/burraco/burraco/domain"
	"github.com/burraco/burraco/domain/lease"
	"github.com/burraco/burraco/internal/metrics"
)

// Forwarding of a table's requests to its owner process (issue 30,
// docs/SCALE-OUT.md §6). With several serve processes on PostgreSQL each
// playing table has one owner (domain/lease), which serves it from
// memory; a request for /api/v1/tables/{id}… that reaches another process
// takes the table's lease if nobody holds it live, and is otherwise
// reverse-proxied to the owner's internal address.
//
// For now ownership only routes: the any-process path below it (row
// lock, version check, notifications) stays, so a request served by a
// process that is not the owner (the lease store unreachable, say) is
// still served correctly, only at its old cost.

// codeTableOwnerMoved is the answer when a table's owner cannot be
// reached in time: 503 with Retry-After to a client; between two
// processes, 421 to a forwarded request whose receiver does not own the
// table (the forwarder then reads the lease again and retries once).
const codeTableOwnerMoved = string(domain.ETableOwnerMoved)

// forwardedHeader marks a request one process forwarded to another, with
// the forwarder's id: it is never forwarded again (at most one hop).
const forwardedHeader = "Burraco-Forwarded"

// TableOwners is what forwarding needs of the lease manager
// (*lease.Manager).
type TableOwners interface {
	Self() string
	// Fence is the fence of the table's writes while this process owns
	// it: the request served here carries it in its context, and the
	// store checks it in each write transaction (§4.3).
	Fence(table int64) (lease.Fence, bool)
	Acquire(ctx context.Context, table int64) (bool, error)
	Holder(ctx context.Context, table int64) (lease.Holder, error)
}

// ForwardConfig configures RouteTables. Zero fields take the defaults.
type ForwardConfig struct {
	Owners TableOwners
	// Internal says the handler serves the internal listener, where peers
	// forward: their Burraco-Forwarded header is honoured. On the public
	// listener a client's copy of it is dropped.
	Internal bool
	// OwnerGoneWait is how long a request waits for an unreachable
	// owner's lease to expire before it is answered 503; default 5 s.
	OwnerGoneWait time.Duration
	// Poll is how often the lease is read again meanwhile; default 250 ms.
	Poll time.Duration
	// MaxBodyBytes is the most a forwarded body is kept for a retry; a
	// larger one is served here (and refused by the API's own limit).
	// Default 1 MiB.
	MaxBodyBytes int64
	// Shutdown is done when the server shuts down: forwards under way (a
	// long poll waiting at the owner) are cut and answered 503
	// table_owner_moved, as the API's own long polls end at once, so that
	// the shutdown does not wait a minute on another process. Default:
	// never.
	Shutdown  context.Context
	Transport http.RoundTripper // default: kept-alive connections to peers
	Stats     *ForwardStats     // default: kept, not served
	Log       *slog.Logger      // default: discarded
}

// ForwardStats are forwarding's figures, by outcome (docs/metrics.md).
type ForwardStats struct {
	OK          atomic.Uint64 // answered by the owner
	OwnerGone   atomic.Uint64 // attempts that could not reach the owner
	Misdirected atomic.Uint64 // attempts the receiver answered 421
	Timeout     atomic.Uint64 // requests answered 503 table_owner_moved
	Local       atomic.Uint64 // requests served here after taking the lease

	hopsOnce sync.Once
	hops     *metrics.Histogram
}

// Durations is the histogram of the forwards the owner answered, from the
// hop's start to the end of the answer's copy, but for the requests that
// wait on purpose (a long poll, an event stream: their wait is not the
// hop's).
func (s *ForwardStats) Durations() *metrics.Histogram {
	s.hopsOnce.Do(func() { s.hops = metrics.NewHistogram(requestDurationBounds) })
	return s.hops
}

// waitsOnPurpose reports whether r is a long poll (since and a wait) or
// an event stream, whose answer comes when the table moves.
func waitsOnPurpose(r *http.Request) bool {
	if strings.HasSuffix(r.URL.Path, "/events") {
		return true
	}
	q := r.URL.Query()
	return q.Has("since") && q.Get("wait") != "" && q.Get("wait") != "0"
}

// RouteTables serves next for the requests of tables this process owns
// (or takes), and forwards the others to their owner.
func RouteTables(next http.Handler, cfg ForwardConfig) http.Handler {
	if cfg.OwnerGoneWait <= 0 {
		cfg.OwnerGoneWait = 5 * time.Second
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 250 * time.Millisecond
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.Transport == nil {
		cfg.Transport = peerTransport()
	}
	if cfg.Stats == nil {
		cfg.Stats = &ForwardStats{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Shutdown == nil {
		cfg.Shutdown = context.Background()
	}
	return &tableRouter{next: next, cfg: cfg, owners: map[int64]lease.Holder{}}
}

// peerTransport keeps connections to peers alive, so that a forward costs
// no handshake; it never uses an environment proxy (peers are on the
// private network), and gives up dialling a dead peer after a second.
func peerTransport() *http.Transport {
	return &http.Transport{
		DialContext:         (&net.Dialer{Timeout: time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 256,
		IdleConnTimeout:     90 * time.Second,
	}
}

type tableRouter struct {
	next http.Handler
	cfg  ForwardConfig

	// owners are the holders forwards reached, by table: a request for a
	// table of another live owner goes there with no statement (§6.1)
	// until a forward to it fails or is answered 421.
	mu     sync.Mutex
	owners map[int64]lease.Holder
}

// maxKnownOwners bounds owners; past it the map starts afresh (each
// entry is read again at its table's next request).
const maxKnownOwners = 100_000

func (t *tableRouter) knownOwner(id int64) (lease.Holder, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.owners[id]
	return h, ok
}

func (t *tableRouter) remember(id int64, h lease.Holder) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.owners) >= maxKnownOwners {
		clear(t.owners)
	}
	t.owners[id] = h
}

func (t *tableRouter) forget(id int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.owners, id)
}

// tableIDOf is the id of /api/v1/tables/{id} and the paths below it; ok
// is false for any other path (the lobby, a table's creation, an id that
// is not a number: the API answers those itself).
func tableIDOf(path string) (int64, bool) {
	rest, ok := strings.CutPrefix(path, "/api/v1/tables/")
	if !ok {
		return 0, false
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	return id, err == nil && id > 0
}

func (t *tableRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	forwarded := t.cfg.Internal && r.Header.Get(forwardedHeader) != ""
	if !t.cfg.Internal {
		r.Header.Del(forwardedHeader)
	}
	if forwarded {
		peeled(r)
	}
	id, ok := tableIDOf(r.URL.Path)
	if !ok || r.Method == http.MethodOptions {
		t.next.ServeHTTP(w, r)
		return
	}
	if t.serveOwned(w, r, id) {
		return
	}
	known, isKnown := t.knownOwner(id)
	if !isKnown || forwarded {
		if t.takeOrServe(w, r, id) {
			return
		}
	}
	if forwarded { // never a second hop: the forwarder reads the lease again
		t.refuse(w, r, http.StatusMisdirectedRequest, "this process does not own the table")
		return
	}
	body, ok := t.keepBody(w, r)
	if !ok {
		return
	}
	var first *lease.Holder
	if isKnown {
		first = &known
	}
	t.forward(w, r, id, body, first)
}

// peeled gives a forwarded request the client address its forwarder saw
// (the last X-Forwarded-For entry, which the hop appended) instead of the
// forwarder's, and drops that entry: the request then reaches the API as
// it reached the forwarder, so that the limits per client address (an
// anonymous spectator's long polls) and the access log see the client,
// whatever the API's trusted proxies are. Peers are trusted: the internal
// listener is on a private network.
func peeled(r *http.Request) {
	all := strings.Join(r.Header.Values("X-Forwarded-For"), ",")
	i := strings.LastIndexByte(all, ',')
	last, rest := strings.TrimSpace(all[i+1:]), strings.TrimSpace(all[:max(i, 0)])
	if net.ParseIP(last) == nil {
		return
	}
	r.RemoteAddr = net.JoinHostPort(last, "0")
	if rest == "" {
		r.Header.Del("X-Forwarded-For")
	} else {
		r.Header.Set("X-Forwarded-For", rest)
	}
}

// takeOrServe takes table id's lease if nobody holds it live and serves r
// here; true when r is answered. A lease store that fails is served here
// too: the any-process path is correct, only dearer.
func (t *tableRouter) takeOrServe(w http.ResponseWriter, r *http.Request, id int64) bool {
	ok, err := t.cfg.Owners.Acquire(r.Context(), id)
	if err != nil {
		t.cfg.Log.Warn("table lease: acquire failed; serving the table here", "table", id, "err", err)
	}
	if err != nil {
		t.cfg.Stats.Local.Add(1)
		t.next.ServeHTTP(w, r) // unfenced: the any-process path
		return true
	}
	if ok && t.serveOwned(w, r, id) {
		t.cfg.Stats.Local.Add(1)
		return true
	}
	return false
}

// serveOwned serves r here, its writes fenced, if this process owns table
// id; false when it does not.
func (t *tableRouter) serveOwned(w http.ResponseWriter, r *http.Request, id int64) bool {
	f, ok := t.cfg.Owners.Fence(id)
	if !ok {
		return false
	}
	t.next.ServeHTTP(w, r.WithContext(lease.WithFence(r.Context(), f)))
	return true
}

// keepBody reads r's body so that a forward can be sent again; a body
// over the limit is served here instead (the API refuses it), and ok is
// false. r keeps the body too, unread: forward may serve r here after all
// (the owner gone and its lease taken over, the table unknown to the
// leases), and the API reads it then.
func (t *tableRouter) keepBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, true
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, t.cfg.MaxBodyBytes+1))
	if err != nil || int64(len(b)) > t.cfg.MaxBodyBytes {
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), r.Body))
		t.next.ServeHTTP(w, r)
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b, true
}

// errMisdirected is a forward the receiver answered 421: the lease moved
// during the hop.
var errMisdirected = errors.New("the receiver does not own the table")

// forward sends r to table id's owner, reading the lease again after a
// 421 (once) or while the owner cannot be reached: once its lease expires
// this process takes the table and serves r itself (§6.3). Past
// OwnerGoneWait from the first failure (a long poll may have waited a
// minute at the owner before it was killed), or at a second 421, r is
// answered 503.
// known, when not nil, is the holder a forward reached last time: tried
// first without reading the lease.
func (t *tableRouter) forward(w http.ResponseWriter, r *http.Request, id int64, body []byte, known *lease.Holder) {
	var deadline time.Time
	misdirected := 0
	for {
		var h lease.Holder
		var err error
		if known != nil {
			h, known = *known, nil
		} else {
			h, err = t.cfg.Owners.Holder(r.Context(), id)
		}
		switch {
		case errors.Is(err, lease.ErrNoLease): // no such table (Acquire inserts none): the API says 404
			t.next.ServeHTTP(w, r)
			return
		case err != nil:
			t.cfg.Log.Warn("table lease: holder unknown; serving the table here", "table", id, "err", err)
			t.next.ServeHTTP(w, r)
			return
		case !h.Live || h.Owner == t.cfg.Owners.Self():
			if t.takeOrServe(w, r, id) {
				return
			}
			continue // another was faster: forward to it
		case h.Addr != "":
			if waitsOnPurpose(r) {
				// Its answer comes when the table moves, at the owner: it
				// must not hold one of the admission's places meanwhile.
				WaitsLong(r)
			}
			start := time.Now()
			var status int
			status, err = t.proxy(w, r, h, body)
			if err == nil {
				t.forwarded(r, id, h, status, time.Since(start))
				t.remember(id, h)
				return
			}
			t.forget(id)
			if t.cfg.Shutdown.Err() != nil && r.Context().Err() == nil {
				t.refuse(w, r, http.StatusServiceUnavailable, "this server process is shutting down; try again")
				return
			}
			if errors.Is(err, errMisdirected) {
				t.cfg.Stats.Misdirected.Add(1)
				if misdirected++; misdirected == 1 {
					continue
				}
				t.refuse(w, r, http.StatusServiceUnavailable, "the table's owner moved twice during the request; try again")
				t.cfg.Stats.Timeout.Add(1)
				return
			}
			t.cfg.Stats.OwnerGone.Add(1)
		}
		// The owner is gone (unreachable, or unregistered) while its
		// lease lives: wait for it to expire.
		if r.Context().Err() != nil {
			return
		}
		if deadline.IsZero() {
			deadline = time.Now().Add(t.cfg.OwnerGoneWait)
		}
		if !time.Now().Add(t.cfg.Poll).Before(deadline) {
			t.cfg.Stats.Timeout.Add(1)
			t.refuse(w, r, http.StatusServiceUnavailable, "the table's server process is not reachable yet; try again")
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(t.cfg.Poll):
		}
	}
}

// forwarded counts and logs a forward the owner answered with status,
// after took: the owner's access log has the request too, under the same
// request id (proxy sends one when the client did not).
func (t *tableRouter) forwarded(r *http.Request, id int64, h lease.Holder, status int, took time.Duration) {
	t.cfg.Stats.OK.Add(1)
	if !waitsOnPurpose(r) {
		t.cfg.Stats.Durations().Observe(took)
	}
	t.cfg.Log.Info("forwarded", "request_id", r.Header.Get("X-Request-Id"), "table", id, "owner", h.Addr,
		"method", r.Method, "path", r.URL.Path, "status", status, "duration", took)
}

// proxy sends r to h's address and copies the answer as it is written
// (long polls, event streams): the owner's status and nil when the owner
// answered (anything but a 421), else why not, and nothing is written to
// w. A request without a valid X-Request-ID is given one (in r too), so
// that the forwarder's log line and the owner's share it.
func (t *tableRouter) proxy(w http.ResponseWriter, r *http.Request, h lease.Holder, body []byte) (int, error) {
	if !validRequestID(r.Header.Get("X-Request-Id")) {
		r.Header.Set("X-Request-Id", newRequestID())
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(t.cfg.Shutdown, cancel)()
	in := r.Clone(ctx)
	in.Body, in.ContentLength = http.NoBody, 0
	if body != nil {
		in.Body, in.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
	target := &url.URL{Scheme: "http", Host: h.Addr}
	var failed error
	status := 0
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host
			pr.SetXForwarded() // the client's address appended to the In's X-Forwarded-For (peeled off by the owner)
			pr.Out.Header.Set(forwardedHeader, t.cfg.Owners.Self())
		},
		Transport:     t.cfg.Transport,
		FlushInterval: -1,
		ModifyResponse: func(res *http.Response) error {
			if res.StatusCode == http.StatusMisdirectedRequest {
				return errMisdirected
			}
			status = res.StatusCode
			return nil
		},
		ErrorHandler: func(_ http.ResponseWriter, _ *http.Request, err error) { failed = err },
	}
	rp.ServeHTTP(w, in)
	return status, failed
}

// refuse answers table_owner_moved with status (421 to a peer, 503 with
// Retry-After to a client).
func (t *tableRouter) refuse(w http.ResponseWriter, r *http.Request, status int, detail string) {
	// Outside the router, which gives every other answer its request id.
	id := r.Header.Get("X-Request-Id")
	if !validRequestID(id) {
		id = newRequestID()
	}
	w.Header().Set("X-Request-Id", id)
	p := newProblem(r, codeTableOwnerMoved, detail)
	p.Status, p.RequestID = status, id
	writeProblem(w, p)
}
