package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// The clients read a table's state (a poll's answer, a move's) for the
// few fields tableState holds. encoding/json validated and walked every
// byte of every answer (2–10 KB of melds, piles and seats): about 40% of
// this generator's CPU, which shares the servers' cores and so was CPU the
// servers did not have (a real frontend runs on its player's device).
// readState picks the fields out in one pass that skips the rest without
// decoding it, and hands anything it does not expect to encoding/json, so
// that what the clients read is what encoding/json would have read
// (TestReadStateReadsWhatEncodingJSONReads, FuzzReadState).

// readState fills st from a state answer body.
func readState(body []byte, st *tableState) error {
	*st = tableState{}
	r := stateReader{b: body}
	if err := r.state(st); err == nil {
		r.space()
		if r.i == len(r.b) {
			return nil
		}
	}
	*st = tableState{}
	return json.Unmarshal(body, st) // what the fast path does not expect, and its errors
}

// errUnexpected sends readState to encoding/json.
var errUnexpected = errors.New("state reader: unexpected input")

// stateReader is a cursor over a JSON body.
type stateReader struct {
	b []byte
	i int
}

func (r *stateReader) state(st *tableState) error {
	return r.object(func(key []byte) error {
		switch string(key) {
		case "table":
			return r.object(func(key []byte) error {
				switch string(key) {
				case "id":
					return r.int64(&st.Table.ID)
				case "version":
					return r.int64(&st.Table.Version)
				case "status":
					return r.str(&st.Table.Status)
				case "deal_number":
					return r.int(&st.Table.DealNumber)
				}
				return r.skipUnless(key, "id", "version", "status", "deal_number")
			})
		case "seat":
			return r.int(&st.Seat)
		case "view":
			if r.null() {
				st.View = nil
				return nil
			}
			if st.View == nil {
				st.View = &struct {
					Turn  int      `json:"turn"`
					Phase string   `json:"phase"`
					Hand  []string `json:"hand"`
				}{}
			}
			v := st.View
			return r.object(func(key []byte) error {
				switch string(key) {
				case "turn":
					return r.int(&v.Turn)
				case "phase":
					return r.str(&v.Phase)
				case "hand":
					return r.strs(&v.Hand)
				}
				return r.skipUnless(key, "turn", "phase", "hand")
			})
		}
		return r.skipUnless(key, "table", "seat", "view")
	})
}

// skipUnless skips the value of key, unless key is one of names in
// another case: encoding/json matches keys without regard to case.
func (r *stateReader) skipUnless(key []byte, names ...string) error {
	for _, n := range names {
		if len(key) == len(n) && strings.EqualFold(string(key), n) { // keys are ASCII here (plainString)
			return errUnexpected
		}
	}
	return r.skip()
}

func (r *stateReader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next is the next byte past white space (0 at the end).
func (r *stateReader) next() byte {
	r.space()
	if r.i == len(r.b) {
		return 0
	}
	return r.b[r.i]
}

// object reads an object, calling field for each key with the cursor on
// its value; field must read the value.
func (r *stateReader) object(field func(key []byte) error) error {
	if r.next() != '{' {
		return errUnexpected
	}
	r.i++
	if r.next() == '}' {
		r.i++
		return nil
	}
	for {
		key, err := r.plainString()
		if err != nil {
			return err
		}
		if r.next() != ':' {
			return errUnexpected
		}
		r.i++
		r.space()
		if err := field(key); err != nil {
			return err
		}
		switch r.next() {
		case ',':
			r.i++
		case '}':
			r.i++
			return nil
		default:
			return errUnexpected
		}
	}
}

// plainString reads a string without escapes (an escape is unexpected:
// encoding/json reads those).
func (r *stateReader) plainString() ([]byte, error) {
	if r.next() != '"' {
		return nil, errUnexpected
	}
	start := r.i + 1
	for j := start; j < len(r.b); j++ {
		switch c := r.b[j]; {
		case c == '"':
			r.i = j + 1
			return r.b[start:j], nil
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, errUnexpected
		}
	}
	return nil, errUnexpected
}

func (r *stateReader) str(dst *string) error {
	if r.null() {
		return nil // encoding/json leaves a string as it was for null
	}
	s, err := r.plainString()
	if err != nil {
		return err
	}
	*dst = string(s)
	return nil
}

func (r *stateReader) strs(dst *[]string) error {
	if r.null() {
		*dst = nil
		return nil
	}
	if r.next() != '[' {
		return errUnexpected
	}
	r.i++
	out := make([]string, 0, 16)
	if r.next() == ']' {
		r.i++
		*dst = out
		return nil
	}
	for {
		s, err := r.plainString()
		if err != nil {
			return err
		}
		out = append(out, string(s))
		switch r.next() {
		case ',':
			r.i++
		case ']':
			r.i++
			*dst = out
			return nil
		default:
			return errUnexpected
		}
	}
}

// number reads a JSON integer's text (a fraction or an exponent is
// unexpected: encoding/json refuses those for an int).
func (r *stateReader) number() ([]byte, error) {
	r.space()
	start := r.i
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	digits := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	if r.i == digits || r.b[digits] == '0' && r.i-digits > 1 {
		return nil, errUnexpected
	}
	if r.i < len(r.b) && (r.b[r.i] == '.' || r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		return nil, errUnexpected
	}
	return r.b[start:r.i], nil
}

func (r *stateReader) int64(dst *int64) error {
	if r.null() {
		return nil
	}
	s, err := r.number()
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil {
		return errUnexpected
	}
	*dst = n
	return nil
}

func (r *stateReader) int(dst *int) error {
	var n int64
	if r.null() {
		return nil
	}
	if err := r.int64(&n); err != nil || int64(int(n)) != n {
		return errUnexpected
	}
	*dst = int(n)
	return nil
}

// null reads a null when one is next.
func (r *stateReader) null() bool {
	if r.next() == 'n' && len(r.b)-r.i >= 4 && string(r.b[r.i:r.i+4]) == "null" {
		r.i += 4
		return true
	}
	return false
}

// skip passes over one value without decoding it. It checks the value's
// shape (brackets that match, strings that end) but not every byte's
// grammar: an answer the server wrote with encoding/json is valid.
func (r *stateReader) skip() error {
	switch r.next() {
	case '"':
		return r.skipString()
	case '{', '[':
		depth := 0
		for r.i < len(r.b) {
			switch r.b[r.i] {
			case '"':
				if err := r.skipString(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					r.i++
					return nil
				}
			}
			r.i++
		}
		return errUnexpected
	case 0, ',', '}', ']', ':':
		return errUnexpected
	}
	start := r.i // a number, true, false or null
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return r.literal(r.b[start:r.i])
		}
		r.i++
	}
	return r.literal(r.b[start:r.i])
}

// literal checks a scalar skipped; encoding/json judges the rest.
func (r *stateReader) literal(b []byte) error {
	if json.Valid(b) {
		return nil
	}
	return errUnexpected
}

func (r *stateReader) skipString() error {
	for j := r.i + 1; ; j++ {
		k := bytes.IndexByte(r.b[j:], '"')
		if k < 0 {
			return errUnexpected
		}
		j += k
		escapes := 0 // a quote after an odd number of backslashes is escaped
		for p := j - 1; p > r.i && r.b[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			r.i = j + 1
			return nil
		}
	}
}
