// outstate.go: --out and --state must be two directories, neither inside
// the other. A campaign's reports, findings and night's update go into
// --out and are committed into --state; one directory for both, or one
// inside the other, makes the commit see its own writes as another
// campaign's (the lock, the state's digest), after the whole night ran.

package main

import (
	"fmt"
	"path/filepath"
	"strings"
)

// checkOutState refuses an out that is state, holds it or lies inside it;
// "" for either checks nothing. The paths are compared cleaned and
// absolute, with the symbolic links of the part of each that exists
// resolved.
func checkOutState(out, state string) error {
	if out == "" || state == "" {
		return nil
	}
	o, err := resolvedPath(out)
	if err != nil {
		return fmt.Errorf("--out %s: %w", out, err)
	}
	s, err := resolvedPath(state)
	if err != nil {
		return fmt.Errorf("--state %s: %w", state, err)
	}
	switch {
	case o == s:
		return fmt.Errorf("--out %s and --state %s are one directory: the campaign writes its reports into --out and commits the night into --state; give them two directories, neither inside the other", out, state)
	case inside(s, o):
		return fmt.Errorf("--state %s is inside --out %s: the campaign writes its reports into --out and commits the night into --state; give them two directories, neither inside the other", state, out)
	case inside(o, s):
		return fmt.Errorf("--out %s is inside --state %s: the campaign writes its reports into --out and commits the night into --state; give them two directories, neither inside the other", out, state)
	}
	return nil
}

// inside reports whether path lies strictly inside dir (both cleaned and
// absolute).
func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolvedPath is p absolute and cleaned, the symbolic links of its
// longest part that resolves resolved; the rest (not made yet, or not a
// directory, which the command reports itself) is kept as written.
func resolvedPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}
