package domain_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The layout of package domain that issue 31 asked for, kept by tests:
// the tables and the tournaments depend one way (doc.go), and no type but
// the tournament aggregate has more than 40 methods.

// half names the half of the package a file is in: "table" (table*.go),
// "tournament" (tournament*.go), or "" (shared: access, rules, storage…).
func half(file string) string {
	base := filepath.Base(file)
	switch {
	case strings.HasPrefix(base, "table"):
		return "table"
	case strings.HasPrefix(base, "tournament"):
		return "tournament"
	}
	return ""
}

// parseDir parses the production files of dir, whatever their build tags
// (store's two files of lockFile, one per system, hold no method: were a
// method declared in both, it would count twice, erring on the safe side).
func parseDir(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
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
	return files
}

// TestTablesAndTournamentsDependOneWay checks the direction doc.go states:
// no table file uses anything declared in a tournament file, and the
// tournament files use the tables' data (Table, TableDeal…) but none of
// the tables' unexported types and their methods, which they reach only
// through onlineTables.
func TestTablesAndTournamentsDependOneWay(t *testing.T) {
	fset := token.NewFileSet()
	files := parseDir(t, fset, ".")
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: exportImporter(t, fset)}
	pkg, err := conf.Check("domain", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	var crossings []string
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		from, to := fset.Position(id.Pos()), fset.Position(obj.Pos())
		switch {
		case half(from.Filename) == "table" && half(to.Filename) == "tournament":
		case half(from.Filename) == "tournament" && half(to.Filename) == "table" && tablesInternal(obj):
		default:
			continue
		}
		crossings = append(crossings, filepath.Base(from.Filename)+": "+obj.Name()+" ("+filepath.Base(to.Filename)+")")
	}
	sort.Strings(crossings)
	for _, c := range crossings {
		t.Errorf("crossing: %s", c)
	}
}

// exportImporter imports the packages domain imports from their compiled
// export data, as go list finds it in the build cache: type-checking them
// from source instead took seconds.
func exportImporter(t *testing.T, fset *token.FileSet) types.Importer {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to find the export data with")
	}
	out, err := exec.Command("go", "list", "-export", "-f", "{{.ImportPath}}\t{{.Export}}", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "\t"); ok {
			exports[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
}

// tablesInternal reports whether obj, declared in a table file, is of the
// tables' workings rather than their data: an unexported type, or a method
// of one.
func tablesInternal(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.TypeName:
		return !o.Exported()
	case *types.Func:
		recv := o.Type().(*types.Signature).Recv()
		if recv == nil {
			return !o.Exported()
		}
		rt := recv.Type()
		if p, ok := rt.(*types.Pointer); ok {
			rt = p.Elem()
		}
		named, ok := rt.(*types.Named)
		return ok && !named.Obj().Exported() && !types.IsInterface(named)
	}
	return false
}

// maxMethods bounds the methods of a type in domain and its packages
// (issue 31): a type with more does too many things to be read at once.
const maxMethods = 40

// TestNoTypeHasTooManyMethods counts the methods declared on each type of
// domain and the packages under it. tourney.State is left aside: it is the
// event-sourced aggregate every command and event of a tournament is
// decided against and applied to (see its doc).
func TestNoTypeHasTooManyMethods(t *testing.T) {
	dirs := []string{"."}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" {
			dirs = append(dirs, e.Name())
		}
	}
	for _, dir := range dirs {
		counts := map[string]int{}
		for _, f := range parseDir(t, token.NewFileSet(), dir) {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
					counts[f.Name.Name+"."+receiverName(fd.Recv.List[0].Type)]++
				}
			}
		}
		for typ, n := range counts {
			if n > maxMethods && typ != "tourney.State" {
				t.Errorf("%s has %d methods (at most %d): split it by concern", typ, n, maxMethods)
			}
		}
	}
}

// receiverName is the name of a receiver's type (T of *T, T[P]).
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}
