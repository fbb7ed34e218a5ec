package logs

import (
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// The request log line, one per request, cost about 14 % of a logged-in
// GET /players/{id} through slog's generic machinery (a Record, its attrs,
// the handler's state and buffers). When the server's log is one built by
// NewHandler (slog's own text or JSON handler, with no options but the
// level), the line is written here instead, byte for byte as slog would
// write it; any other handler gets the line through slog.

// Format is the format of a log built by NewHandler.
type Format int

const (
	Text Format = iota // slog.TextHandler's key=value lines
	JSON               // slog.JSONHandler's one object per line
)

// NewHandler returns slog's text or JSON handler writing to w at level,
// in a form the request log recognizes. Its WithAttrs and WithGroup return
// slog's handlers, which the request log does not recognize (their lines
// carry more than it writes).
func NewHandler(w io.Writer, format Format, level slog.Leveler) slog.Handler {
	if level == nil {
		level = slog.LevelInfo
	}
	lw := &lockedWriter{w: w}
	opts := &slog.HandlerOptions{Level: level}
	h := &logHandler{lw: lw, json: format == JSON, level: level}
	if h.json {
		h.Handler = slog.NewJSONHandler(lw, opts)
	} else {
		h.Handler = slog.NewTextHandler(lw, opts)
	}
	return h
}

// logHandler is slog's handler plus what the request log needs to write
// the same line itself.
type logHandler struct {
	slog.Handler
	lw    *lockedWriter
	json  bool
	level slog.Leveler
}

// lockedWriter serializes the writes of slog's handler and of the request
// log, which share w (slog's own mutex is out of reach).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// RequestLogger writes request lines without slog.
type RequestLogger struct {
	h     *logHandler
	flush *Buffer // flushed after a line at Warn or above, as flushingHandler does; may be nil
}

// RequestLoggerOf returns the fast writer of h's request lines, or nil
// when h is not (a Buffer's wrapping of) a handler of NewHandler.
func RequestLoggerOf(h slog.Handler) *RequestLogger {
	var flush *Buffer
	if fh, ok := h.(flushingHandler); ok {
		h, flush = fh.Handler, fh.b
	}
	lh, ok := h.(*logHandler)
	if !ok {
		return nil
	}
	return &RequestLogger{h: lh, flush: flush}
}

// RequestLine is what a request's log line holds, in the order written.
type RequestLine struct {
	RequestID, Method, Path string
	Status, Bytes           int
	Duration                time.Duration
	Remote, Client          string
}

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// Enabled reports whether the log takes lines at level.
func (l *RequestLogger) Enabled(level slog.Level) bool { return level >= l.h.level.Level() }

// Write writes the line of a record made at t; level must be enabled.
func (l *RequestLogger) Write(t time.Time, level slog.Level, ln *RequestLine) {
	bp := lineBufs.Get().(*[]byte)
	b := appendRequestLine((*bp)[:0], l.h.json, t, level, ln)
	_, _ = l.h.lw.Write(b)
	if len(b) <= 4<<10 { // keep the pool's buffers small
		*bp = b
		lineBufs.Put(bp)
	}
	if l.flush != nil && level >= slog.LevelWarn {
		_ = l.flush.Flush()
	}
}

// appendRequestLine appends the line slog's text or JSON handler writes
// for LogAttrs(ctx, level, "request", <ln's attrs>) at time t.
func appendRequestLine(b []byte, json bool, t time.Time, level slog.Level, ln *RequestLine) []byte {
	t = t.Round(0) // as slog: no monotonic reading
	if json {
		b = append(b, `{"time":"`...)
		b = t.AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","level":`...)
		b = appendSlogJSONString(b, level.String())
		b = append(b, `,"msg":"request","request_id":`...)
		b = appendSlogJSONString(b, ln.RequestID)
		b = append(b, `,"method":`...)
		b = appendSlogJSONString(b, ln.Method)
		b = append(b, `,"path":`...)
		b = appendSlogJSONString(b, ln.Path)
		b = append(b, `,"status":`...)
		b = strconv.AppendInt(b, int64(ln.Status), 10)
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, int64(ln.Bytes), 10)
		b = append(b, `,"duration":`...)
		b = strconv.AppendInt(b, int64(ln.Duration), 10)
		b = append(b, `,"remote":`...)
		b = appendSlogJSONString(b, ln.Remote)
		b = append(b, `,"client":`...)
		b = appendSlogJSONString(b, ln.Client)
		return append(b, "}\n"...)
	}
	b = append(b, "time="...)
	b = appendSlogTime(b, t)
	b = append(b, " level="...)
	b = appendSlogTextString(b, level.String())
	b = append(b, " msg=request request_id="...)
	b = appendSlogTextString(b, ln.RequestID)
	b = append(b, " method="...)
	b = appendSlogTextString(b, ln.Method)
	b = append(b, " path="...)
	b = appendSlogTextString(b, ln.Path)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(ln.Status), 10)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, int64(ln.Bytes), 10)
	b = append(b, " duration="...)
	b = append(b, ln.Duration.String()...)
	b = append(b, " remote="...)
	b = appendSlogTextString(b, ln.Remote)
	b = append(b, " client="...)
	b = appendSlogTextString(b, ln.Client)
	return append(b, '\n')
}

// appendSlogTime is slog's text time: RFC 3339 with exactly three
// digits of milliseconds, truncated. Every line of a second starts alike:
// the date, the time to the second and the zone are formatted once a
// second (lastSecond), the milliseconds on each line.
func appendSlogTime(b []byte, t time.Time) []byte {
	sec, loc := t.Unix(), t.Location()
	s := lastSecond.Load()
	if s == nil || s.sec != sec || s.loc != loc {
		s = newSecondStamp(t)
		lastSecond.Store(s)
	}
	ms := t.Nanosecond() / int(time.Millisecond)
	b = append(b, s.head...)
	b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	return append(b, s.zone...)
}

// secondStamp is a second of a location as slog's text time writes it.
type secondStamp struct {
	sec        int64
	loc        *time.Location
	head, zone string // "2006-01-02T15:04:05" and "Z07:00"
}

// lastSecond is the second of the last line written.
var lastSecond atomic.Pointer[secondStamp]

func newSecondStamp(t time.Time) *secondStamp {
	return &secondStamp{sec: t.Unix(), loc: t.Location(),
		head: t.Format("2006-01-02T15:04:05"), zone: t.Format("Z07:00")}
}

// appendSlogTextString is slog's text value: as is, or Go-quoted when it is
// empty or holds a space, '=', '"', a control character, U+FFFD or an
// invalid byte, or a non-printing rune.
func appendSlogTextString(b []byte, s string) []byte {
	if slogTextNeedsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func slogTextNeedsQuoting(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '=' || c == '"' || c < 0x20 {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

// appendSlogJSONString is slog's JSON string ('<', '>' and '&' kept).
func appendSlogJSONString(b []byte, s string) []byte { return appendQuoted(b, s, slogJSON) }
