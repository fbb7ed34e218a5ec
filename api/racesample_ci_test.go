package api_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestRaceSamplesRunWholeInCI keeps the promise of raceSample: every test
// of this directory that plays less under the race detector (whose code,
// or the code of a function of its package it calls, reads raceEnabled) is
// named in .ci/test.sh's api_unraced, the tests it runs at full size
// without the detector, and that list names no other test.
func TestRaceSamplesRunWholeInCI(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile("../.ci/test.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^api_unraced='\^\(([A-Za-z0-9|]+)\)\$'$`).FindSubmatch(script)
	if m == nil {
		t.Fatal(".ci/test.sh sets no api_unraced='^(TestA|TestB)$'")
	}
	listed := strings.Split(string(m[1]), "|")
	sampled := racedTests(t)
	if len(sampled) < 2 {
		t.Fatalf("found only %v reading raceEnabled: the search is broken", sampled)
	}
	for _, name := range sampled {
		if !slices.Contains(listed, name) {
			t.Errorf("%s plays a sample under the race detector, but .ci/test.sh's api_unraced does not run it whole", name)
		}
	}
	for _, name := range listed {
		if !slices.Contains(sampled, name) {
			t.Errorf(".ci/test.sh's api_unraced names %s, which plays no sample under the race detector (or does not exist)", name)
		}
	}
}

// racedTests lists the Test functions of this directory's test files (of
// both packages) that read raceEnabled, directly or through functions of
// their package they call.
func racedTests(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	// funcs: package → function name → body.
	funcs := map[string]map[string]*ast.BlockStmt{}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		pkg := f.Name.Name
		if funcs[pkg] == nil {
			funcs[pkg] = map[string]*ast.BlockStmt{}
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				funcs[pkg][fd.Name.Name] = fd.Body
			}
		}
	}
	var out []string
	for _, fs := range funcs {
		memo := map[string]bool{}
		var reads func(name string) bool
		reads = func(name string) bool {
			if v, ok := memo[name]; ok {
				return v
			}
			memo[name] = false // a recursive call adds nothing
			found := false
			ast.Inspect(fs[name], func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && !found {
					found = id.Name == "raceEnabled" || fs[id.Name] != nil && id.Name != name && reads(id.Name)
				}
				return !found
			})
			memo[name] = found
			return found
		}
		for name := range fs {
			if strings.HasPrefix(name, "Test") && reads(name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}
