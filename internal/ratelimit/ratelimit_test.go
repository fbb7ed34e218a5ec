package ratelimit

import (
	"fmt"
	"testing"
	"time"
)

// TestRateLimiterBuckets checks the token bucket with a fake clock.
func TestRateLimiterBuckets(t *testing.T) {
	now := time.Unix(0, 0)
	l := New(60, 2, 100, func() time.Time { return now })
	for i, want := range []bool{true, true, false} {
		if ok, _ := l.Allow("a"); ok != want {
			t.Fatalf("request %d: allowed %v", i+1, ok)
		}
	}
	if _, wait := l.Allow("a"); wait != time.Second {
		t.Fatalf("wait %v, want 1s", wait)
	}
	now = now.Add(500 * time.Millisecond)
	if ok, wait := l.Allow("a"); ok || wait != 500*time.Millisecond {
		t.Fatalf("half a token: %v %v", ok, wait)
	}
	now = now.Add(time.Hour)
	for i := range 2 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("refilled bucket refused request %d", i+1)
		}
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("the bucket holds more than the burst")
	}
}

// TestRateLimiterMemoryIsBounded checks that many addresses do not grow
// the limiter past its bound, and that a limited address that was kept
// stays limited.
func TestRateLimiterMemoryIsBounded(t *testing.T) {
	now := time.Unix(0, 0)
	l := New(1, 1, 50, func() time.Time { return now })
	for i := range 10000 {
		l.Allow(fmt.Sprintf("10.0.%d.%d", i/256, i%256))
		if n := l.size(); n > 50 {
			t.Fatalf("%d buckets after %d addresses", n, i+1)
		}
	}
	// Buckets that have refilled are dropped first: a limited address is
	// not freed by a flood of new ones.
	l = New(60, 1, 3, func() time.Time { return now })
	l.Allow("x")
	l.Allow("y")
	now = now.Add(5 * time.Second) // x and y are full again
	l.Allow("victim")
	l.Allow("z") // the map is full: x and y must go, not victim
	if ok, _ := l.Allow("victim"); ok {
		t.Fatal("a limited address was forgotten while refilled ones were kept")
	}
	if l.size() != 2 {
		t.Fatalf("size %d, want 2 (victim, z)", l.size())
	}
}

// TestRateLimiterReturnsTokens: a token given back may be taken again, a
// bucket never holds more than its burst, and NewEvery refills at its
// period's rate.
func TestRateLimiterReturnsTokens(t *testing.T) {
	now := time.Unix(0, 0)
	l := NewEvery(6, time.Hour, 2, 100, func() time.Time { return now })
	l.Allow("a")
	l.Allow("a")
	if ok, wait := l.Allow("a"); ok || wait != 10*time.Minute {
		t.Fatalf("an empty bucket of 6 an hour: %v, wait %v; want refused, 10m", ok, wait)
	}
	l.Return("a")
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("a token given back was not taken again")
	}
	l.Return("a")
	l.Return("a")
	l.Return("a")
	l.Return("b") // no bucket: nothing to give back to
	for i, want := range []bool{true, true, false} {
		if ok, _ := l.Allow("a"); ok != want {
			t.Fatalf("after giving back more than was taken, request %d: allowed %v", i+1, ok)
		}
	}
}
