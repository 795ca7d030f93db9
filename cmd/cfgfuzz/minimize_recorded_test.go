// minimize_recorded_test.go: minimize on a finding's file whose header
// records the walks' seed of its campaign: it judges under the header's
// judging where no flag is given, under the flags given where they are,
// says when those differ from the header's, and the regression it saves
// records the judging it was minimized under, so regress replays it
// failing on the buggy build.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
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
	recorded := "note: " + in + " records another judging in its header: judge it with --seed 2 as it was judged" // --walks 16 taken from the header
	minimize := func(name string, flags ...string) (int, string, string) {
		args := append([]string{"minimize", "--structurizer", buggy, "--regressions", filepath.Join(dir, name), "--save-regression", "r"}, flags...)
		return runCmd(append(args, in), "")
	}

	// Under seed 1, given, the graph passes: nothing is saved, and the
	// error names the seed that shows it.
	code, _, errs := minimize("none", "--seed", "1")
	if _, err := os.Stat(filepath.Join(dir, "none", "r.cfg")); code != exitUsage || !strings.Contains(errs, "does not fail") ||
		!strings.Contains(errs, "judge it with --seed 2 as") || err == nil {
		t.Errorf("minimize under seed 1: exit %d, want %d naming --seed 2 and no regression\n%s", code, exitUsage, errs)
	}

	// Without --seed, the header's seed judges it, and the regression records it.
	code, _, errs = minimize("taken")
	if saved := readFile(t, filepath.Join(dir, "taken", "r.cfg")); code != exitOK || !strings.Contains(saved, "\n# walks: 16 seed 2\n") {
		t.Errorf("minimize without --seed: exit %d, want 0 and '# walks: 16 seed 2'\n%s%s", code, saved, errs)
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

// TestMinimizeTakesAStoredFindingsJudging: minimize of a findings store's
// graph.cfg, with none of the judging flags given, searches under the
// judging the store recorded for it, and the regression it saves records
// that judging, so regress replays it as it failed; a flag given wins.
func TestMinimizeTakesAStoredFindingsJudging(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 0}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st := &corpus.Store{Dir: filepath.Join(dir, "store")}
	added, err := st.Add(corpus.Finding{Signature: "exec:trace-mismatch", Graph: g, Origin: "campaign seed 3",
		Strategy: "dispatch", Inject: []string{"swap-arms"}, Registers: 8,
		Judged: corpus.Judged{Walks: corpus.WalksOf(4, 3), Checks: "-growth,-fallback"}})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(added.Dir, "graph.cfg")
	// The store's checks, changes of the defaults as an older cfgfuzz
	// wrote them, are saved in a regression file as changes (regress
	// applies them to its own defaults) and in minimize's result by name
	// (corpus.PinChecks): how the graph was judged.
	recorded := []string{"# fault: swap-arms\n", "# strategy: dispatch\n", "# registers: 8\n", "# walks: 4 seed 3\n", "# checks: -growth,-fallback\n"}

	code, result, errs := runCmd([]string{"minimize", "--regressions", filepath.Join(dir, "regs"), "--save-regression", "r", in}, "")
	saved := readFile(t, filepath.Join(dir, "regs", "r.cfg"))
	if code != exitOK {
		t.Fatalf("minimize of the store's graph.cfg: exit %d, want 0\n%s", code, errs)
	}
	for _, line := range recorded {
		if !strings.Contains(saved, line) {
			t.Errorf("the saved regression lacks the store's %q\n%s", strings.TrimSpace(line), saved)
		}
	}
	if !strings.Contains(result, "# checks: pdom,rules,spirv-val,exec,filler,meta\n") {
		t.Errorf("minimize's result does not name the checks that judged it\n%s", result)
	}
	if !strings.Contains(errs, "minimize: note: judging "+in+" as its header records: --inject swap-arms --strategy dispatch --registers 8 --walks 4 --seed 3 --checks -growth,-fallback") {
		t.Errorf("no note naming the judging taken from the header\n%s", errs)
	}
	code, out, errs := runCmd([]string{"regress", filepath.Join(dir, "regs")}, "")
	if code != exitOK || !strings.Contains(out+errs, "checks pdom,rules,spirv-val,exec,filler,meta") {
		t.Errorf("regress of the saved regression: exit %d, want 0 under the store's checks\n%s%s", code, out, errs)
	}

	// A flag given is a choice: it wins over the header, which the note says.
	code, _, errs = runCmd([]string{"minimize", "--checks", "-fallback", "--regressions", filepath.Join(dir, "given"), "--save-regression", "r", in}, "")
	saved = readFile(t, filepath.Join(dir, "given", "r.cfg"))
	if code != exitOK || !strings.Contains(saved, "# checks: -fallback\n") || !strings.Contains(saved, "# strategy: dispatch\n") {
		t.Errorf("minimize --checks -fallback: exit %d, want 0, '# checks: -fallback' and the header's strategy\n%s%s", code, saved, errs)
	}
	if !strings.Contains(errs, "judge it with --checks -growth,-fallback as it was judged") {
		t.Errorf("minimize --checks -fallback: no note naming the header's checks\n%s", errs)
	}
}

// TestWalksGivenKeepsTheRecordedSeed: '# walks: 16 seed 2' is two
// settings, each taken where its flag is left out, by check, minimize and
// regress alike (recordedFields): --walks given keeps the file's seed,
// which alone shows seedOnly's failure, and the note names the seed
// alone where --seed given differs.
func TestWalksGivenKeepsTheRecordedSeed(t *testing.T) {
	bin := cfgfuzzBinary(t)
	buggy := "cmd:" + bin + " structurize --inject route-not-cleared"
	in := filepath.Join(t.TempDir(), "graph.cfg")
	if err := os.WriteFile(in, []byte("# signature: exec:trace-mismatch\n# walks: 16 seed 2\n"+seedOnly+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--structurizer", buggy, "--walks", "16", in},
		{"regress", "--structurizer", buggy, "--walks", "16", in},
		{"minimize", "--structurizer", buggy, "--walks", "16", in},
	} {
		code, out, errs := runCmd(args, "")
		want := exitFail
		if args[0] == "minimize" {
			want = exitOK // it fails, so it minimizes
		}
		if code != want || strings.Contains(errs, "records another judging") {
			t.Errorf("%s --walks 16 on a file recorded under seed 2: exit %d, want %d under the file's seed, with no note\n%s%s", args[0], code, want, out, errs)
		}
	}
	_, out, errs := runCmd([]string{"check", "--structurizer", buggy, "--seed", "1", in}, "")
	if want := "judging " + in + " as its header records: --walks 16 (a flag"; !strings.Contains(errs, want) || !strings.Contains(errs, "judge it with --seed 2 as it was judged") {
		t.Errorf("check --seed 1: want %q and a note naming --seed 2 alone\n%s%s", want, out, errs)
	}
}
