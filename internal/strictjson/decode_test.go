package strictjson

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

type inner struct {
	N int `json:"n"`
}

type request struct {
	Name  string    `json:"name"`
	At    time.Time `json:"at"`
	Inner *inner    `json:"inner"`
	List  []inner   `json:"list"`
}

// TestDecodeObject: what each body decodes to, or the error that names
// what is wrong with it.
func TestDecodeObject(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		check      func(error) bool
	}{
		{"AnObjectDecodes", `{"name":"Anna","inner":{"n":2}}`, func(err error) bool { return err == nil }},
		{"EmptyIsEOF", ``, func(err error) bool { return errors.Is(err, io.EOF) }},
		{"InvalidUTF8IsRefused", "{\"name\":\"\xff\"}", func(err error) bool { return errors.Is(err, ErrNotUTF8) }},
		{"NullIsNotAnObject", `null`, func(err error) bool { return errors.Is(err, ErrNotAnObject) }},
		{"ArrayIsNotAnObject", `[1]`, func(err error) bool { return errors.Is(err, ErrNotAnObject) }},
		{"UnknownFieldIsRefused", `{"nam":"x"}`, func(err error) bool { return err != nil && strings.Contains(err.Error(), `unknown field "nam"`) }},
		{"TrailingDataIsRefused", `{"name":"x"} {}`, func(err error) bool { return err != nil && strings.Contains(err.Error(), "after the JSON object") }},
		{"NullFieldIsNamed", `{"inner":{"n":null}}`, func(err error) bool {
			var nf *NullField
			return errors.As(err, &nf) && nf.Path == "inner.n"
		}},
		{"NullInAnArrayIsNamedWithoutIndex", `{"list":[{"n":1},{"n":null}]}`, func(err error) bool {
			var nf *NullField
			return errors.As(err, &nf) && nf.Path == "list.n"
		}},
		{"NullInAStringIsFine", `{"name":"null"}`, func(err error) bool { return err == nil }},
		{"BadTimeIsBlamedAsInvalid", `{"name":"x","at":"yesterday"}`, func(err error) bool {
			var bv *BadValue
			return errors.As(err, &bv) && bv.Field == "at" && bv.Code == "invalid"
		}},
		{"NumberForATimeIsBlamedAsWrongType", `{"at":5}`, func(err error) bool {
			var bv *BadValue
			return errors.As(err, &bv) && bv.Field == "at" && bv.Code == "wrong_type"
		}},
		{"TheLargestSafeIntegerDecodes", `{"inner":{"n":9007199254740991},"list":[{"n":-9007199254740991}]}`, func(err error) bool { return err == nil }},
		{"AnIntegerPastTheSafeOnesIsOutOfRange", `{"inner":{"n":9007199254740992}}`, func(err error) bool {
			var bv *BadValue
			return errors.As(err, &bv) && bv.Field == "inner.n" && bv.Code == "out_of_range"
		}},
		{"AnIntegerPastInt64IsOutOfRangeNotOfTheWrongType", `{"list":[{"n":1},{"n":-99999999999999999999}]}`, func(err error) bool {
			var bv *BadValue
			return errors.As(err, &bv) && bv.Field == "list.n" && bv.Code == "out_of_range"
		}},
		{"AnExponentPastTheSafeIntegersIsOutOfRange", `{"inner":{"n":1e400}}`, func(err error) bool {
			var bv *BadValue
			return errors.As(err, &bv) && bv.Field == "inner.n" && bv.Code == "out_of_range"
		}},
		{"LongDigitsInAStringAreFine", `{"name":"12345678901234567890e5"}`, func(err error) bool { return err == nil }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var dst request
			if err := DecodeObject([]byte(tt.body), &dst); !tt.check(err) {
				t.Fatalf("%s: %v", tt.body, err)
			}
		})
	}
}
