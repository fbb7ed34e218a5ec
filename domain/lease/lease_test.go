package lease_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/burraco/burraco/domain/lease"
)

// clock is a settable clock, both the "database's" and the process's.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type row struct {
	owner   string
	epoch   int64
	expires time.Time
}

// memStore is lease.Store in memory, with the store's semantics (§4.2).
type memStore struct {
	clk        *clock
	mu         sync.Mutex
	rows       map[int64]row
	procs      map[string]string
	renewErr   error
	released   []string
	unregister []string
	acquires   int // Acquire statements run
	// acquired, when set, is told each Acquire, which then waits for
	// proceed (an acquisition held under way).
	acquired chan int64
	proceed  chan struct{}
	attempts atomic.Int32 // Acquire calls, counted before they wait for the lock
}

func newMemStore(clk *clock) *memStore {
	return &memStore{clk: clk, rows: map[int64]row{}, procs: map[string]string{}}
}

func (s *memStore) Register(_ context.Context, owner, addr string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.procs[owner] = addr
	return nil
}

func (s *memStore) Unregister(_ context.Context, owner string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.procs, owner)
	s.unregister = append(s.unregister, owner)
	return nil
}

func (s *memStore) Acquire(_ context.Context, table int64, owner string, ttl time.Duration) (int64, bool, error) {
	s.attempts.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.acquires++
	now := s.clk.Now()
	r, ok := s.rows[table]
	if ok && r.owner != owner && !r.expires.Before(now) {
		return 0, false, nil
	}
	epoch := r.epoch + 1
	if ok && r.owner == owner && !r.expires.Before(now) { // its own live lease, extended
		epoch = r.epoch
	}
	r = row{owner: owner, epoch: epoch, expires: now.Add(ttl)}
	s.rows[table] = r
	if s.acquired != nil {
		s.acquired <- table
		<-s.proceed
	}
	return r.epoch, true, nil
}

func (s *memStore) Renew(_ context.Context, owner string, ttl time.Duration) (map[int64]int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.renewErr != nil {
		return nil, s.renewErr
	}
	out := map[int64]int64{}
	for id, r := range s.rows {
		if r.owner == owner && !r.expires.Before(s.clk.Now()) {
			r.expires = s.clk.Now().Add(ttl)
			s.rows[id] = r
			out[id] = r.epoch
		}
	}
	return out, nil
}

func (s *memStore) Release(_ context.Context, owner string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, r := range s.rows {
		if r.owner == owner {
			r.expires = s.clk.Now().Add(-time.Second)
			s.rows[id] = r
		}
	}
	s.released = append(s.released, owner)
	return nil
}

func (s *memStore) ReleaseTables(_ context.Context, owner string, tables []int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range tables {
		if r, ok := s.rows[id]; ok && r.owner == owner {
			r.expires = s.clk.Now().Add(-time.Second)
			s.rows[id] = r
		}
	}
	return nil
}

func (s *memStore) Holder(_ context.Context, table int64) (lease.Holder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rows[table]
	if !ok {
		return lease.Holder{}, lease.ErrNoLease
	}
	return lease.Holder{Owner: r.owner, Addr: s.procs[r.owner], Epoch: r.epoch, Live: !r.expires.Before(s.clk.Now())}, nil
}

