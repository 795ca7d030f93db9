// methodsets_test.go: the package stays readable in small pieces: no
// receiver type's methods sum to more than maxMethodSetLines lines, and no
// function or method is longer than maxFuncLines lines (non-test files,
// each declaration counted from its first line to its closing brace).
package structurizer

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"sort"
	"strings"
	"testing"
)

const (
	maxMethodSetLines = 150
	maxFuncLines      = 80
)

func TestMethodSetsStaySmall(t *testing.T) {
	fset := token.NewFileSet()
	notTest := func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }
	pkgs, err := parser.ParseDir(fset, ".", notTest, 0)
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]int{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
				if n > maxFuncLines {
					t.Errorf("%s: %s is %d lines, over %d", fset.Position(fd.Pos()), fd.Name.Name, n, maxFuncLines)
				}
				if fd.Recv != nil {
					sets[receiverName(fd.Recv.List[0].Type)] += n
				}
			}
		}
	}
	names := make([]string, 0, len(sets))
	for name := range sets {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if sets[name] > maxMethodSetLines {
			t.Errorf("method set of %s is %d lines, over %d", name, sets[name], maxMethodSetLines)
		}
	}
}

// receiverName is the type name of a receiver: T of T, *T, T[P] and *T[P].
func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	return fmt.Sprint(e)
}
