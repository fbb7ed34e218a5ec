package api

import (
	"testing"
	"time"

	"github.com/burraco/burraco/domain"
)

// TestVerifiedTokensKeepTheirWindow: a token answered from the cache of
// verified tokens is still refused outside its iat..exp window, with the
// error a full check gives.
func TestVerifiedTokensKeepTheirWindow(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ti := tokenIssuer{secret: []byte("test-secret-0123456789-0123456789-abcdef"), ttl: time.Minute,
		now: func() time.Time { return now }, verified: newTokenCache()}
	token, _, err := ti.Mint(domain.User{ID: 42})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, at time.Time, wantOK bool) {
		t.Helper()
		now = at
		id, _, err := ti.Parse(token)
		if ok := err == nil && id == 42; ok != wantOK {
			t.Errorf("%s: id %d, err %v", name, id, err)
		}
		if err != nil && domain.ErrorCode(err) != domain.EUnauthenticated {
			t.Errorf("%s: err %v, want unauthenticated", name, err)
		}
	}
	issued := now
	check("Fresh", issued, true)
	if _, ok := ti.verified.get(token); !ok {
		t.Fatal("a verified token was not cached")
	}
	check("CachedWithinTTL", issued.Add(time.Minute-time.Nanosecond), true)
	check("CachedAtExpiry", issued.Add(time.Minute), false)
	check("CachedBeforeIssued", issued.Add(-time.Second), false)
	check("CachedAgainWithinTTL", issued.Add(time.Second), true)
	if _, ok := ti.verified.get(token + "x"); ok {
		t.Error("another spelling hit the cache")
	}
}

func TestTokenCacheIsBounded(t *testing.T) {
	c := newTokenCache()
	for i := range maxVerifiedTokens + 10 {
		c.put(string(rune(i)), verifiedToken{userID: int64(i)})
	}
	if n := len(c.m); n > maxVerifiedTokens {
		t.Errorf("%d tokens cached, want at most %d", n, maxVerifiedTokens)
	}
}
