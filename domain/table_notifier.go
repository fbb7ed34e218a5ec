package domain

import (
	"cmp"
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
// The rule it holds: the version it knows of a table never goes backwards.
// Publishing happens after a transaction ends, so a read that began before
// a commit may publish the older version it read after the commit has
// published the newer one; a change announced by another server process
// (Follow) may likewise arrive while a read of the older version is under
// way. If either made the notifier forget the newer version, polls since the
// older one would wait on an entry nothing moves again (issue 19: tables
// froze under load). So an entry, once made, keeps its version as a floor
// for as long as the process runs (unless pruned, below):
//
//   - publish never lowers it; a version below it is ignored;
//   - a change made elsewhere (stale) or a feed that may have missed changes
//     (forget) raises the floor or keeps it, and marks the entry unknown:
//     the next poll reads the table again;
//   - a read that began before such a mark (its ticket is older) may raise
//     the floor but not vouch for the entry: it may have read the version
//     just before the change.
//
// Entries are only dropped by prune, when there are more than
// maxWatchedTables; a read that began before a prune may not create an
// entry, since the floor it would be checked against is gone.
type tableNotifier struct {
	mu     sync.Mutex
	tables map[int64]*tableWatch
	clock  uint64 // counts marks (stale, forget, prune); a ticket is its value when a read begins
	pruned uint64 // clock at the last prune
	limit  int    // prune when there are more entries than this
	// tournamentChanged is told the tournament of a table published (set
	// once at wiring, before any publish).
	tournamentChanged func(id int64)
	// now times the versions for brisk: the process's own clock, not
	// the service's, since it hints at how the process is loaded (a test's
	// clock that stands still would make every table look brisk).
	now func() time.Time
}

type tableWatch struct {
	version int64       // the newest version known to be committed: never goes down
	known   bool        // access is version's, and no newer version is known to exist
	marked  uint64      // clock when last marked unknown; older tickets cannot vouch for the entry
	access  tableAccess // valid when known
	// changed is cancelled when the entry changes (wake): long polls wait
	// on its Done, and parked ones (ParkedPoll) have a function run by it
	// (context.AfterFunc), which needs no goroutine until it runs.
	changed context.Context
	wakeAll context.CancelFunc
	waiters int
	// movedAt is when this process learnt of the version, and gap how long
	// after the version before: how briskly the table moves (brisk).
	movedAt time.Time
	gap     time.Duration
}

func newTableWatch() *tableWatch {
	w := &tableWatch{}
	w.changed, w.wakeAll = context.WithCancel(context.Background())
	return w
}

// maxWatchedTables bounds the entries kept (a few hundred bytes each).
const maxWatchedTables = 20_000

func newTableNotifier() *tableNotifier {
	return &tableNotifier{tables: map[int64]*tableWatch{}, limit: maxWatchedTables, now: time.Now}
}

// ticket is taken before a read or write transaction whose table will be
// published: publish compares it with what happened since.
func (n *tableNotifier) ticket() uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.clock
}

// publish records t's version and access, as read or committed by a
// transaction that began at ticket tk; waiters wake when the version grew.
// A version older than the floor is ignored (commits and reads may publish
// out of order).
func (n *tableNotifier) publish(t Table, tk uint64) {
	if wakeAll := n.record(t, tk); wakeAll != nil {
		wakeAll()
	}
}

// record is publish under the lock; it returns what wakes the waiters of
// the version before, to be called once the lock is released. Waking runs
// the parked polls' functions and readies the goroutines waiting in their
// handlers: done under the lock, a publisher preempted there held every
// poll and move of every table (goroutine dumps of a PostgreSQL run caught
// 26 movers queued on the lock; bots' pace on SQLite showed no change
// either way, inside the noise). A waiter that looks after the new version
// is recorded gets the next change's context, and the version it sees is
// already new.
func (n *tableNotifier) record(t Table, tk uint64) context.CancelFunc {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.tables[t.ID]
	if w == nil {
		if tk < n.pruned {
			return nil // the floor this read is to be checked against was pruned
		}
		n.prune() // before the insert: it drops other tables only, and this read overlapped none of it
		w = newTableWatch()
		n.tables[t.ID] = w
	}
	if t.Version < w.version || t.Version == w.version && w.known {
		return nil
	}
	moved := t.Version > w.version
	w.version = t.Version
	if moved {
		now := n.now()
		if !w.movedAt.IsZero() {
			w.gap = now.Sub(w.movedAt)
		}
		w.movedAt = now
	}
	if tk >= w.marked {
		w.known, w.access = true, accessOf(t)
		w.access.presence = presenceOfTable(t)
	} else {
		w.known = false // a newer floor, but this read may predate a change: read again
	}
	if !moved {
		return nil
	}
	if t.Tournament != nil && n.tournamentChanged != nil {
		// A tournament table's deals move its sheets: the tournament's
		// stamp may be stale.
		n.tournamentChanged(t.Tournament.ID)
	}
	return w.rearm()
}

