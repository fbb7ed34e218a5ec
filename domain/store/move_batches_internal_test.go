package store

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// fakeBatches is a moveBatches whose batches are written by write (no
// database): each statement's rows changed are 1, unless write says
// otherwise.
func fakeBatches(write func(moves []*sentMove) error) *moveBatches {
	b := newMoveBatches(nil)
	b.run = func(_ context.Context, moves []*sentMove) error {
		for _, m := range moves {
			m.n = 1
		}
		return write(moves)
	}
	return b
}

// TestMovesArrivingDuringABatchGoTogetherInTheNext: while a batch is being
// written, the moves that arrive wait, and are then written in one batch
// led by the first of them; each gets its own answer.
func TestMovesArrivingDuringABatchGoTogetherInTheNext(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var sizes []int
	b := fakeBatches(func(moves []*sentMove) error {
		mu.Lock()
		sizes = append(sizes, len(moves))
		first := len(sizes) == 1
		mu.Unlock()
		if first {
			<-release // the first batch is on the wire while the others arrive
		}
		return nil
	})
	b.most = 1 // one batch on the wire: the others wait for it
	ctx := t.Context()
	var wg sync.WaitGroup
	wg.Go(func() {
		if n, err := b.exec(ctx, "first", nil); n != 1 || err != nil {
			t.Errorf("the first move: %d, %v", n, err)
		}
	})
	waitWaiting(t, b, 0)
	const later = 10
	for i := range later {
		wg.Go(func() {
			if n, err := b.exec(ctx, "later "+strconv.Itoa(i), nil); n != 1 || err != nil {
				t.Errorf("move %d: %d, %v", i, n, err)
			}
		})
	}
	waitWaiting(t, b, later)
	close(release)
	wg.Wait()
	if len(sizes) != 2 || sizes[0] != 1 || sizes[1] != later {
		t.Errorf("batches of %v moves; want [1 %d]", sizes, later)
	}
	if b.sending != 0 || len(b.waiting) != 0 {
		t.Errorf("after the last batch: %d batches sending, %d waiting", b.sending, len(b.waiting))
	}
	if got := b.sizes[later].Load(); got != 1 {
		t.Errorf("batches of %d counted %d; want 1", later, got)
	}
}

// waitWaiting waits until n moves wait behind a batch being written.
func waitWaiting(t *testing.T, b *moveBatches, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		b.mu.Lock()
		got := len(b.waiting)
		b.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d moves waiting; want %d", got, n)
		}
	}
}

// TestAnErrorInABatchIsOnlyItsMoves: a PostgreSQL error rolls a batch back
// as a whole; each of its statements is then written alone, and only the
// failing one answers the error. An error of the connection (whether the
// batch committed is not known) is every member's.
func TestAnErrorInABatchIsOnlyItsMoves(t *testing.T) {
	t.Run("APostgresErrorIsTheFailingMovesAlone", func(t *testing.T) {
		var written atomic.Int64
		b := fakeBatches(func(moves []*sentMove) error {
			for _, m := range moves {
				if m.sql == "bad" {
					return &pgconn.PgError{Code: "23505"}
				}
			}
			written.Add(int64(len(moves)))
			return nil
		})
		errs := writeTogether(t, b, "good 1", "bad", "good 2")
		if errs[0] != nil || errs[2] != nil {
			t.Errorf("the good moves answered %v and %v; want no error", errs[0], errs[2])
		}
		var pgErr *pgconn.PgError
		if !errors.As(errs[1], &pgErr) {
			t.Errorf("the bad move answered %v; want its PostgreSQL error", errs[1])
		}
		if written.Load() != 2 {
			t.Errorf("%d moves written; want the 2 good ones, each once", written.Load())
		}
	})
	t.Run("AConnectionErrorIsEveryMembers", func(t *testing.T) {
		lost := errors.New("connection reset")
		var batches atomic.Int64
		b := fakeBatches(func([]*sentMove) error {
			batches.Add(1)
			return lost
		})
		for i, err := range writeTogether(t, b, "a", "b", "c") {
			if !errors.Is(err, lost) {
				t.Errorf("move %d answered %v; want the connection's error", i, err)
			}
		}
		if batches.Load() != 1 {
			t.Errorf("%d batches sent; want 1 (not sent again: it may have committed)", batches.Load())
		}
	})
}

