// baseline_changed_test.go: a baseline whose answers depend on the
// process (here its rank among the baseline's processes) passes a
// finding's graph in the campaign and refuses it when the minimizer
// judges it on a process of its own: the finding, minimized, says so in
// report.json, report.md, report.html, the summary and the minimizer's
// line.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// afterFirstProcess is the Python example adapter that, on its first
// request, takes the next free rank among the processes started with
// counter dir (a file each): the first process answers every graph as the
// example does, every later one as then says (Python, in the adapter's
// answer function, with rid the request's id and bug its planted bug).
func afterFirstProcess(t *testing.T, dir, then string) string {
	return pythonAdapterAnswering(t, "    if \"_rank\" not in globals():\n"+
		"        import os\n"+
		"        n = 1\n"+
		"        while True:\n"+
		"            try:\n"+
		"                os.close(os.open(os.path.join("+pyString(dir)+", \"p%d\" % n), os.O_CREAT | os.O_EXCL))\n"+
		"                break\n"+
		"            except FileExistsError:\n"+
		"                n += 1\n"+
		"        globals()[\"_rank\"] = n\n"+
		"    if _rank > 1:\n"+then)
}

// pyString is s as a Python string literal (s holds no quote or
// backslash: a test's temporary directory).
func pyString(s string) string { return "\"" + s + "\"" }

func TestCompareBaselinePassedInTheCampaignRefusedWhenMinimizing(t *testing.T) {
	base := afterFirstProcess(t, t.TempDir(), "        return {\"id\": rid, \"outcome\": \"refused\", \"reason\": \"process %d\" % _rank}\n")
	rep, out, stdout, stderr := compareAgainstPlanted(t, base)
	const want = "the baseline passed this graph in the campaign and refused it (structurize:refused) when the minimizer judged it: its answers depend on chance, so whether this finding is new is uncertain"
	for _, f := range rep.Findings {
		if f.Subject().Baseline != fuzz.OutOK || f.New == 0 {
			t.Fatalf("%s: its graph's baseline verdict %q, %d new: want a new finding whose graph the campaign's baseline passed", f.Signature, f.Subject().Baseline, f.New)
		}
		if f.BaselineChanged != want || f.BaselineFlaky != "" || !f.IsMinimized {
			t.Errorf("%s: baseline_changed %q, baseline_flaky %q, is_minimized %v (%s); want %q, no baseline_flaky, minimized",
				f.Signature, f.BaselineChanged, f.BaselineFlaky, f.IsMinimized, f.NotMinimized, want)
		}
	}
	if !strings.Contains(stdout, "    baseline changed: "+want+"\n") {
		t.Errorf("the summary does not say the baseline's answer changed:\n%s", stdout)
	}
	if note := fuzz.ReproductionNote(rep); !strings.Contains(note, "whose graph the baseline answered otherwise than in the campaign") || !strings.Contains(stdout, note) {
		t.Errorf("the summary lacks the count %q:\n%s", note, stdout)
	}
	if !strings.Contains(stderr, want) || strings.Contains(stderr, "which is no failure: the failure is new") {
		t.Errorf("the minimizer's line does not say the baseline's answer changed, or calls the failure new:\n%s", stderr)
	}
	for file, text := range map[string]string{"report.md": "# baseline changed: " + want, "report.html": "Baseline changed</strong>: The baseline passed this graph in the campaign"} {
		if b, err := os.ReadFile(filepath.Join(out, file)); err != nil || !strings.Contains(string(b), text) {
			t.Errorf("%s lacks %q (%v)", file, text, err)
		}
	}
}

// TestCompareBaselinePassedInTheCampaignFailedWhenMinimizing: the
// baseline's later processes plant the example's bug, so the minimizer's
// judgement of the finding's graph on the baseline fails it: the finding
// is baseline flaky, not minimized, and its note names the campaign's
// pass.
func TestCompareBaselinePassedInTheCampaignFailedWhenMinimizing(t *testing.T) {
	base := afterFirstProcess(t, t.TempDir(), "        bug = \"exit-restarts\"\n")
	rep, _, _, stderr := compareAgainstPlanted(t, base)
	for _, f := range rep.Findings {
		if f.Subject().Baseline != fuzz.OutOK || f.New == 0 {
			t.Fatalf("%s: its graph's baseline verdict %q, %d new: want a new finding whose graph the campaign's baseline passed", f.Signature, f.Subject().Baseline, f.New)
		}
		if !strings.HasPrefix(f.BaselineFlaky, "judged again by the minimizer, the baseline fails it too (") || !strings.HasSuffix(f.BaselineFlaky, "), though it passed it in the campaign") || f.IsMinimized {
			t.Errorf("%s: baseline_flaky %q, is_minimized %v; want it to name the campaign's pass, not minimized", f.Signature, f.BaselineFlaky, f.IsMinimized)
		}
	}
	if !strings.Contains(stderr, "the baseline passed this graph in the campaign and failed it (") || !strings.Contains(stderr, "so whether this finding is new is uncertain") {
		t.Errorf("the minimizer's line does not say the baseline passed the graph in the campaign:\n%s", stderr)
	}
}
