package strictjson

import (
	"bytes"
	"encoding/json"
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
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var walk func(path []string) error
	walk = func(path []string) error {
		tok, err := dec.Token()
		if err != nil {
			return nil // not ours to report: decode already did
		}
		switch tok {
		case nil:
			return &NullField{Path: strings.Join(path, ".")}
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
		}
		return nil
	}
	return walk(nil)
}