// writeTogether writes stmts in one batch (queued, then led) and returns
// each one's error.
func writeTogether(t *testing.T, b *moveBatches, stmts ...string) []error {
	t.Helper()
	ms := make([]*sentMove, len(stmts))
	for i, q := range stmts {
		ms[i] = &sentMove{sql: q, turn: make(chan []*sentMove, 1)}
	}
	b.writeTogether(t.Context(), ms)
	errs := make([]error, len(ms))
	for i, m := range ms {
		errs[i] = m.err
	}
	return errs
}

// TestManyMoversAreEachAnsweredOnce: movers sending at once, batches
// written with delays: every move answered once with its own result, no
// batch over the bound, no more batches on the wire than allowed, nothing
// left waiting.
func TestManyMoversAreEachAnsweredOnce(t *testing.T) {
	var written, batches atomic.Int64
	var largest, onTheWire, mostOnTheWire atomic.Int64
	b := newMoveBatches(nil)
	b.run = func(_ context.Context, moves []*sentMove) error {
		if n := onTheWire.Add(1); n > mostOnTheWire.Load() {
			mostOnTheWire.Store(n)
		}
		defer onTheWire.Add(-1)
		batches.Add(1)
		if n := int64(len(moves)); n > largest.Load() {
			largest.Store(n)
		}
		for _, m := range moves {
			m.n, _ = strconv.ParseInt(m.sql, 10, 64)
			written.Add(1)
		}
		time.Sleep(100 * time.Microsecond)
		return nil
	}
	const movers, each = 200, 20
	var wg sync.WaitGroup
	for i := range movers {
		wg.Go(func() {
			for j := range each {
				want := int64(i*each + j)
				if n, err := b.exec(t.Context(), strconv.FormatInt(want, 10), nil); n != want || err != nil {
					t.Errorf("move %d answered %d, %v", want, n, err)
				}
			}
		})
	}
	wg.Wait()
	if written.Load() != movers*each {
		t.Errorf("%d moves written; want %d", written.Load(), movers*each)
	}
	if n := mostOnTheWire.Load(); n > movesOnTheWire {
		t.Errorf("%d batches on the wire at once; want at most %d", n, movesOnTheWire)
	}
	if largest.Load() > maxMoveBatch {
		t.Errorf("a batch of %d moves; want at most %d", largest.Load(), maxMoveBatch)
	}
	if batches.Load() >= movers*each {
		t.Errorf("%d batches for %d moves sent at once; want fewer batches than moves", batches.Load(), movers*each)
	}
	if b.sending != 0 || len(b.waiting) != 0 {
		t.Errorf("after the last batch: %d batches sending, %d waiting", b.sending, len(b.waiting))
	}
}

// TestABatchWhoseWritePanicsAnswersItsMovesAndTheNextGoOn: a batch whose
// writing panics is every member's error, and the moves sent after are
// written: a leader that never came back would leave its batch and every
// later move of the process waiting for good.
func TestABatchWhoseWritePanicsAnswersItsMovesAndTheNextGoOn(t *testing.T) {
	var calls atomic.Int64
	b := fakeBatches(func([]*sentMove) error {
		if calls.Add(1) == 1 {
			panic("the driver broke")
		}
		return nil
	})
	for i, err := range writeTogether(t, b, "a", "b") {
		if err == nil || !strings.Contains(err.Error(), "the driver broke") {
			t.Errorf("move %d of the batch that panicked answered %v; want the panic as an error", i, err)
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := b.exec(t.Context(), "after", nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the move after: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the move after the panic was not written: the batches stopped")
	}
}
