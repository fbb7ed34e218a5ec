package domain

import (
	"sync"
	"time"
)

// ActorTTL is how long a process trusts what it read of a user to
// authenticate their requests. Reading the user on every request made it a
// third of the server's work; the cache keeps what the read protects: a
// change made through this process (SetSiteAdmin, DeleteUser,
// ResetPassword) empties the cache at once, and a change made by another
// process sharing the database (another server, `burraco admin
// reset-password`, or by hand in SQL) takes effect here when the entry
// expires, at most ActorTTL later.
const ActorTTL = 2 * time.Second

// maxCachedActors bounds the cache's memory: past it, expired entries are
// swept, and if none had expired the cache starts afresh.
const maxCachedActors = 100_000

// actorCache maps user ids to their Actor for at most ttl.
type actorCache struct {
	now func() time.Time
	ttl time.Duration

	mu      sync.RWMutex
	entries map[int64]cachedActor
	// gen counts invalidations: a read that began before one must not
	// store what it read, which may be the state from before the change.
	gen uint64
}

type cachedActor struct {
	actor   Actor
	session int64 // the user's session version (User.SessionVersion)
	expires time.Time
}

func newActorCache(now func() time.Time, ttl time.Duration) *actorCache {
	return &actorCache{now: now, ttl: ttl, entries: map[int64]cachedActor{}}
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
	c.entries[a.UserID] = cachedActor{actor: a, session: session, expires: now.Add(c.ttl)}
}

// forget drops the user's entry and voids the reads in flight. Call it
// after the change has committed: a read that begins later sees the change.
func (c *actorCache) forget(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, id)
	c.gen++
}
