package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/burraco/burraco/domain"
)

// checkTags checks a decoded request body against the constraints its
// type's struct tags give openapi.yaml (swag reads the same tags):
// minimum, maximum, multipleOf, enums, minLength and maxLength, at every
// depth. A tournament command runs it on its body (withBody), and the
// service answers its verdict once the caller is known to be allowed the
// command (domain.TournamentCommand.Invalid): input the schema forbids is
// a 422 invalid_input naming each field, whatever the tournament's state,
// instead of the 409 of a state checked first (issue 29). raw is the body
// as sent: a field is checked
// when the body has it (a 0 sent for a field tagged omitempty too, which
// the decoded struct cannot tell from an absent one).
func checkTags(body any, raw []byte) error {
	var tree any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &tree); err != nil {
			return nil // readJSON decoded it: cannot happen
		}
	}
	var v domain.Validator
	walkTags(&v, reflect.ValueOf(body), tree, "")
	return v.Err()
}

// walkTags checks the fields of val that raw (the same value as sent)
// holds.
func walkTags(v *domain.Validator, val reflect.Value, raw any, path string) {
	for val.Kind() == reflect.Pointer || val.Kind() == reflect.Interface {
		if val.IsNil() {
			return
		}
		val = val.Elem()
	}
	switch val.Kind() {
	case reflect.Struct:
		t := val.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			fv := val.Field(i)
			if f.Anonymous && name == "" { // an embedded part: its fields are the body's
				walkTags(v, fv, raw, path)
				continue
			}
			if name == "" {
				name = f.Name
			}
			obj, _ := raw.(map[string]any)
			sent, ok := obj[name]
			if !ok {
				continue // absent: the domain says what absent means
			}
			field := name
			if path != "" {
				field = path + "." + name
			}
			checkField(v, f.Tag, fv, field)
			walkTags(v, fv, sent, field)
		}
	case reflect.Slice, reflect.Array:
		items, _ := raw.([]any)
		for i := range min(val.Len(), len(items)) {
			walkTags(v, val.Index(i), items[i], fmt.Sprintf("%s[%d]", path, i))
		}
	}
}

// checkField checks one field's value against its tags.
func checkField(v *domain.Validator, tag reflect.StructTag, fv reflect.Value, field string) {
	for fv.Kind() == reflect.Pointer {
		if fv.IsNil() {
			return
		}
		fv = fv.Elem()
	}
	if fv.Kind() == reflect.Slice { // the tags of a slice of scalars are its items'
		for i := range fv.Len() {
			checkField(v, tag, fv.Index(i), fmt.Sprintf("%s[%d]", field, i))
		}
		return
	}
	switch fv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := fv.Int()
		if lo, ok := intTag(tag, "minimum"); ok && n < lo {
			v.Add(field, "out_of_range", fmt.Sprintf("%s must be at least %d", field, lo))
		}
		if hi, ok := intTag(tag, "maximum"); ok && n > hi {
			v.Add(field, "out_of_range", fmt.Sprintf("%s must be at most %d", field, hi))
		}
		if m, ok := intTag(tag, "multipleOf"); ok && m > 0 && n%m != 0 {
			v.Add(field, "not_multiple", fmt.Sprintf("%s must be a multiple of %d", field, m))
		}
		if enums := tag.Get("enums"); enums != "" && !enumHas(enums, strconv.FormatInt(n, 10)) {
			v.Add(field, "invalid", fmt.Sprintf("%s must be one of %s", field, enums))
		}
	case reflect.String:
		s := fv.String()
		if enums := tag.Get("enums"); enums != "" && !enumHas(enums, s) {
			v.Add(field, "invalid", fmt.Sprintf("%s must be one of %s", field, enums))
		}
		n := int64(utf8.RuneCountInString(s))
		if lo, ok := intTag(tag, "minLength"); ok && n < lo {
			v.Add(field, "required", fmt.Sprintf("%s must be at least %d characters", field, lo))
		}
		if hi, ok := intTag(tag, "maxLength"); ok && n > hi {
			v.Add(field, "too_long", fmt.Sprintf("%s must be at most %d characters", field, hi))
		}
	}
}

func intTag(tag reflect.StructTag, key string) (int64, bool) {
	s := tag.Get(key)
	if s == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

func enumHas(enums, s string) bool {
	for _, e := range strings.Split(enums, ",") {
		if strings.TrimSpace(e) == s {
			return true
		}
	}
	return false
}
