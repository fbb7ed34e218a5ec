package domain

import (
	"context"
	"sync"
	"time"
)

// ActorTTL is how long a process trusts what it read of a user to
// authenticate their requests while it does not hear other processes'
// changes of users (PostgreSQL while the process's listening connection is
// down or being re-established; a process that does not follow the
// storage's UserFeed).
// Reading the user on every request made it a third of the server's work;
// the cache keeps what the read protects: a change made through this
// process (SetSiteAdmin, DeleteUser, ResetPassword) empties the user's
// entry at once, and a change made by another process takes effect here
// when the entry expires, at most ActorTTL later.
const ActorTTL = 2 * time.Second

// ActorTTLHeard is how long a process trusts a user it read while it hears
// other processes' changes of users (UserFeed). On PostgreSQL such a
// change made through the services (a password reset, a site admin's
// right taken, a deletion), in any process sharing the database, empties
// the user's entry in every process as soon as its notice arrives (at its
// commit), and a process that stops hearing empties its whole cache and
// goes back to ActorTTL; what the notices cannot carry, a change made by
// hand in SQL, takes effect within ActorTTLHeard: the backstop. On a
// SQLite file any commit of another process (the services' or SQL by
// hand) empties the whole cache within a quarter of a second. At human pace a
// seat thinks for seconds between requests, longer than ActorTTL: with it
// alone nearly every request read the user again.
const ActorTTLHeard = 5 * time.Minute

// maxCachedActors bounds the cache's memory: past it, expired entries are
// swept, and if none had expired the cache starts afresh.
const maxCachedActors = 100_000

// UserFeed is implemented by storage that tells a process of the changes
// other processes make to users' authentication (PostgreSQL, and a SQLite
// file).
type UserFeed interface {
	// FollowUsers calls listening(true) each time it starts hearing of
	// every change to a user's session version, site-admin right or
	// existence committed by another process (also after a lost
	// connection: changes may have been missed meanwhile),
	// listening(false) when it stops (a lost connection, ctx's end), and
	// changed with the user's id of each change heard, until ctx ends.
	// Storage that cannot tell which user changed calls listening(true)
	// again for each change (a SQLite file: another process committed).
	// Storage that hears nothing (an in-memory database, which no other
	// process shares) never calls listening(true).
	FollowUsers(ctx context.Context, changed func(userID int64), listening func(on bool)) error
}

// actorCache maps user ids to their Actor for at most ttl, or heardTTL
// while other processes' changes are heard (listening).
type actorCache struct {
	now           func() time.Time
	ttl, heardTTL time.Duration

	mu      sync.RWMutex
	entries map[int64]cachedActor
	// gen counts invalidations: a read that began before one must not
	// store what it read, which may be the state from before the change.
	gen uint64
	// heard: the feed is heard (listening(true) and no listening(false)
	// since): an entry stored now lasts heardTTL.
	heard bool
}

type cachedActor struct {
	actor   Actor
	session int64 // the user's session version (User.SessionVersion)
	expires time.Time
}

func newActorCache(now func() time.Time, ttl, heardTTL time.Duration) *actorCache {
	return &actorCache{now: now, ttl: ttl, heardTTL: heardTTL, entries: map[int64]cachedActor{}}
}

// get returns the cached actor of the user and their session version, if
// it has not expired.
func (c *actorCache) get(id int64) (Actor, int64, bool) {
	c.mu.RLock()
	e, ok := c.entries[id]
	c.mu.RUnlock()
	if !ok || !c.now().Before(e.expires) {
		return Actor{}, 0, false
	}
	return e.actor, e.session, true
}

// generation is to be taken before reading the user from the database and
// handed to put.
func (c *actorCache) generation() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.gen
}

// put stores an actor read from the database, unless an invalidation
// happened since gen was taken.
func (c *actorCache) put(a Actor, session int64, gen uint64) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if len(c.entries) >= maxCachedActors {
		for id, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, id)
			}
		}
		if len(c.entries) >= maxCachedActors {
			clear(c.entries)
		}
	}
	ttl := c.ttl
	if c.heard {
		ttl = c.heardTTL
	}
	c.entries[a.UserID] = cachedActor{actor: a, session: session, expires: now.Add(ttl)}
}

// forget drops the user's entry and voids the reads in flight. Call it
// after the change has committed: a read that begins later sees the change.
func (c *actorCache) forget(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, id)
	c.gen++
}

// listening is the UserFeed's listening: either way every entry goes and
// the reads in flight are voided. Starting (again), changes may have been
// missed before; stopping, the entries stored with heardTTL would outlive
// what the short TTL promises while nothing is heard.
func (c *actorCache) listening(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
	c.gen++
	c.heard = on
}
