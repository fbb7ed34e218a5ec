package domain

import (
	"testing"
	"time"
)

func TestActorCache(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	anna := Actor{UserID: 1, SiteAdmin: true}

	t.Run("ExpiresAfterTTL", func(t *testing.T) {
		c := newActorCache(clock, ActorTTL, ActorTTLHeard)
		c.put(anna, 3, c.generation())
		if got, session, ok := c.get(1); !ok || got != anna || session != 3 {
			t.Fatalf("get = %+v, %d, %v", got, session, ok)
		}
		defer func(t0 time.Time) { now = t0 }(now)
		now = now.Add(ActorTTL)
		if _, _, ok := c.get(1); ok {
			t.Error("an entry ActorTTL old was served")
		}
	})
	t.Run("ForgetDrops", func(t *testing.T) {
		c := newActorCache(clock, ActorTTL, ActorTTLHeard)
		c.put(anna, 0, c.generation())
		c.forget(1)
		if _, _, ok := c.get(1); ok {
			t.Error("a forgotten entry was served")
		}
	})
	t.Run("ReadRacingAForgetIsNotStored", func(t *testing.T) {
		// The read began before the change committed, so it may hold the
		// state from before it.
		c := newActorCache(clock, ActorTTL, ActorTTLHeard)
		gen := c.generation()
		c.forget(1)
		c.put(anna, 0, gen)
		if _, _, ok := c.get(1); ok {
			t.Error("a read from before an invalidation was stored")
		}
	})
	t.Run("LastsActorTTLHeardWhileListening", func(t *testing.T) {
		c := newActorCache(clock, ActorTTL, ActorTTLHeard)
		c.listening(true)
		c.put(anna, 0, c.generation())
		defer func(t0 time.Time) { now = t0 }(now)
		now = now.Add(ActorTTLHeard - time.Nanosecond)
		if _, _, ok := c.get(1); !ok {
			t.Error("an entry stored while listening expired before ActorTTLHeard")
		}
		now = now.Add(time.Nanosecond)
		if _, _, ok := c.get(1); ok {
			t.Error("an entry ActorTTLHeard old was served")
		}
	})
	t.Run("ListeningOrNotEmptiesItAndVoidsTheReadsInFlight", func(t *testing.T) {
		for _, on := range []bool{true, false} {
			c := newActorCache(clock, ActorTTL, ActorTTLHeard)
			c.listening(!on)
			c.put(anna, 0, c.generation())
			gen := c.generation()
			c.listening(on)
			if _, _, ok := c.get(1); ok {
				t.Errorf("listening(%v): an entry from before was served", on)
			}
			c.put(anna, 0, gen)
			if _, _, ok := c.get(1); ok {
				t.Errorf("listening(%v): a read from before it was stored", on)
			}
		}
	})
	t.Run("MemoryIsBounded", func(t *testing.T) {
		c := newActorCache(clock, ActorTTL, ActorTTLHeard)
		for id := range int64(maxCachedActors + 10) {
			c.put(Actor{UserID: id + 1}, 0, c.generation())
		}
		if n := len(c.entries); n > maxCachedActors {
			t.Errorf("%d entries, want at most %d", n, maxCachedActors)
		}
		if _, _, ok := c.get(maxCachedActors + 10); !ok {
			t.Error("the newest entry is missing")
		}
	})
}
