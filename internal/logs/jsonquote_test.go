package logs

import (
	"encoding/json"
	"testing"
)

// FuzzAppendJSONString: a string is written as encoding/json writes it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "Anna Rossi", "<script>&\"\\\n\x00\x7f\u2028\xff", "é日本🂡"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: appendJSONString %s, encoding/json %s", s, got, want)
		}
	})
}
