package lease

import (
	"context"
	"errors"
)

// Fence is what a write of a table checks before it writes (§4.3): that
// the table's lease is still Owner's at Epoch. The store locks the lease
// row in share mode at that epoch in the write's transaction, so that a
// takeover (which bumps the epoch under the row's exclusive lock) waits for
// the writes under way, and every write that begins after it fails: every
// write a deposed owner commits is committed before the new owner's epoch
// exists, and the new owner reads it when it loads the table.
type Fence struct {
	Table int64
	Owner string
	Epoch int64
	lost  func() // the store calls it when the check fails
}

// Lost tells the fence's manager that the check failed: it forgets the
// table at once, so that the next request is forwarded.
func (f Fence) Lost() {
	if f.lost != nil {
		f.lost()
	}
}

type fenceKey struct{}

// WithFence returns ctx carrying f: the write transactions run with it are
// fenced.
func WithFence(ctx context.Context, f Fence) context.Context {
	return context.WithValue(ctx, fenceKey{}, f)
}

// FenceFrom returns the fence ctx carries, if any.
func FenceFrom(ctx context.Context) (Fence, bool) {
	f, ok := ctx.Value(fenceKey{}).(Fence)
	return f, ok
}

// Fence returns the fence of table's writes while this process owns it,
// and notes the table in use (a request is served for it).
func (m *Manager) Fence(table int64) (Fence, bool) {
	now := m.cfg.Now()
	m.mu.Lock()
	h, ok := m.held[table]
	if ok && now.Before(h.deadline) {
		h.used = now
		m.held[table] = h
	}
	m.mu.Unlock()
	if !ok || !now.Before(h.deadline) {
		return Fence{}, false
	}
	return Fence{Table: table, Owner: m.cfg.Owner, Epoch: h.epoch, lost: func() { m.lose(table, h.epoch) }}, true
}

// lose forgets table if this process still holds it at epoch.
func (m *Manager) lose(table, epoch int64) {
	m.fenced.Add(1)
	m.mu.Lock()
	h, ok := m.held[table]
	if ok && h.epoch == epoch {
		delete(m.held, table)
		m.deposed.Add(1)
	}
	m.mu.Unlock()
	if ok && h.epoch == epoch {
		m.moved(table)
	}
}

// Clock is the context a time-out of table's clock is written with, and
// whether this process plays it (domain.ClockOwner, serve's tick): a table
// it owns, its writes fenced; a table nobody holds live (its owner killed,
// frozen past its lease, or released) is taken over first, the sweep of
// docs/SCALE-OUT.md §4.2, so that a clocked table with no request to bring
// it over still times out; a table another process holds live is that
// one's to tick.
//
// Whether the lease is live is read first: the acquiring statement locks
// the lease row even when it takes nothing, and would wait for, and hold
// up, the owner's fenced writes; a clock may be due for seconds before its
// owner plays it (or finds it was not after all, mayBeDue's guess).
func (m *Manager) Clock(ctx context.Context, table int64) (context.Context, bool, error) {
	f, ok := m.Fence(table)
	if !ok {
		h, err := m.cfg.Store.Holder(ctx, table)
		if err == nil && h.Live && h.Owner != m.cfg.Owner {
			return ctx, false, nil
		}
		if err != nil && !errors.Is(err, ErrNoLease) {
			return ctx, false, err
		}
		got, err := m.Acquire(ctx, table)
		if err != nil || !got {
			return ctx, false, err
		}
		if f, ok = m.Fence(table); !ok {
			return ctx, false, nil
		}
	}
	return WithFence(ctx, f), true, nil
}
