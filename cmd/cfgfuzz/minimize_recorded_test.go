// minimize_recorded_test.go: minimize on a finding's file whose header
// records the walks' seed of its campaign: it judges under the flags
// given, says when they differ from the header's, and the regression it
// saves records the judging it was minimized under, so regress replays it
// failing on the buggy build.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedOnly is a graph that route-not-cleared fails only under some seeds
// of the random walks: seed 2 and 3 show it, seed 1 does not. Minimized
// under seed 3 it becomes a graph that seed 3 fails and seed 2 passes.
const seedOnly = "{{1, 2}, {}, {4, 3}, {4, 4}, {2, 5}, {4, 0}}"

func TestMinimizeRegressionRecordsItsJudging(t *testing.T) {
	bin := cfgfuzzBinary(t)
	buggy := "cmd:" + bin + " structurize --inject route-not-cleared"
	fixed := "cmd:" + bin + " structurize"
	failsUnder := func(graph, seed string) bool {
		code, _, _ := runCmd([]string{"check", "--structurizer", buggy, "--seed", seed, "-"}, graph+"\n")
		return code == exitFail
	}
	if !failsUnder(seedOnly, "2") || !failsUnder(seedOnly, "3") || failsUnder(seedOnly, "1") {
		t.Fatalf("%s under route-not-cleared: want a failure under seeds 2 and 3, none under seed 1 (the walks drawn changed: pick another graph)", seedOnly)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "graph.cfg")
	header := "# signature: exec:trace-mismatch\n# walks: 16 seed 2\n# structurizer: " + buggy + "\n# origin: campaign seed 2\n"
	if err := os.WriteFile(in, []byte(header+seedOnly+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recorded := "note: " + in + " records another judging in its header: judge it with --walks 16 --seed 2 as it was judged"
	minimize := func(name string, flags ...string) (int, string, string) {
		args := append([]string{"minimize", "--structurizer", buggy, "--regressions", filepath.Join(dir, name), "--save-regression", "r"}, flags...)
		return runCmd(append(args, in), "")
	}

	// Under the default seed the graph passes: nothing is saved, and the
	// error names the seed that shows it.
	code, _, errs := minimize("none")
	if _, err := os.Stat(filepath.Join(dir, "none", "r.cfg")); code != exitUsage || !strings.Contains(errs, "does not fail") ||
		!strings.Contains(errs, "judge it with --walks 16 --seed 2") || err == nil {
		t.Errorf("minimize under seed 1: exit %d, want %d naming --seed 2 and no regression\n%s", code, exitUsage, errs)
	}

	// Under the recorded seed: no note, and the regression records it.
	code, _, errs = minimize("same", "--seed", "2")
	if saved := readFile(t, filepath.Join(dir, "same", "r.cfg")); code != exitOK || !strings.Contains(saved, "\n# walks: 16 seed 2\n") || strings.Contains(errs, "records another judging") {
		t.Errorf("minimize --seed 2: exit %d, want 0, '# walks: 16 seed 2' and no note\n%s%s", code, saved, errs)
	}

	// Under another seed that fails it: a note naming the header's
	// judging, and the regression records the seed it was minimized and
	// failed under, which the header's does not fail.
	code, _, errs = minimize("other", "--seed", "3")
	other := filepath.Join(dir, "other")
	saved := readFile(t, filepath.Join(other, "r.cfg"))
	if code != exitOK || !strings.Contains(saved, "\n# walks: 16 seed 3\n") {
		t.Fatalf("minimize --seed 3: exit %d, want 0 and '# walks: 16 seed 3'\n%s%s", code, saved, errs)
	}
	if !strings.Contains(errs, "minimize: "+recorded) {
		t.Errorf("minimize --seed 3 on a file recorded under seed 2: no note naming its judging\n%s", errs)
	}
	if code, out, errs := runCmd([]string{"regress", "--structurizer", buggy, other}, ""); code != exitFail || !strings.Contains(out, "exec:trace-mismatch") {
		t.Errorf("regress of the regression on the buggy build: exit %d, want %d failing with exec:trace-mismatch\n%s%s", code, exitFail, out, errs)
	}
	if code, out, errs := runCmd([]string{"regress", "--structurizer", buggy, "--seed", "2", other}, ""); code != exitOK {
		t.Errorf("regress --seed 2 (the input's judging) of the regression on the buggy build: exit %d, want 0 (else the test shows nothing of the walks line)\n%s%s", code, out, errs)
	}
	if code, out, errs := runCmd([]string{"regress", "--structurizer", fixed, other}, ""); code != exitOK {
		t.Errorf("regress of the regression on the fixed build: exit %d, want 0\n%s%s", code, out, errs)
	}
}
