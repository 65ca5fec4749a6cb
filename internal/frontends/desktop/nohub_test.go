package desktop

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNoStructHoldsTheWindow keeps the wiring *UI a hub no part hangs on:
// each part and host is given what it uses (deps.go), so what it can reach
// is read off its struct. A struct field whose type mentions *UI (d *UI,
// func() *UI, []*UI…) in the package's non-test files fails it.
func TestNoStructHoldsTheWindow(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no Go files: the test runs in the package's directory")
	}
	fset := token.NewFileSet()
	var found []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		// Struct types anywhere: named, anonymous, nested in a func.
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok || st.Fields == nil {
				return true
			}
			for _, field := range st.Fields.List {
				if mentionsUI(field.Type) {
					found = append(found, fset.Position(field.Pos()).String())
				}
			}
			return true
		})
	}
	slices.Sort(found)
	for _, at := range found {
		t.Errorf("%s: a struct field holds the window (*UI); give it what it uses instead (deps.go)", at)
	}
}

// mentionsUI reports whether the type expression refers to *UI anywhere.
func mentionsUI(expr ast.Expr) bool {
	var seen bool
	ast.Inspect(expr, func(n ast.Node) bool {
		if star, ok := n.(*ast.StarExpr); ok {
			if id, ok := star.X.(*ast.Ident); ok && id.Name == "UI" {
				seen = true
			}
		}
		return !seen
	})
	return seen
}
