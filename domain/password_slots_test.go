package domain

import (
	"crypto/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPasswordHashesRunNoMoreAtOnceThanTheHasherHasSlots: sixteen sign-ups
// and logins at once compute at most as many argon2 keys at a time as the
// hasher has slots (each key holds 19 MiB while it runs), and every one of
// them is computed; a hasher without slots is not bounded.
func TestPasswordHashesRunNoMoreAtOnceThanTheHasherHasSlots(t *testing.T) {
	for _, c := range []struct {
		name     string
		slots    int // 0: none
		wantMost int
	}{
		{"TwoSlotsRunAtMostTwo", 2, 2},
		{"NoSlotsRunAllSixteenAtOnce", 0, 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			var running, most, calls atomic.Int64
			h := &passwordHasher{params: TestPasswordParams, random: rand.Reader}
			if c.slots > 0 {
				h.slots = make(chan struct{}, c.slots)
			}
			entered, release := make(chan struct{}, 16), make(chan struct{})
			h.derive = func(password, salt []byte, _, _ uint32, _ uint8, keyLen uint32) []byte {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				calls.Add(1)
				entered <- struct{}{}
				<-release // each key runs until the test has counted
				running.Add(-1)
				return make([]byte, keyLen)
			}
			var wg sync.WaitGroup
			for i := range 16 {
				wg.Go(func() {
					if i%2 == 0 {
						if _, err := h.hash("correct horse"); err != nil {
							t.Error(err)
						}
					} else {
						h.verify("correct horse", "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U")
					}
				})
			}
			for range c.wantMost {
				<-entered
			}
			// The others, if the bound let them, would enter now: a bound
			// that holds keeps them out however long this waits, so the
			// wait can only let a broken bound pass, never fail a good one.
			time.Sleep(50 * time.Millisecond)
			close(release)
			wg.Wait()
			if calls.Load() != 16 {
				t.Errorf("%d keys computed, want 16", calls.Load())
			}
			if most.Load() != int64(c.wantMost) {
				t.Errorf("%d keys computed at once, want %d", most.Load(), c.wantMost)
			}
		})
	}
}
