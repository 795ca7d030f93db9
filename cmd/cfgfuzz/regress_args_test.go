package main

import (
	"strings"
	"testing"
)

// TestRegressTwoPathsSaysWhy: regress takes one DIR or FILE; given more
// (a shell glob, tests/cfgfuzz/*.cfg) it exits 2 with a line saying so,
// not the usage alone.
func TestRegressTwoPathsSaysWhy(t *testing.T) {
	dir := t.TempDir()
	var out, errw strings.Builder
	code := runRegress([]string{dir + "/a.cfg", dir + "/b.cfg"}, strings.NewReader(""), &out, &errw, nil)
	if code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
	last := strings.TrimSpace(errw.String())
	if i := strings.LastIndexByte(last, '\n'); i >= 0 {
		last = last[i+1:]
	}
	if !strings.HasPrefix(last, "cfgfuzz regress: want one DIR or FILE") || !strings.Contains(last, "got 2") {
		t.Errorf("last line of standard error %q, want it to say regress takes one DIR or FILE and got 2", last)
	}
}
