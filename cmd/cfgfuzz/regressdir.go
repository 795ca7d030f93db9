// regressdir.go: where `minimize --save-regression` writes and where
// `regress` reads by default. Outside a cfgfuzz checkout that is
// ./cfgfuzz-regressions (the user's project keeps its own suite); inside
// one it is the module's corpus/testdata/regressions, the suite `go test
// ./corpus` replays. A directory named on the command line is used as
// given, except a path through a `corpus` directory that is not a cfgfuzz
// checkout's suite: that is refused, so a regression never lands in some
// other project's corpus by accident.

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// defaultRegressionsName is the regression directory outside a cfgfuzz
// checkout, relative to the working directory.
const defaultRegressionsName = "cfgfuzz-regressions"

// cfgfuzzModule is the module path that marks a cfgfuzz checkout.
const cfgfuzzModule = "github.com/cfgfuzz/cfgfuzz"

// regressionDir resolves the regression directory: flag as given (checked
// by checkRegressionDir), or the default for the working directory.
func regressionDir(flag string) (string, error) {
	if flag != "" {
		return flag, checkRegressionDir(flag)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if root := cfgfuzzRoot(wd); root != "" {
		return filepath.Join(root, "corpus", "testdata", "regressions"), nil
	}
	return filepath.Join(wd, defaultRegressionsName), nil
}

// checkRegressionDir refuses a directory under a path element "corpus"
// unless it is a cfgfuzz checkout's corpus/testdata/regressions (or below),
// and a path that is, or lies below, a file: before a campaign or a
// search runs, not when its results are to be saved.
func checkRegressionDir(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := dirPathFree(abs); err != nil {
		return fmt.Errorf("regression directory %s: %w", dir, err)
	}
	parts := strings.Split(filepath.ToSlash(abs), "/")
	i := slices.Index(parts, "corpus")
	if i < 0 {
		return nil
	}
	root := filepath.FromSlash(strings.Join(parts[:i], "/"))
	if root == "" {
		root = "/"
	}
	suite := filepath.Join(root, "corpus", "testdata", "regressions")
	if cfgfuzzRoot(root) == root && (abs == suite || strings.HasPrefix(abs, suite+string(filepath.Separator))) {
		return nil
	}
	return fmt.Errorf("regression directory %s lies in a corpus/ directory that is not a cfgfuzz checkout's corpus/testdata/regressions; name another directory (the default outside cfgfuzz is ./%s)", dir, defaultRegressionsName)
}

// cfgfuzzRoot is the directory at or above dir whose go.mod declares the
// cfgfuzz module, or "".
func cfgfuzzRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if moduleOf(filepath.Join(d, "go.mod")) == cfgfuzzModule {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// moduleOf is the module path a go.mod declares, "" when there is none.
func moduleOf(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	return ""
}

// dirPathFree refuses a path a directory cannot be made at: one that is,
// or lies below, a file.
func dirPathFree(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	for p := abs; ; p = filepath.Dir(p) { // the deepest part that exists
		if st, err := os.Stat(p); err == nil {
			if !st.IsDir() {
				return fmt.Errorf("%s is a file, not a directory", p)
			}
			return nil
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}
