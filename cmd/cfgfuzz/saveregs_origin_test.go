// saveregs_origin_test.go: a regression file's origin says whether its
// graph was minimized.
package main

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// TestRegressionOriginSaysWhenNotMinimized: a new finding saved with the
// graph found (a timeout finding whose search found no smaller graph
// within its limit) records why in its origin, not "minimized"; a
// minimized one says minimized.
func TestRegressionOriginSaysWhenNotMinimized(t *testing.T) {
	rep := &fuzz.Report{Settings: fuzz.Settings{Seed: 7}}
	f := &fuzz.Finding{Signature: "structurize:timeout", First: fuzz.Example{Index: 139, Stream: fuzz.Stream{Kind: "program", Weights: "w0+heavy"}},
		NotMinimized: "the time limit (30s) stopped the search before it found a smaller graph that fails so"}
	if got := regressionOrigin(rep, f, "run"); !strings.HasSuffix(got, "graph 139 (program/w0+heavy), not minimized: the time limit (30s) stopped the search before it found a smaller graph that fails so") {
		t.Errorf("not minimized: origin %q", got)
	}
	f.IsMinimized, f.NotMinimized = true, ""
	if got := regressionOrigin(rep, f, "run"); !strings.HasSuffix(got, ", minimized") {
		t.Errorf("minimized: origin %q", got)
	}
}
