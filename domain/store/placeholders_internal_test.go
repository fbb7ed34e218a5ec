package store

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

// postgresOnly are the files whose statements run on PostgreSQL alone,
// which binds $n to the n-th argument wherever it appears.
var postgresOnly = []string{
	"leases.go", // table leases: PostgreSQL's (serve -internal-addr)
}

// TestSQLitePlaceholdersAppearInOrder: SQLite numbers a statement's $n
// placeholders in the order they first appear in its text (rawsql.go), so
// every statement of this package's source, its literal parts read in
// order, first names $1, then $2, and so on: DealFrom wrote $3 before $1
// and $2 and on SQLite read another table's deal (the stuck table of
// 2026-11-28). A statement built piece by piece with sqlArgs numbers its
// placeholders as it goes, in order.
func TestSQLitePlaceholdersAppearInOrder(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	placeholder := regexp.MustCompile(`\$(\d+)`)
	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	consts := map[string]string{} // the package's string constants, which statements are joined from
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = f
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, spec := range g.Specs {
					v := spec.(*ast.ValueSpec)
					for i, id := range v.Names {
						if i < len(v.Values) {
							if s, ok := literalText(v.Values[i], nil); ok {
								consts[id.Name] = s
							}
						}
					}
				}
			}
		}
	}
	checked := 0
	for name, f := range parsed {
		if slices.Contains(postgresOnly, name) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			text, whole := literalText(e, consts)
			if !whole {
				return true
			}
			var order []int
			for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
				if k, _ := strconv.Atoi(m[1]); !slices.Contains(order, k) {
					order = append(order, k)
				}
			}
			if len(order) == 0 {
				return false
			}
			checked++
			for i, k := range order {
				if k != order[0]+i {
					t.Errorf("%s: placeholders first appear in the order %v: SQLite binds them in that order", fset.Position(e.Pos()), order)
					break
				}
			}
			return false // its parts are checked as one
		})
	}
	if checked == 0 {
		t.Fatal("no statement with placeholders found: the test reads nothing")
	}
}

// literalText returns the string literals and constants of a
// concatenation (or a lone literal) joined in order, the other operands
// left out; whole is false for an expression that is not a string
// concatenation.
func literalText(e ast.Expr, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		l, lok := literalText(e.X, consts)
		r, rok := literalText(e.Y, consts)
		if !lok && !rok {
			return "", false
		}
		return l + r, true
	case *ast.ParenExpr:
		return literalText(e.X, consts)
	case *ast.Ident:
		s, ok := consts[e.Name]
		return s, ok
	}
	return "", false
}
