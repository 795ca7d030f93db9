// regress_test.go: `cfgfuzz regress` replays regression files saved by
// `minimize --save-regression` from an external structurizer (each file
// names its spec) and cfgfuzz's own suite; --junit writes XML that
// encoding/xml reads back with the right counts; --save-regression writes
// ./cfgfuzz-regressions outside a cfgfuzz checkout and refuses another
// project's corpus/ directory.
package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// readJUnit parses a JUnit file into the report type junit.go writes.
func readJUnit(t *testing.T, file string) junitSuites {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var r junitSuites
	if err := xml.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s is not JUnit XML: %v\n%s", file, err, b)
	}
	return r
}

// failedCases lists the names of the failing test cases of a report.
func failedCases(r junitSuites) []string {
	var out []string
	for _, s := range r.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

func TestRegressExternalStructurizer(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(in, []byte("{{1}, {2, 3}, {4}, {4}, {5, 1}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := plantedSpec(t)
	regs, store := filepath.Join(dir, "regs"), filepath.Join(dir, "store")
	for name, expect := range map[string]string{"known-bug": corpus.ExpectFail, "to-fix": corpus.ExpectPass} {
		code, _, errs := runCmd([]string{"minimize", in, "--structurizer", spec, "--save-regression", name, "--regressions", regs, "--expect", expect, "--store", store}, "")
		if code != exitOK {
			t.Fatalf("minimize: exit %d: %s", code, errs)
		}
	}
	checkExternalStore(t, store, spec)
	r, err := corpus.ReadRegression(filepath.Join(regs, "known-bug.cfg"))
	if err != nil || r.Header.Structurizer != spec || r.Header.Expect != corpus.ExpectFail || !strings.HasPrefix(r.Header.Signature, "exec:") {
		t.Fatalf("saved regression %+v (%v)", r, err)
	}
	// On the structurizer the files name: the bug is still there.
	junit := filepath.Join(dir, "a.xml")
	code, out, errs := runCmd([]string{"regress", regs, "--junit", junit}, "")
	if code != exitFail || !strings.Contains(out, "FAIL "+filepath.Join(regs, "to-fix.cfg")+" clean: want pass, got exec:") || !strings.Contains(out, "replay: cfgfuzz check --structurizer") {
		t.Errorf("regress on the files' structurizer: exit %d\n%s%s", code, out, errs)
	}
	rep := readJUnit(t, junit)
	if rep.Tests != 2 || rep.Failures != 1 || rep.Errors != 0 || len(rep.Suites) != 1 || strings.Join(failedCases(rep), ",") != "to-fix clean" {
		t.Errorf("junit: %d tests %d failures %d errors, failed %v", rep.Tests, rep.Failures, rep.Errors, failedCases(rep))
	}
	for _, c := range rep.Suites[0].Cases {
		if c.Failure != nil && !strings.Contains(c.Failure.Body, "walk ") { // the exec check's words: the walk that differs
			t.Errorf("junit: %s's failure body does not say what differs:\n%s", c.Name, c.Failure.Body)
		}
	}
	// On this tree's structurizer (the bug fixed): the other way round.
	junit = filepath.Join(dir, "b.xml")
	if code, out, errs := runCmd([]string{"regress", regs, "--structurizer", "self", "--junit", junit}, ""); code != exitFail {
		t.Errorf("regress --structurizer self: exit %d\n%s%s", code, out, errs)
	}
	if rep := readJUnit(t, junit); rep.Failures != 1 || strings.Join(failedCases(rep), ",") != "known-bug clean" {
		t.Errorf("junit on self: %d failures: %v", rep.Failures, failedCases(rep))
	}
	// cfgfuzz's own suite passes on its own structurizer, faults included.
	junit = filepath.Join(dir, "c.xml")
	if code, _, errs := runCmd([]string{"regress", filepath.Join("..", "..", "corpus", "testdata", "regressions"), "--junit", junit}, ""); code != exitOK {
		t.Errorf("regress of cfgfuzz's suite: exit %d: %s", code, errs)
	}
	if rep := readJUnit(t, junit); rep.Tests == 0 || rep.Failures != 0 || rep.Errors != 0 {
		t.Errorf("junit of cfgfuzz's suite: %+v", rep)
	}
	if code, _, _ := runCmd([]string{"regress", filepath.Join(dir, "empty")}, ""); code != exitUsage {
		t.Errorf("regress of a missing directory: exit %d, want %d", code, exitUsage)
	}
}

// TestRegressionDirectory: the default regression directory is the
// checkout's suite inside cfgfuzz and ./cfgfuzz-regressions elsewhere; a
// corpus/ path outside a cfgfuzz checkout's suite is refused, by minimize
// too.
func TestRegressionDirectory(t *testing.T) {
	d, err := regressionDir("")
	if err != nil || !strings.HasSuffix(d, filepath.Join("corpus", "testdata", "regressions")) || cfgfuzzRoot(d) == "" {
		t.Errorf("inside cfgfuzz: %q %v", d, err)
	}
	if err := checkRegressionDir(d); err != nil {
		t.Errorf("cfgfuzz's own suite refused: %v", err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/shader\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkRegressionDir(filepath.Join(other, "corpus", "testdata", "regressions")); err == nil {
		t.Error("another module's corpus/testdata/regressions accepted")
	}
	if err := checkRegressionDir(filepath.Join(other, "tests", "cfg")); err != nil {
		t.Errorf("a plain directory refused: %v", err)
	}
	in := filepath.Join(other, "g.cfg")
	if err := os.WriteFile(in, []byte("{{1}, {2, 3}, {4}, {4}, {5, 1}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(other)
	if d, err := regressionDir(""); err != nil || d != filepath.Join(other, defaultRegressionsName) {
		t.Errorf("outside cfgfuzz: %q %v", d, err)
	}
	code, _, errs := runCmd([]string{"minimize", in, "--inject", "swap-arms", "--save-regression", "x", "--regressions", filepath.Join(other, "corpus")}, "")
	if code != exitUsage || !strings.Contains(errs, "not a cfgfuzz checkout") {
		t.Errorf("minimize into another corpus/: exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd([]string{"minimize", in, "--inject", "swap-arms", "--save-regression", "x"}, ""); code != exitOK {
		t.Errorf("minimize --save-regression outside cfgfuzz: exit %d: %s", code, errs)
	}
	if _, err := corpus.ReadRegression(filepath.Join(other, defaultRegressionsName, "x.cfg")); err != nil {
		t.Error(err)
	}
}

// failingRegression saves, into dir/regs, the regression swapped.cfg of a
// diamond minimized under swap-arms with flags, expecting fail: its clean
// case fails, so regress prints its replay. It returns dir/regs.
func failingRegression(t *testing.T, dir string, flags ...string) string {
	t.Helper()
	in := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(in, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	regs := filepath.Join(dir, "regs")
	args := append([]string{"minimize", in, "--inject", "swap-arms", "--save-regression", "swapped", "--regressions", regs, "--expect", corpus.ExpectFail}, flags...)
	if code, _, errs := runCmd(args, ""); code != exitOK {
		t.Fatalf("minimize: exit %d: %s", code, errs)
	}
	return regs
}

// TestRegressRegisterFile: a regression minimized under a register file
// names it in its header, regress replays it under that file (the replay
// command of a failing case says so) unless --registers overrides it, and
// a header count that does not parse is refused by name.
func TestRegressRegisterFile(t *testing.T) {
	dir := t.TempDir()
	regs := failingRegression(t, dir, "--registers", "8")
	r, err := corpus.ReadRegression(filepath.Join(regs, "swapped.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Registers != 8 {
		t.Fatalf("saved header: registers %d, want 8", r.Header.Registers)
	}
	for _, c := range []struct {
		flags []string
		want  string // in the failing case's replay; "" means no --registers
	}{{nil, "--registers 8"}, {[]string{"--registers", "0"}, ""}} {
		code, out, errs := runCmd(append([]string{"regress", regs}, c.flags...), "")
		if code != exitFail {
			t.Fatalf("regress %v: exit %d, want %d (the clean case passes against --expect fail)\n%s%s", c.flags, code, exitFail, out, errs)
		}
		if !strings.Contains(out, "ok "+filepath.Join(regs, "swapped.cfg")+" fault:swap-arms") {
			t.Errorf("regress %v: the fault case does not pass:\n%s", c.flags, out)
		}
		at := strings.Index(out, "replay: ")
		if at < 0 {
			t.Fatalf("regress %v: no replay command printed:\n%s", c.flags, out)
		}
		replay := out[at:]
		if got := strings.Contains(replay, "--registers"); got != (c.want != "") || c.want != "" && !strings.Contains(replay, c.want) {
			t.Errorf("regress %v: replay %q, want %q", c.flags, strings.SplitN(replay, "\n", 2)[0], c.want)
		}
	}
	bad := filepath.Join(dir, "bad")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "x.cfg"), []byte("# signature: none\n# registers: many\n{{}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCmd([]string{"regress", bad}, ""); code == exitOK || !strings.Contains(out+errs, "'# registers: many'") {
		t.Errorf("regress on a bad registers header: exit %d\n%s%s", code, out, errs)
	}
}

// gpuReplay is what a failing case's replay carries before its file for
// the gpu check: " --checks +gpu" when the checks regress's summary
// (errs) names have it, as its default set does where a Vulkan device is.
func gpuReplay(errs string) string {
	at := strings.Index(errs, "; checks ")
	if at < 0 {
		return ""
	}
	if named := strings.Fields(errs[at+len("; checks "):]); len(named) > 0 && slices.Contains(strings.Split(named[0], ","), "gpu") {
		return " --checks +gpu"
	}
	return ""
}

// TestRegressNamesItsChecks: the summary names the checks the cases ran,
// and a failing case's replay asks check for the gpu check exactly when
// regress's default set had it (check leaves it out unless asked), so the
// replay judges as regress did.
func TestRegressNamesItsChecks(t *testing.T) {
	regs := failingRegression(t, t.TempDir())
	for _, c := range []struct {
		flags []string
		want  string // the summary's list; "" means the default set
	}{{nil, ""}, {[]string{"--checks", "spirv-val,exec"}, "spirv-val,exec"}} {
		code, out, errs := runCmd(append([]string{"regress", regs}, c.flags...), "")
		if code != exitFail {
			t.Fatalf("regress %v: exit %d, want %d\n%s%s", c.flags, code, exitFail, out, errs)
		}
		at := strings.Index(errs, "; checks ")
		if at < 0 {
			t.Fatalf("regress %v: the summary names no checks:\n%s", c.flags, errs)
		}
		named := strings.Fields(errs[at+len("; checks "):])[0]
		if c.want != "" && named != c.want || c.want == "" && !strings.Contains(named, "exec") {
			t.Errorf("regress %v: summary names checks %q, want %q", c.flags, named, c.want)
		}
		replay := out[strings.Index(out, "replay: "):]
		replay = strings.SplitN(replay, "\n", 2)[0]
		withGPU := c.want == "" && slices.Contains(strings.Split(named, ","), "gpu")
		if got := strings.Contains(replay, "--checks +gpu"); got != withGPU {
			t.Errorf("regress %v (checks %s): replay %q: asks for the gpu check %v, want %v", c.flags, named, replay, got, withGPU)
		}
		if c.want != "" && !strings.Contains(replay, "--checks "+c.want) {
			t.Errorf("regress %v: replay %q does not carry --checks %s", c.flags, replay, c.want)
		}
	}
}

// TestRegressBrokenFile: a file that does not read is one error case (a
// line and a JUnit error); the other files still run and the JUnit file is
// written; a directory that does not exist is named as such.
func TestRegressBrokenFile(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join("..", "..", "corpus", "testdata", "regressions", "fuzz-route-cleared-at-merge.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "good.cfg"), good, 0o644)
	os.WriteFile(filepath.Join(dir, "bad.cfg"), []byte("# signature none\n{{1}, {}}\n"), 0o644)
	junit := filepath.Join(t.TempDir(), "r.xml")
	var out, errOut strings.Builder
	code := run([]string{"regress", dir, "--junit", junit}, strings.NewReader(""), &out, &errOut)
	if code != exitUsage || !strings.Contains(out.String(), "ERROR "+filepath.Join(dir, "bad.cfg")+" read:") || !strings.Contains(out.String(), "ok "+filepath.Join(dir, "good.cfg")) {
		t.Errorf("exit %d, want 2 with an ERROR line for bad.cfg and good.cfg run\n%s%s", code, out.String(), errOut.String())
	}
	r := readJUnit(t, junit)
	if r.Tests < 2 || r.Errors != 1 {
		t.Errorf("JUnit: %d tests, %d errors; want bad.cfg's error and good.cfg's cases", r.Tests, r.Errors)
	}
	for _, c := range r.Suites[0].Cases {
		// a file that does not read names no structurizer to trust: its replay is regress's, not check's on another
		if c.Error != nil && !strings.Contains(c.Error.Body, "replay: cfgfuzz regress "+filepath.Join(dir, "bad.cfg")+"\n") { // a command as it runs
			t.Errorf("JUnit: %s's replay:\n%s", c.Name, c.Error.Body)
		}
	}
	out.Reset()
	errOut.Reset()
	missing := filepath.Join(dir, "nonexistent")
	if code := run([]string{"regress", missing}, strings.NewReader(""), &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), "no such file or directory") {
		t.Errorf("a missing directory: exit %d, want 2 saying it does not exist\n%s", code, errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"regress", dir, "--junit", filepath.Join(missing, "r.xml")}, strings.NewReader(""), &out, &errOut); code != exitUsage || out.Len() != 0 || !strings.Contains(errOut.String(), "does not exist") {
		t.Errorf("--junit into a missing directory: exit %d, want 2 before any case runs\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"regress", dir, "--junit", filepath.Join(dir, "good.cfg", "r.xml")}, strings.NewReader(""), &out, &errOut); code != exitUsage || out.Len() != 0 || !strings.Contains(errOut.String(), "good.cfg is not a directory") {
		t.Errorf("--junit under a file: exit %d, want 2 saying the file is not a directory, before any case runs\n%s%s", code, out.String(), errOut.String())
	}
}

// TestRegressFailedAndErrorCases: two files that fail and one that does
// not read exit 1, as a failure does whatever the other cases gave, while
// the summary and the JUnit file still count the error; the error alone
// is exit 2.
func TestRegressFailedAndErrorCases(t *testing.T) {
	dir := t.TempDir()
	failing := "# signature: exec:trace-mismatch\n# expect: fail\n{{1}, {}}\n" // it passes: the case fails
	os.WriteFile(filepath.Join(dir, "a-fails.cfg"), []byte(failing), 0o644)
	os.WriteFile(filepath.Join(dir, "b-unread.cfg"), []byte("# signature none\n{{1}, {}}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c-fails.cfg"), []byte(failing), 0o644)
	junit := filepath.Join(t.TempDir(), "r.xml")
	var out, errOut strings.Builder
	code := run([]string{"regress", dir, "--junit", junit}, strings.NewReader(""), &out, &errOut)
	if code != exitFail || !strings.Contains(errOut.String(), ": 3 files, 3 cases: 0 passed, 2 failed, 1 errors, 0 skipped") {
		t.Errorf("exit %d, want 1 and a summary of 2 failed, 1 error\n%s%s", code, out.String(), errOut.String())
	}
	if r := readJUnit(t, junit); r.Failures != 2 || r.Errors != 1 {
		t.Errorf("JUnit: %d failures, %d errors; want 2 and 1", r.Failures, r.Errors)
	}
	os.Remove(filepath.Join(dir, "a-fails.cfg"))
	os.Remove(filepath.Join(dir, "c-fails.cfg"))
	out.Reset()
	errOut.Reset()
	if code := run([]string{"regress", dir}, strings.NewReader(""), &out, &errOut); code != exitUsage {
		t.Errorf("the error alone: exit %d, want 2\n%s%s", code, out.String(), errOut.String())
	}
}

// TestRegressReplayRunsWhereItRan: regress --structurizer with a relative
// path prints replay commands that name the paths under the working
// directory from there (a CI log's replay runs at the same place of
// another checkout) and the others absolute.
func TestRegressReplayRunsWhereItRan(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(cfgfuzzBinary(t), filepath.Join(dir, "planted")); err != nil {
		t.Fatal(err)
	}
	regs := filepath.Join(dir, "regs")
	if err := os.MkdirAll(regs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(regs, "arms.cfg"), []byte("# signature: none\n{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, out, errs := runCmd([]string{"regress", "regs", "--structurizer", "./planted structurize --inject swap-arms"}, "")
	if want := "replay: cfgfuzz check --structurizer 'cmd:./planted structurize --inject swap-arms'" + gpuReplay(errs) + " ./regs/arms.cfg"; code != exitFail || !strings.Contains(out, want) {
		t.Errorf("regress: exit %d, want %q\n%s%s", code, want, out, errs)
	}
	t.Chdir(regs)
	code, out, errs = runCmd([]string{"regress", ".", "--structurizer", "../planted structurize --inject swap-arms"}, "")
	if want := "replay: cfgfuzz check --structurizer 'cmd:" + dir + "/planted structurize --inject swap-arms'" + gpuReplay(errs) + " ./arms.cfg"; code != exitFail || !strings.Contains(out, want) {
		t.Errorf("regress from regs/: exit %d, want %q\n%s%s", code, want, out, errs)
	}
}

func TestRecordedRegistersNamed(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "min.cfg")
	if err := os.WriteFile(in, []byte("# signature: exec:registers-mismatch\n# registers: 5\n{{1}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const hint = "judge it with --registers 5"
	code, _, errs := runCmd([]string{"check", in}, "")
	if code != exitOK || !strings.Contains(errs, "judging "+in+" as its header records: --registers 5") || strings.Contains(errs, hint) {
		t.Errorf("check without --registers: exit %d, want %d, judged under --registers 5 as noted:\n%s", code, exitOK, errs)
	}
	if _, _, errs := runCmd([]string{"check", in, "--registers", "0"}, ""); !strings.Contains(errs, "note: "+in+" records another judging") || !strings.Contains(errs, hint) {
		t.Errorf("check --registers 0: no note naming %q:\n%s", hint, errs)
	}
	if _, _, errs := runCmd([]string{"check", in, "--registers", "5"}, ""); strings.Contains(errs, "note:") {
		t.Errorf("check --registers 5 notes a mismatch:\n%s", errs)
	}
	code, _, errs = runCmd([]string{"minimize", in, "--registers", "0"}, "")
	if code != exitUsage || !strings.Contains(errs, "does not fail") || !strings.Contains(errs, hint) {
		t.Errorf("minimize --registers 0: exit %d, want %d and an error naming %q:\n%s", code, exitUsage, hint, errs)
	}
	// Without --registers, minimize judges it under the header's, and says so.
	code, _, errs = runCmd([]string{"minimize", in}, "")
	if code != exitUsage || !strings.Contains(errs, "judging "+in+" as its header records: --registers 5") || strings.Contains(errs, hint) {
		t.Errorf("minimize without --registers: exit %d, want %d, judged under --registers 5 as noted:\n%s", code, exitUsage, errs)
	}
}

// TestRecordedStructurizerNamed: a finding's graph file names the
// structurizer it was found on; check and minimize left on cfgfuzz's own
// say so, with the flag that judges it there, and a structurizer given is
// taken as chosen.
func TestRecordedStructurizerNamed(t *testing.T) {
	dir := t.TempDir()
	found := "cmd:" + cfgfuzzBinary(t) + " structurize --inject swap-arms"
	in := filepath.Join(dir, "min.cfg")
	if err := os.WriteFile(in, []byte("# signature: exec:trace-mismatch\n# structurizer: "+found+"\n{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hint := "judge it with --structurizer " + fuzz.ShellQuote(found)
	code, _, errs := runCmd([]string{"check", in}, "")
	if code != exitOK || !strings.Contains(errs, "note: "+in+" records another judging") || !strings.Contains(errs, hint) {
		t.Errorf("check without --structurizer: exit %d, want %d and a note naming %q:\n%s", code, exitOK, hint, errs)
	}
	code, _, errs = runCmd([]string{"minimize", in}, "")
	if code != exitUsage || !strings.Contains(errs, "does not fail") || !strings.Contains(errs, hint) {
		t.Errorf("minimize without --structurizer: exit %d, want %d and an error naming %q:\n%s", code, exitUsage, hint, errs)
	}
	if code, _, errs := runCmd([]string{"check", in, "--structurizer", found}, ""); code != exitFail || strings.Contains(errs, "note:") {
		t.Errorf("check --structurizer as recorded: exit %d, want %d and no note:\n%s", code, exitFail, errs)
	}
	fixed := "cmd:" + cfgfuzzBinary(t) + " structurize"
	if code, _, errs := runCmd([]string{"check", in, "--structurizer", fixed}, ""); code != exitOK || strings.Contains(errs, "note:") {
		t.Errorf("check --structurizer %s (another, chosen): exit %d, want %d and no note:\n%s", fixed, code, exitOK, errs)
	}
}

// TestRegressOwnStructurizerMissingNamed: a file replayed on the
// structurizer it records, which this machine lacks, is an error that says
// where that structurizer came from and which flag replays the file on
// another.
func TestRegressOwnStructurizerMissingNamed(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone")
	if err := os.WriteFile(filepath.Join(dir, "arms.cfg"), []byte("# signature: exec:trace-mismatch\n# structurizer: repo:"+gone+"@0123456789abcdef0123456789abcdef01234567\n{{1, 2}, {3}, {3}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd([]string{"regress", dir}, "")
	if code != exitUsage || !strings.Contains(out, "ERROR "+filepath.Join(dir, "arms.cfg")+" clean: "+gone) || !strings.Contains(out, "# structurizer:; --structurizer SPEC replays it") {
		t.Errorf("regress on the file's own, missing structurizer: exit %d, want 2 naming the header and the flag\n%s%s", code, out, errs)
	}
	if code, out, errs := runCmd([]string{"regress", dir, "--structurizer", "self"}, ""); code != exitOK || strings.Contains(out+errs, "# structurizer:") {
		t.Errorf("regress --structurizer self: exit %d, want 0 and no word of the header\n%s%s", code, out, errs)
	}
}

// TestRegressUnknownTargetEnv: a file whose # target-env: spirv-val does
// not know reads, but is an error of its case naming the header line, as
// the flag is a usage error; it is never judged without the validator.
// --target-env judges it under another (a file saved under a newer
// SPIRV-Tools, replayed where an older one is installed).
func TestRegressUnknownTargetEnv(t *testing.T) {
	if err := oracle.UnknownTargetEnv("vulkan1.3"); err != nil {
		t.Skipf("no validator that knows the target environments here: %v", err)
	}
	if oracle.UnknownTargetEnv("vulkan9.9") == nil {
		t.Skip("no validator here to tell an unknown target environment")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.cfg"), []byte("# signature: exec:trace-mismatch\n# target-env: vulkan9.9\n# expect: pass\n{{1, 2}, {2}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd([]string{"regress", dir}, "")
	if code != exitUsage || !strings.Contains(out+stderr, "'# target-env: vulkan9.9'") || !strings.Contains(out+stderr, "1 errors") {
		t.Errorf("regress: exit %d, want 2 and the case an error naming the header line\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCmd([]string{"regress", "--target-env", "vulkan1.3", dir}, ""); code != exitOK {
		t.Errorf("regress --target-env vulkan1.3: exit %d, want 0\n%s%s", code, out, stderr)
	}
}

// TestRegressEmptyDirectory: a directory with no regression file is a
// usage error that names --allow-empty; with it, the replay passes with 0
// cases and an empty JUnit file. A directory that is not there stays an
// error either way.
func TestRegressEmptyDirectory(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := runCmd([]string{"regress", dir}, ""); code != exitUsage || !strings.Contains(errs, "no regression files") || !strings.Contains(errs, "--allow-empty") {
		t.Errorf("empty directory: exit %d, want 2 naming --allow-empty\n%s", code, errs)
	}
	junit := filepath.Join(t.TempDir(), "r.xml")
	code, _, errs := runCmd([]string{"regress", "--allow-empty", "--junit", junit, dir}, "")
	if code != exitOK || !strings.Contains(errs, "0 cases") {
		t.Errorf("--allow-empty: exit %d, want 0\n%s", code, errs)
	}
	if b, err := os.ReadFile(junit); err != nil || !strings.Contains(string(b), `<testsuites name="cfgfuzz regress" tests="0"`) {
		t.Errorf("--allow-empty --junit: %v\n%s", err, b)
	}
	if code, _, errs := runCmd([]string{"regress", "--allow-empty", filepath.Join(dir, "missing")}, ""); code != exitUsage {
		t.Errorf("--allow-empty on a missing directory: exit %d, want 2\n%s", code, errs)
	}
}

// TestRegressNamesThePinnedCommit: a file that records a commit of a
// repository (saved from a comparison of two commits: the one that
// failed) fails on every replay without --structurizer; the failed case's
// line says it was judged on that commit and how to judge one's build.
func TestRegressNamesThePinnedCommit(t *testing.T) {
	ownBuildCache(t)
	repo, good := toyRepo(t, toyConfig)
	writeFile(t, filepath.Join(repo, "toy.py"), toyServer(3))
	planted := commitAll(t, repo, "toy: planted bug on 3 blocks or more")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "toy-bug.cfg"), "# signature: exec:trace-mismatch\n# structurizer: repo:"+repo+"@"+planted+"\n# expect: pass\n{{1, 2}, {2}, {}}\n")
	code, stdout, stderr := cliIn(t, t.TempDir(), "regress", dir)
	if want := " (judged on the commit the file records, repo:" + repo + "@" + planted + ": --structurizer SPEC judges your build)"; code != exitFail || !strings.Contains(stdout, want) {
		t.Errorf("regress: exit %d, want 1 and %q\n%s%s", code, want, stdout, stderr)
	}
	// The toy refuses every graph: the case fails on the good commit too,
	// judged on the build the flag names, without the note.
	code, stdout, stderr = cliIn(t, t.TempDir(), "regress", "--structurizer", "repo:"+repo+"@"+good, dir)
	if !strings.Contains(stdout, "FAIL ") || strings.Contains(stdout, "judged on the commit") {
		t.Errorf("regress --structurizer: exit %d, want a failed case without the note\n%s%s", code, stdout, stderr)
	}
}

// TestRegressRegistersFlag: --registers shows no default of -1 in the
// usage (each file's own is the default) and refuses a value that is no
// count, naming the flag.
func TestRegressRegistersFlag(t *testing.T) {
	_, out, errs := runCmd([]string{"regress", "-h"}, "")
	if usage := out + errs; !strings.Contains(usage, "-registers N") || strings.Contains(usage, "(default -1)") {
		t.Errorf("regress -h on --registers:\n%s", usage)
	}
	for _, v := range []string{"-5", "x"} {
		if code, _, errs := runCmd([]string{"regress", "--registers", v, t.TempDir()}, ""); code != exitUsage || !strings.Contains(errs, `invalid value "`+v+`" for flag --registers`) {
			t.Errorf("--registers %s: exit %d\n%s", v, code, errs)
		}
	}
}

// TestRegressOneFileAndSubdirectories: regress replays one regression file
// given as its argument, and names the files of subdirectories it does
// not replay.
func TestRegressOneFileAndSubdirectories(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	reg := []byte("# signature: none\n{{1}, {}}\n")
	if err := os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.cfg", filepath.Join("sub", "b.cfg"), filepath.Join("sub", "deeper", "c.cfg")} {
		if err := os.WriteFile(filepath.Join(dir, f), reg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCmd([]string{"regress", filepath.Join(dir, "a.cfg")}, "")
	if code != exitOK || !strings.Contains(out, "ok "+filepath.Join(dir, "a.cfg")+" clean") || !strings.Contains(errs, "1 files, 1 cases: 1 passed") {
		t.Errorf("regress FILE: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = runCmd([]string{"regress", dir}, "")
	if want := "2 regression files in subdirectories of " + dir + " not replayed"; code != exitOK || !strings.Contains(errs, want) || !strings.Contains(errs, filepath.Join(dir, "sub", "b.cfg")) {
		t.Errorf("regress DIR: exit %d, want %q naming sub/b.cfg\n%s", code, want, errs)
	}
}