func newManager(t *testing.T, st lease.Store, clk *clock, owner string) *lease.Manager {
	t.Helper()
	m, err := lease.NewManager(lease.Config{Store: st, Owner: owner, Addr: owner + ":1", TTL: 3 * time.Second, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestOwnershipEndsAtTheLocalDeadline: an owner serves a table until
// ttl − 500 ms after the acquire was sent (§4.5), not until the
// database's expiry: by then another may have it. A renewal moves the
// deadline to ttl − 500 ms after it was sent.
func TestOwnershipEndsAtTheLocalDeadline(t *testing.T) {
	for _, c := range []struct {
		name  string
		renew bool
		after time.Duration
		owns  bool
	}{
		{"OwnedJustBeforeTheDeadline", false, 2499 * time.Millisecond, true},
		{"NotOwnedAtTheDeadline", false, 2500 * time.Millisecond, false},
		{"OwnedPastTheFirstDeadlineAfterARenewal", true, 3400 * time.Millisecond, true},
		{"NotOwnedAtTheRenewedDeadline", true, 3500 * time.Millisecond, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := &clock{t: time.Unix(1000, 0)}
			a := newManager(t, newMemStore(clk), clk, "a")
			if ok, err := a.Acquire(t.Context(), 1); err != nil || !ok {
				t.Fatalf("acquire of a free table: %v, %v", ok, err)
			}
			if c.renew {
				clk.Add(time.Second)
				if err := a.Renew(t.Context()); err != nil {
					t.Fatal(err)
				}
				clk.Add(-time.Second)
			}
			clk.Add(c.after)
			if got := a.Owns(1); got != c.owns {
				t.Errorf("%s after the acquire: owns %v, want %v", c.after, got, c.owns)
			}
		})
	}
}

// TestAFailedRenewalExtendsNothing: while the store cannot be reached the
// deadline runs out, and the owner stops serving before its lease may be
// taken.
func TestAFailedRenewalExtendsNothing(t *testing.T) {
	clk := &clock{t: time.Unix(1000, 0)}
	st := newMemStore(clk)
	a := newManager(t, st, clk, "a")
	mustAcquire(t, a, 1, true)
	st.renewErr = errors.New("database unreachable")
	clk.Add(2 * time.Second)
	if err := a.Renew(t.Context()); err == nil {
		t.Fatal("a renewal of an unreachable store did not fail")
	}
	clk.Add(500 * time.Millisecond)
	if a.Owns(1) {
		t.Error("owned past the deadline after a failed renewal")
	}
	if s := a.Stats(); s.RenewalErrors != 1 {
		t.Errorf("renewal errors %d, want 1", s.RenewalErrors)
	}
}

// TestRenewalDropsWhatAnotherTookOver: a table another process took
// (after this one's lease expired) is no longer this one's after the next
// renewal, and counts as deposed; the other counts a takeover.
func TestRenewalDropsWhatAnotherTookOver(t *testing.T) {
	clk := &clock{t: time.Unix(1000, 0)}
	st := newMemStore(clk)
	a, b := newManager(t, st, clk, "a"), newManager(t, st, clk, "b")
	mustAcquire(t, a, 2, true)
	mustAcquire(t, b, 2, false) // live: refused
	clk.Add(2 * time.Second)
	mustAcquire(t, a, 1, true)
	clk.Add(1001 * time.Millisecond)
	mustAcquire(t, b, 2, true) // expired: taken over
	if err := a.Renew(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !a.Owns(1) || a.Owns(2) {
		t.Errorf("after the renewal a owns 1: %v, 2: %v; want 1 only", a.Owns(1), a.Owns(2))
	}
	if s := a.Stats(); s.Owned != 1 || s.Deposed != 1 || s.Acquired != 2 {
		t.Errorf("a's stats %+v; want 1 owned, 1 deposed, 2 acquired", s)
	}
	if s := b.Stats(); s.Takeovers != 1 || s.Acquired != 0 {
		t.Errorf("b's stats %+v; want 1 takeover", s)
	}
}

// TestRunRegistersAndReleasesOnShutdown: Register records the process
// with its address; Run renews, and on shutdown releases its leases and
// unregisters, so that another takes its tables at once.
func TestRunRegistersAndReleasesOnShutdown(t *testing.T) {
	clk := &clock{t: time.Unix(1000, 0)}
	st := newMemStore(clk)
	m, err := lease.NewManager(lease.Config{Store: st, Owner: "a", Addr: "a:1", TTL: 30 * time.Millisecond, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Register(t.Context()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, nil) }()
	mustAcquire(t, m, 1, true)
	if h, err := st.Holder(t.Context(), 1); err != nil || h.Addr != "a:1" {
		t.Fatalf("holder %+v, %v; want a at a:1", h, err)
	}
	time.Sleep(50 * time.Millisecond) // a renewal or two
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	b := newManager(t, st, clk, "b")
	mustAcquire(t, b, 1, true)
	if len(st.released) != 1 || len(st.unregister) != 1 || m.Owns(1) {
		t.Errorf("released %v, unregistered %v, still owns: %v", st.released, st.unregister, m.Owns(1))
	}
}

func mustAcquire(t *testing.T, m *lease.Manager, table int64, want bool) {
	t.Helper()
	if ok, err := m.Acquire(t.Context(), table); err != nil || ok != want {
		t.Fatalf("%s acquires %d: %v, %v; want %v", m.Self(), table, ok, err, want)
	}
}

// TestALostFenceForgetsTheTable: a write whose fence check failed (the
// store calls Lost) makes the manager forget the table at once, without
// waiting for the next renewal, and counts a fenced write; a fence is
// given only for an owned table.
func TestALostFenceForgetsTheTable(t *testing.T) {
	clk := &clock{t: time.Unix(1000, 0)}
	a := newManager(t, newMemStore(clk), clk, "a")
	if _, ok := a.Fence(1); ok {
		t.Fatal("a fence for a table not owned")
	}
	mustAcquire(t, a, 1, true)
	f, ok := a.Fence(1)
	if !ok || f.Table != 1 || f.Owner != "a" || f.Epoch != 1 {
		t.Fatalf("fence %+v, %v", f, ok)
	}
	f.Lost()
	if a.Owns(1) {
		t.Error("still owned after its fence was lost")
	}
	if s := a.Stats(); s.FencedWrites != 1 || s.Deposed != 1 {
		t.Errorf("stats %+v; want 1 fenced write, 1 deposed", s)
	}
}

// TestAnIdleLeaseIsReleased: a table without a request for the idle time
// is released at the next renewal (another process may take it at once)
// and forgotten; one whose requests go on is kept.
func TestAnIdleLeaseIsReleased(t *testing.T) {
	clk := &clock{t: time.Unix(1000, 0)}
	st := newMemStore(clk)
	m, err := lease.NewManager(lease.Config{Store: st, Owner: "a", TTL: 3 * time.Second, Idle: time.Minute, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	mustAcquire(t, m, 1, true)
	mustAcquire(t, m, 2, true)
	for range 60 { // a minute of renewals; table 2 has a request every second
		clk.Add(time.Second)
		if _, ok := m.Fence(2); !ok {
			t.Fatal("table 2 not owned while its requests go on")
		}
		if err := m.Renew(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if m.Owns(1) || !m.Owns(2) {
		t.Errorf("after a minute: owns the idle table 1: %v, the used table 2: %v", m.Owns(1), m.Owns(2))
	}
	mustAcquire(t, newManager(t, st, clk, "b"), 1, true)
}

// movedLog records what Config.Moved is told.
type movedLog struct {
	mu     sync.Mutex
	tables []int64
}

func (l *movedLog) moved(table int64) { l.mu.Lock(); l.tables = append(l.tables, table); l.mu.Unlock() }

func (l *movedLog) take() []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.tables
	l.tables = nil
	return out
}

// TestMovedIsToldOfEachLeaseThatComesOrGoes: the process's memory of a
// table is dropped whenever its lease comes to the process (another may
// have moved the table since) or leaves it (deposed at a renewal, fenced
// out, released idle); a request for a table already owned tells nothing.
func TestMovedIsToldOfEachLeaseThatComesOrGoes(t *testing.T) {
	clk := &clock{t: time.Unix(1000, 0)}
	st := newMemStore(clk)
	var log movedLog
	a, err := lease.NewManager(lease.Config{Store: st, Owner: "a", TTL: 3 * time.Second, Idle: time.Minute, Now: clk.Now, Moved: log.moved})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		do   func(t *testing.T)
		want []int64
	}{
		{"Acquired", func(t *testing.T) { mustAcquire(t, a, 1, true); mustAcquire(t, a, 2, true); mustAcquire(t, a, 3, true) }, []int64{1, 2, 3}},
		{"AlreadyOwnedTellsNothing", func(t *testing.T) { mustAcquire(t, a, 1, true) }, nil},
		{"DeposedAtARenewal", func(t *testing.T) {
			st.ReleaseTables(t.Context(), "a", []int64{1}) // as if it expired
			mustAcquire(t, newManager(t, st, clk, "b"), 1, true)
			if err := a.Renew(t.Context()); err != nil {
				t.Fatal(err)
			}
		}, []int64{1}},
		{"FencedOut", func(t *testing.T) {
			f, ok := a.Fence(2)
			if !ok {
				t.Fatal("no fence of table 2")
			}
			f.Lost()
			f.Lost() // once: the table is gone already
		}, []int64{2}},
		{"ReleasedIdle", func(t *testing.T) {
			clk.Add(time.Minute)
			if err := a.Renew(t.Context()); err != nil {
				t.Fatal(err)
			}
		}, []int64{3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.do(t)
			if got := log.take(); !slices.Equal(got, c.want) {
				t.Errorf("Moved told of %v; want %v", got, c.want)
			}
		})
	}
}

// TestAClockTicksOnlyWhatItsProcessOwnsOrTakesOver: Clock (serve's tick)
// lets a process tick a table it owns, fenced at its epoch; a table
// another process holds live is not its to tick (and is not taken); a
// table whose lease ran out is taken over at a new epoch, then ticked.
// A live lease of another is only read: the acquiring statement would
// lock its row against the owner's fenced writes.
func TestAClockTicksOnlyWhatItsProcessOwnsOrTakesOver(t *testing.T) {
	for _, c := range []struct {
		name      string
		holder    string        // who acquired table 1 first
		after     time.Duration // then, before b's Clock
		ticks     bool
		wantEpoch int64
	}{
		{"OwnTableFenced", "b", time.Second, true, 1},
		{"AnothersLiveTableNotTicked", "a", time.Second, false, 0},
		{"AnothersRunOutTableTakenOver", "a", 3001 * time.Millisecond, true, 2},
		{"NobodysTableTaken", "", 0, true, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := &clock{t: time.Unix(1000, 0)}
			st := newMemStore(clk)
			ms := map[string]*lease.Manager{"a": newManager(t, st, clk, "a"), "b": newManager(t, st, clk, "b")}
			if c.holder != "" {
				mustAcquire(t, ms[c.holder], 1, true)
			}
			clk.Add(c.after)
			acquires := st.acquires
			ctx, ticks, err := ms["b"].Clock(t.Context(), 1)
			f, fenced := lease.FenceFrom(ctx)
			if err != nil || ticks != c.ticks || fenced != c.ticks {
				t.Fatalf("b's clock: ticks %v, fenced %v, err %v; want ticks %v", ticks, fenced, err, c.ticks)
			}
			if c.ticks && (f.Owner != "b" || f.Epoch != c.wantEpoch || f.Table != 1) {
				t.Errorf("fence %+v, want b's at epoch %d", f, c.wantEpoch)
			}
			if h, _ := st.Holder(t.Context(), 1); c.holder == "a" && !c.ticks && (h.Owner != "a" || h.Epoch != 1 || st.acquires != acquires) {
				t.Errorf("a's live lease changed, or b tried to take it (%d acquires): %+v", st.acquires-acquires, h)
			}
		})
	}
}

// TestALeaseThatLapsedOnlyLocallyIsTakenAgainWithoutForgettingTheTable:
// the owner's renewal comes late, its local deadline passes while the
// store still holds the lease for it; the next request takes it again at
// the same epoch, and the table is not forgotten (nobody else can have
// written it), while a lease that lapsed in the store too, or went to
// another, comes back at a new epoch and is forgotten.
func TestALeaseThatLapsedOnlyLocallyIsTakenAgainWithoutForgettingTheTable(t *testing.T) {
	for _, c := range []struct {
		name      string
		storeTTL  time.Duration // how long the store keeps the lease after the acquire
		another   bool          // another process took it in between
		wantEpoch int64
		wantMoved []int64
	}{
		{"LapsedLocallyKeepsTheEpochAndTheTable", time.Minute, false, 1, nil},
		{"ExpiredInTheStoreIsANewEpochAndForgotten", 3 * time.Second, false, 2, []int64{1}},
		{"TakenByAnotherMeanwhileIsForgotten", 3 * time.Second, true, 3, []int64{1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := &clock{t: time.Unix(1000, 0)}
			st := newMemStore(clk)
			var log movedLog
			a, err := lease.NewManager(lease.Config{Store: st, Owner: "a", TTL: 3 * time.Second, Now: clk.Now, Moved: log.moved})
			if err != nil {
				t.Fatal(err)
			}
			mustAcquire(t, a, 1, true)
			log.take()
			st.mu.Lock()
			r := st.rows[1]
			r.expires = clk.Now().Add(c.storeTTL)
			st.rows[1] = r
			st.mu.Unlock()
			clk.Add(5 * time.Second) // no renewal: past the local deadline
			if a.Owns(1) {
				t.Fatal("owned past the local deadline")
			}
			if c.another {
				mustAcquire(t, newManager(t, st, clk, "b"), 1, true)
				clk.Add(5 * time.Second)
			}
			mustAcquire(t, a, 1, true)
			if f, ok := a.Fence(1); !ok || f.Epoch != c.wantEpoch {
				t.Errorf("fence %+v, %v; want epoch %d", f, ok, c.wantEpoch)
			}
			if got := log.take(); !slices.Equal(got, c.wantMoved) {
				t.Errorf("Moved told of %v; want %v", got, c.wantMoved)
			}
		})
	}
}

// TestRequestsOfOneTableShareOneAcquisition: while one request's
// acquisition of a table is under way, the others of that table wait for
// its answer instead of sending their own.
func TestRequestsOfOneTableShareOneAcquisition(t *testing.T) {
	clk := &clock{t: time.Unix(1000, 0)}
	st := newMemStore(clk)
	st.proceed = make(chan struct{})
	a := newManager(t, st, clk, "a")
	const requests = 8
	st.acquired = make(chan int64, requests)
	results := make(chan bool, requests)
	go func() { ok, _ := a.Acquire(t.Context(), 1); results <- ok }()
	<-st.acquired // the first is at the store
	var started sync.WaitGroup
	for range requests - 1 {
		started.Add(1)
		go func() {
			started.Done()
			ok, _ := a.Acquire(t.Context(), 1)
			results <- ok
		}()
	}
	started.Wait()
	// Until they all wait for the first's answer, or one of them went to
	// the store itself.
	for deadline := time.Now().Add(10 * time.Second); a.WaitingFor(1) < requests-1 && st.attempts.Load() == 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests waiting after 10 s", a.WaitingFor(1))
		}
	}
	close(st.proceed)
	for range requests {
		if !<-results {
			t.Fatal("a request did not get the table")
		}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.acquires != 1 {
		t.Errorf("%d acquisitions sent to the store for %d requests of one table; want 1", st.acquires, requests)
	}
}
