package logs

import "unicode/utf8"

// JSON strings written by hand, as an encoder writes them: the request
// log's lines (requestline.go) are written without log/slog's reflection.

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
