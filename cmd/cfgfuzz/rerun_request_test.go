package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// rerunRequestErrorAdapter is the Python example adapter answering a
// request error ("request: busy") the second time it sees a graph: on
// meta's determinism re-run, never on a graph's first structurization.
func rerunRequestErrorAdapter(t *testing.T) string {
	return pythonAdapterAnswering(t, "    seen = globals().setdefault(\"SEEN\", {})\n"+
		"    seen[str(succs)] = seen.get(str(succs), 0) + 1\n"+
		"    if seen[str(succs)] == 2:\n        return {\"id\": rid, \"outcome\": \"error\", \"reason\": REQUEST_ERROR + \"busy\"}\n")
}

// TestRerunRequestErrorIsAHarnessError: a request error answered to
// meta's re-run is a harness error (outcome error, exit 2), as it is on a
// graph's first run, never the finding meta:rerun-failed; `check` says so
// too.
func TestRerunRequestErrorIsAHarnessError(t *testing.T) {
	spec := rerunRequestErrorAdapter(t)
	out := filepath.Join(t.TempDir(), "c")
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", spec, "--graphs", "12", "--minimize=false", "--progress", "none", "--out", out}, "")
	rep := readReportJSON(t, out)
	if code != exitUsage || len(rep.Findings) != 0 || rep.Outcomes[fuzz.OutError] == 0 {
		t.Fatalf("run: exit %d, want 2; findings %+v, outcomes %v, want none and harness errors\n%s%s", code, rep.Findings, rep.Outcomes, stdout, stderr)
	}
	if len(rep.HarnessErrors) == 0 || !strings.Contains(rep.HarnessErrors[0].Detail, "request: busy") {
		t.Errorf("harness errors %+v, want the re-run's request error", rep.HarnessErrors)
	}
	code, stdout, stderr = runCmd([]string{"check", "--structurizer", spec, "-"}, "{{1, 2}, {3}, {3}, {}}\n")
	if code != exitUsage || strings.Contains(stdout+stderr, "rerun-failed") || !strings.Contains(stdout+stderr, "request: busy") {
		t.Errorf("check: exit %d, want 2 and the request error, no finding\n%s%s", code, stdout, stderr)
	}
}
