// Package enginecodes reads the engine's rule codes from its source, for
// tests that must notice a code nobody listed: the engine declares its
// codes as constants and keeps no list of them.
package enginecodes

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// FromSource returns the value of every constant of type Code declared in
// the non-test Go files of dir (the engine package's directory).
func FromSource(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var codes []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				found, err := codeValues(fset, spec.(*ast.ValueSpec))
				if err != nil {
					return nil, err
				}
				codes = append(codes, found...)
			}
		}
	}
	if len(codes) == 0 {
		return nil, fmt.Errorf("enginecodes: no Code constants in %s", dir)
	}
	return codes, nil
}

// codeValues returns the string values of a constant spec of type Code.
func codeValues(fset *token.FileSet, vs *ast.ValueSpec) ([]string, error) {
	if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
		return nil, nil
	}
	var out []string
	for _, v := range vs.Values {
		lit, ok := v.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return nil, fmt.Errorf("enginecodes: %s: a Code constant that is not a string literal", fset.Position(v.Pos()))
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
