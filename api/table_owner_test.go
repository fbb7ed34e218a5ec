package api_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/api"
	"github.com/burraco/burraco/domain/lease"
	"github.com/burraco/burraco/domain/store"
	"github.com/burraco/burraco/domain/store/storetest"
)

// proc is one server process of a table-ownership test: the real router
// over its own store handle, behind the forwarding of its public
// listener (env.h), its internal listener, and its lease manager.
type proc struct {
	*env
	shutdown context.CancelFunc // ends its forwards, as serve's shutdown does
	leases   *lease.Manager
	reads    *countingOwners // the lease reads of its forwarding
	internal *httptest.Server
	stats    *api.ForwardStats
}

// countingOwners counts the lease statements forwarding makes.
type countingOwners struct {
	*lease.Manager
	acquires, holders atomic.Int32
}

func (c *countingOwners) Acquire(ctx context.Context, table int64) (bool, error) {
	c.acquires.Add(1)
	return c.Manager.Acquire(ctx, table)
}

func (c *countingOwners) Holder(ctx context.Context, table int64) (lease.Holder, error) {
	c.holders.Add(1)
	return c.Manager.Holder(ctx, table)
}

// newProcs starts n processes over one fresh PostgreSQL schema, with
// leases of ttl (not renewed: the tests move time by waiting) and
// forwards that wait out a gone owner for at most wait.
func newProcs(t *testing.T, n int, ttl, wait time.Duration) []*proc {
	t.Helper()
	databaseURL := storetest.PostgresURL(t)
	var out []*proc
	for range n {
		db := storetest.Open(t, databaseURL)
		e := newEnv(t, db)
		leases, err := db.Leases()
		if err != nil {
			t.Fatal(err)
		}
		shutdown, stop := context.WithCancel(context.Background())
		t.Cleanup(stop)
		p := &proc{env: e, stats: &api.ForwardStats{}, shutdown: stop}
		inner := e.h
		p.internal = httptest.NewUnstartedServer(nil)
		p.leases, err = lease.NewManager(lease.Config{Store: leases, Addr: p.internal.Listener.Addr().String(), TTL: ttl,
			Moved: e.svc.Tables.Forget})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.leases.Register(t.Context()); err != nil {
			t.Fatal(err)
		}
		p.reads = &countingOwners{Manager: p.leases}
		cfg := api.ForwardConfig{Owners: p.reads, Stats: p.stats, OwnerGoneWait: wait, Poll: 50 * time.Millisecond, Shutdown: shutdown,
			Log: slog.New(slog.NewTextHandler(e.logs, nil))}
		internal := cfg
		internal.Internal = true
		p.internal.Config.Handler = api.RouteTables(inner, internal)
		p.internal.Start()
		t.Cleanup(p.internal.Close)
		e.h = api.RouteTables(inner, cfg)
		out = append(out, p)
	}
	return out
}

