package api

import (
	"strings"
	"testing"
)

// TestSheetVersionReadsOnlyThisTablesETag: If-Match gives the sheet's
// version only when it holds this table's ETag (weak or strong, among
// others); anything else is no version (0).
func TestSheetVersionReadsOnlyThisTablesETag(t *testing.T) {
	a := tableAddress{id: 7, round: 2, table: 3}
	for header, want := range map[string]int64{
		sheetETag(a, 41, 90):                      41,
		sheetETag(a, 41):                          41,
		"W/" + sheetETag(a, 5, 6):                 5,
		`"x", ` + sheetETag(a, 12, 13):            12,
		sheetETag(tableAddress{7, 2, 4}, 41, 90):  0,
		sheetETag(tableAddress{7, 12, 3}, 41, 90): 0,
		sheetETag(tableAddress{17, 2, 3}, 41, 90): 0,
		`"tt7.r2.t3.v"`:                           0,
		`"tt7.r2.t3.v-4.s1"`:                      0,
		`"tt7.r2.t3.v99999999999999999999999.s1"`: 0,
		"*": 0,
		"":  0,
	} {
		if got := sheetVersion(header, a); got != want {
			t.Errorf("%q: %d, want %d", header, got, want)
		}
	}
}

// FuzzSheetVersion: no header panics the parser, a version it reads is
// positive, and an ETag the server wrote reads back.
func FuzzSheetVersion(f *testing.F) {
	a := tableAddress{id: 1, round: 1, table: 1}
	for _, s := range []string{sheetETag(a, 3, 4), "W/" + sheetETag(a, 9), `"tt1.r1.t1.v`, "*", ", ,", `"tt1.r1.t1.v1"x`} {
		f.Add(s, int64(3))
	}
	f.Fuzz(func(t *testing.T, header string, v int64) {
		if got := sheetVersion(header, a); got < 0 {
			t.Fatalf("%q: %d", header, got)
		}
		if v > 0 && !strings.Contains(header, ",") {
			if got := sheetVersion(sheetETag(a, v, 1), a); got != v {
				t.Fatalf("version %d reads back as %d", v, got)
			}
		}
	})
}
