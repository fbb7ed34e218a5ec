package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// codeConstants returns the values of every constant of type Code declared
// in the package's error.go, read from the source so that a new code cannot
// be forgotten here.
func codeConstants(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "error.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for _, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok {
					s, _ := strconv.Unquote(lit.Value)
					codes = append(codes, s)
				}
			}
		}
	}
	if len(codes) < 20 {
		t.Fatalf("found only %d codes in error.go", len(codes))
	}
	return codes
}

// TestRulesReferenceCoversTheEngine keeps docs/RULES.md in step with the
// code: every error code, option, rule set, move kind and end reason is
// named there.
func TestRulesReferenceCoversTheEngine(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "RULES.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	need := func(what, s string) {
		t.Helper()
		if !strings.Contains(doc, s) {
			t.Errorf("docs/RULES.md does not name the %s %s", what, s)
		}
	}
	for _, c := range codeConstants(t) {
		need("error code", "| `"+c+"` |")
	}
	for _, s := range optionSpecs {
		need("option", "| `"+s.key+"` |")
		for _, v := range s.values {
			if str, ok := v.(string); ok {
				need("option value", "`"+str+"`")
			}
		}
	}
	for _, id := range RuleSets() {
		need("rule set", "| `"+string(id)+"` |")
	}
	for _, m := range moveNames[1:] {
		need("move", `{"move":"`+m+`"`)
		need("move", "| `"+m+"` |")
	}
	for _, e := range endNames[1:] {
		need("end reason", "`"+e+"`")
	}
}
