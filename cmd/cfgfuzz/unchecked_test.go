// unchecked_test.go: a structurizer whose modules append computed ids,
// which the filler check and growth's clone budget do not read: check
// says "not judged" on the graph's line and exits 2, and so does a
// campaign, whose summary and report.md say which checks went unjudged on
// how many graphs; the same structurizer with the append helper inlined
// is judged whole and exits 0.
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func buildThinStruct(t *testing.T) string {
	t.Helper()
	return shellQuote(builtProgram(t, "../../fuzz/testdata/thinstruct"))
}

func TestUnjudgedChecksExitTwo(t *testing.T) {
	bin := buildThinStruct(t)
	const g = "entry [w=16]: if a b\na [w=8]: br c\nb [w=40]: br c\nc [w=3]: ret\n"
	code, out, errw := runCmd([]string{"check", "--structurizer", "cmd:" + bin + " -computed-ids", "-"}, g)
	if code != exitUsage || !strings.HasPrefix(out, "ok ") || !strings.Contains(out, "not judged: filler, growth:clones") || !strings.Contains(errw, "incomplete") {
		t.Errorf("computed ids: exit %d\n%s%s\nwant exit 2, ok with not judged, incomplete", code, out, errw)
	}
	if !strings.Contains(errw, "to leave those checks out: --checks -filler,-growth") {
		t.Errorf("check does not name the way out:\n%s", errw)
	}
	if code, out, errw := runCmd([]string{"check", "--checks", "-filler,-growth", "--structurizer", "cmd:" + bin + " -computed-ids", "-"}, g); code != exitOK || strings.Contains(out, "not judged") {
		t.Errorf("computed ids, the checks left out as suggested: exit %d\n%s%s\nwant exit 0", code, out, errw)
	}
	code, out, _ = runCmd([]string{"check", "--json", "--structurizer", "cmd:" + bin + " -computed-ids", "-"}, g)
	var rec checkRecord
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != exitUsage || strings.Join(rec.Unchecked, ",") != "filler,growth:clones" {
		t.Errorf("--json: exit %d, %v: %s", code, err, out)
	}
	code, out, errw = runCmd([]string{"check", "--structurizer", "cmd:" + bin + " -inline", "-"}, g)
	if code != exitOK || strings.Contains(out, "not judged") {
		t.Errorf("inlined: exit %d\n%s%s\nwant exit 0, judged whole", code, out, errw)
	}

	dir := t.TempDir()
	code, out, errw = runCmd([]string{"run", "--structurizer", "cmd:" + bin + " -computed-ids", "--graphs", "30", "--progress", "none", "--out", filepath.Join(dir, "c")}, "")
	if code != exitUsage || !strings.Contains(out, "incomplete verdicts: not judged filler on 30 graphs, growth:clones on 30 graphs") {
		t.Errorf("campaign, computed ids: exit %d\n%s%s\nwant exit 2 and the unjudged counts", code, out, errw)
	}
	if !strings.Contains(out, "to leave those checks out: --checks -filler,-growth") {
		t.Errorf("the campaign's summary does not name the way out:\n%s", out)
	}
	md, err := os.ReadFile(filepath.Join(dir, "c", "report.md"))
	if err != nil || !strings.Contains(string(md), "**incomplete verdicts: not judged filler on 30 graphs") {
		t.Errorf("report.md does not say which checks went unjudged (%v):\n%s", err, md)
	}
	code, out, errw = runCmd([]string{"run", "--structurizer", "cmd:" + bin + " -inline", "--graphs", "30", "--progress", "none", "--out", filepath.Join(dir, "i")}, "")
	if code != exitOK || strings.Contains(out, "not judged") {
		t.Errorf("campaign, inlined: exit %d\n%s%s\nwant exit 0", code, out, errw)
	}
}

// TestRegressSaysNotJudged: a regression file replayed on a structurizer
// whose appends the filler check cannot read passes with "not judged" on
// its line and exits 2, naming the --checks value that leaves the checks
// out; with that value it exits 0.
func TestRegressSaysNotJudged(t *testing.T) {
	bin := buildThinStruct(t)
	dir := t.TempDir()
	file := "# signature: none\nentry [w=16]: if a b\na [w=8]: br c\nb [w=40]: br c\nc [w=3]: ret\n"
	if err := os.WriteFile(filepath.Join(dir, "diamond.cfg"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := "cmd:" + bin + " -computed-ids"
	code, out, errw := runCmd([]string{"regress", "--structurizer", spec, dir}, "")
	if code != exitUsage || !strings.Contains(out, "ok ") || !strings.Contains(out, "not judged: filler, growth:clones") || !strings.Contains(errw, "--checks -filler,-growth") {
		t.Errorf("regress, computed ids: exit %d\n%s%s\nwant exit 2, ok with not judged, and the --checks value", code, out, errw)
	}
	if code, out, errw := runCmd([]string{"regress", "--structurizer", spec, "--checks", "-filler,-growth", dir}, ""); code != exitOK || strings.Contains(out, "not judged") {
		t.Errorf("regress with the checks left out: exit %d\n%s%s\nwant exit 0", code, out, errw)
	}
}