// rearm gives the entry the context of its next change and returns what
// cancels the one before, which wakes its waiters: the caller calls it
// once the notifier's lock is released (record).
func (w *tableWatch) rearm() context.CancelFunc {
	wakeAll := w.wakeAll
	w.changed, w.wakeAll = context.WithCancel(context.Background())
	return wakeAll
}

// stale records a change of a table made elsewhere (another process): its
// version becomes the floor, and the entry is read again at the next poll.
// A version already known changes nothing (this process's own, published).
func (n *tableNotifier) stale(id, version int64) {
	n.mu.Lock()
	w := n.tables[id]
	if w == nil {
		// Not watched here, but a read of it may be under way: the floor
		// keeps that read from publishing what this change replaced.
		n.prune()
		w = newTableWatch()
		n.tables[id] = w
	} else if version <= w.version {
		n.mu.Unlock()
		return
	}
	n.clock++
	w.version, w.known, w.marked = version, false, n.clock
	wakeAll := w.rearm()
	n.mu.Unlock()
	wakeAll() // outside the lock, as publish's
}

// forget marks every entry unknown and wakes every waiter: the feed may have
// missed changes, so no entry may be trusted until read again. The floors
// stay: versions never go backwards.
func (n *tableNotifier) forget() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.clock++
	for _, w := range n.tables {
		w.known, w.marked = false, n.clock
		w.rearm()() // rare (the feed reconnected): under the lock
	}
}

// forgetTable marks table id's entry unknown and wakes its waiters, as
// forget does for every entry: the next look reads the table again, and a
// read that began before cannot vouch for it. The floor stays.
func (n *tableNotifier) forgetTable(id int64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.tables[id]
	if w == nil {
		return
	}
	n.clock++
	w.known, w.marked = false, n.clock
	w.rearm()() // rare (a table forgotten): under the lock
}

// prune drops, when there are too many entries, those nobody waits on.
// Reads that began before may no longer create entries (n.pruned).
func (n *tableNotifier) prune() {
	if len(n.tables) <= n.limit {
		return
	}
	n.clock++
	n.pruned = n.clock
	for id, w := range n.tables {
		if w.waiters == 0 {
			delete(n.tables, id)
		}
	}
	// Entries with waiters stay; if most have waiters, wait for twice as
	// many before scanning again.
	n.limit = max(maxWatchedTables, 2*len(n.tables))
}

// Follow implements TableService.
func (s *tableViews) Follow(ctx context.Context) error {
	feed, ok := s.st.(TableFeed)
	if !ok {
		<-ctx.Done()
		return nil
	}
	return feed.FollowTables(ctx, s.notes.stale, s.notes.forget)
}

// get returns what is known of a table, and the context cancelled at its
// next change; ok is false when the table is not known (never read, or marked
// unknown). It counts a waiter until done is called.
func (n *tableNotifier) get(id int64) (version int64, access tableAccess, changed context.Context, done func(), ok bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.tables[id]
	if w == nil || !w.known {
		return 0, tableAccess{}, nil, nil, false
	}
	w.waiters++
	return w.version, w.access, w.changed, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		w.waiters--
	}, true
}

// brisk reports whether table id moves briskly: its last version came
// within d of the one before it, and is less than d old. A poll of such a
// table is likely answered within d (bots at the table, or a machine
// playing many): a long poll waits that long in its handler before it is
// parked (api's ParkGrace).
func (n *tableNotifier) brisk(id int64, d time.Duration) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.tables[id]
	return w != nil && !w.movedAt.IsZero() && w.gap > 0 && w.gap <= d && n.now().Sub(w.movedAt) < d
}

// newest returns the newest version of table id known to be committed.
func (n *tableNotifier) newest(id int64) (int64, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.tables[id]
	if w == nil {
		return 0, false
	}
	return w.version, true
}

// away reports whether the entry of table id, as last known, has a bot
// standing in for the player of seat who has not said they are back.
func (n *tableNotifier) away(id int64, seat int) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	w := n.tables[id]
	return w != nil && w.known && seat < len(w.access.away) && w.access.away[seat]
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
func (s *tableViews) Watch(ctx context.Context, actor Actor, id int64, invite string, since int64) (int64, int, error) {
	seen := false
	version, seat, err := s.wait(ctx, actor, id, invite, since, &seen)
	if seen { // not deferred: a deferred closure would cost every poll an allocation
		s.presence.leave(id, actor.UserID, s.now())
	}
	return version, seat, err
}

