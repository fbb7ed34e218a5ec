package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCodesListsEveryConstant holds Codes to the constants of type Code
// declared in error.go, read from the source: a code declared but not
// listed would be missing from the API's table of statuses and its
// documentation. The one reader of the engine's source; every other
// package takes Codes.
func TestCodesListsEveryConstant(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "error.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []Code
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
				lit, ok := v.(*ast.BasicLit)
				if !ok {
					t.Fatalf("a Code constant that is not a string literal: %#v", v)
				}
				s, _ := strconv.Unquote(lit.Value)
				declared = append(declared, Code(s))
			}
		}
	}
	if len(declared) < 20 {
		t.Fatalf("found only %d codes in error.go", len(declared))
	}
	if got := Codes(); !slices.Equal(got, declared) {
		t.Errorf("Codes() = %v\nwant the constants of error.go in order: %v", got, declared)
	}
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
	for _, c := range Codes() {
		need("error code", "| `"+string(c)+"` |")
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
