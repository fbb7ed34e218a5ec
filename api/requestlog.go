package api

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
// NewLogHandler (slog's own text or JSON handler, with no options but the
// level), the line is written here instead, byte for byte as slog would
// write it; any other handler gets the line through slog.

// LogFormat is the format of a log built by NewLogHandler.
type LogFormat int

const (
	LogText LogFormat = iota // slog.TextHandler's key=value lines
	LogJSON                  // slog.JSONHandler's one object per line
)

// NewLogHandler returns slog's text or JSON handler writing to w at level,
// in a form the request log recognizes. Its WithAttrs and WithGroup return
// slog's handlers, which the request log does not recognize (their lines
// carry more than it writes).
func NewLogHandler(w io.Writer, format LogFormat, level slog.Leveler) slog.Handler {
	if level == nil {
		level = slog.LevelInfo
	}
	lw := &lockedWriter{w: w}
	opts := &slog.HandlerOptions{Level: level}
	h := &logHandler{lw: lw, json: format == LogJSON, level: level}
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

// requestLogger writes request lines without slog.
type requestLogger struct {
	h     *logHandler
	flush *LogBuffer // flushed after a line at Warn or above, as flushingHandler does; may be nil
}

// requestLoggerOf returns the fast writer of h's request lines, or nil
// when h is not (a LogBuffer's wrapping of) a handler of NewLogHandler.
func requestLoggerOf(h slog.Handler) *requestLogger {
	var flush *LogBuffer
	if fh, ok := h.(flushingHandler); ok {
		h, flush = fh.Handler, fh.b
	}
	lh, ok := h.(*logHandler)
	if !ok {
		return nil
	}
	return &requestLogger{h: lh, flush: flush}
}

// requestLine is what a request's log line holds, in the order written.
type requestLine struct {
	requestID, method, path string
	status, bytes           int
	duration                time.Duration
	remote, client          string
}

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// write writes the line of a record made at t; level must be enabled.
func (l *requestLogger) write(t time.Time, level slog.Level, ln *requestLine) {
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
func appendRequestLine(b []byte, json bool, t time.Time, level slog.Level, ln *requestLine) []byte {
	t = t.Round(0) // as slog: no monotonic reading
	if json {
		b = append(b, `{"time":"`...)
		b = t.AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","level":`...)
		b = appendSlogJSONString(b, level.String())
		b = append(b, `,"msg":"request","request_id":`...)
		b = appendSlogJSONString(b, ln.requestID)
		b = append(b, `,"method":`...)
		b = appendSlogJSONString(b, ln.method)
		b = append(b, `,"path":`...)
		b = appendSlogJSONString(b, ln.path)
		b = append(b, `,"status":`...)
		b = strconv.AppendInt(b, int64(ln.status), 10)
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, int64(ln.bytes), 10)
		b = append(b, `,"duration":`...)
		b = strconv.AppendInt(b, int64(ln.duration), 10)
		b = append(b, `,"remote":`...)
		b = appendSlogJSONString(b, ln.remote)
		b = append(b, `,"client":`...)
		b = appendSlogJSONString(b, ln.client)
		return append(b, "}\n"...)
	}
	b = append(b, "time="...)
	b = appendSlogTime(b, t)
	b = append(b, " level="...)
	b = appendSlogTextString(b, level.String())
	b = append(b, " msg=request request_id="...)
	b = appendSlogTextString(b, ln.requestID)
	b = append(b, " method="...)
	b = appendSlogTextString(b, ln.method)
	b = append(b, " path="...)
	b = appendSlogTextString(b, ln.path)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(ln.status), 10)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, int64(ln.bytes), 10)
	b = append(b, " duration="...)
	b = append(b, ln.duration.String()...)
	b = append(b, " remote="...)
	b = appendSlogTextString(b, ln.remote)
	b = append(b, " client="...)
	b = appendSlogTextString(b, ln.client)
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
