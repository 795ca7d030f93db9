// namesline_test.go: the names: line after a failed line-notation graph
// (namesline.go), for small graphs and large ones.
package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestCheckNamesLine: check follows the FAIL line of a graph in line
// notation with a names: line mapping its blocks' numbers (bN, the Nth
// block line from 0) to the names the file gave; a graph without names
// gets none.
func TestCheckNamesLine(t *testing.T) {
	src := "10: br 20\n20: if 30 40\n30: br 40\n40: ret\n---\n{{1}, {2, 3}, {3}, {}}\n"
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--inject", "swap-arms", "--checks", "exec"}, strings.NewReader(src), &stdout, &stderr)
	if code != exitFail {
		t.Fatalf("exit %d, want %d: %s%s", code, exitFail, stdout.String(), stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "FAIL exec:trace-mismatch <stdin>:1:1 ") || lines[1] != "names: b0 10, b1 20, b2 30, b3 40" || !strings.HasPrefix(lines[2], "FAIL exec:trace-mismatch <stdin>:6:1 ") {
		t.Errorf("stdout:\n%s\nwant the first FAIL line followed by its names: line, the second without", stdout.String())
	}
}

// TestNamesLineLargeGraph: a graph of more than namesAllUpTo blocks gets
// the names of the blocks its detail names as bN only, in block order,
// each once, leaving out numbers past the graph and default names.
func TestNamesLineLargeGraph(t *testing.T) {
	g := &cfg.Graph{Names: make([]string, 40)}
	for b := range g.Names {
		g.Names[b] = fmt.Sprintf("n%d", b)
	}
	g.Names[7] = ""
	rec := checkRecord{Outcome: outcomeFail, Checks: []oracle.Verdict{{Check: "exec", Status: oracle.Fail,
		Detail: "the graph goes to b12, the module to b3 (b12 again, b7, b99, ab5, b5x): graph [0 3]\nb20 on a second line"}}}
	if got, want := namesLine(rec, g), "names: b3 n3, b12 n12"; got != want {
		t.Errorf("namesLine = %q, want %q", got, want)
	}
	g.Names = g.Names[:namesAllUpTo]
	if got := namesLine(rec, g); !strings.HasPrefix(got, "names: b0 n0, b1 n1, ") || strings.Contains(got, "b7 ") {
		t.Errorf("namesLine of %d blocks = %q, want every named block", namesAllUpTo, got)
	}
	if got := namesLine(checkRecord{Outcome: outcomeOK}, g); got != "" {
		t.Errorf("namesLine of a pass = %q", got)
	}
}
