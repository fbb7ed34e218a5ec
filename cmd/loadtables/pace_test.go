package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAPauseIsDrawnWithinAQuarterOfTheThinkTime(t *testing.T) {
	for _, c := range []struct {
		name    string
		think   time.Duration
		uniform float64
		want    time.Duration
	}{
		{"BotsPaceNeverPauses", 0, 0.5, 0},
		{"LowestDrawIsThreeQuarters", 2 * time.Second, 0, 1500 * time.Millisecond},
		{"MiddleDrawIsTheThinkTime", 2 * time.Second, 0.5, 2 * time.Second},
		{"HighestDrawStaysUnderFiveQuarters", 2 * time.Second, 0.999, 2499 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := pace{think: c.think, uniform: func() float64 { return c.uniform }}
			if got := p.next(); got != c.want {
				t.Errorf("next() = %v, want %v", got, c.want)
			}
		})
	}
}

// fakeTable is one seat's table on an httptest server: the seat's turn to
// draw at version 1, to discard at 2, the match over at 3. At each move it
// notes how many pauses the seat had taken by then.
type fakeTable struct {
	mu            sync.Mutex
	version       int64
	pauses        []time.Duration
	pausesAtMoves []int
}

func (f *fakeTable) state() map[string]any {
	status, phase := "playing", "take"
	if f.version == 2 {
		phase = "discard"
	}
	if f.version >= 3 {
		status = "finished"
	}
	return map[string]any{
		"table": map[string]any{"id": 1, "version": f.version, "status": status, "deal_number": 1},
		"seat":  0,
		"view":  map[string]any{"turn": 0, "phase": phase, "hand": []string{"3h"}},
	}
}

func (f *fakeTable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Method == "POST" {
		f.pausesAtMoves = append(f.pausesAtMoves, len(f.pauses))
		f.version++
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(f.state())
}

func (f *fakeTable) sleep(ctx context.Context, d time.Duration) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pauses = append(f.pauses, d)
	return true
}

func TestASeatThinksBeforeEachMove(t *testing.T) {
	for _, c := range []struct {
		name       string
		think      time.Duration
		wantPauses []time.Duration
		// wantAtMoves is how many pauses the server had seen when each
		// move arrived: one before the draw, two before the discard.
		wantAtMoves []int
	}{
		{"HumanPacePausesBeforeTheDrawAndTheDiscard", 2 * time.Second, []time.Duration{2 * time.Second, 2 * time.Second}, []int{1, 2}},
		{"BotsPaceMovesAtOnce", 0, nil, []int{0, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeTable{version: 1}
			srv := httptest.NewServer(f)
			defer srv.Close()
			tb := &table{id: 1, ackedAt: map[int64]time.Time{}}
			tb.playing.Store(1)
			var cnt counters
			p := pace{think: c.think, uniform: func() float64 { return 0.5 }, sleep: f.sleep}
			playSeat(t.Context(), &client{http: srv.Client(), base: srv.URL}, tb, &cnt, 0, p)
			if cnt.moves.Load() != 2 || cnt.errors.Load() != 0 || !tb.finished.Load() {
				t.Fatalf("moves %d, errors %d (%s), finished %v; want 2 moves to the end", cnt.moves.Load(), cnt.errors.Load(), cnt.firstErr, tb.finished.Load())
			}
			if len(f.pauses) != len(c.wantPauses) {
				t.Fatalf("pauses %v, want %v", f.pauses, c.wantPauses)
			}
			for i := range f.pauses {
				if f.pauses[i] != c.wantPauses[i] {
					t.Errorf("pause %d = %v, want %v", i, f.pauses[i], c.wantPauses[i])
				}
			}
			for i, n := range f.pausesAtMoves {
				if n != c.wantAtMoves[i] {
					t.Errorf("move %d arrived after %d pauses, want %d", i+1, n, c.wantAtMoves[i])
				}
			}
		})
	}
}

func TestASeatWhoseTableEndsWhileItThinksDoesNotMove(t *testing.T) {
	f := &fakeTable{version: 1}
	srv := httptest.NewServer(f)
	defer srv.Close()
	tb := &table{id: 1, ackedAt: map[int64]time.Time{}}
	tb.playing.Store(1)
	var cnt counters
	// The sleep says the context ended (the watchdog called the table
	// stuck, or the run's timeout): the seat gives up without moving.
	p := pace{think: time.Second, uniform: func() float64 { return 0.5 }, sleep: func(context.Context, time.Duration) bool { return false }}
	playSeat(t.Context(), &client{http: srv.Client(), base: srv.URL}, tb, &cnt, 0, p)
	if len(f.pausesAtMoves) != 0 || cnt.moves.Load() != 0 {
		t.Errorf("%d moves sent, want none", len(f.pausesAtMoves))
	}
}

func TestThinkMustNotBeNegative(t *testing.T) {
	var out strings.Builder
	if code := run(t.Context(), []string{"-think", "-1s"}, &out, &out); code != 2 {
		t.Errorf("-think -1s: exit %d, want 2 (%s)", code, out.String())
	}
}
