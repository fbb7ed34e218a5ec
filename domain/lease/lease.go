// Package lease keeps this process's leases on tables (issue 30,
// docs/SCALE-OUT.md §4): with several serve processes on one PostgreSQL
// database, each playing table has one owner process, which serves it from
// memory; the others forward its requests there. The Manager acquires a
// lease on demand, renews all of this process's leases every ttl/3 against
// a deadline on the local monotonic clock, forgets the leases a renewal no
// longer lists, and releases them all on a clean shutdown.
//
// The package knows neither SQL nor HTTP: a Store (domain/store's Leases on
// PostgreSQL) keeps the leases, with the database's clock deciding expiry;
// the API forwards requests (api/table_owner.go). On SQLite there is one
// process by design and no Manager: it owns every table without asking.
package lease

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Holder is who holds a table's lease.
type Holder struct {
	Owner string // the holder's process id (Manager.Self)
	Addr  string // its internal address, host:port; empty when its process row is gone
	Epoch int64  // grows at every change of owner
	Live  bool   // not expired, by the database's clock
}

// ErrNoLease is Store.Holder's answer for a table no process has held (or
// that does not exist).
var ErrNoLease = errors.New("lease: no lease on the table")

// Store keeps the leases and the registry of processes. Expiry is decided
// by the store's clock (the database's now()), so that processes need no
// clock agreement.
type Store interface {
	// Register records this process and the address its peers forward to.
	Register(ctx context.Context, owner, addr string) error
	// Unregister deletes this process's row (a clean shutdown).
	Unregister(ctx context.Context, owner string) error
	// Acquire takes table's lease for ttl when no live lease of another
	// process holds it (none, expired, or owner's own), at a new epoch;
	// ok is false when another process holds it live, or the table does
	// not exist.
	Acquire(ctx context.Context, table int64, owner string, ttl time.Duration) (epoch int64, ok bool, err error)
	// Renew extends every live lease of owner by ttl (and its seen_at)
	// and returns the epoch of each, by table; an expired one is left.
	Renew(ctx context.Context, owner string, ttl time.Duration) (map[int64]int64, error)
	// Release expires every lease of owner at once.
	Release(ctx context.Context, owner string) error
	// ReleaseTables expires owner's leases of tables at once.
	ReleaseTables(ctx context.Context, owner string, tables []int64) error
	// Holder returns who holds table's lease; ErrNoLease when nobody has.
	Holder(ctx context.Context, table int64) (Holder, error)
}

// DefaultTTL is a lease's time to live: two renewals (every ttl/3) may be
// lost to a GC pause or a slow database before a live owner loses a table,
// and a killed owner's tables are taken over within ttl plus a request's
// retry (the 5 s goal of issue 30).
const DefaultTTL = 3 * time.Second

// DefaultIdle is how long a lease is kept without a request for its table
// (§4.4): a finished table's lease is then released, so that the renewal,
// which extends every lease of the process, stays as small as the tables
// in play.
const DefaultIdle = 10 * time.Minute

// Config configures a Manager. Zero fields take the defaults.
type Config struct {
	Store Store
	Owner string        // this process's id; default a random 128-bit one, new at every start
	Addr  string        // this process's internal address (Register)
	TTL   time.Duration // default DefaultTTL
	Idle  time.Duration // default DefaultIdle
	// Now is the clock of the local deadlines; default time.Now, whose
	// readings carry the monotonic clock (§4.5): a wall-clock step does
	// not move them.
	Now func() time.Time
	// Moved, when set, is told each table whose lease comes to this
	// process (at its new epoch, before the table is served) or leaves it
	// (deposed, fenced out, released idle): what the process keeps of the
	// table in memory may be older than the table, or is no longer its to
	// serve (the table service's Forget). Called without the manager's lock.
	Moved func(table int64)
}

// held is one lease of this process.
type held struct {
	epoch    int64
	deadline time.Time // on the local clock: past it, the lease may be gone
	used     time.Time // the last request for the table (Fence)
}

