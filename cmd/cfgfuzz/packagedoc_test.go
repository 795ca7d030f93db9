package main

// packagedoc_test.go: go doc shows each package's own comment. Go takes
// the comment right above a file's package clause as package
// documentation, so exactly one file of a package (its doc file) may put
// one there, starting "Package NAME" (or "Command NAME" for a command);
// every other file's header comment is set apart by a blank line.

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

func TestOnePackageComment(t *testing.T) {
	root := repoRoot(t)
	docs := map[string][]string{} // package directory -> files with a package comment
	dirs := map[string]bool{}
	for _, file := range filesEnding(t, root, ".go") {
		if strings.HasSuffix(file, "_test.go") || strings.Contains(file, "testdata"+string(filepath.Separator)) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(file)
		dirs[dir] = true
		if f.Doc == nil {
			continue
		}
		docs[dir] = append(docs[dir], filepath.Base(file))
		if text := f.Doc.Text(); !strings.HasPrefix(text, "Package "+f.Name.Name) && !strings.HasPrefix(text, "Command ") {
			t.Errorf("%s: its comment above the package clause is package documentation but does not start %q: %.60q", file, "Package "+f.Name.Name, text)
		}
	}
	for dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		if n := len(docs[dir]); n != 1 {
			t.Errorf("%s: %d files document the package (%v), want one", rel, n, docs[dir])
		}
	}
}
