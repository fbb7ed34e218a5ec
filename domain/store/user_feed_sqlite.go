package store

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Users' changes on a SQLite file. Another process writing the file
// (`burraco admin reset-password`, SQL by hand through the sqlite3 shell,
// another serve) sends no notice, but SQLite tells a connection whether
// another connection committed since it last asked: PRAGMA data_version.
// This process commits only through its one write connection, so on that
// connection the value moves only when another process has committed.
// It is read after each of this process's commits (the writer holds its
// turn then: no statement of another writer can interleave) and, when this
// process has committed nothing for sqliteForeignPoll, by a poller taking
// the writer's turn. A change seen empties every follower's cache of
// actors (listening(true): the writes of another process are not told
// user by user): an actor is trusted for domain.ActorTTLHeard at most,
// and a revocation made elsewhere is refused here within
// sqliteForeignPoll, instead of within domain.ActorTTL (2 s) with every
// seat's user read again each time it expired (8% of the server's CPU at
// 1,000 tables at human pace, 2026-11-28).

// sqliteForeignPoll is how often an idle SQLite writer asks whether
// another process committed.
const sqliteForeignPoll = 250 * time.Millisecond

// foreignCommits watches a SQLite file's write connection for other
// processes' commits, for the users' followers (the write marks'
// userFollowers, which on SQLite hear nothing else).
type foreignCommits struct {
	start    sync.Once
	watching atomic.Bool   // a baseline was read: commits read it again
	version  int64         // the last data_version read (by the writer's turn holder only); -1: unknown
	checked  atomic.Int64  // db.commits when last read
	changed  chan struct{} // another process committed: the poller tells the followers
	mu       sync.Mutex    // stop, stopped
	stop     chan struct{} // closed by DB.Close (the poller's end)
	stopped  chan struct{} // closed when the poller has returned
}

// close stops the poller, if it started, and waits for it.
func (fc *foreignCommits) close() {
	fc.start.Do(func() {}) // no poller after this
	fc.mu.Lock()
	stop, stopped := fc.stop, fc.stopped
	fc.stop = nil
	fc.mu.Unlock()
	if stop != nil {
		close(stop)
		<-stopped
	}
}

// watch starts the watch once: the baseline first (a user kept for
// ActorTTLHeard once the followers listen must be forgotten at any commit
// of another process after it), then the followers listen, then the poller
// runs.
func (fc *foreignCommits) watch(db *DB) {
	fc.start.Do(func() {
		fc.changed = make(chan struct{}, 1)
		for !fc.checkInTurn(db) {
		}
		db.marks.users.setListening(true)
		fc.mu.Lock()
		fc.stop, fc.stopped = make(chan struct{}), make(chan struct{})
		stop, stopped := fc.stop, fc.stopped
		fc.mu.Unlock()
		go fc.poll(db, stop, stopped)
	})
}

// check reads the write connection's data_version; called by the holder
// of the writer's turn, with no transaction open on it. When another
// process committed since the last read, the poller is told to make every
// follower forget every user.
func (fc *foreignCommits) check(db *DB) {
	fc.checked.Store(db.commits.Load())
	var v int64
	if err := db.sql.QueryRow("PRAGMA data_version").Scan(&v); err != nil {
		v = -1 // unknown: treat as changed, and read again next time
	}
	last := fc.version
	fc.version = v
	if !fc.watching.Swap(true) || last == v && v != -1 {
		return // the baseline, or nothing new
	}
	select { // the poller tells the followers: not while holding the writer's turn
	case fc.changed <- struct{}{}:
	default: // already told to
	}
}

// checkInTurn takes the writer's turn and, when no batch is open (a
// batch's commit reads it), checks; it reports whether it did.
func (fc *foreignCommits) checkInTurn(db *DB) bool {
	b, err := db.writers.acquire(context.Background(), db.busyTimeout, db)
	if err != nil {
		return false // the writer was busy for longer than busyTimeout
	}
	if b == nil {
		fc.check(db)
	}
	db.handOn(b)
	return b == nil
}

// committed is called by the writer's turn after each of this process's
// commits on a SQLite file.
func (fc *foreignCommits) committed(db *DB) {
	if fc.watching.Load() {
		fc.check(db)
	}
}

// poll tells the followers of other processes' commits, and reads
// data_version when this process has committed nothing since the last
// read, until the database closes.
func (fc *foreignCommits) poll(db *DB, stop <-chan struct{}, stopped chan<- struct{}) {
	defer close(stopped)
	t := time.NewTicker(sqliteForeignPoll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-fc.changed:
			db.marks.users.setListening(true) // every follower forgets every user
		case <-t.C:
			if db.commits.Load() == fc.checked.Load() { // else a commit read it meanwhile
				fc.checkInTurn(db)
			}
		}
	}
}
