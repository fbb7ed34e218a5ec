package logs

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Log buffering: an access-log line per request, each written to stderr
// with its own write(2), was a system call on every request. A Buffer
// collects the lines and writes them together, at most logFlushEvery later
// or when logFlushSize bytes have gathered; a record at Warn or above is
// written at once, with everything before it, so that an error is never
// lost in a buffer. What a crash can lose is the last logFlushEvery of
// Info and Debug lines.
const (
	logFlushEvery = 100 * time.Millisecond
	logFlushSize  = 64 << 10
)

// Buffer is a buffered writer for the server's log. Wrap the log's
// handler with Handler, and Close it when the server has stopped.
type Buffer struct {
	mu     sync.Mutex
	w      io.Writer
	buf    []byte
	timer  *time.Timer // armed while buf holds something
	closed bool
}

// NewBuffer returns a Buffer that writes to w.
func NewBuffer(w io.Writer) *Buffer {
	b := &Buffer{w: w}
	b.timer = time.AfterFunc(time.Hour, func() { _ = b.Flush() })
	b.timer.Stop()
	return b
}

// Write buffers p (slog writes one record per call). Once the buffer is
// closed, it writes through.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return b.w.Write(p)
	}
	if len(b.buf) == 0 {
		b.timer.Reset(logFlushEvery)
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) >= logFlushSize {
		if err := b.flushLocked(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what is buffered.
func (b *Buffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *Buffer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	b.timer.Stop()
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

// Close flushes the buffer; later writes go straight through.
func (b *Buffer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return b.flushLocked()
}

// Handler wraps a handler that writes to b so that each record at Warn or
// above is written out at once.
func (b *Buffer) Handler(h slog.Handler) slog.Handler {
	return flushingHandler{Handler: h, b: b}
}

type flushingHandler struct {
	slog.Handler
	b *Buffer
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		if ferr := h.b.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h flushingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushingHandler{Handler: h.Handler.WithAttrs(attrs), b: h.b}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{Handler: h.Handler.WithGroup(name), b: h.b}
}
