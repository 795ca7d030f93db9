// store_header_test.go: a campaign's findings store writes graph.cfg and
// min.cfg under the header its --save-regressions files have, the walks
// and their seed among it, and check and regress read it back.
package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
)

func TestStoredFindingRecordsItsJudging(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	regs := filepath.Join(t.TempDir(), "regs")
	code, stdout, stderr := runCmd([]string{"run", "--inject", "swap-arms", "--seed", "7", "--check-timeout", "3m", "--graphs", "100",
		"--kinds", "reducible", "--out", out, "--progress", "none", "--save-regressions", regs}, "")
	if code != exitFail {
		t.Fatalf("campaign: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(out, "findings", "*", "*", "*.cfg"))
	saved, _ := filepath.Glob(filepath.Join(regs, "*.cfg"))
	if len(files) < 2 || len(saved) == 0 {
		t.Fatalf("findings store files %v, regression files %v: want a graph.cfg and a min.cfg, and a regression file", files, saved)
	}
	judging := func(text string) []string {
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			for _, k := range []string{"# walks:", "# checks:", "# timeout:", "# check-timeout:", "# registers:", "# target-env:", "# rules-compat:"} {
				if strings.HasPrefix(l, k) {
					lines = append(lines, l)
				}
			}
		}
		return lines
	}
	want := judging(readFile(t, saved[0]))
	if strings.Join(want, "\n") != "# walks: 16 seed 7\n# check-timeout: 3m0s" {
		t.Fatalf("the regression file's judging header %q, want the walks' seed and the check limit", want)
	}
	for _, f := range files {
		if got := judging(readFile(t, f)); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s records %q, want the regression file's %q", f, got, want)
		}
		r, err := corpus.ReadRegression(f)
		if err != nil || r.Header.JudgedWalks() != (corpus.Walks{Random: 16, Seed: 7}) || r.Header.CheckTimeout.String() != "3m0s" {
			t.Errorf("%s read back: %+v, %v; want the campaign's walks and check limit (what regress judges under)", f, r, err)
		}
	}
	// check reads the header and judges the file as it was judged.
	_, _, stderr = runCmd([]string{"check", files[0]}, "")
	if !strings.Contains(stderr, "judging "+files[0]+" as its header records: --inject swap-arms --walks 16 --seed 7 --check-timeout 3m0s") {
		t.Errorf("check on %s without the campaign's flags: not judged under them\n%s", files[0], stderr)
	}
}
