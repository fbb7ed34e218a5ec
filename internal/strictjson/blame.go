package strictjson

import (
	"encoding/json"
	"reflect"
	"sort"
)

// BadValue is a value that a field's own decoder refused (a time that is
// not RFC 3339, a number where a time goes): encoding/json reports it
// without the field's name, which blame finds.
type BadValue struct {
	Field string
	Code  string // wrong_type, or invalid for a value of the right JSON type
	Err   error
}

func (e *BadValue) Error() string { return e.Field + ": " + e.Err.Error() }

// blame finds the top-level field of body whose value dst's type refuses,
// by decoding the fields one at a time (only on the error path); nil when
// none alone is to blame.
func blame(body []byte, dst any, err error) error {
	var fields map[string]json.RawMessage
	t := reflect.TypeOf(dst)
	if json.Unmarshal(body, &fields) != nil || t.Kind() != reflect.Pointer {
		return nil
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		one, _ := json.Marshal(map[string]json.RawMessage{k: fields[k]})
		if json.Unmarshal(one, reflect.New(t.Elem()).Interface()) != nil {
			code := "invalid"
			if v := fields[k]; len(v) > 0 && v[0] != '"' {
				code = "wrong_type"
			}
			return &BadValue{Field: k, Code: code, Err: err}
		}
	}
	return nil
}