// Manager holds this process's leases. Its methods are safe for
// concurrent use.
type Manager struct {
	cfg    Config
	margin time.Duration

	mu   sync.Mutex
	held map[int64]held
	// acquiring are the acquisitions under way, by table: the requests of
	// a table that arrive meanwhile wait for its answer instead of each
	// sending their own (a lapse had every seat's request of every table
	// acquire at once).
	acquiring map[int64]*acquisition

	takeovers atomic.Uint64 // leases taken from another (or a dead) process
	acquired  atomic.Uint64 // leases taken of tables nobody held
	deposed   atomic.Uint64 // leases lost to another process while this one lived
	kept      atomic.Uint64 // leases acquired again at their epoch: they lapsed only locally
	renewErrs atomic.Uint64
	fenced    atomic.Uint64 // writes refused by the fence
}

// NewManager returns a Manager; it holds nothing until Acquire.
func NewManager(cfg Config) (*Manager, error) {
	if cfg.Store == nil {
		return nil, errors.New("lease: no store")
	}
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.Owner == "" {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		cfg.Owner = hex.EncodeToString(b[:])
	}
	// The owner stops serving a table a margin before the database
	// expires its lease (§4.5): 500 ms, less with a short test ttl.
	margin := min(500*time.Millisecond, cfg.TTL/6)
	return &Manager{cfg: cfg, margin: margin, held: map[int64]held{}, acquiring: map[int64]*acquisition{}}, nil
}

// Self is this process's id.
func (m *Manager) Self() string { return m.cfg.Owner }

// Addr is this process's internal address.
func (m *Manager) Addr() string { return m.cfg.Addr }

// TTL is a lease's time to live.
func (m *Manager) TTL() time.Duration { return m.cfg.TTL }

// Owns reports whether this process holds table's lease and its local
// deadline has not passed.
func (m *Manager) Owns(table int64) bool {
	m.mu.Lock()
	h, ok := m.held[table]
	m.mu.Unlock()
	return ok && m.cfg.Now().Before(h.deadline)
}

// acquisition is one Store.Acquire under way, its answer for every
// request that waited for it once done is closed.
type acquisition struct {
	done    chan struct{}
	waiters int // requests waiting for it (under the Manager's lock)
	ok      bool
	err     error
}

