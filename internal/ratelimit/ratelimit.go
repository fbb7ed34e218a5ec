// Package ratelimit holds the per-client limits of requests: a token
// bucket a client (Limiter, its memory bounded) and a count of the
// requests a client holds open at once (Holds). What a refused request is
// answered with is the caller's.
package ratelimit

import (
	"math"
	"sync"
	"time"
)

// Limiter is a token bucket per client address: each address may make
// burst requests at once and then one every 1/rate seconds. Memory is
// bounded: at most maxKeys buckets are kept; when full, buckets that have
// refilled (and so hold no state worth keeping) are dropped, and if none
// have, an arbitrary one is.
type Limiter struct {
	rate    float64 // tokens per second
	burst   float64
	maxKeys int
	now     func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

// New returns a limiter of perMinute requests a minute after a burst of
// burst, keeping at most maxKeys buckets, on the clock now.
func New(perMinute, burst, maxKeys int, now func() time.Time) *Limiter {
	return NewEvery(perMinute, time.Minute, burst, maxKeys, now)
}

// NewEvery is New with n requests every period rather than a minute.
func NewEvery(n int, period time.Duration, burst, maxKeys int, now func() time.Time) *Limiter {
	return &Limiter{
		rate:    float64(n) / period.Seconds(),
		burst:   float64(burst),
		maxKeys: maxKeys,
		now:     now,
		buckets: make(map[string]*bucket),
	}
}

// Allow takes a token from key's bucket. When there is none it reports how
// long until there will be one.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b, ok := l.buckets[key]
	if !ok {
		l.makeRoom(now)
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	return false, wait
}

// Return gives back a token Allow took, for a request that turned out not
// to count (a limit of failures takes a token before the attempt, so that
// attempts at once cannot pass it, and returns it when the attempt
// succeeds). The bucket never holds more than the burst.
func (l *Limiter) Return(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok { // dropped to make room: it was full, or is forgotten
		return
	}
	l.refill(b, l.now())
	b.tokens = math.Min(l.burst, b.tokens+1)
}

func (l *Limiter) refill(b *bucket, now time.Time) {
	if elapsed := now.Sub(b.last).Seconds(); elapsed > 0 {
		b.tokens = math.Min(l.burst, b.tokens+elapsed*l.rate)
	}
	b.last = now
}

// makeRoom keeps the map below maxKeys before a new bucket is added.
func (l *Limiter) makeRoom(now time.Time) {
	if len(l.buckets) < l.maxKeys {
		return
	}
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
	for k := range l.buckets {
		if len(l.buckets) < l.maxKeys {
			break
		}
		delete(l.buckets, k)
	}
}

// size is the number of buckets kept, for tests.
func (l *Limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
