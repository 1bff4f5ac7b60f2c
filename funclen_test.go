package leaper_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds a function outside tests: a longer one does several
// things, each of which reads better under a name of its own.
const maxFuncLines = 150

// longFuncs may stay over maxFuncLines for now, each with the reason.
var longFuncs = map[string]string{}

// TestFunctionLength fails on a non-test function or method over
// maxFuncLines lines (from func to its closing brace), outside longFuncs.
func TestFunctionLength(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != "." && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			key := filepath.ToSlash(path) + " " + fn.Name.Name
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if _, ok := longFuncs[key]; ok {
				seen[key] = true
				continue
			}
			if n > maxFuncLines {
				t.Errorf("%s: %s is %d lines, more than %d: split it by concept", fset.Position(fn.Pos()), fn.Name.Name, n, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range longFuncs {
		if !seen[key] {
			t.Errorf("longFuncs lists %s, which is no longer there: take it out", key)
		}
	}
}