// TestForwardingServesATableFromItsOwner: two processes; the first
// request for a table takes its lease (A); every request for it that
// reaches B is answered by A through the hop: a state, a move, a long
// poll woken by a move on A, an event stream flushed as it is written.
func TestForwardingServesATableFromItsOwner(t *testing.T) {
	ps := newProcs(t, 2, time.Minute, 5*time.Second)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	if !a.leases.Owns(tb.ID) || b.leases.Owns(tb.ID) {
		t.Fatalf("A owns %v, B owns %v; want A only", a.leases.Owns(tb.ID), b.leases.Owns(tb.ID))
	}
	t.Run("StateOnTheOtherIsTheOwners", func(t *testing.T) {
		before := b.stats.OK.Load()
		stA, _ := a.state(tokens[0], tb.ID)
		stB, _ := b.state(tokens[0], tb.ID)
		if stB.Version != stA.Version || b.stats.OK.Load() != before+1 || b.leases.Owns(tb.ID) {
			t.Errorf("B's state at version %d (A's %d), %d forwarded; B owns it: %v",
				stB.Version, stA.Version, b.stats.OK.Load()-before, b.leases.Owns(tb.ID))
		}
	})
	t.Run("KnownOwnerIsReachedWithoutReadingTheLease", func(t *testing.T) {
		b.state(tokens[0], tb.ID) // the owner is known from here on
		acquires, holders := b.reads.acquires.Load(), b.reads.holders.Load()
		b.state(tokens[1], tb.ID)
		if a, h := b.reads.acquires.Load()-acquires, b.reads.holders.Load()-holders; a != 0 || h != 0 {
			t.Errorf("a forward to the known owner read the lease: %d acquires, %d holder reads", a, h)
		}
	})
	t.Run("MoveOnTheOtherIsPlayedByTheOwner", func(t *testing.T) {
		g, _ := serverGame(t, a.db, tb.ID)
		st, _ := a.state(tokens[0], tb.ID)
		before := b.stats.OK.Load()
		b.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[g.Turn()],
			Body: moveBody(t, chooser{rand.New(rand.NewPCG(5, 6))}.choose(g, g.Turn()), st.Version)}, nil)
		if after, _ := a.state(tokens[0], tb.ID); after.Version != st.Version+1 || b.stats.OK.Load() != before+1 {
			t.Errorf("after a move sent to B: A's version %d (want %d), %d forwarded", after.Version, st.Version+1, b.stats.OK.Load()-before)
		}
	})
	t.Run("LongPollWokenThroughTheHop", func(t *testing.T) {
		if took := pollAfterMove(t, a.db, a.env, b.env, tb.ID, tokens); took > wokenWithin {
			t.Errorf("B's forwarded poll answered %v after A's move", took)
		}
	})
	t.Run("EventStreamFlushedThroughTheHop", func(t *testing.T) {
		srvB := httptest.NewServer(b.h)
		defer srvB.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stream := openEvents(t, ctx, srvB.URL+tablePath(tb.ID, "events"), tokens[1], "")
		first := stateOfEvent(t, stream.next(t, false))
		g, _ := serverGame(t, a.db, tb.ID)
		a.must(200, req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[g.Turn()],
			Body: moveBody(t, chooser{rand.New(rand.NewPCG(7, 8))}.choose(g, g.Turn()), first.Version)}, nil)
		if _, ev := stream.nextState(t); ev.Version != first.Version+1 {
			t.Errorf("B's event stream: version %d after a move on A at version %d", ev.Version, first.Version)
		}
	})
	t.Run("ForwardedRequestToANonOwnerIs421", func(t *testing.T) {
		hr, _ := http.NewRequest("GET", b.internal.URL+tablePath(tb.ID, "state"), nil)
		hr.Header.Set("Authorization", "Bearer "+tokens[0])
		hr.Header.Set("Burraco-Forwarded", a.leases.Self())
		res := sendRaw(t, hr)
		if res.Status != http.StatusMisdirectedRequest || problem(t, res).Code != "table_owner_moved" {
			t.Errorf("a forwarded request to B, which does not own the table: %d %s", res.Status, res.Body)
		}
	})
	t.Run("OwnerSeesTheClientsAddress", func(t *testing.T) {
		for _, c := range []struct {
			name, xff, want string
		}{
			{"Direct", "", "client=198.51.100.7"},
			{"BehindAnUntrustedProxy", "203.0.113.9", "client=198.51.100.8"},
		} {
			t.Run(c.name, func(t *testing.T) {
				remote := "198.51.100.7:4321"
				h := map[string]string{}
				if c.xff != "" {
					remote, h["X-Forwarded-For"] = "198.51.100.8:4321", c.xff
				}
				b.must(200, req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: tokens[0], RemoteAddr: remote, Header: h}, nil)
				if !strings.Contains(a.logs.String(), c.want) {
					t.Errorf("the owner's log has no %s:\n%s", c.want, a.logs.String())
				}
			})
		}
	})
	t.Run("ClientsForwardedHeaderIsIgnored", func(t *testing.T) {
		b.must(200, req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: tokens[0],
			Header: map[string]string{"Burraco-Forwarded": "forged"}}, nil)
	})
}

// TestADeposedOwnersWriteIsFencedThenForwarded: an owner that lost its
// lease without knowing it (no renewal yet) serves a move from memory: its
// write is refused by the fence (503 table_owner_moved, nothing played),
// it forgets the table at once, and the same move sent again is forwarded
// to the new owner and played.
func TestADeposedOwnersWriteIsFencedThenForwarded(t *testing.T) {
	ps := newProcs(t, 2, time.Minute, 5*time.Second)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	leases := leaseStore(t, a.db)
	if err := leases.Release(t.Context(), a.leases.Self()); err != nil {
		t.Fatal(err)
	}
	if ok, err := b.leases.Acquire(t.Context(), tb.ID); err != nil || !ok {
		t.Fatalf("B's takeover: %v %v", ok, err)
	}
	g, _ := serverGame(t, a.db, tb.ID)
	st, _ := b.state(tokens[0], tb.ID)
	move := req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[g.Turn()],
		Body: moveBody(t, chooser{rand.New(rand.NewPCG(9, 10))}.choose(g, g.Turn()), st.Version)}
	res := a.do(move)
	if res.Status != http.StatusServiceUnavailable || problem(t, res).Code != "table_owner_moved" {
		t.Fatalf("a move on the deposed owner: %d %s", res.Status, res.Body)
	}
	if after, _ := b.state(tokens[0], tb.ID); after.Version != st.Version {
		t.Fatalf("the fenced move was played: version %d, was %d", after.Version, st.Version)
	}
	a.must(200, move, nil)
	if after, _ := b.state(tokens[0], tb.ID); after.Version != st.Version+1 || a.stats.OK.Load() == 0 {
		t.Errorf("the move sent again: version %d (want %d), forwarded %d", after.Version, st.Version+1, a.stats.OK.Load())
	}
	if s := a.leases.Stats(); s.FencedWrites != 1 {
		t.Errorf("fenced writes %d, want 1", s.FencedWrites)
	}
}

