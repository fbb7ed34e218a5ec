package conformance_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/burraco/burraco/engine/conformance"
)

// casesDir returns shared/conformance/cases beside the repository root (the
// directory holding go.mod).
func casesDir(t *testing.T) string {
	return filepath.Join(repoRoot(t), "..", "shared", "conformance", "cases")
}

// repoRoot returns the directory holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the package directory")
		}
		dir = parent
	}
	return dir
}

// TestConformanceCases runs the shared cases when the repository sits
// beside a shared/ directory that has them (the project's own checkout), and
// skips otherwise, CI included: a standalone clone has only its own cases
// (TestRepoConformanceCases), and .ci/test.sh prints which ran.
func TestConformanceCases(t *testing.T) {
	dir := casesDir(t)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no shared conformance cases beside the repository (%v): only testdata/conformance runs", err)
	}
	runDir(t, dir)
}

// TestRepoConformanceCases runs the project's own cases in
// testdata/conformance, which every clone has: missing, they fail.
func TestRepoConformanceCases(t *testing.T) {
	runDir(t, filepath.Join(repoRoot(t), "testdata", "conformance"))
}

func runDir(t *testing.T, dir string) {
	t.Helper()
	files, err := conformance.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no cases under %s", dir)
	}
	for _, f := range files {
		r := conformance.RunFile(dir, f)
		t.Run(r.Name, func(t *testing.T) {
			if r.Err != nil {
				t.Error(r.Err)
			}
		})
	}
}

// TestUnreadableCases checks FORMAT.md's rule that a case holding a key the
// format does not define (at any level), or a move that cannot be decoded,
// is unreadable, even when the step says reject; and that note is defined.
func TestUnreadableCases(t *testing.T) {
	const base = `{"name":"n","rules":"fibur","options":{},"players":2%s,
	  "start":{"turn":0,"phase":"take","hands":[["5H","9C"],["3S"]],"stock":["8D","8S","9S"],"discard":["QC"]%s},
	  "steps":[{"seat":0,"move":"draw"%s},{"seat":0,"move":"discard","card":"8S","reject":true}],
	  "expect":{"turn":0,"phase":"play"%s}}`
	build := func(top, start, step, expect string) []byte {
		return fmt.Appendf(nil, base, top, start, step, expect)
	}
	tests := []struct {
		name string
		data []byte
		ok   bool // readable (and passing)
	}{
		{"Readable", build("", "", "", ""), true},
		{"ReadableWithNote", build(`,"note":"where the rule comes from"`, "", "", ""), true},
		{"ReadableWithEveryStartKey", build("", `,"pot_taken":[false,false],"pot_unplayed":[false,false],"pot_seat":[0,1],"pots":[],"melds":[[],[]],"totals":[0,0],"first_turn":false,"dealer":1`, "", ""), true},
		{"UnknownTopKey", build(`,"comment":"x"`, "", "", ""), false},
		{"UnknownStartKey", build("", `,"took":"draw"`, "", ""), false},
		{"EngineOnlyStartKey", build("", `,"last_turn":true`, "", ""), false},
		{"UnknownStepKey", build("", "", `,"cardz":["5H"]`, ""), false},
		{"UnknownExpectKey", build("", "", "", `,"turnn":1`), false},
		{"UnknownScoreKey", build("", "", "", `,"score":[{"totl":0},{}]`), false},
		{"StepWithoutSeat", []byte(strings.Replace(string(build("", "", "", "")), `{"seat":0,"move":"draw"`, `{"move":"draw"`, 1)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := conformance.Parse(tt.data)
			if tt.ok {
				if err != nil {
					t.Fatalf("unreadable: %v", err)
				}
				if err := conformance.Run(c); err != nil {
					t.Fatalf("fails: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("read a case the format does not define:\n%s", tt.data)
			}
		})
	}
	// A move that cannot be decoded is unreadable even with reject: true.
	for _, move := range []string{`{"seat":0,"move":"dicsard","card":"5H","reject":true}`,
		`{"seat":0,"move":"discard","card":"ZZ","reject":true}`,
		`{"seat":0,"move":"discard","reject":true}`,
		`{"seat":0,"move":"attach","meld":["5H"],"reject":true}`} {
		data := strings.Replace(string(build("", "", "", "")), `{"seat":0,"move":"discard","card":"8S","reject":true}`, move, 1)
		if _, err := conformance.Parse([]byte(data)); err == nil {
			t.Errorf("%s read as a rejected move, want an unreadable case", move)
		}
	}
}
