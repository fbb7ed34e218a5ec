package logs

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// slogRequestLine is the line slog's own handler writes for the request
// record, the reference the fast line must equal.
func slogRequestLine(t testing.TB, json bool, at time.Time, level slog.Level, ln *RequestLine) string {
	t.Helper()
	var buf bytes.Buffer
	opts := &slog.HandlerOptions{Level: slog.LevelDebug}
	var h slog.Handler = slog.NewTextHandler(&buf, opts)
	if json {
		h = slog.NewJSONHandler(&buf, opts)
	}
	r := slog.NewRecord(at, level, "request", 0)
	r.AddAttrs(
		slog.String("request_id", ln.RequestID),
		slog.String("method", ln.Method),
		slog.String("path", ln.Path),
		slog.Int("status", ln.Status),
		slog.Int("bytes", ln.Bytes),
		slog.Duration("duration", ln.Duration),
		slog.String("remote", ln.Remote),
		slog.String("client", ln.Client),
	)
	if err := h.Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestFastRequestLineEqualsSlogs(t *testing.T) {
	rome := time.FixedZone("CET", 3600)
	base := RequestLine{RequestID: "0123abcd", Method: "GET", Path: "/api/v1/players/7",
		Status: 200, Bytes: 312, Duration: 1234567 * time.Nanosecond, Remote: "127.0.0.1:5555", Client: "127.0.0.1"}
	with := func(f func(*RequestLine)) RequestLine { ln := base; f(&ln); return ln }
	tests := []struct {
		name  string
		at    time.Time
		level slog.Level
		line  RequestLine
	}{
		{"plain", time.Date(2026, 11, 23, 15, 0, 8, 123456789, time.UTC), slog.LevelInfo, base},
		{"whole second", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), slog.LevelInfo, base},
		{"millisecond with trailing zeros", time.Date(2026, 1, 2, 3, 4, 5, 100_000_000, time.UTC), slog.LevelInfo, base},
		{"just under a second", time.Date(2026, 12, 31, 23, 59, 59, 999_999_999, time.UTC), slog.LevelInfo, base},
		{"other zone", time.Date(2026, 6, 1, 12, 0, 0, 5_000_001, rome), slog.LevelInfo, base},
		{"monotonic reading", time.Now(), slog.LevelInfo, base},
		{"debug", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelDebug, base},
		{"error", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelError, with(func(l *RequestLine) { l.Status = 503 })},
		{"warn", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelWarn, base},
		{"empty strings", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			RequestLine{}},
		{"quotes and backslashes", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Path = `/a"b\c`; l.Client = `"`; l.Remote = `\` })},
		{"spaces and equals", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Path = "/a b"; l.Method = "M=N"; l.Remote = " " })},
		{"control characters", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Path = "/a\nb\tc\rd\x00e\x1f\x7f\b\f" })},
		{"unicode", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Path = "/giocatori/Niccolò/ñ/日本/🂡" })},
		{"unicode spaces and separators", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Path = "/a\u00a0b\u2028c\u2029d\u200be\ufeff" })},
		{"invalid utf-8 and the replacement rune", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Path = "/\xff\xfe/\xe2\x82/\ufffd" })},
		{"html characters", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Path = "/<script>&amp;</script>" })},
		{"long path", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Path = "/" + strings.Repeat("players/12345/", 600) })},
		{"ipv6 remote", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Remote = "[::1]:443"; l.Client = "2001:db8::1" })},
		{"durations", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Duration = 0 })},
		{"long duration", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Duration = 61*time.Second + 7*time.Microsecond; l.Bytes = 1 << 40 })},
		{"sub-microsecond duration", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo,
			with(func(l *RequestLine) { l.Duration = 999; l.Status = -1; l.Bytes = -5 })},
	}
	for _, tc := range tests {
		for _, json := range []bool{false, true} {
			name := tc.name + "/text"
			if json {
				name = tc.name + "/json"
			}
			t.Run(name, func(t *testing.T) {
				want := slogRequestLine(t, json, tc.at, tc.level, &tc.line)
				got := string(appendRequestLine(nil, json, tc.at, tc.level, &tc.line))
				if got != want {
					t.Errorf("fast line differs from slog's\n got: %q\nwant: %q", got, want)
				}
			})
		}
	}
}

// FuzzFastRequestLineEqualsSlogs compares the two lines for any strings.
func FuzzFastRequestLineEqualsSlogs(f *testing.F) {
	f.Add("/api/v1/players/1", "GET", "127.0.0.1:1", int64(1234567), int64(1_700_000_000_123_456_789))
	f.Add("", "", "", int64(0), int64(0))
	f.Add("/a b\"c=\\\x00\xff\u2028ñ", "M\tN", "[::1]:2", int64(-1), int64(-1))
	f.Fuzz(func(t *testing.T, path, method, remote string, dur, nanos int64) {
		at := time.Unix(0, nanos).UTC()
		if y := at.Year(); y < 0 || y >= 10000 {
			t.Skip() // never time.Now's; slog writes an error there
		}
		ln := RequestLine{RequestID: remote, Method: method, Path: path, Status: int(dur % 1000),
			Bytes: int(dur), Duration: time.Duration(dur), Remote: remote, Client: path}
		for _, json := range []bool{false, true} {
			want := slogRequestLine(t, json, at, slog.LevelInfo, &ln)
			if got := string(appendRequestLine(nil, json, at, slog.LevelInfo, &ln)); got != want {
				t.Fatalf("json=%v: fast line differs from slog's\n got: %q\nwant: %q", json, got, want)
			}
		}
	})
}

func TestRequestLoggerIsUsedOnlyForNewHandlersOwnLines(t *testing.T) {
	buf := NewBuffer(&bytes.Buffer{})
	defer buf.Close()
	tests := []struct {
		name      string
		h         slog.Handler
		fast      bool
		withFlush bool
	}{
		{"text handler of NewHandler", NewHandler(&bytes.Buffer{}, Text, slog.LevelInfo), true, false},
		{"JSON handler of NewHandler", NewHandler(&bytes.Buffer{}, JSON, nil), true, false},
		{"NewHandler's in a Buffer", buf.Handler(NewHandler(buf, Text, slog.LevelInfo)), true, true},
		{"slog's text handler", slog.NewTextHandler(&bytes.Buffer{}, nil), false, false},
		{"slog's handler in a Buffer", buf.Handler(slog.NewTextHandler(buf, nil)), false, false},
		{"NewHandler's with attrs", NewHandler(&bytes.Buffer{}, Text, nil).WithAttrs([]slog.Attr{slog.String("a", "b")}), false, false},
		{"NewHandler's with a group", buf.Handler(NewHandler(buf, JSON, nil)).WithGroup("g"), false, false},
		{"discard", slog.DiscardHandler, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := RequestLoggerOf(tc.h)
			if (l != nil) != tc.fast {
				t.Fatalf("fast writer: %v, want %v", l != nil, tc.fast)
			}
			if l != nil && (l.flush != nil) != tc.withFlush {
				t.Errorf("flushes: %v, want %v", l.flush != nil, tc.withFlush)
			}
		})
	}
}

// TestRequestLinesThroughBufferAreSlogs writes request lines to a log
// wired as serve wires it, and checks they are the ones slog writes, with an error line flushed at once and an Info line
// held in the buffer.
func TestRequestLinesThroughBufferAreSlogs(t *testing.T) {
	for _, format := range []Format{Text, JSON} {
		var out bytes.Buffer
		buf := NewBuffer(&out)
		log := slog.New(buf.Handler(NewHandler(buf, format, slog.LevelInfo)))
		rl := RequestLoggerOf(log.Handler())
		if rl == nil {
			t.Fatal("serve's wiring is not recognized")
		}
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		ln := RequestLine{RequestID: "x", Method: "GET", Path: "/p q", Status: 200, Remote: "r", Client: "c"}
		rl.Write(at, slog.LevelInfo, &ln)
		if out.Len() != 0 {
			t.Errorf("format %d: an Info line was written through at once", format)
		}
		rl.Write(at, slog.LevelError, &ln)
		want := slogRequestLine(t, format == JSON, at, slog.LevelInfo, &ln) +
			slogRequestLine(t, format == JSON, at, slog.LevelError, &ln)
		if got := out.String(); got != want {
			t.Errorf("format %d: after an Error line the log holds\n%q\nwant\n%q", format, got, want)
		}
		// slog's own records go to the same writer, in order.
		log.Warn("w", "k", "v")
		if !strings.HasSuffix(out.String(), "msg=w k=v\n") && !strings.HasSuffix(out.String(), `"msg":"w","k":"v"}`+"\n") {
			t.Errorf("format %d: slog's Warn line missing: %q", format, out.String())
		}
		buf.Close()
	}
}

// BenchmarkRequestLine writes a request line to a Buffer as serve wires
// it, through slog and through the fast writer.
func BenchmarkRequestLine(b *testing.B) {
	ln := RequestLine{RequestID: "0123456789abcdef", Method: "GET", Path: "/api/v1/players/42",
		Status: 200, Bytes: 312, Duration: 1234567, Remote: "127.0.0.1:5555", Client: "127.0.0.1"}
	buf := NewBuffer(io.Discard)
	defer buf.Close()
	log := slog.New(buf.Handler(NewHandler(buf, Text, slog.LevelInfo)))
	b.Run("slog", func(b *testing.B) {
		ctx := context.Background()
		for b.Loop() {
			log.LogAttrs(ctx, slog.LevelInfo, "request",
				slog.String("request_id", ln.RequestID), slog.String("method", ln.Method),
				slog.String("path", ln.Path), slog.Int("status", ln.Status), slog.Int("bytes", ln.Bytes),
				slog.Duration("duration", ln.Duration), slog.String("remote", ln.Remote), slog.String("client", ln.Client))
		}
	})
	b.Run("fast", func(b *testing.B) {
		rl := RequestLoggerOf(log.Handler())
		for b.Loop() {
			rl.Write(time.Now(), slog.LevelInfo, &ln)
		}
	})
}

// TestSlogTimeFollowsTheSecondAndTheZone: the time of a line is formatted
// from the last line's second only when it is the same second in the same
// location.
func TestSlogTimeFollowsTheSecondAndTheZone(t *testing.T) {
	at := time.Date(2026, 3, 29, 0, 59, 59, 998_000_000, time.UTC)
	rome := time.FixedZone("CET", 3600)
	for i, tm := range []time.Time{at, at.In(rome), at.Add(time.Millisecond), at.Add(2 * time.Millisecond).In(rome),
		at.Add(2 * time.Millisecond), at.In(rome), time.Date(1969, 12, 31, 23, 59, 59, 500_000_000, time.UTC)} {
		want := tm.Format("2006-01-02T15:04:05.000Z07:00")
		if got := string(appendSlogTime(nil, tm)); got != want {
			t.Errorf("#%d %v: %s, want %s", i, tm, got, want)
		}
	}
}