// TestPresenceIsTheOwnersWhicheverProcessIsAsked: a player whose polls
// reach the process that does not own the table is present at the owner
// (the polls are forwarded there), so either process shows the table's
// whole presence, not the polls it happens to serve.
func TestPresenceIsTheOwnersWhicheverProcessIsAsked(t *testing.T) {
	ps := newProcs(t, 2, time.Minute, 5*time.Second)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	a.clock.Add(time.Minute) // seat 1's join and start on A are long past
	b.clock.Add(time.Minute)
	if st, _ := a.state(tokens[0], tb.ID); presenceOf(t, st, 1).State != "gone" {
		t.Fatalf("seat 1 after a minute without a request: %+v", presenceOf(t, st, 1))
	}
	b.state(tokens[1], tb.ID) // seat 1 polls B, which does not own the table
	for name, p := range map[string]*proc{"owner": a, "other": b} {
		if st, _ := p.state(tokens[0], tb.ID); presenceOf(t, st, 1).State != "present" {
			t.Errorf("on the %s, seat 1 after its poll on B: %+v", name, presenceOf(t, st, 1))
		}
	}
}

// TestAForwardedLongPollEndsWithTheForwardersShutdown: a long poll
// forwarded to the owner, waiting there, is cut when the forwarder shuts
// down and answered 503 table_owner_moved (the client polls again,
// elsewhere), so that the forwarder's shutdown does not wait on it.
func TestAForwardedLongPollEndsWithTheForwardersShutdown(t *testing.T) {
	ps := newProcs(t, 2, time.Minute, 5*time.Second)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	st, _ := a.state(tokens[0], tb.ID)
	answered := make(chan response, 1)
	go func() {
		answered <- b.do(req{Method: "GET", Path: fmt.Sprintf("%s?since=%d&wait=20", tablePath(tb.ID, "state"), st.Version), Token: tokens[0]})
	}()
	time.Sleep(200 * time.Millisecond) // the poll waits at A
	b.shutdown()
	select {
	case res := <-answered:
		if res.Status != http.StatusServiceUnavailable || problem(t, res).Code != "table_owner_moved" {
			t.Errorf("the forwarded poll at the forwarder's shutdown: %d %s", res.Status, res.Body)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the forwarded poll still waits 5 s after the forwarder's shutdown")
	}
}

// TestForwardingTakesOverFromAGoneOwner: the owner is killed (its
// internal listener closed, its leases not renewed nor released): a
// request to the other process waits until the lease expires, takes the
// table and answers, at a version at or above the last one shown.
func TestForwardingTakesOverFromAGoneOwner(t *testing.T) {
	const ttl = 1500 * time.Millisecond
	ps := newProcs(t, 2, ttl, 5*time.Second)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	shown, _ := a.state(tokens[0], tb.ID)
	a.internal.CloseClientConnections()
	a.internal.Close()
	start := time.Now()
	st, _ := b.state(tokens[0], tb.ID)
	took := time.Since(start)
	if st.Version < shown.Version || !b.leases.Owns(tb.ID) || b.stats.OwnerGone.Load() == 0 || b.leases.Stats().Takeovers != 1 {
		t.Errorf("after A was killed B answered version %d (A showed %d); B owns it: %v; owner gone %d times; takeovers %d",
			st.Version, shown.Version, b.leases.Owns(tb.ID), b.stats.OwnerGone.Load(), b.leases.Stats().Takeovers)
	}
	if took > ttl+time.Second {
		t.Errorf("B answered %v after A was killed; the lease lasts %v", took, ttl)
	}
	t.Logf("B took the table over and answered %v after A was killed (lease %v)", took, ttl)
}

// TestAMoveServedHereAfterItsOwnerWentKeepsItsBody: a move that reaches a
// process which does not own its table is read whole to be forwarded
// (and sent again after a 421); when the owner turns out gone and this
// process takes the table over and serves the move itself, the move's
// body is still there. It was read already, and the move answered
// malformed_json ("the request body is empty"): a load run's join did.
func TestAMoveServedHereAfterItsOwnerWentKeepsItsBody(t *testing.T) {
	const ttl = 1500 * time.Millisecond
	ps := newProcs(t, 2, ttl, 5*time.Second)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	g, _ := serverGame(t, a.db, tb.ID)
	st, _ := a.state(tokens[0], tb.ID)
	a.internal.CloseClientConnections()
	a.internal.Close()
	res := b.do(req{Method: "POST", Path: tablePath(tb.ID, "moves"), Token: tokens[g.Turn()],
		Body: moveBody(t, chooser{rand.New(rand.NewPCG(7, 8))}.choose(g, g.Turn()), st.Version)})
	if res.Status != http.StatusOK || !b.leases.Owns(tb.ID) {
		t.Fatalf("a move sent to B once A was gone: %d %s; B owns the table: %v", res.Status, res.Body, b.leases.Owns(tb.ID))
	}
	if after, _ := b.state(tokens[0], tb.ID); after.Version != st.Version+1 {
		t.Errorf("after the move B shows version %d; want %d", after.Version, st.Version+1)
	}
}

// TestForwardingAnswers503WhenTheOwnerStaysGone: an owner that cannot be
// reached while its lease lives past the wait: 503 table_owner_moved with
// Retry-After, not a hang and not a 502.
func TestForwardingAnswers503WhenTheOwnerStaysGone(t *testing.T) {
	ps := newProcs(t, 2, time.Minute, 300*time.Millisecond)
	a, b := ps[0], ps[1]
	tb, tokens := twoHumans(a.env)
	a.internal.Close()
	res := b.do(req{Method: "GET", Path: tablePath(tb.ID, "state"), Token: tokens[0]})
	if res.Status != http.StatusServiceUnavailable || problem(t, res).Code != "table_owner_moved" || res.Header.Get("Retry-After") != "1" {
		t.Errorf("owner gone past the wait: %d %v %s", res.Status, res.Header, res.Body)
	}
	if b.stats.Timeout.Load() != 1 {
		t.Errorf("timeouts counted: %d, want 1", b.stats.Timeout.Load())
	}
}

// TestForwardingRetriesAMisdirectedRequestOnce: a receiver that answers
// 421 (the lease moved during the hop) is tried once more after the lease
// is read again; a second 421 is answered 503 to the client, so a request
// makes at most two hops.
func TestForwardingRetriesAMisdirectedRequestOnce(t *testing.T) {
	ps := newProcs(t, 1, time.Minute, 5*time.Second)
	b := ps[0]
	tb, tokens := twoHumans(b.env)
	var hits atomic.Int32
	stale := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Burraco-Forwarded") != b.leases.Self() {
			t.Errorf("forwarded with Burraco-Forwarded %q, want %q", r.Header.Get("Burraco-Forwarded"), b.leases.Self())
		}
		w.WriteHeader(http.StatusMisdirectedRequest)
	}))
	defer stale.Close()
	// Another process "z" holds the table live, at an address that answers
	// 421 to everything; B's own lease is gone.
	leases := leaseStore(t, b.db)
	if err := leases.Release(t.Context(), b.leases.Self()); err != nil {
		t.Fatal(err)
	}
	if err := leases.Register(t.Context(), "z", stale.Listener.Addr().String()); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := leases.Acquire(t.Context(), tb.ID, "z", time.Minute); err != nil || !ok {
		t.Fatalf("z's acquire: %v %v", ok, err)
	}
	if err := b.leases.Renew(t.Context()); err != nil { // B learns it lost the table
		t.Fatal(err)
	}
	res := b.do(req{Method: "GET", Path: fmt.Sprintf("%s?since=0", tablePath(tb.ID, "state")), Token: tokens[0]})
	if res.Status != http.StatusServiceUnavailable || problem(t, res).Code != "table_owner_moved" || hits.Load() != 2 {
		t.Errorf("after two 421s: %d %s; the receiver was tried %d times, want 2", res.Status, res.Body, hits.Load())
	}
	if b.stats.Misdirected.Load() != 2 {
		t.Errorf("misdirected counted %d, want 2", b.stats.Misdirected.Load())
	}
}

func leaseStore(t *testing.T, db *store.DB) *store.Leases {
	t.Helper()
	l, err := db.Leases()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// sendRaw sends hr over the network and records the answer.
func sendRaw(t *testing.T, hr *http.Request) response {
	t.Helper()
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body []byte
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		body = append(body, buf[:n]...)
		if err != nil {
			break
		}
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: body}
}
