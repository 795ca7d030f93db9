// compare_firstnew_test.go: a pull request that adds a bug with the
// signature of a bug the baseline already has. The signature's first graph
// is one the baseline fails too; its write-up (replay, minimized graph,
// findings store, regression file, report.md's findings table and
// report.html's pictures) is of its first new graph.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz/schema"
)

// TestCompareNewBugOfAnOldSignature: the baseline has clone-wrong-id, the
// current side swap-arms too, both exec:trace-mismatch. Under seed 2 the
// first graph is one the baseline fails as well (class output-changed),
// the second one it passes. The finding keeps graph 0 as first and names
// graph 1 as first_new; graph 1 is minimized, replayed, shown in the
// reports and saved, with no "baseline flaky" (the campaign's baseline
// failed graph 0, it never passed it), and the regression passes on the
// baseline.
func TestCompareNewBugOfAnOldSignature(t *testing.T) {
	bin := cfgfuzzBinary(t)
	base := "cmd:" + bin + " structurize --inject clone-wrong-id"
	cur := "cmd:" + bin + " structurize --inject clone-wrong-id,swap-arms"
	tmp := t.TempDir()
	out, regs := filepath.Join(tmp, "cmp"), filepath.Join(tmp, "regs")
	code, stdout, stderr := runCmd([]string{"compare", "--baseline-structurizer", base, "--structurizer", cur,
		"--graphs", "12", "--seed", "2", "--progress", "none", "--out", out, "--save-regressions", regs}, "")
	if code != exitFail {
		t.Fatalf("compare: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "baseline flaky") || strings.Contains(stdout, "perhaps not new") {
		t.Errorf("the summary calls the baseline flaky, which failed the first graph in the campaign too:\n%s", stdout)
	}
	if want := "regressions: 1 new finding saved into " + regs + "\n"; !strings.Contains(stdout, want) {
		t.Errorf("the summary lacks %q:\n%s", want, stdout)
	}
	raw, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(raw); err != nil {
		t.Errorf("report.json does not validate: %v", err)
	}
	type example struct {
		Index    int    `json:"index"`
		Seed     uint64 `json:"seed"`
		Graph    string `json:"graph"`
		Baseline string `json:"baseline"`
	}
	var rep struct {
		Findings []struct {
			Signature     string   `json:"signature"`
			New           int      `json:"new"`
			First         example  `json:"first"`
			FirstNew      *example `json:"first_new"`
			Replay        string   `json:"replay"`
			Minimized     string   `json:"minimized"`
			BaselineFlaky string   `json:"baseline_flaky"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 {
		t.Fatalf("findings %+v, want one, exec:trace-mismatch", rep.Findings)
	}
	f := rep.Findings[0]
	if f.First.Index != 0 || f.First.Baseline != "invalid: exec:trace-mismatch" || f.New == 0 {
		t.Fatalf("finding %+v: want graph 0 first, failed by the baseline too, and new graphs", f)
	}
	if f.FirstNew == nil || f.FirstNew.Index != 1 || f.FirstNew.Baseline != "ok" {
		t.Fatalf("first_new %+v, want graph 1, which the baseline passed", f.FirstNew)
	}
	if want := fmt.Sprintf("--seed %d ", f.FirstNew.Seed); !strings.Contains(f.Replay, want) {
		t.Errorf("replay %q does not generate the first new graph (%s)", f.Replay, want)
	}
	if f.Minimized == "" || f.BaselineFlaky != "" {
		t.Errorf("minimized %q, baseline_flaky %q: want a minimized graph and no baseline flakiness", f.Minimized, f.BaselineFlaky)
	}
	if row := fmt.Sprintf("| `%s` (first new) | ", f.FirstNew.Graph); !strings.Contains(readFile(t, filepath.Join(out, "report.md")), row) {
		t.Errorf("report.md's findings table does not show the first new graph (%q)", row)
	}
	if pic := "before: the first new graph (index 1) as found"; !strings.Contains(readFile(t, filepath.Join(out, "report.html")), pic) {
		t.Errorf("report.html's picture is not captioned %q", pic)
	}
	ents, err := os.ReadDir(regs)
	if err != nil || len(ents) != 1 {
		t.Fatalf("the regressions directory holds %v (%v), want one file", ents, err)
	}
	if text := readFile(t, filepath.Join(regs, ents[0].Name())); !strings.Contains(text, ", graph 1 (") {
		t.Errorf("the regression's origin is not graph 1:\n%s", text)
	}
	// The regression is new: the baseline passes it, the current side fails.
	if code, o, e := runCmd([]string{"regress", "--structurizer", base, regs}, ""); code != exitOK {
		t.Errorf("regress on the baseline: exit %d, want 0\n%s%s", code, o, e)
	}
	if code, o, e := runCmd([]string{"regress", regs}, ""); code != exitFail {
		t.Errorf("regress on the current side: exit %d, want 1\n%s%s", code, o, e)
	}
	// The findings store's entry is the first new graph's.
	entries, _ := filepath.Glob(filepath.Join(out, "findings", "*", "*", "graph.cfg"))
	if len(entries) != 1 || !strings.Contains(readFile(t, entries[0]), f.FirstNew.Graph) {
		t.Errorf("findings store entries %v: want one, of the first new graph %s", entries, f.FirstNew.Graph)
	}
}
