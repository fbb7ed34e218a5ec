package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// NullField is a request field sent as JSON null. No request field is
// nullable: encoding/json would take null for an absent field (keeping
// the Go zero value), so that `"name": null` in a PATCH would silently
// change nothing and `"deals_per_round": null` would mean the default.
// The schema says what the server does: null is refused everywhere,
// naming the field; a client leaves a field out instead.
type NullField struct{ Path string }

func (e *NullField) Error() string { return e.Path + " must not be null" }

// findNull returns the first null member of the JSON object body (nested
// objects and arrays included), by its path as encoding/json names fields:
// object keys joined by dots, array indexes left out. body is valid JSON.
func findNull(body []byte) error {
	if !bytes.Contains(body, []byte("null")) { // the usual case: one scan, no parse
		return nil
	}
	return walkValues(body, func(path []string, tok json.Token) error {
		if tok == nil {
			return &NullField{Path: strings.Join(path, ".")}
		}
		return nil
	})
}

// MaxInteger is the largest magnitude of a number in a request body:
// 2^53-1, the largest integer every client holds exactly (a JavaScript
// Number), and what openapi.yaml gives every integer of a request as its
// bound. A larger one is refused as out_of_range, naming the field,
// whatever the field's type: encoding/json would call one past int64 of
// the wrong type, and take one below it that no schema allows.
const MaxInteger = 1<<53 - 1

// findHugeNumber returns the first number of body past ±MaxInteger, as a
// BadValue naming its field; nil when there is none or body is not valid
// JSON (decoding reports that).
func findHugeNumber(body []byte) error {
	if !hasLongNumber(body) { // the usual case: one scan, no parse
		return nil
	}
	return walkValues(body, func(path []string, tok json.Token) error {
		n, ok := tok.(json.Number)
		if !ok {
			return nil
		}
		f, err := n.Float64()
		if err == nil && f >= -MaxInteger && f <= MaxInteger {
			return nil
		}
		return &BadValue{Field: strings.Join(path, "."), Code: "out_of_range",
			Err: fmt.Errorf("%s is past ±%d, the largest integer a request may hold", n, int64(MaxInteger))}
	})
}

// hasLongNumber reports whether body holds a run of 16 digits or an
// exponent (e or E after a digit), without which no number is past
// MaxInteger (16 digits); a string may hold them too, and is then walked
// for nothing.
func hasLongNumber(body []byte) bool {
	run := 0
	for i, c := range body {
		switch {
		case c >= '0' && c <= '9':
			if run++; run >= 16 {
				return true
			}
		case (c == 'e' || c == 'E') && run > 0 && i+1 < len(body) && (body[i+1] == '+' || body[i+1] == '-' || body[i+1] >= '0' && body[i+1] <= '9'):
			return true
		default:
			run = 0
		}
	}
	return false
}

// walkValues calls visit with each scalar token of the JSON body (numbers
// as json.Number), by its path as encoding/json names fields: object keys
// joined by dots, array indexes left out; it stops at visit's first error.
func walkValues(body []byte, visit func(path []string, tok json.Token) error) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var walk func(path []string) error
	walk = func(path []string) error {
		tok, err := dec.Token()
		if err != nil {
			return nil // not ours to report: decode already did
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return nil
				}
				k, _ := key.(string)
				if err := walk(append(path, k)); err != nil {
					return err
				}
			}
			_, _ = dec.Token() // }
		case json.Delim('['):
			for dec.More() {
				if err := walk(path); err != nil {
					return err
				}
			}
			_, _ = dec.Token() // ]
		default:
			return visit(path, tok)
		}
		return nil
	}
	return walk(nil)
}
