// layers_test.go: the package's files keep the layering structured.go's
// doc describes: each pass of the table uses only its own files and what
// lies below the passes (the Func form, the input's analyses, the working
// graph, the self-check, the options), never another pass's files or the
// table; and what lies below uses no pass. The package is type-checked
// from source (go/types), so a reference is a resolved identifier: a
// type, function, method, field, constant or variable, wherever it is
// declared.
package structurizer

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// passOf names the pass a file belongs to: "" for what lies below the
// passes, "table" for the pass table, "api" for the package's entry
// (Structurize over the strategies; the options every pass reads).
func passOf(file string) string {
	switch {
	case file == "structurize.go":
		return "api"
	case file == "structured.go":
		return "table"
	case strings.HasPrefix(file, "structured_nested") || file == "structured_tails.go":
		return "nested"
	case file == "structured_irreducible.go":
		return "irreducible"
	case strings.HasPrefix(file, "structured_loops"):
		return "loops"
	case file == "structured_emit.go", file == "structured_emit_func.go", file == "structured_levels.go",
		file == "structured_arms.go", file == "structured_frames.go", file == "structured_emit_routes.go",
		file == "structured_emit_joins.go":
		return "selections"
	case file == "structured_fold.go":
		return "fold"
	case file == "structured_thread.go":
		return "thread"
	case file == "structured_lift.go":
		return "lift"
	case file == "structured_latch.go":
		return "latch"
	case file == "structured_oneblock.go":
		return "oneblock"
	case file == "structured_armmerge.go", file == "structured_armbreak.go":
		return "armmerge" // the arm-break pass follows the arm-merge pass's chains
	}
	return ""
}

// typeCheck parses and type-checks the non-test files of dir.
func typeCheck(t *testing.T, fset *token.FileSet, dir, path string, imp types.Importer) (*types.Package, *types.Info) {
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
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	p, err := (&types.Config{Importer: imp}).Check(path, fset, files, info)
	if err != nil {
		t.Fatalf("type-checking %s: %v", dir, err)
	}
	return p, info
}

// cfgImporter is the default importer with the cfg package checked from
// source.
type cfgImporter struct{ cfg *types.Package }

func (c cfgImporter) Import(path string) (*types.Package, error) {
	if path == c.cfg.Path() {
		return c.cfg, nil
	}
	return importer.Default().Import(path)
}

func TestPassFilesUseOnlyWhatLiesBelow(t *testing.T) {
	fset := token.NewFileSet()
	cfgPkg, _ := typeCheck(t, fset, "cfg", "github.com/cfgfuzz/cfgfuzz/structurizer/cfg", importer.Default())
	p, info := typeCheck(t, fset, ".", "github.com/cfgfuzz/cfgfuzz/structurizer", cfgImporter{cfgPkg})
	bad := map[string]bool{}
	passes := map[string]bool{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != p || !obj.Pos().IsValid() {
			continue
		}
		if _, local := obj.(*types.Var); local && obj.Parent() != nil && obj.Parent() != p.Scope() {
			continue // a local variable or parameter
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		pf, pt := passOf(from), passOf(to)
		passes[pf] = true
		if pf == pt || pt == "" || pt == "api" || pf == "table" || pf == "api" {
			continue
		}
		bad[from+" uses "+obj.Name()+" of "+to+" ("+pt+")"] = true
	}
	for _, want := range []string{"nested", "irreducible", "loops", "selections", "fold", "thread", "latch", "lift", "armmerge", "oneblock", "table", "api", ""} {
		if !passes[want] {
			t.Errorf("no file of %q found: passOf is out of date", want)
		}
	}
	var list []string
	for k := range bad {
		list = append(list, k)
	}
	sort.Strings(list)
	for _, k := range list {
		t.Error(k)
	}
}
