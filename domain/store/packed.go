package store

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Packed rows: on SQLite the hot reads have SQLite pack a row's columns
// into one JSON array (json_array), and a page of rows into one array of
// arrays (json_group_array), which Go decodes here. go-sqlite3 makes two
// to four calls into C for each column of each row (its type, its value,
// its length), and database/sql converts each one: in a CPU profile of
// GET /players (a page of 20) they were half of the handler's time.
// Packed, a row or a whole page is one text value: three calls.
//
// What SQLite writes is narrow: no whitespace, integers in decimal, null,
// and strings with only '"', '\\' and the control characters escaped (raw
// UTF-8 otherwise). packedReader reads that, and any other valid JSON
// escape, and reports anything else as an error.

// errPacked is a packed value that is not the shape its reader expects.
var errPacked = errors.New("store: malformed packed row")

// packedReader reads the values of a packed row (or page) in order. The
// first error sticks: later reads return zero values, and err reports it.
type packedReader struct {
	s   string
	i   int
	err error
	// first is true right after '[': no comma before the next value.
	first bool
}

func (r *packedReader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("%w at byte %d", errPacked, r.i)
	}
}

// peek is the next byte, or 0 at the end.
func (r *packedReader) peek() byte {
	if r.i < len(r.s) {
		return r.s[r.i]
	}
	return 0
}

// begin reads '[', after a comma when it is not the first value.
func (r *packedReader) begin() {
	r.sep()
	if r.err == nil && r.peek() == '[' {
		r.i++
		r.first = true
		return
	}
	r.fail()
}

// more reports whether the array being read has another value.
func (r *packedReader) more() bool {
	return r.err == nil && r.peek() != ']' && r.i < len(r.s)
}

// end reads ']'.
func (r *packedReader) end() {
	if r.err == nil && r.peek() == ']' {
		r.i++
		r.first = false
		return
	}
	r.fail()
}

// done reports err, or an error when anything follows the value read.
func (r *packedReader) done() error {
	if r.err == nil && r.i != len(r.s) {
		r.fail()
	}
	return r.err
}

// sep reads the comma before a value that is not its array's first.
func (r *packedReader) sep() {
	if r.err != nil {
		return
	}
	if r.first {
		r.first = false
		return
	}
	if r.peek() != ',' {
		r.fail()
		return
	}
	r.i++
}

// null reads null if it comes next and reports whether it did.
func (r *packedReader) null() bool {
	if r.err != nil {
		return false
	}
	if len(r.s)-r.i >= 4 && r.s[r.i:r.i+4] == "null" {
		r.i += 4
		return true
	}
	return false
}

// int64 reads an integer.
func (r *packedReader) int64() int64 {
	r.sep()
	return r.digits()
}

func (r *packedReader) digits() int64 {
	if r.err != nil {
		return 0
	}
	start := r.i
	if r.peek() == '-' {
		r.i++
	}
	for r.i < len(r.s) && r.s[r.i] >= '0' && r.s[r.i] <= '9' {
		r.i++
	}
	n, err := strconv.ParseInt(r.s[start:r.i], 10, 64)
	if err != nil {
		r.i = start
		r.fail()
		return 0
	}
	return n
}

// optInt64 reads an integer or null (nil).
func (r *packedReader) optInt64() *int64 {
	r.sep()
	if r.null() {
		return nil
	}
	n := r.digits()
	if r.err != nil {
		return nil
	}
	return &n
}

// str reads a string.
func (r *packedReader) str() string {
	r.sep()
	return r.quoted()
}

// optStr reads a string or null (nil).
func (r *packedReader) optStr() *string {
	r.sep()
	if r.null() {
		return nil
	}
	s := r.quoted()
	if r.err != nil {
		return nil
	}
	return &s
}

// quoted reads a JSON string. Without escapes it is a substring of the
// packed value (no copy); with them it is unescaped into a new string.
func (r *packedReader) quoted() string {
	if r.err != nil {
		return ""
	}
	if r.peek() != '"' {
		r.fail()
		return ""
	}
	start := r.i + 1
	for j := start; j < len(r.s); j++ {
		switch r.s[j] {
		case '"':
			r.i = j + 1
			return r.s[start:j]
		case '\\':
			r.i = start
			return r.unescape()
		}
	}
	r.fail()
	return ""
}

// unescape reads the rest of a string that has an escape, from r.i (just
// after the opening quote) to its closing quote.
func (r *packedReader) unescape() string {
	b := make([]byte, 0, 32)
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == '"':
			r.i++
			return string(b)
		case c != '\\':
			b = append(b, c)
			r.i++
			continue
		}
		if r.i+1 >= len(r.s) {
			break
		}
		r.i += 2
		switch e := r.s[r.i-1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			c, ok := r.hex4()
			if !ok {
				r.fail()
				return ""
			}
			if utf16.IsSurrogate(c) {
				// A pair is one character; a lone half is
				// what encoding/json makes of it.
				c2 := rune(-1)
				if len(r.s)-r.i >= 6 && r.s[r.i] == '\\' && r.s[r.i+1] == 'u' {
					save := r.i
					r.i += 2
					if c2, ok = r.hex4(); !ok || utf16.DecodeRune(c, c2) == utf8.RuneError {
						r.i, c2 = save, -1
					}
				}
				if c2 >= 0 {
					c = utf16.DecodeRune(c, c2)
				} else {
					c = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, c)
		default:
			r.i -= 2
			r.fail()
			return ""
		}
	}
	r.fail()
	return ""
}

// hex4 reads the four hex digits of a \u escape.
func (r *packedReader) hex4() (rune, bool) {
	if len(r.s)-r.i < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(r.s[r.i:r.i+4], 16, 16)
	if err != nil {
		return 0, false
	}
	r.i += 4
	return rune(n), true
}

// packedValue scans a packed value (a text column) and decodes it with
// read, which must read the whole value.
type packedValue func(r *packedReader)

func (read packedValue) Scan(v any) error {
	r := packedReader{first: true} // the value itself has no comma before it
	switch v := v.(type) {
	case string:
		r.s = v
	case []byte:
		r.s = string(v)
	default:
		return fmt.Errorf("store: a packed row is %T", v)
	}
	read(&r)
	return r.done()
}

// packed is a page of a list in one statement and one packed value
// (SQLite): row is the json_array(...) of a row, over the columns of
// q.from, and each row is decoded by each. The page is the rows of q.order,
// but they come to each in no set order (SQLite does not promise to
// aggregate a subquery's rows in its order, and asking it to sorts them
// again, a sixth of the statement's time): the caller sorts them. The
// number of rows that match comes in the same row, also for a page past
// the end (an aggregate always has a row).
func (q pagedQuery) packed(t *tx, limit, offset int, entity, row string, each func(*packedReader)) (int, error) {
	where := ""
	if q.where != "" {
		where = " WHERE " + q.where
	}
	args := append(sqlArgs(nil), q.args...)
	page := "SELECT * FROM " + q.from + where + " ORDER BY " + q.order +
		" LIMIT " + args.add(limit) + " OFFSET " + args.add(offset)
	var total int64
	err := t.queryRow(false, "SELECT json_group_array("+row+"), (SELECT count(*) FROM "+q.from+where+") FROM ("+page+")",
		args, packedValue(func(r *packedReader) {
			r.begin()
			for r.more() {
				each(r)
			}
			r.end()
		}), &total)
	if err != nil {
		return 0, translate(err, entity)
	}
	return int(total), nil
}
