package ratelimit

import "sync"

// Holds counts the requests each key (a caller) holds open at once, up to
// max (negative: no limit): long polls, streams. The counts are per
// process.
type Holds struct {
	max  int
	mu   sync.Mutex
	held map[string]int
}

// NewHolds returns a count of held requests of at most max a key.
func NewHolds(max int) *Holds { return &Holds{max: max, held: map[string]int{}} }

// Max is the most requests a key may hold.
func (l *Holds) Max() int { return l.max }

// Acquire counts one more request of key and returns its release, or
// reports false when key holds max already.
func (l *Holds) Acquire(key string) (release func(), ok bool) {
	if l.max < 0 {
		return func() {}, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held[key] >= l.max {
		return nil, false
	}
	l.held[key]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.held[key]--; l.held[key] <= 0 {
			delete(l.held, key) // the map holds only callers with a request open
		}
	}, true
}
