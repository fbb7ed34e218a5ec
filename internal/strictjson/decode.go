// Package strictjson decodes a request body that must be exactly one JSON
// object, more strictly than encoding/json: no unknown field, no null, no
// invalid UTF-8, nothing after the object; and names the field to blame
// where encoding/json does not. What a refusal is answered with is the
// caller's.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// Errors of DecodeObject that encoding/json does not report.
var (
	ErrNotUTF8     = errors.New("the request body is not valid UTF-8")
	ErrNotAnObject = errors.New("the request body must be a JSON object")
)

// DecodeObject decodes body, which must hold exactly one JSON object, into
// dst. encoding/json alone would take null for an empty object or for an
// absent field, and replace invalid UTF-8 with U+FFFD; all are refused here
// instead (see NullField).
func DecodeObject(body []byte, dst any) error {
	if !utf8.Valid(body) {
		return ErrNotUTF8
	}
	if start := bytes.TrimLeft(body, " \t\r\n"); len(start) > 0 && start[0] != '{' && json.Valid(body) {
		return ErrNotAnObject
	}
	if err := findHugeNumber(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		if !decoderError(err) {
			if bad := blame(body, dst, err); bad != nil {
				return bad
			}
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON object")
	}
	return findNull(body)
}

// decoderError reports an error encoding/json itself found (syntax, a
// type, an unknown field, the end of the input), which names the field
// where it can; any other came from a field's own UnmarshalJSON.
func decoderError(err error) bool {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	return errors.As(err, &syntax) || errors.As(err, &typeErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		strings.HasPrefix(err.Error(), "json: unknown field ")
}
