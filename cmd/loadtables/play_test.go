package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
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

// lossyTable is fakeTable's table whose first move's answer is lost: it
// plays the move, then closes the connection without answering. A move
// sent again under a key it played answers that move's state without
// playing again, as the server does. Each request comes on a connection
// of its own (Connection: close), so that the lost answer is the
// generator's to send again: net/http's transport sends a keyed request
// again by itself only on a connection it reused.
type lossyTable struct {
	fakeTable
	keys   []string         // each move's Idempotency-Key, in order
	played map[string]int64 // the version each key's move made
}

func (f *lossyTable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Connection", "close")
	w.Header().Set("Content-Type", "application/json")
	if r.Method != "POST" {
		_ = json.NewEncoder(w).Encode(f.state())
		return
	}
	key := r.Header.Get("Idempotency-Key")
	f.keys = append(f.keys, key)
	if _, ok := f.played[key]; ok && key != "" {
		_ = json.NewEncoder(w).Encode(f.state()) // the first answer again
		return
	}
	f.version++
	f.played[key] = f.version
	if len(f.keys) == 1 {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	_ = json.NewEncoder(w).Encode(f.state())
}

func TestAMoveCarriesAKeyOfItsOwnAndIsSentAgainUnderIt(t *testing.T) {
	for _, c := range []struct {
		name       string
		keys       bool
		wantKeys   func(k []string) bool // the keys of the moves the table got, in order
		wantErrors int64
		wantResent int64
	}{
		{"WithKeysTheLostAnswersMoveIsSentAgainUnderItsKeyAndTheNextHasAnother", true,
			func(k []string) bool { return len(k) == 3 && k[0] != "" && k[1] == k[0] && k[2] != "" && k[2] != k[0] }, 0, 1},
		{"WithoutKeysNoMoveCarriesOneAndALostAnswerIsAnError", false,
			func(k []string) bool { return len(k) == 2 && k[0] == "" && k[1] == "" }, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &lossyTable{fakeTable: fakeTable{version: 1}, played: map[string]int64{}}
			srv := httptest.NewServer(f)
			defer srv.Close()
			tb := &table{id: 1, ackedAt: map[int64]time.Time{}}
			tb.playing.Store(1)
			var cnt counters
			cl := &client{http: srv.Client(), base: srv.URL, keys: c.keys}
			playSeat(t.Context(), cl, tb, &cnt, 0, pace{})
			if !tb.finished.Load() || cnt.errors.Load() != c.wantErrors || cnt.resent.Load() != c.wantResent {
				t.Fatalf("finished %v, errors %d (%s), resent %d; want finished, %d errors, %d resent",
					tb.finished.Load(), cnt.errors.Load(), cnt.firstErr, cnt.resent.Load(), c.wantErrors, c.wantResent)
			}
			if !c.wantKeys(f.keys) {
				t.Errorf("the moves' keys %q", f.keys)
			}
		})
	}
}
