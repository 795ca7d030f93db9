// regress_caseline_test.go: a failing case's line says what went wrong in
// the failing check's words, not the signature alone, so that a test log
// that shows regress's output (a go test shelling out to it, a CI job)
// tells the failure without the JUnit file.
package main

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
)

func TestRegressCaseLineCarriesDetail(t *testing.T) {
	c := corpus.ReplayCase{
		Regression: &corpus.Regression{Path: "tests/cfgfuzz/r.cfg"},
		Case:       "clean", Want: corpus.ExpectPass, Got: "exec:trace-mismatch", Status: corpus.CaseFail,
		Detail: "walk 2: the traces part at position 1\nsecond line",
	}
	line := caseLine(c, "cfgfuzz check r.cfg")
	want := "FAIL tests/cfgfuzz/r.cfg clean: want pass, got exec:trace-mismatch (walk 2: the traces part at position 1); replay: cfgfuzz check r.cfg"
	if line != want {
		t.Errorf("line\n%s\nwant\n%s", line, want)
	}
	c.Detail = strings.Repeat("é", lineClip)
	if line := caseLine(c, "r"); strings.Contains(line, "\n") || !strings.Contains(line, "...); replay: r") || len(line) > 2*lineClip {
		t.Errorf("a long detail is not cut to one short line: %q", line)
	}
	c.Detail = ""
	if line := caseLine(c, "r"); !strings.HasSuffix(line, "got exec:trace-mismatch; replay: r") {
		t.Errorf("no detail: %q", line)
	}
}