// Acquire makes this process table's owner if it is not held live by
// another: true when this process owns it on return. Concurrent calls for
// one table share one Store.Acquire.
func (m *Manager) Acquire(ctx context.Context, table int64) (bool, error) {
	if m.Owns(table) {
		return true, nil
	}
	m.mu.Lock()
	a, waiting := m.acquiring[table]
	if waiting {
		a.waiters++
	} else {
		a = &acquisition{done: make(chan struct{})}
		m.acquiring[table] = a
	}
	m.mu.Unlock()
	if waiting {
		select {
		case <-a.done:
			return a.ok, a.err
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	// The store's answer is every waiter's: the first request's end does
	// not cut it short; a ttl bounds it (an answer later than that is
	// no lease worth having).
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.cfg.TTL)
	a.ok, a.err = m.acquire(actx, table)
	cancel()
	m.mu.Lock()
	delete(m.acquiring, table)
	m.mu.Unlock()
	close(a.done)
	return a.ok, a.err
}

// acquire sends table's Acquire to the store.
func (m *Manager) acquire(ctx context.Context, table int64) (bool, error) {
	sent := m.cfg.Now()
	m.mu.Lock()
	before, had := m.held[table]
	m.mu.Unlock()
	epoch, ok, err := m.cfg.Store.Acquire(ctx, table, m.cfg.Owner, m.cfg.TTL)
	if err != nil || !ok {
		return false, err
	}
	// The same epoch: the lease never left this process (its local
	// deadline passed, a renewal came late, the store extended it as a
	// renewal would): what it keeps of the table is still the table's.
	kept := had && before.epoch == epoch
	switch {
	case kept:
		m.kept.Add(1)
	case epoch > 1:
		m.takeovers.Add(1)
	default:
		m.acquired.Add(1)
	}
	m.mu.Lock()
	m.held[table] = held{epoch: epoch, deadline: sent.Add(m.cfg.TTL - m.margin), used: sent}
	m.mu.Unlock()
	if !kept {
		// Another process may have moved the table since this one last
		// served it: nothing it kept may be shown (§5 rule 2, §4.6).
		m.moved(table)
	}
	return true, nil
}

// Holder returns who holds table's lease, from the store.
func (m *Manager) Holder(ctx context.Context, table int64) (Holder, error) {
	return m.cfg.Store.Holder(ctx, table)
}

// Renew renews all of this process's leases. A lease the answer does not
// list (or lists at another epoch) was taken over: it is forgotten. A
// failed renewal extends nothing, so the deadlines run out on their own.
// Leases idle past Config.Idle are released first.
func (m *Manager) Renew(ctx context.Context) error {
	if err := m.releaseIdle(ctx); err != nil {
		m.renewErrs.Add(1)
		return err
	}
	sent := m.cfg.Now()
	got, err := m.cfg.Store.Renew(ctx, m.cfg.Owner, m.cfg.TTL)
	if err != nil {
		m.renewErrs.Add(1)
		return err
	}
	deadline := sent.Add(m.cfg.TTL - m.margin)
	var lost []int64
	defer func() { m.moved(lost...) }() // after the unlock
	m.mu.Lock()
	defer m.mu.Unlock()
	for table, h := range m.held {
		if epoch, ok := got[table]; !ok || epoch != h.epoch {
			delete(m.held, table)
			m.deposed.Add(1)
			lost = append(lost, table)
		}
	}
	for table, epoch := range got {
		used := sent // a lease of this process it did not know (acquired before a restart of the map): as new
		if h, ok := m.held[table]; ok {
			used = h.used
		}
		m.held[table] = held{epoch: epoch, deadline: deadline, used: used}
	}
	return nil
}

// releaseIdle releases the leases of the tables without a request for
// Config.Idle, and forgets them.
func (m *Manager) releaseIdle(ctx context.Context) error {
	now := m.cfg.Now()
	var idle []int64
	m.mu.Lock()
	for table, h := range m.held {
		if now.Sub(h.used) >= m.cfg.Idle {
			idle = append(idle, table)
			delete(m.held, table)
		}
	}
	m.mu.Unlock()
	if len(idle) == 0 {
		return nil
	}
	m.moved(idle...)
	return m.cfg.Store.ReleaseTables(ctx, m.cfg.Owner, idle)
}

// moved tells Config.Moved of tables whose lease came or went.
func (m *Manager) moved(tables ...int64) {
	if m.cfg.Moved == nil {
		return
	}
	for _, t := range tables {
		m.cfg.Moved(t)
	}
}

// Register records this process and its internal address, before it
// takes any lease: a peer that finds one of its leases finds its address.
func (m *Manager) Register(ctx context.Context) error {
	return m.cfg.Store.Register(ctx, m.cfg.Owner, m.cfg.Addr)
}

// Run renews this process's leases every ttl/3 until ctx ends, then
// releases them and unregisters, so that the other processes take its
// tables over at once instead of after ttl. Errors of renewals go to
// onErr (may be nil).
func (m *Manager) Run(ctx context.Context, onErr func(error)) error {
	tick := time.NewTicker(m.cfg.TTL / 3)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return m.release()
		case <-tick.C:
			if err := m.Renew(ctx); err != nil && ctx.Err() == nil && onErr != nil {
				onErr(err)
			}
		}
	}
}

// release gives every lease up and unregisters, on a context of its own
// (the server's is done).
func (m *Manager) release() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	m.mu.Lock()
	clear(m.held)
	m.mu.Unlock()
	return errors.Join(m.cfg.Store.Release(ctx, m.cfg.Owner), m.cfg.Store.Unregister(ctx, m.cfg.Owner))
}

// Stats are a Manager's figures for /metrics.
type Stats struct {
	Owned                        int    // leases held, deadline not checked
	Acquired, Takeovers, Deposed uint64 // since start
	// Lapsed counts the leases acquired again at their own epoch: the
	// local deadline had passed (a renewal late) while the store still
	// held them for this process.
	Lapsed        uint64
	RenewalErrors uint64
	FencedWrites  uint64 // writes refused by the fence: 0 but after a deposition
}

// Stats returns the Manager's figures.
func (m *Manager) Stats() Stats {
	m.mu.Lock()
	n := len(m.held)
	m.mu.Unlock()
	return Stats{Owned: n, Acquired: m.acquired.Load(), Takeovers: m.takeovers.Load(), Deposed: m.deposed.Load(), Lapsed: m.kept.Load(), RenewalErrors: m.renewErrs.Load(), FencedWrites: m.fenced.Load()}
}
