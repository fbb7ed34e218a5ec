package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEngineIsSequential keeps the premise on which .ci/test.sh runs this
// package without the race detector (once, at CI size, instead of a sample
// under -race and the simulation again): the engine's code starts no
// goroutine and shares no memory between them, so the detector has nothing
// to find in it. A go statement, or an import of sync, sync/atomic or
// runtime, in a non-test file fails this test; whoever needs one puts the
// engine back under -race in .ci/test.sh and changes this test.
func TestEngineIsSequential(t *testing.T) {
	checked := checkSequential(t, ".", func(name, msg string) string { return name + ": " + msg })
	if checked < 10 {
		t.Fatalf("checked only %d files", checked)
	}
}

// TestUnracedPackagesAreSequential keeps the same premise for every
// package that .ci/test.sh runs without the race detector (its
// unraced_packages; the engine among them): none of their non-test files
// has a go statement or imports sync, sync/atomic or runtime. (What they
// call of the module's other packages is tested under the detector there.)
// Whoever needs one moves the package back under -race in .ci/test.sh.
func TestUnracedPackagesAreSequential(t *testing.T) {
	script, err := os.ReadFile("../.ci/test.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^unraced_packages='([^']*)'$`).FindSubmatch(script)
	if m == nil {
		t.Fatal(".ci/test.sh sets no unraced_packages='./a ./b'")
	}
	pkgs := strings.Fields(string(m[1]))
	if !slices.Contains(pkgs, "./engine") {
		t.Errorf("unraced_packages %q does not name ./engine", pkgs)
	}
	for _, pkg := range pkgs {
		checked := checkSequential(t, filepath.Join("..", pkg), func(name, msg string) string {
			return name + ": " + msg + ": .ci/test.sh runs " + pkg + " without the race detector"
		})
		if checked == 0 {
			t.Errorf("unraced_packages names %s, which has no Go files", pkg)
		}
	}
}

// concurrency names what in f could run concurrently: go statements and
// the imports of the packages that share memory between goroutines.
func concurrency(f *ast.File) []string {
	var found []string
	for _, imp := range f.Imports {
		switch path, _ := strconv.Unquote(imp.Path.Value); path {
		case "sync", "sync/atomic", "runtime":
			found = append(found, "imports "+path)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if _, ok := n.(*ast.GoStmt); ok {
			found = append(found, "has a go statement")
		}
		return true
	})
	return found
}

// TestConcurrencyIsFound checks the check above on sources that have what
// it looks for, and one that has not.
func TestConcurrencyIsFound(t *testing.T) {
	tests := []struct {
		name, src string
		want      int
	}{
		{"Sequential", "package p\nimport \"sort\"\nfunc f() { sort.Ints(nil) }", 0},
		{"GoStatement", "package p\nfunc f() { go f() }", 1},
		{"ImportsSync", "package p\nimport \"sync\"\nvar mu sync.Mutex", 1},
		{"ImportsAtomic", "package p\nimport \"sync/atomic\"\nvar n atomic.Int64", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parser.ParseFile(token.NewFileSet(), "p.go", tt.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := concurrency(f); len(got) != tt.want {
				t.Errorf("found %q, want %d findings", got, tt.want)
			}
		})
	}
}

// checkSequential reports, through t and in report's words, each go
// statement and concurrency import (concurrency) of dir's non-test Go
// files, and returns how many files it checked.
func checkSequential(t *testing.T, dir string, report func(name, msg string) string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, msg := range concurrency(f) {
			t.Error(report(name, msg))
		}
	}
	return checked
}
