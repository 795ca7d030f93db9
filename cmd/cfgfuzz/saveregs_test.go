// saveregs_test.go: a campaign's --save-regressions writes each new
// finding's minimized graph as a regression file that `regress` replays:
// failing on the structurizer that had the bug, passing on one without it.
package main

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func TestCampaignSavesRegressions(t *testing.T) {
	buggy := "cmd:" + cfgfuzzBinary(t) + " structurize --inject swap-arms"
	regs := filepath.Join(t.TempDir(), "regs")
	campaign := func() (int, string, string) {
		return runCmd([]string{"run", "--structurizer", buggy, "--graphs", "200", "--out", filepath.Join(t.TempDir(), "c"), "--progress", "none",
			"--save-regressions", regs}, "")
	}
	code, out, stderr := campaign()
	if code != exitFail || !strings.Contains(out, "regressions: 1 new finding saved into "+regs) {
		t.Fatalf("campaign: exit %d, want 1 and one regression saved\n%s%s", code, out, stderr)
	}
	ents, err := os.ReadDir(regs)
	if err != nil || len(ents) != 1 || !strings.HasPrefix(ents[0].Name(), "exec-trace-mismatch-") {
		t.Fatalf("the regressions directory holds %v (%v), want one exec-trace-mismatch-*.cfg", ents, err)
	}
	text := readFile(t, filepath.Join(regs, ents[0].Name()))
	for _, want := range []string{"# signature: exec:trace-mismatch\n", "# structurizer: " + buggy + "\n", "# expect: pass\n", "# origin: cfgfuzz run, seed 1, graph "} {
		if !strings.Contains(text, want) {
			t.Errorf("the regression lacks %q:\n%s", want, text)
		}
	}
	if code, out, stderr := runCmd([]string{"regress", regs}, ""); code != exitFail || !strings.Contains(out, "exec:trace-mismatch") {
		t.Errorf("regress on the recorded, buggy structurizer: exit %d, want 1 failing with the signature\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCmd([]string{"regress", "--structurizer", "self", regs}, ""); code != exitOK {
		t.Errorf("regress on this tree's structurizer: exit %d, want 0\n%s%s", code, out, stderr)
	}
	code, out, stderr = campaign()
	if code != exitFail || !strings.Contains(out, "regressions: 0 new findings saved into "+regs+"; 1 file already there, kept ("+ents[0].Name()+")") {
		t.Errorf("the same campaign again: exit %d, want the file kept\n%s%s", code, out, stderr)
	}
	// A file of that name that is no regression (damaged) is kept, and
	// said: exit 2, naming it and what to do.
	if err := os.WriteFile(filepath.Join(regs, ents[0].Name()), []byte("\x00garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = campaign()
	if code != exitUsage || !strings.Contains(stderr, ents[0].Name()+" is there but does not read") || !strings.Contains(stderr, "delete it to save the finding again") {
		t.Errorf("the campaign again on a damaged file: exit %d, want 2 naming it\n%s%s", code, out, stderr)
	}
	unmin := filepath.Join(t.TempDir(), "unmin")
	code, out, stderr = runCmd([]string{"run", "--structurizer", buggy, "--graphs", "200", "--out", filepath.Join(t.TempDir(), "c"), "--progress", "none",
		"--minimize=false", "--save-regressions", unmin}, "")
	if code != exitFail || !strings.Contains(out, "regressions: 0 new findings saved into "+unmin+"; 1 new finding without a minimized graph, not saved\n") {
		t.Errorf("the campaign with the minimizer off: exit %d, want the line to say why nothing was saved\n%s%s", code, out, stderr)
	}
	other := filepath.Join(t.TempDir(), "corpus", "regs")
	out2 := filepath.Join(t.TempDir(), "c")
	code, out, stderr = runCmd([]string{"run", "--graphs", "5", "--out", out2, "--progress", "none", "--save-regressions", other}, "")
	if _, err := os.Stat(out2); code != exitUsage || !strings.Contains(stderr, "--save-regressions") || err == nil {
		t.Errorf("a regression directory in another project's corpus/: exit %d, want 2 before the campaign runs\n%s%s", code, out, stderr)
	}
}

// TestMergeSavesRegressions: shards defer minimization to the merge,
// which minimizes each new signature once and saves its regression, the
// dispatch share's under its strategy.
func TestMergeSavesRegressions(t *testing.T) {
	var dirs []string
	for _, shard := range []string{"0/2", "1/2"} {
		dir := filepath.Join(t.TempDir(), "s")
		none := filepath.Join(t.TempDir(), "none")
		if code, out, stderr := runCmd([]string{"run", "--inject", "swap-arms", "--graphs", "100", "--shard", shard, "--out", dir, "--progress", "none",
			"--save-regressions", none}, ""); code != exitFail ||
			!strings.Contains(out, "regressions: 0 new findings saved into "+none+"; 2 new findings left to the merge, which minimizes them (cfgfuzz merge --save-regressions "+none+")\n") {
			t.Fatalf("shard %s: exit %d, want 1 and nothing saved, the line saying the merge saves them (a shard does not minimize)\n%s%s", shard, code, out, stderr)
		}
		dirs = append(dirs, dir)
	}
	regs := filepath.Join(t.TempDir(), "regs")
	code, out, stderr := runCmd(append([]string{"merge", "--out", filepath.Join(t.TempDir(), "m"), "--save-regressions", regs}, dirs...), "")
	if code != exitFail || !strings.Contains(out, "regressions: 2 new findings saved into "+regs) {
		t.Fatalf("merge: exit %d, want 1 and two regressions saved (the campaign's strategy and the dispatch share's)\n%s%s", code, out, stderr)
	}
	dispatch := 0
	ents, _ := os.ReadDir(regs)
	for _, e := range ents {
		if strings.Contains(readFile(t, filepath.Join(regs, e.Name())), "# strategy: dispatch\n") {
			dispatch++
		}
	}
	if len(ents) != 2 || dispatch != 1 {
		t.Errorf("%d regression files, %d of the dispatch strategy; want 2 and 1", len(ents), dispatch)
	}
	if code, out, stderr := runCmd([]string{"regress", regs}, ""); code != exitOK || !strings.Contains(out, "fault:swap-arms") {
		t.Errorf("regress: exit %d, want 0 with the clean case passing and the fault case failing as recorded\n%s%s", code, out, stderr)
	}
}

// TestRegressionNamesTellStructurizersApart: one signature minimized to
// one graph on two structurizers (or under two faults) gives two files;
// the same finding again gives the same name whatever the date.
func TestRegressionNamesTellStructurizersApart(t *testing.T) {
	f := &fuzz.Finding{Signature: "exec:trace-mismatch", Minimized: "{{0, 1}, {}}"}
	h := corpus.Header{Signature: f.Signature, Structurizer: "cmd:./a", Date: "2026-12-05"}
	other, fault, later := h, h, h
	other.Structurizer = "cmd:./b"
	fault.Fault = "swap-arms"
	later.Date, later.Origin = "2026-12-06", "elsewhere"
	name := regressionName(h, f)
	if !strings.HasPrefix(name, "exec-trace-mismatch-") || name == regressionName(other, f) || name == regressionName(fault, f) || name != regressionName(later, f) {
		t.Errorf("names %s, %s, %s, %s", name, regressionName(other, f), regressionName(fault, f), regressionName(later, f))
	}
}

// TestMergeWithoutTheStructurizer: a merge whose minimizer cannot start
// the structurizer the shards ran (an adapter missing on the merging
// machine, or another build of it) minimizes nothing and saves no
// regression; it exits 2 and
// leaves the state as it was, so that the new signatures stay new and the
// merge run again where the structurizer runs minimizes and saves them.
func TestMergeWithoutTheStructurizer(t *testing.T) {
	tmp := t.TempDir()
	adapter := filepath.Join(tmp, "adapter")
	exe, err := os.ReadFile(cfgfuzzBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	install := func() {
		if err := os.WriteFile(adapter, exe, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	install()
	spec := "cmd:" + adapter + " structurize --inject swap-arms"
	state := filepath.Join(tmp, "state")
	var dirs []string
	for i, shard := range []string{"0/2", "1/2"} {
		dir := filepath.Join(tmp, "s"+strconv.Itoa(i))
		if code, out, stderr := runCmd([]string{"run", "--structurizer", spec, "--graphs", "100", "--shard", shard, "--state", state, "--night", "2026-12-05",
			"--out", dir, "--progress", "none"}, ""); code != exitFail {
			t.Fatalf("shard %s: exit %d, want 1\n%s%s", shard, code, out, stderr)
		}
		dirs = append(dirs, dir)
	}
	if err := os.Remove(adapter); err != nil {
		t.Fatal(err)
	}
	regs := filepath.Join(tmp, "regs")
	code, out, stderr := runCmd(append([]string{"merge", "--state", state, "--out", filepath.Join(tmp, "m1"), "--save-regressions", regs}, dirs...), "")
	if code != exitUsage || !strings.Contains(stderr, "leaves "+state+" as it was") || !strings.Contains(stderr, "merge again where the structurizer runs") {
		t.Errorf("merge without the structurizer: exit %d, want 2, the state left as it was and what to do\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(state, "findings.json")); !os.IsNotExist(err) {
		t.Errorf("a merge that minimized nothing committed its state (%v)", err)
	}
	// Another build at the adapter's path (one byte more) does not
	// minimize the shards' findings either: it might not show them.
	if err := os.WriteFile(adapter, append(slices.Clone(exe), 0), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCmd(append([]string{"merge", "--state", state, "--out", filepath.Join(tmp, "m-other"), "--save-regressions", regs}, dirs...), "")
	if code != exitUsage || !strings.Contains(stderr, "here is not the build the shards ran") || !strings.Contains(stderr, "leaves "+state+" as it was") {
		t.Errorf("merge with another build of the structurizer: exit %d, want 2 naming the builds, the state left as it was\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(state, "findings.json")); !os.IsNotExist(err) {
		t.Errorf("a merge on another build committed its state (%v)", err)
	}
	install()
	code, out, stderr = runCmd(append([]string{"merge", "--state", state, "--out", filepath.Join(tmp, "m2"), "--save-regressions", regs}, dirs...), "")
	if code != exitFail || !strings.Contains(out, "new 1 ") || !strings.Contains(out, "regressions: 1 new finding saved into "+regs) {
		t.Errorf("the merge again with the structurizer: exit %d, want 1, the signature new and its regression saved\n%s%s", code, out, stderr)
	}
}

// TestSavedRegressionKeepsItsChecks: an adapter that falls back on every
// graph, fuzzed with --allow-fallbacks and a --timeout of its own, has a
// bug; the regression files the campaign and minimize --save-regression
// write record the checks as changes of regress's defaults ('# checks:
// -fallback', as a file without the line takes them all) while the
// finding's own files in the campaign's store name them (every default
// check but fallback: how the graph was judged), and neither the campaign's
// --timeout, which does not decide an exec finding's verdict, so regress
// on the adapter with the bug fixed (still falling back) passes without
// repeating the flags; --checks given judges under its own checks, its
// failing case's replay carrying regress's own --timeout; check on the
// file names the flag it was judged with.
func TestSavedRegressionKeepsItsChecks(t *testing.T) {
	const noFallback = "pdom,rules,spirv-val,exec,filler,growth,meta"
	fixed := misbehaveSpec(t, "fallback")
	buggy := fixed + " --inject swap-arms"
	regs, camp := filepath.Join(t.TempDir(), "regs"), filepath.Join(t.TempDir(), "c")
	code, out, errs := runCmd([]string{"run", "--structurizer", buggy, "--allow-fallbacks", "--timeout", "30s", "--graphs", "100",
		"--out", camp, "--progress", "none", "--save-regressions", regs}, "")
	files, _ := filepath.Glob(filepath.Join(regs, "exec-trace-mismatch-*.cfg"))
	if code != exitFail || len(files) != 1 {
		t.Fatalf("campaign: exit %d, files %v; want 1 and one exec-trace-mismatch regression\n%s%s", code, files, out, errs)
	}
	if text := readFile(t, files[0]); !strings.Contains(text, "# checks: -fallback\n") || strings.Contains(text, "# timeout:") {
		t.Errorf("the campaign's regression: want '# checks: -fallback' and no '# timeout:' (the campaign's --timeout is the night's):\n%s", text)
	}
	stored, _ := filepath.Glob(filepath.Join(camp, "findings", "*", "*", "*.cfg"))
	if len(stored) == 0 {
		t.Fatalf("the campaign stored no finding's graph file under %s", camp)
	}
	for _, f := range stored {
		if text := readFile(t, f); !strings.Contains(text, "# checks: "+noFallback+"\n") {
			t.Errorf("the finding's %s: want its checks by name, '# checks: %s':\n%s", f, noFallback, text)
		}
	}
	if code, out, errs := runCmd([]string{"regress", "--structurizer", fixed, regs}, ""); code != exitOK {
		t.Errorf("regress on the fixed adapter, which still falls back: exit %d, want 0\n%s%s", code, out, errs)
	}
	code, out, errs = runCmd([]string{"regress", "--structurizer", fixed, "--checks", "+fallback", "--timeout", "20s", regs}, "")
	if code != exitFail || !strings.Contains(out, "got structurize:fallback:nester:cyclic") || !strings.Contains(out, " --timeout 20s ") {
		t.Errorf("regress --checks +fallback --timeout 20s: exit %d, want 1 failing with the fallback, the replay carrying regress's --timeout\n%s%s", code, out, errs)
	}
	_, _, errs = runCmd([]string{"check", "--structurizer", fixed, files[0]}, "")
	if !strings.Contains(errs, "judging "+files[0]+" as its header records: --checks -fallback") {
		t.Errorf("check on the file without its flags does not judge it under them:\n%s", errs)
	}

	mins := filepath.Join(t.TempDir(), "mins")
	code, out, errs = runCmd([]string{"minimize", "--structurizer", buggy, "--allow-fallbacks", "--regressions", mins, "--save-regression", "arms", files[0]}, "")
	if saved := readFile(t, filepath.Join(mins, "arms.cfg")); code != exitOK || !strings.Contains(saved, "# checks: -fallback\n") || strings.Contains(saved, "# timeout:") {
		t.Fatalf("minimize --allow-fallbacks --save-regression: exit %d, want 0 and a file with '# checks: -fallback' and no timeout (the default)\n%s%s%s", code, saved, out, errs)
	}
	if code, out, errs := runCmd([]string{"regress", "--structurizer", fixed, mins}, ""); code != exitOK {
		t.Errorf("regress of minimize's file on the fixed adapter: exit %d, want 0\n%s%s", code, out, errs)
	}
}

// TestRegressionTimeoutOfATimeoutFinding: a campaign's regression file
// records the campaign's --timeout for a structurize:timeout finding (its
// graph is one the structurizer does not answer within that limit), so
// regress replays it under that limit; any other finding's file has no
// '# timeout:', and a timeout finding under the default limit none either.
func TestRegressionTimeoutOfATimeoutFinding(t *testing.T) {
	rep := &fuzz.Report{Settings: fuzz.Settings{Timeout: fuzz.Duration(3 * time.Second)}}
	for _, c := range []struct {
		sig     string
		timeout time.Duration
		want    string
	}{
		{corpus.SigTimeout, 3 * time.Second, "# timeout: 3s\n"},
		{corpus.SigTimeout, fuzz.DefaultTimeout, ""},
		{"meta:rerun-failed:timeout", 3 * time.Second, "# timeout: 3s\n"},
		{"meta:rerun-failed:panic:main.nest: index out of range", 3 * time.Second, ""},
		{"exec:trace-mismatch", 3 * time.Second, ""},
		{"structurize:panic:main.nest: index out of range", 3 * time.Second, ""},
	} {
		rep.Settings.Timeout = fuzz.Duration(c.timeout)
		f := &fuzz.Finding{Signature: c.sig}
		text := regressionHeader(rep, f, "run").Format()
		if got := strings.Contains(text, "# timeout:"); got != (c.want != "") || c.want != "" && !strings.Contains(text, c.want) {
			t.Errorf("%s under --timeout %s: header\n%swant %q", c.sig, c.timeout, text, cmp.Or(c.want, "no '# timeout:'"))
		}
	}
}

// TestShardSavesNoStoredRegression: a signature the state holds a
// minimized graph of (found, then fixed, then back: new again, a
// regression) is left to the merge by a shard, which writes no file,
// whether or not it minimizes; the merge minimizes it again on tonight's
// graph, as the unsharded night does, and its file, like the unsharded
// night's, says in its origin that tonight's campaign minimized it, not
// that the graph is the state's.
func TestShardSavesNoStoredRegression(t *testing.T) {
	tmp := t.TempDir()
	state := filepath.Join(tmp, "st")
	night := func(date, seed string, extra ...string) (int, string, string) {
		args := append([]string{"run", "--state", state, "--night", date, "--seed", seed, "--graphs", "100", "--progress", "none"}, extra...)
		return runCmd(args, "")
	}
	if code, out, stderr := night("2026-12-01", "1", "--inject", "swap-arms", "--out", filepath.Join(tmp, "n1")); code != exitFail {
		t.Fatalf("night 1: exit %d, want 1\n%s%s", code, out, stderr)
	}
	if code, out, stderr := night("2026-12-03", "3", "--out", filepath.Join(tmp, "n3")); code != exitOK || !strings.Contains(out, "fixed 2") {
		t.Fatalf("night 3: exit %d, want 0 with both signatures fixed\n%s%s", code, out, stderr)
	}
	whole := copyDir(t, state, filepath.Join(tmp, "st-whole"))
	none := filepath.Join(tmp, "none")
	var shards []string
	for _, shard := range []string{"0/2", "1/2"} {
		dir := filepath.Join(tmp, "s"+shard[:1])
		code, out, stderr := night("2026-12-04", "4", "--inject", "swap-arms", "--shard", shard, "--out", dir, "--save-regressions", none)
		if code != exitFail || !strings.Contains(out, "regressions: 0 new findings saved into "+none+"; 2 new findings left to the merge, which minimizes them (cfgfuzz merge --save-regressions "+none+")\n") {
			t.Fatalf("shard %s: exit %d, want 1 and both regressed signatures left to the merge\n%s%s", shard, code, out, stderr)
		}
		shards = append(shards, dir)
	}
	// A shard with the minimizer off saves nothing either.
	if code, out, stderr := night("2026-12-04", "4", "--inject", "swap-arms", "--shard", "0/2", "--minimize=false", "--out", filepath.Join(tmp, "s-nomin"), "--save-regressions", none); code != exitFail || !strings.Contains(out, "regressions: 0 new findings saved into "+none+"; ") {
		t.Fatalf("shard 0/2 with --minimize=false: exit %d, want 1 and nothing saved\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(none); !os.IsNotExist(err) {
		t.Errorf("the shards' --save-regressions directory is there (%v), want nothing written", err)
	}
	const origin = "), minimized\n"
	origins := func(what, dir string) {
		t.Helper()
		ents, err := os.ReadDir(dir)
		if err != nil || len(ents) != 2 {
			t.Fatalf("%s: %v (%v), want two regression files", what, ents, err)
		}
		for _, e := range ents {
			text := readFile(t, filepath.Join(dir, e.Name()))
			if !strings.Contains(text, "# origin: cfgfuzz "+what+", seed 4, graph ") || !strings.Contains(text, origin) || strings.Contains(text, "from the state's store") {
				t.Errorf("%s: %s's origin does not say tonight's campaign minimized its graph:\n%s", what, e.Name(), text)
			}
		}
	}
	regs := filepath.Join(tmp, "regs")
	code, out, stderr := runCmd(append([]string{"merge", "--state", state, "--out", filepath.Join(tmp, "m"), "--save-regressions", regs}, shards...), "")
	if code != exitFail || !strings.Contains(out, "regressions: 2 new findings saved into "+regs+"\n") {
		t.Fatalf("merge: exit %d, want 1 and both saved\n%s%s", code, out, stderr)
	}
	origins("merge", regs)
	state = whole
	wregs := filepath.Join(tmp, "wregs")
	if code, out, stderr := night("2026-12-04", "4", "--inject", "swap-arms", "--out", filepath.Join(tmp, "n4"), "--save-regressions", wregs); code != exitFail ||
		!strings.Contains(out, "regressions: 2 new findings saved into "+wregs+"\n") {
		t.Fatalf("the unsharded night: exit %d, want 1 and both saved\n%s%s", code, out, stderr)
	}
	origins("run", wregs)
}
