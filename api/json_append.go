package api

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// jsonAppender is an answer type that writes its own JSON, byte for byte
// what encoding/json writes for it (TestAppendersWriteWhatEncodingJSONWrites
// compares them): encoding/json finds a struct's fields by reflection and
// calls time.Time's MarshalJSON, whose output it then checks and copies
// again, which cost half of a list's answer. appendJSON reports false when
// it cannot write v (a time encoding/json refuses): writeJSON then uses
// encoding/json, which says why.
type jsonAppender interface {
	appendJSON(b []byte) ([]byte, bool)
}

// appendJSONString appends s as encoding/json writes a string: HTML
// characters escaped, invalid UTF-8 replaced, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte { return appendQuoted(b, s, encodingJSON) }

// jsonDialect is how one encoder writes a JSON string; the two differ only
// in HTML characters and in the short escapes of backspace and form feed.
type jsonDialect struct {
	escapeHTML  bool // '<', '>', '&' as \u003c…
	shortBFEscs bool // '\b' and '\f' rather than \u0008 and \u000c
}

var (
	encodingJSON = jsonDialect{escapeHTML: true, shortBFEscs: true} // encoding/json
	slogJSON     = jsonDialect{}                                    // log/slog's JSON handler
)

// appendQuoted appends s quoted as d writes it: '"', '\\' and control
// characters escaped, an invalid byte as \ufffd, U+2028 and U+2029 escaped.
func appendQuoted(b []byte, s string, d jsonDialect) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!d.escapeHTML || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch {
			case c == '\\' || c == '"':
				b = append(b, '\\', c)
			case c == '\b' && d.shortBFEscs:
				b = append(b, '\\', 'b')
			case c == '\f' && d.shortBFEscs:
				b = append(b, '\\', 'f')
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONTime appends t as time.Time's MarshalJSON writes it (RFC 3339
// with nanoseconds); false when MarshalJSON refuses it.
func appendJSONTime(b []byte, t time.Time) ([]byte, bool) {
	if y := t.Year(); t.Location() == time.UTC && y >= 0 && y <= 9999 {
		b = append(b, '"')
		b = t.AppendFormat(b, time.RFC3339Nano)
		return append(b, '"'), true
	}
	j, err := t.MarshalJSON()
	if err != nil {
		return b, false
	}
	return append(b, j...), true
}

// appendJSONKey appends a key and its colon, preceded by a comma unless
// the key opens its object (first).
func appendJSONKey(b []byte, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func (p Player) appendJSON(b []byte) ([]byte, bool) {
	b = appendJSONKey(append(b, '{'), "id", true)
	b = strconv.AppendInt(b, p.ID, 10)
	if p.UserID != nil {
		b = strconv.AppendInt(appendJSONKey(b, "user_id", false), *p.UserID, 10)
	}
	b = appendJSONString(appendJSONKey(b, "name", false), p.Name)
	if p.FederationID != nil {
		b = appendJSONString(appendJSONKey(b, "federation_id", false), *p.FederationID)
	}
	if p.ClubID != nil {
		b = strconv.AppendInt(appendJSONKey(b, "club_id", false), *p.ClubID, 10)
	}
	b, ok := appendJSONTime(appendJSONKey(b, "created_at", false), p.CreatedAt)
	if !ok {
		return b, false
	}
	b, ok = appendJSONTime(appendJSONKey(b, "updated_at", false), p.UpdatedAt)
	return append(b, '}'), ok
}

func (l PlayerList) appendJSON(b []byte) ([]byte, bool) {
	b = appendJSONKey(append(b, '{'), "items", true)
	if l.Items == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range l.Items {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = p.appendJSON(b); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	b = strconv.AppendInt(appendJSONKey(b, "total", false), int64(l.Total), 10)
	b = strconv.AppendInt(appendJSONKey(b, "limit", false), int64(l.Limit), 10)
	b = strconv.AppendInt(appendJSONKey(b, "offset", false), int64(l.Offset), 10)
	return append(b, '}'), true
}

// appendJSON writes a health answer: load balancers ask every few seconds.
func (h Health) appendJSON(b []byte) ([]byte, bool) {
	b = appendJSONKey(append(b, '{'), "status", true)
	return append(appendJSONString(b, h.Status), '}'), true
}
