package domain

import (
	"context"
	"sync"
	"time"
)

// tableNotifier broadcasts table versions within this process: the service
// publishes each table it commits (or reads), and long polls wait on a
// channel that is closed when the version moves. It also keeps who may see
// each table and where they sit, so that a poll that finds the version
// unchanged is answered without reading the database.
//
// Entries of finished tables are dropped when nobody waits on them, so the
// map holds only the tables in use. Changes made by another server process
// arrive through the storage's TableFeed (Follow): such a change drops the
// table's entry and wakes its waiters, who read the table again; when the
// feed may have missed changes (it (re)connects), every entry is dropped.
type tableNotifier struct {
	mu     sync.Mutex
	tables map[int64]*tableWatch
}

type tableWatch struct {
	version int64
	access  tableAccess
	changed chan struct{} // closed when version moves
	waiters int
}

func newTableNotifier() *tableNotifier {
	return &tableNotifier{tables: map[int64]*tableWatch{}}
}

// publish records t's version and access; waiters wake when the version
// grew. An older version than the one known is ignored (commits may
// publish out of order).
func (n *tableNotifier) publish(t Table) {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.tables[t.ID]
	switch {
	case w == nil:
		w = &tableWatch{changed: make(chan struct{})}
		n.tables[t.ID] = w
	case t.Version < w.version:
		return
	}
	moved := t.Version > w.version
	w.version, w.access = t.Version, accessOf(t)
	if moved {
		close(w.changed)
		w.changed = make(chan struct{})
	}
	n.evict(t.ID, w)
}

// stale drops the entry of a table changed elsewhere (version past the one
// known) and wakes its waiters, who read it again.
func (n *tableNotifier) stale(id, version int64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if w := n.tables[id]; w != nil && version > w.version {
		close(w.changed)
		delete(n.tables, id)
	}
}

// forget drops every entry and wakes every waiter: the feed may have
// missed changes, so nothing known may be trusted.
func (n *tableNotifier) forget() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for id, w := range n.tables {
		close(w.changed)
		delete(n.tables, id)
	}
}

// Follow implements TableService.
func (s *tableService) Follow(ctx context.Context) error {
	feed, ok := s.st.(TableFeed)
	if !ok {
		<-ctx.Done()
		return nil
	}
	return feed.FollowTables(ctx, s.notes.stale, s.notes.forget)
}

// evict drops the entry of a finished table nobody waits on.
func (n *tableNotifier) evict(id int64, w *tableWatch) {
	if w.waiters == 0 && w.access.status == TableFinished {
		delete(n.tables, id)
	}
}

// get returns what is known of a table, and the channel closed at its next
// change; ok is false when the table is not known. It counts a waiter until
// done is called.
func (n *tableNotifier) get(id int64) (version int64, access tableAccess, changed <-chan struct{}, done func(), ok bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.tables[id]
	if w == nil {
		return 0, tableAccess{}, nil, nil, false
	}
	w.waiters++
	return w.version, w.access, w.changed, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		w.waiters--
		if n.tables[id] == w {
			n.evict(id, w)
		}
	}, true
}

// Watch implements TableService: it waits until the table's version is
// past since or ctx ends, and returns the version then and the actor's
// seat. Only the first look at a table the process does not know reads the
// database.
//
// The wait happens in this small frame, and everything else in look, which
// returns first: a long poll waits for up to a minute, and the goroutine
// stack it holds meanwhile shrinks at GC only down to four times what is in
// use (issue 7: 10,000 waiting polls).
func (s *tableService) Watch(ctx context.Context, actor Actor, id int64, invite string, since int64) (int64, int, error) {
	for {
		version, seat, changed, done, err := s.look(ctx, actor, id, invite, since)
		if done == nil {
			return version, seat, err
		}
		select {
		case <-changed:
			done()
		case <-ctx.Done():
			done()
			return version, seat, nil
		}
	}
}

// look is one turn of Watch: the version and the actor's seat, and either
// the channel to wait on (and done, to call after the wait) or, when done is
// nil, the answer. A finished table waits with a nil channel: no newer
// version will come, so the wait lasts until ctx ends.
func (s *tableService) look(ctx context.Context, actor Actor, id int64, invite string, since int64) (version int64, seat int, changed <-chan struct{}, done func(), err error) {
	for {
		version, access, changed, done, ok := s.notes.get(id)
		if !ok {
			t, err := s.prime(ctx, id)
			if err != nil {
				return 0, -1, nil, nil, err
			}
			if t.Status == TableFinished { // not kept: it changes no more
				return s.finished(t, actor, invite, since)
			}
			continue
		}
		if !access.visible(actor, invite) {
			done()
			return 0, -1, nil, nil, errTableNotFound
		}
		seat := access.seatOf(actor)
		if version > since {
			done()
			return version, seat, nil, nil, nil
		}
		return version, seat, changed, done, nil
	}
}

// primeTimeout bounds the read of prime.
const primeTimeout = 10 * time.Second

// prime loads a table into the notifier and returns it. The read is not cut
// short by the end of the caller's wait (a poll's or a heartbeat's
// deadline): a wait that ends while the table is read answers with what
// was read, not with an error.
func (s *tableService) prime(ctx context.Context, id int64) (Table, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), primeTimeout)
	defer cancel()
	var t Table
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		t, err = tx.Tables().Get(id)
		return err
	})
	if err == nil {
		s.notes.publish(t)
	}
	return t, err
}

// finished answers look for a finished table: a poll for a newer version
// waits its whole time (none will come), so that a client polling on does
// not spin.
func (s *tableService) finished(t Table, actor Actor, invite string, since int64) (int64, int, <-chan struct{}, func(), error) {
	a := accessOf(t)
	if !a.visible(actor, invite) {
		return 0, -1, nil, nil, errTableNotFound
	}
	if t.Version <= since {
		return t.Version, a.seatOf(actor), nil, func() {}, nil
	}
	return t.Version, a.seatOf(actor), nil, nil, nil
}
