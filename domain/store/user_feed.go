package store

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/burraco/burraco/domain"
)

// Users' changes cross server processes in the write marks' notices
// (write_marks.go), on the connection each process already listens on: a
// write transaction that changes what authenticates a user (their session
// version, their site-admin right, their existence: userRepo's
// SetPassword, SetSiteAdmin, Delete) adds a record "user#<id>" to the
// notice it sends at its commit, and every other process's cache of
// actors forgets that user when it hears it (domain.UserFeed). The
// channel's lost connection is the marks' too: the followers are told
// when it goes and when it is back. A process of an older build hears the
// record as a table nobody reads, and counts it for nothing.
//
// On SQLite nothing is sent: another process's commit on the file is seen
// by the write connection itself (user_feed_sqlite.go).

// userRecordPrefix begins a notice's record of a user's change; no
// table's name holds '#'.
const userRecordPrefix = "user#"

func userRecord(id int64) string { return userRecordPrefix + strconv.FormatInt(id, 10) }

var _ domain.UserFeed = (*DB)(nil)

// userChanged notes, in a PostgreSQL write transaction, that the user's
// authentication changed: its notice will say so.
func (t *tx) userChanged(id int64) {
	if t.dialect != Postgres {
		return
	}
	w, ok := t.db.Statement.Context.Value(writeSetKey{}).(*writeSet)
	if !ok {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !slices.Contains(w.users, id) {
		w.users = append(w.users, id)
	}
}

// userFollowers are the FollowUsers of one DB. Its lock orders the calls
// to their callbacks, so that a follower's last listening call is the
// feed's state.
type userFollowers struct {
	mu        sync.Mutex
	listening bool
	all       []*userFollower
}

type userFollower struct {
	changed   func(userID int64)
	listening func(on bool)
}

// heard tells the followers of the users' records among records, and
// returns the others (the tables', for the marks).
func (u *userFollowers) heard(records []string) []string {
	var ids []int64
	rest := records[:0]
	for _, r := range records {
		s, ok := strings.CutPrefix(r, userRecordPrefix)
		if !ok {
			rest = append(rest, r)
			continue
		}
		if id, err := strconv.ParseInt(s, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return rest
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, f := range u.all {
		for _, id := range ids {
			f.changed(id)
		}
	}
	return rest
}

func (u *userFollowers) setListening(on bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.listening = on
	for _, f := range u.all {
		f.listening(on)
	}
}

// FollowUsers implements domain.UserFeed. On PostgreSQL it shares the
// write marks' listening connection (started here if no read has started
// it yet); on a SQLite file it watches for other processes' commits
// (user_feed_sqlite.go).
func (db *DB) FollowUsers(ctx context.Context, changed func(userID int64), listening func(on bool)) error {
	switch {
	case db.dialect == Postgres:
	case db.ckpt == nil: // an in-memory SQLite database: no other process
		<-ctx.Done()
		return nil
	default:
		db.foreign.watch(db) // its baseline read, the followers listen
	}
	f := &userFollower{changed: changed, listening: listening}
	u := &db.marks.users
	u.mu.Lock()
	u.all = append(u.all, f)
	if u.listening {
		listening(true)
	}
	u.mu.Unlock()
	if db.dialect == Postgres {
		db.marks.follow.Do(func() { db.followWrites() })
	}
	<-ctx.Done()
	u.mu.Lock()
	defer u.mu.Unlock()
	u.all = slices.DeleteFunc(u.all, func(g *userFollower) bool { return g == f })
	listening(false)
	return nil
}