// wait is Watch but for the end of the presence it records: seen is set
// once the poll counts as its seat's player's presence at the table.
func (s *tableViews) wait(ctx context.Context, actor Actor, id int64, invite string, since int64, seen *bool) (int64, int, error) {
	reclaimed := false
	for {
		version, seat, changed, done, err := s.look(ctx, actor, id, invite, since)
		if err == nil && seat >= 0 && !*seen {
			// The seat's player is at the table while this poll (or
			// stream's wait) is open: presence, from memory only.
			*seen = true
			s.presence.enter(id, actor.UserID, s.now())
		}
		if err == nil && seat >= 0 && !reclaimed && s.notes.away(id, seat) {
			// A poll of a player a bot stands in for says they are back
			// (once per poll: the mark is a change, which wakes it).
			reclaimed = true
			if done != nil {
				done()
			}
			if err := s.referee.reclaim(ctx, actor, id); err != nil {
				return 0, -1, err
			}
			continue
		}
		if done == nil {
			return version, seat, err
		}
		var woken <-chan struct{} // nil (never) for a finished table's entry
		if changed != nil {
			woken = changed.Done()
		}
		select {
		case <-woken:
			done()
		case <-ctx.Done():
			done()
			return version, seat, nil
		}
	}
}

// look is one turn of Watch: the version and the actor's seat, and either
// the channel to wait on (and done, to call after the wait) or, when done is
// nil, the answer. A finished table is kept like any other: its channel
// closes only if the entry must be read again, so a poll for a newer
// version waits its whole time (none will come) and a client polling on
// does not spin.
func (s *tableViews) look(ctx context.Context, actor Actor, id int64, invite string, since int64) (version int64, seat int, changed context.Context, done func(), err error) {
	for reads := 1; ; reads++ {
		version, access, changed, done, ok := s.notes.get(id)
		if !ok {
			t, err := s.prime(ctx, id)
			if err != nil {
				return 0, -1, nil, nil, err
			}
			if reads >= maxPrimeReads {
				return s.answerRead(ctx, t, actor, invite, since)
			}
			continue
		}
		if !access.visible(actor, invite) {
			if ok, err := s.staffWatches(ctx, actor, access.tournament); err != nil || !ok {
				done()
				return 0, -1, nil, nil, cmp.Or(err, error(errTableNotFound))
			}
		}
		seat := access.seatOf(actor)
		if version > since {
			done()
			return version, seat, nil, nil, nil
		}
		return version, seat, changed, done, nil
	}
}

// maxPrimeReads bounds the reads of one look. A read publishes nothing when
// it began before a change it may not have seen (a version above what it
// read is known, or was announced while it ran); the next read, begun after
// the change was committed, sees it. Past the bound the poll answers with
// what it read instead of reading on.
const maxPrimeReads = 3

// primeTimeout bounds the read of prime.
const primeTimeout = 10 * time.Second

// prime reads a table and publishes it to the notifier. The read is not cut
// short by the end of the caller's wait (a poll's or a heartbeat's
// deadline): a wait that ends while the table is read answers with what
// was read, not with an error.
func (s *tableViews) prime(ctx context.Context, id int64) (Table, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), primeTimeout)
	defer cancel()
	tk := s.notes.ticket()
	var t Table
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		t, err = tx.Tables().Get(id)
		return err
	})
	if err == nil {
		s.notes.publish(t, tk)
	}
	return t, err
}

// answerRead answers look from a table read: now, unless the table is
// finished and the poll is for a newer version, which waits its whole time.
func (s *tableViews) answerRead(ctx context.Context, t Table, actor Actor, invite string, since int64) (int64, int, context.Context, func(), error) {
	a := accessOf(t)
	if !a.visible(actor, invite) {
		if ok, err := s.staffWatches(ctx, actor, a.tournament); err != nil || !ok {
			return 0, -1, nil, nil, cmp.Or(err, error(errTableNotFound))
		}
	}
	if t.Status.Closed() && t.Version <= since {
		return t.Version, a.seatOf(actor), nil, func() {}, nil
	}
	return t.Version, a.seatOf(actor), nil, nil, nil
}

// staffWatches reports whether the actor, who is not at the table, may
// watch it as the staff of its tournament (access.staffWatches): a read
// the notifier's cached access cannot answer, made for them only.
func (s *tableViews) staffWatches(ctx context.Context, actor Actor, tournament int64) (bool, error) {
	if tournament == 0 || actor.Anonymous() {
		return false, nil
	}
	var ok bool
	err := s.st.View(ctx, func(tx Tx) error {
		var err error
		ok, err = accessFor(tx, actor).staffWatches(tournament)
		return err
	})
	return ok, err
}
