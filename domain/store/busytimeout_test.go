package store

import (
	"net/url"
	"testing"
	"time"
)

// TestBusyTimeoutOverflowIsCapped: a DSN busy timeout too large for a
// time.Duration is capped, not wrapped into a negative (no) wait.
func TestBusyTimeoutOverflowIsCapped(t *testing.T) {
	for _, tc := range []struct {
		dsn  string
		want time.Duration
	}{
		{"_busy_timeout=250", 250 * time.Millisecond},
		{"_timeout=9223372036854775807", time.Duration(1<<63-1) / time.Millisecond * time.Millisecond},
		{"_busy_timeout=9223372036854", 9223372036854 * time.Millisecond},
		{"_busy_timeout=9223372036855", time.Duration(1<<63-1) / time.Millisecond * time.Millisecond},
		{"", 5 * time.Second},
	} {
		params, _ := url.ParseQuery(tc.dsn)
		if got := busyTimeout(params); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.dsn, got, tc.want)
		}
	}
}
