package tourney

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// parsePackage parses the package's non-test files.
func parsePackage(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// TestCodesListsEveryCodeConstant reads the package's source: every
// constant named Code… is in Codes, and Codes holds nothing else.
func TestCodesListsEveryCodeConstant(t *testing.T) {
	_, files := parsePackage(t)
	consts := codeConstants(files)
	if len(consts) < 30 {
		t.Fatalf("found only %d Code constants: the parse is wrong", len(consts))
	}
	got := Codes()
	seen := map[string]bool{}
	for name, code := range consts {
		seen[code] = true
		if _, ok := got[code]; !ok {
			t.Errorf("%s (%q) is not in Codes()", name, code)
		}
	}
	for code := range got {
		if !seen[code] {
			t.Errorf("Codes() has %q, which is no Code constant", code)
		}
	}
}

// TestCodesKindMatchesEveryUse reads every refusal the package builds with
// a constant code (conflict, forbidden, notFound, errf, an Error literal):
// the kind it is built with is the kind Codes gives the code, so the status
// the API documents is the status it sends.
func TestCodesKindMatchesEveryUse(t *testing.T) {
	fset, files := parsePackage(t)
	consts := codeConstants(files)
	kindOf := map[string]Kind{"conflict": KindConflict, "forbidden": KindForbidden, "notFound": KindNotFound}
	kinds := map[string]Kind{"KindInvalid": KindInvalid, "KindConflict": KindConflict,
		"KindForbidden": KindForbidden, "KindNotFound": KindNotFound}
	uses := 0
	check := func(pos token.Pos, kind Kind, codeExpr ast.Expr) {
		id, ok := codeExpr.(*ast.Ident)
		if !ok {
			return // a code passed through (errf's own parameter, badEvent)
		}
		code, ok := consts[id.Name]
		if !ok {
			return
		}
		uses++
		if want := Codes()[code]; want != kind {
			t.Errorf("%s: %s built as %s, Codes() says %s", fset.Position(pos), id.Name, kind, want)
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				fn, ok := x.Fun.(*ast.Ident)
				if !ok || len(x.Args) < 2 {
					return true
				}
				if k, ok := kindOf[fn.Name]; ok {
					check(x.Pos(), k, x.Args[0])
				}
				if fn.Name == "errf" {
					if k, ok := x.Args[0].(*ast.Ident); ok && kinds[k.Name] != "" {
						check(x.Pos(), kinds[k.Name], x.Args[1])
					}
				}
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "err" {
					check(x.Pos(), KindInvalid, x.Args[0]) // problems.err: always invalid
				}
			case *ast.CompositeLit:
				if id, ok := x.Type.(*ast.Ident); !ok || id.Name != "Error" {
					return true
				}
				var kind, code ast.Expr
				for _, el := range x.Elts {
					kv, ok := el.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					switch kv.Key.(*ast.Ident).Name {
					case "Kind":
						kind = kv.Value
					case "Code":
						code = kv.Value
					}
				}
				if k, ok := kind.(*ast.Ident); ok && kinds[k.Name] != "" && code != nil {
					check(x.Pos(), kinds[k.Name], code)
				}
			}
			return true
		})
	}
	if uses < 30 {
		t.Fatalf("found only %d uses of the codes: the walk is wrong", uses)
	}
}

// codeConstants maps each Code… constant's name to its value.
func codeConstants(files []*ast.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if lit, ok := valueAt(vs, i).(*ast.BasicLit); ok && strings.HasPrefix(name.Name, "Code") {
						out[name.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	return out
}

func valueAt(vs *ast.ValueSpec, i int) ast.Expr {
	if i < len(vs.Values) {
		return vs.Values[i]
	}
	return nil
}
