package domain

import (
	"context"
	"sync"
)

// TournamentFeed is implemented by storage that more than one process may
// write (PostgreSQL), and by the other kind too, which says so.
type TournamentFeed interface {
	// FollowTournaments calls listening(true) when it starts hearing of
	// every change of a tournament's row (each time, also after a lost
	// connection: changes may have been missed before), listening(false)
	// when it stops (a lost connection, ctx's end), and changed with the
	// id of each change any process commits, until ctx ends.
	FollowTournaments(ctx context.Context, changed func(id int64), listening func(on bool)) error
}

// tournamentStamps keeps the stamps of public tournaments (what a hall
// screen's poll of the standings compares its ETag with), so that a poll
// that finds nothing new is answered without a query. A stamp is kept
// only while the storage's feed is heard (Follow): any change of a
// tournament, by this process or another, drops its stamp; when the feed
// stops, or starts again after a gap, every stamp is dropped.
//
// A stamp read from the database is kept only if no change was heard
// while it was read (epoch): a read that began before a commit may return
// the stamp the commit replaced, and keeping that one would answer 304 to
// the change for good.
type tournamentStamps struct {
	mu    sync.Mutex
	on    bool // the feed is heard
	epoch uint64
	m     map[int64]TournamentStamp
}

// maxTournamentStamps bounds the map (a few dozen bytes a stamp); past it
// it starts afresh.
const maxTournamentStamps = 10_000

func newTournamentStamps() *tournamentStamps {
	return &tournamentStamps{m: map[int64]TournamentStamp{}}
}

// get returns the kept stamp of tournament id, if any.
func (c *tournamentStamps) get(id int64) (TournamentStamp, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, ok := c.m[id]
	return st, ok
}

// begin returns the epoch to read a stamp under.
func (c *tournamentStamps) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// put keeps st, read since begin returned epoch, if it is public, the
// feed is heard and nothing changed since.
func (c *tournamentStamps) put(st TournamentStamp, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.on || !st.Public || epoch != c.epoch {
		return
	}
	if len(c.m) >= maxTournamentStamps {
		clear(c.m)
	}
	c.m[st.ID] = st
}

// changed drops the stamp of tournament id: it changed (committed).
func (c *tournamentStamps) changed(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	delete(c.m, id)
}

// listening drops every stamp and keeps stamps from now on only if on.
func (c *tournamentStamps) listening(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	clear(c.m)
	c.on = on
}
