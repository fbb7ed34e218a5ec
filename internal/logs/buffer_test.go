package logs

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is the file under a Buffer.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (w *lockedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes++
	return w.b.Write(p)
}

func (w *lockedBuffer) String() string { w.mu.Lock(); defer w.mu.Unlock(); return w.b.String() }

func TestBuffer(t *testing.T) {
	newLog := func() (*slog.Logger, *Buffer, *lockedBuffer) {
		out := &lockedBuffer{}
		buf := NewBuffer(out)
		t.Cleanup(func() { buf.Close() })
		return slog.New(buf.Handler(slog.NewTextHandler(buf, nil))), buf, out
	}
	t.Run("InfoWaitsForTheNextFlush", func(t *testing.T) {
		log, _, out := newLog()
		log.Info("one")
		log.Info("two")
		if out.String() != "" {
			t.Fatalf("written at once: %q", out)
		}
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), "msg=two") {
			if time.Now().After(deadline) {
				t.Fatal("info lines not written after the flush interval")
			}
			time.Sleep(logFlushEvery / 10)
		}
		out.mu.Lock()
		defer out.mu.Unlock()
		if out.writes != 1 {
			t.Errorf("%d writes, want the two lines in one", out.writes)
		}
	})
	t.Run("WarnAndErrorAreWrittenAtOnceInOrder", func(t *testing.T) {
		for _, level := range []slog.Level{slog.LevelWarn, slog.LevelError} {
			log, _, out := newLog()
			log.Info("before")
			log.Log(t.Context(), level, "bad", "k", "v")
			got := out.String()
			if !strings.Contains(got, "msg=before") || !strings.Contains(got, "msg=bad k=v") ||
				strings.Index(got, "msg=before") > strings.Index(got, "msg=bad") {
				t.Errorf("%v: written %q", level, got)
			}
		}
	})
	t.Run("WithAttrsKeepsFlushing", func(t *testing.T) {
		log, _, out := newLog()
		log.With("component", "x").WithGroup("g").Error("bad")
		if !strings.Contains(out.String(), "component=x") {
			t.Errorf("written %q", out)
		}
	})
	t.Run("ABigBurstIsWrittenWithoutWaiting", func(t *testing.T) {
		log, _, out := newLog()
		for range logFlushSize / 40 {
			log.Info("a line of about forty bytes")
		}
		if out.String() == "" {
			t.Error("a full buffer was not written")
		}
	})
	t.Run("CloseFlushesAndLaterWritesGoThrough", func(t *testing.T) {
		log, buf, out := newLog()
		log.Info("last")
		if err := buf.Close(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "msg=last") {
			t.Fatalf("not flushed on Close: %q", out)
		}
		log.Info("after")
		if !strings.Contains(out.String(), "msg=after") {
			t.Errorf("a write after Close was held: %q", out)
		}
	})
}
