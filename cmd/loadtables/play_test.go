package main

import (
	"testing"
	"time"
)

func TestAMoveAcknowledgedWhileAPollWaitedIsALostWakeUp(t *testing.T) {
	at := time.Now()
	tb := &table{ackedAt: map[int64]time.Time{5: at.Add(-10 * time.Second), 6: at}}
	for _, c := range []struct {
		since  int64
		before time.Time
		want   bool
	}{
		{since: 4, before: at.Add(-time.Second), want: true},  // version 5 was acknowledged 9 s before the 304
		{since: 5, before: at.Add(-time.Second), want: false}, // version 6 only just now: the 304 may have been on its way
		{since: 6, before: at.Add(time.Minute), want: false},  // nothing newer than 6
		{since: 5, before: at.Add(time.Second), want: true},   // version 6, a second before
	} {
		if got := tb.newerAckedBefore(c.since, c.before); got != c.want {
			t.Errorf("newerAckedBefore(%d, %v) = %v, want %v", c.since, c.before.Sub(at), got, c.want)
		}
	}
}
