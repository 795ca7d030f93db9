// external_test.go: the commands driving a structurizer that is not this
// process's: `cfgfuzz structurize --inject FAULT` (this tree's behind the
// protocol, with a bug planted in every answer) and testdata/misbehave.py
// (crashes, panics, hangs or errs on graphs with a self-loop) run as
// --structurizer 'cmd:...', checked, minimized, stored, replayed and kept
// as regressions exactly like the in-process structurizer.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
	dirOnce sync.Once
	dirErr  error
)

// parallelTests is how many of the tests that call t.Parallel run at
// once, at least: they mostly wait (on sleeps, timeouts, servers that
// never answer, builds that a signal or --build-timeout stops), or run
// beside such tests, so more of them than the machine has cores (go
// test's default) keep it busy. None of them sends a signal to this
// process, changes the working directory, the environment or a
// package-level variable, or asserts that no structurizer server of an
// ended cfgfuzz is left (a campaign starting meanwhile kills such servers,
// fuzz.SweepOrphans); those that look for a cfgfuzz left running run
// their own (ownCfgfuzzBinary).
const parallelTests = 4

// programs holds a *programBuild for each package builtProgram was asked
// for, by its path.
var programs sync.Map

// TestMain removes what cfgfuzzBinary and builtProgram built, and fails
// the package when a process of cfgfuzzBinary's binary (a structurizer
// server some test or the code under test opened and never closed)
// outlives the tests. Unless -parallel is given, parallelTests of the
// tests that call t.Parallel run at once.
func TestMain(m *testing.M) {
	gpu.ServeIfAsked() // the gpu check's driver servers are this test binary
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(max(parallelTests, runtime.GOMAXPROCS(0))))
	}
	code := m.Run()
	gpu.CloseShared()
	if binPath != "" {
		if left := processesRunning(binPath); len(left) > 0 {
			fmt.Fprintf(os.Stderr, "processes of %s left after the tests: %v\n", binPath, left)
			code = 1
		}
	}
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildDir is the directory, made once per test binary, that holds what
// cfgfuzzBinary and builtProgram build.
func buildDir(t *testing.T) string {
	t.Helper()
	dirOnce.Do(func() { binDir, dirErr = os.MkdirTemp("", "cfgfuzz-test-bin-") })
	if dirErr != nil {
		t.Fatalf("a directory for the test binaries: %v", dirErr)
	}
	return binDir
}

// cfgfuzzBinary builds this command once per test binary.
func cfgfuzzBinary(t *testing.T) string {
	t.Helper()
	dir := buildDir(t)
	binOnce.Do(func() {
		binPath = filepath.Join(dir, "cfgfuzz")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = err
			t.Logf("%s", out)
		}
	})
	if binErr != nil {
		t.Fatalf("building cfgfuzz: %v", binErr)
	}
	return binPath
}

// ownCfgfuzzBinary is cfgfuzzBinary's binary under a path of the test's
// own (a hard link, else a copy): processesRunning of it finds this
// test's processes only, whatever the other tests run meanwhile.
func ownCfgfuzzBinary(t *testing.T) string {
	t.Helper()
	bin := cfgfuzzBinary(t)
	own := filepath.Join(t.TempDir(), "cfgfuzz")
	if err := os.Link(bin, own); err == nil {
		return own
	}
	b, err := os.ReadFile(bin)
	if err == nil {
		err = os.WriteFile(own, b, 0o755)
	}
	if err != nil {
		t.Fatalf("a copy of %s: %v", bin, err)
	}
	return own
}

// programBuild is one package's build by builtProgram.
type programBuild struct {
	once sync.Once
	path string
	err  error
}

// builtProgram builds the Go main package pkg (a path relative to this
// directory, such as ../../fuzz/testdata/badstruct) once per test binary
// and returns the program's path, named after pkg's last element, in a
// directory of its own (a directory cfgfuzzBinary's binary is in is put
// on PATH by some tests). The tests only run what it builds.
func builtProgram(t *testing.T, pkg string) string {
	t.Helper()
	dir := buildDir(t)
	v, _ := programs.LoadOrStore(pkg, &programBuild{})
	b := v.(*programBuild)
	b.once.Do(func() {
		sub, err := os.MkdirTemp(dir, filepath.Base(pkg)+"-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(sub, filepath.Base(pkg))
		if out, err := exec.Command("go", "build", "-o", b.path, pkg).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// plantedSpec is an external structurizer with a bug of its own: this
// tree's behind the protocol with swap-arms planted in every answer.
func plantedSpec(t *testing.T) string {
	return "cmd:" + cfgfuzzBinary(t) + " structurize --inject swap-arms"
}

// misbehaveSpec is testdata/misbehave.py in mode over this tree's server.
func misbehaveSpec(t *testing.T, mode string) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	py, _ := filepath.Abs(filepath.Join("testdata", "misbehave.py"))
	return "cmd:python3 " + py + " " + mode + " " + cfgfuzzBinary(t) + " structurize"
}

func runCmd(args []string, stdin string) (int, string, string) {
	var out, errw bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errw)
	return code, out.String(), errw.String()
}

// TestCheckExternalStructurizer: check --structurizer runs the graphs on
// the named program: the planted bug fails exec where the in-process
// structurizer passes, and each misbehaviour of misbehave.py is its
// harness finding (a normalized signature), the other graph still ok.
func TestCheckExternalStructurizer(t *testing.T) {
	const g = "{{1}, {2, 3}, {4}, {4}, {5, 1}, {}}\n"
	if code, out, errs := runCmd([]string{"check", "-"}, g); code != exitOK {
		t.Fatalf("self: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCmd([]string{"check", "--structurizer", plantedSpec(t), "-"}, g)
	if code != exitFail || !strings.HasPrefix(out, "FAIL exec:") || !strings.Contains(errs, "structurizer cmd:") || !strings.Contains(errs, "strategy its own (none asked)") {
		t.Errorf("planted: exit %d, want a failure and a header that asks no strategy\n%s%s", code, out, errs)
	}
	const loop = "{{1}, {1, 2}, {}}\n" + g
	for mode, sig := range map[string]string{
		"crash": "FAIL structurize:crash:exit status N: Segmentation fault at N in <path>:N (loops [N])",
		"panic": "FAIL structurize:panic:loop header bN has N blocks: [N]",
		"error": "FAIL structurize:error:internal: header N at N: blocks N",
		"hang":  "FAIL structurize:timeout",
	} {
		code, out, errs := runCmd([]string{"check", "--timeout", "2s", "--structurizer", misbehaveSpec(t, mode), "-"}, loop)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != exitFail || len(lines) != 2 || !strings.HasPrefix(lines[0], sig+" ") || !strings.HasPrefix(lines[1], "ok ") {
			t.Errorf("%s: exit %d, want a first line starting %q and an ok:\n%s%s", mode, code, sig, out, errs)
		}
	}
}

// TestExternalHistoryDependentFinding: a structurizer whose answers depend
// on the requests it served before (testdata/historystruct -after 3 plants
// a fault once it has served the first graph's three requests: the
// judgement and meta's determinism and renumbering re-runs, all a v1
// structurizer is asked) fails deep in a worker's graphs, and the
// minimizer's fresh process sees the graph pass. The finding stays, and
// the summary, report.json, report.md and report.html say it was not
// reproduced; its replay indeed passes.
func TestExternalHistoryDependentFinding(t *testing.T) {
	bin := builtProgram(t, "../../fuzz/testdata/historystruct")
	dir := t.TempDir()
	code, out, errs := runCmd([]string{"run", "--structurizer", "cmd:" + bin + " -after 3", "--graphs", "30", "--workers", "1", "--progress", "none", "--out", dir}, "")
	if code != exitFail {
		t.Fatalf("run exit %d, want %d:\n%s%s", code, exitFail, out, errs)
	}
	const want = "judged again by the minimizer, it passes (the first of 3 judgements, none failing with the signature)"
	if !strings.Contains(out, "not reproduced: "+want) {
		t.Errorf("the summary does not say the finding was not reproduced:\n%s", out)
	}
	rep := readCampaignReport(t, dir)
	if len(rep.Findings) != 1 || rep.Findings[0].NotReproduced != want || rep.Findings[0].Minimized != "" {
		t.Fatalf("findings %+v, want one not reproduced (%q) and not minimized", rep.Findings, want)
	}
	for file, text := range map[string]string{"report.md": "# not reproduced: " + want, "report.html": "Not reproduced</strong>: " + want} {
		if b, err := os.ReadFile(filepath.Join(dir, file)); err != nil || !strings.Contains(string(b), text) {
			t.Errorf("%s lacks %q (%v)", file, text, err)
		}
	}
	if code, out := shellReplay(t, dir, rep.Findings[0].Replay); code != exitOK {
		t.Errorf("the replay of a finding a fresh process does not reproduce: exit %d, want %d:\n%s", code, exitOK, out)
	}
}

// TestExternalFlakyFindings: a structurizer that plants a fault in half
// its answers by chance (testdata/flakystruct, its chance seeded so that
// the test sees the same requests answered the same way every time)
// fails graphs that the minimizer's rejudgements, on processes of their
// own, do not all fail. Every finding is reported; one whose judgements
// disagreed is marked flaky in the summary, report.json, report.md and
// report.html, the summary counts the flaky and not reproduced ones, and
// --save-regressions saves only the findings that reproduced.
func TestExternalFlakyFindings(t *testing.T) {
	bin := builtProgram(t, "../../fuzz/testdata/flakystruct")
	dir, regs := t.TempDir(), filepath.Join(t.TempDir(), "regs")
	code, out, errs := runCmd([]string{"run", "--structurizer", "cmd:" + bin + " -rate 0.5 -seed 1", "--graphs", "20", "--kinds", "reducible", "--workers", "1",
		"--progress", "none", "--out", dir, "--save-regressions", regs}, "")
	if code != exitFail {
		t.Fatalf("run exit %d, want %d:\n%s%s", code, exitFail, out, errs)
	}
	rep := readCampaignReport(t, dir)
	flaky, unreliable, reliable := 0, 0, 0
	for _, f := range rep.Findings {
		switch {
		case f.Flaky != "":
			flaky++
			unreliable++
			if !strings.Contains(out, "    flaky: "+f.Flaky+": the replays may pass") {
				t.Errorf("the summary does not say %s is flaky:\n%s", f.Signature, out)
			}
		case f.NotReproduced != "":
			unreliable++
		case f.Minimized != "":
			reliable++
		}
	}
	if flaky == 0 {
		t.Fatalf("no finding marked flaky: %+v\n%s", rep.Findings, out)
	}
	note := fuzz.ReproductionNote(rep)
	if !strings.Contains(out, "  "+note+"\n") || !strings.HasPrefix(note, fmt.Sprintf("%d flaky and %d not reproduced", flaky, unreliable-flaky)) {
		t.Errorf("the summary lacks the count %q:\n%s", note, out)
	}
	for file, text := range map[string]string{"report.md": "# flaky: ", "report.html": "Flaky</strong>: "} {
		if b, err := os.ReadFile(filepath.Join(dir, file)); err != nil || !strings.Contains(string(b), text) {
			t.Errorf("%s lacks %q (%v)", file, text, err)
		}
	}
	saved, _ := filepath.Glob(filepath.Join(regs, "*.cfg"))
	if len(saved) != reliable {
		t.Errorf("%d regression files saved, want %d (the findings that reproduced): %v", len(saved), reliable, saved)
	}
	if want := fmt.Sprintf("%d new finding", flaky); !strings.Contains(out, "; "+want) || !strings.Contains(out, "flaky (the minimizer's judgements disagreed), not saved") {
		t.Errorf("--save-regressions does not say why the flaky findings were not saved:\n%s", out)
	}
}

// TestMinimizeFlakyStructurizer: minimize on a structurizer that plants
// its fault by chance (seeded, so the same every time) writes the result,
// says the judgements disagreed and saves no regression (exit 1).
func TestMinimizeFlakyStructurizer(t *testing.T) {
	bin := builtProgram(t, "../../fuzz/testdata/flakystruct")
	regs := t.TempDir()
	code, out, errs := runCmd([]string{"minimize", "--structurizer", "cmd:" + bin + " -rate 0.5 -seed 6", "--signature", "exec:trace-mismatch",
		"--regressions", regs, "--save-regression", "flaky", "-"}, "{{1, 2}, {3}, {3}, {4, 1}, {}}\n")
	if code != exitFail || !strings.Contains(errs, "cfgfuzz minimize: flaky: the graph failed with exec:trace-mismatch in ") || !strings.Contains(out, "# compact: ") {
		t.Fatalf("minimize exit %d, want %d saying the judgements disagreed, with the result written:\n%s%s", code, exitFail, out, errs)
	}
	if saved, _ := filepath.Glob(filepath.Join(regs, "*.cfg")); len(saved) != 0 {
		t.Errorf("a flaky result saved as a regression: %v", saved)
	}
	// The exit status the help states for it: a flaky result may verify
	// (every judgement of the result failing, not every one of the graph).
	if _, out, errs := runCmd([]string{"minimize", "-h"}, ""); !strings.Contains(out+errs, "1 the result did not verify in every judgement, or the graph's judgements disagreed") {
		t.Errorf("minimize -h does not give exit 1 for judgements that disagreed:\n%s%s", out, errs)
	}
}

// shellReplay runs a printed replay command through sh -c in dir, with
// the built binary first on PATH as `cfgfuzz`.
func shellReplay(t *testing.T, dir, command string) (int, string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(cfgfuzzBinary(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	return code, string(out)
}

// TestExternalCampaignReplaysAndStore: a campaign on an external
// structurizer with a planted bug (drop-merge, a rules violation, and
// swap-arms, a wrong trace) finds it; every replay command of the report,
// run as printed through sh -c, fails with its finding's signature on the
// external structurizer; every findings-store entry names the spec, holds
// the external structurizer's answer and its module (not this tree's:
// `cfgfuzz lint` of module.spv reproduces a rules signature), its failing
// verdict, its stats, a replay command that reproduces it from the entry's
// directory, and a graph minimized to at most 8 blocks.
func TestExternalCampaignReplaysAndStore(t *testing.T) {
	for _, fault := range []string{"drop-merge", "swap-arms"} {
		spec := "cmd:" + cfgfuzzBinary(t) + " structurize --inject " + fault
		dir := t.TempDir()
		code, _, errs := runCmd([]string{"run", "--structurizer", spec, "--graphs", "24", "--kinds", "reducible", "--progress", "none", "--out", dir}, "")
		if code != exitFail {
			t.Fatalf("%s: run exit %d: %s", fault, code, errs)
		}
		rep := readCampaignReport(t, dir)
		if len(rep.Findings) == 0 {
			t.Fatalf("%s: no findings: %s", fault, errs)
		}
		for _, f := range rep.Findings {
			if !strings.Contains(f.Replay, fuzz.MustParseSpec(spec).Flag()) {
				t.Errorf("%s: replay %q does not name the structurizer", fault, f.Replay)
			}
			code, out := shellReplay(t, dir, f.Replay)
			if code != exitFail || !strings.Contains(out, "FAIL "+f.Signature+" ") {
				t.Errorf("%s: replay %q: exit %d, want FAIL %s:\n%s", fault, f.Replay, code, f.Signature, out)
			}
		}
		checkExternalStore(t, dir, spec)
	}
}

// checkExternalStore checks every entry of a campaign's findings store.
func checkExternalStore(t *testing.T, dir, spec string) {
	t.Helper()
	sigs, err := (&corpus.Store{Dir: dir}).List()
	if err != nil || len(sigs) == 0 {
		t.Fatalf("store: %v %v", sigs, err)
	}
	self, err := corpus.NewRunner(corpus.RunnerOptions{Checks: []string{"pdom"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sigs {
		for _, e := range s.Entries {
			var v corpus.Verdict
			b, err := os.ReadFile(filepath.Join(e, "verdict.json"))
			if err == nil {
				err = json.Unmarshal(b, &v)
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.Structurizer != spec || v.Stats == nil || oracle.Failed(v.Verdicts) == nil || oracle.Failed(v.Verdicts).Signature != s.Signature {
				t.Errorf("%s: verdict.json names %q, stats %v, failing verdict %+v; want %q and %s", e, v.Structurizer, v.Stats, oracle.Failed(v.Verdicts), spec, s.Signature)
			}
			var ans struct{ Outcome string }
			if b, err := os.ReadFile(filepath.Join(e, "answer.json")); err != nil || json.Unmarshal(b, &ans) != nil || ans.Outcome != "ok" {
				t.Errorf("%s: answer.json: %v %+v", e, err, ans)
			}
			mod, err := os.ReadFile(filepath.Join(e, "module.spv"))
			if err != nil {
				t.Fatal(err)
			}
			g, err := cfg.ParseCompact(v.Graph, cfg.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if ours := self.Run(g); bytes.Equal(ours.Module, mod) {
				t.Errorf("%s: module.spv is this tree's module, not the external structurizer's", e)
			}
			if rule, ok := strings.CutPrefix(s.Signature, "rules:"); ok {
				code, out, _ := runCmd([]string{"lint", "--json", filepath.Join(e, "module.spv")}, "")
				if code != exitFail || !strings.Contains(out, `"rule":"`+rule+`"`) {
					t.Errorf("%s: lint module.spv: exit %d, want a %s violation: %s", e, code, rule, out)
				}
			}
			if code, out := shellReplay(t, e, v.Replay); code != exitFail || !strings.Contains(out, "FAIL "+s.Signature+" ") {
				t.Errorf("%s: stored replay %q: exit %d:\n%s", e, v.Replay, code, out)
			}
			if v.Minimized != "" {
				if m, err := cfg.ParseCompact(v.Minimized, cfg.Limits{}); err != nil || m.Len() > 8 {
					t.Errorf("%s: minimized %q (%v)", e, v.Minimized, err)
				}
			}
		}
	}
}

// TestExternalHarnessFindingsMinimize: crash, panic, timeout and error
// findings of an external structurizer (misbehave.py, whose messages name
// addresses, pids, paths, blocks and counts that change with the graph)
// are minimized by the campaign to fewer blocks than their graph's and at
// most 8, under the signature
// the campaign gave them (one normalization table for both). The modes
// run side by side, and beside other tests (parallelTests): the hang's
// minimization waits out --timeout on every judgement of a graph that
// hangs.
func TestExternalHarnessFindingsMinimize(t *testing.T) {
	t.Parallel()
	for mode, prefix := range map[string]string{
		"crash": "structurize:crash:", "panic": "structurize:panic:", "hang": "structurize:timeout", "error": "structurize:error:",
	} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := []string{"run", "--structurizer", misbehaveSpec(t, mode), "--kinds", "nonterminating", "--graphs", "1", "--progress", "none", "--out", dir}
			if mode == "hang" {
				// The hang is an hour's sleep, the other answers take
				// milliseconds, and a restarted python3 and its server
				// start within --start-timeout's allowance (30 s) besides:
				// a second tells them apart, and each judgement of a graph
				// that hangs waits it out.
				args = append(args, "--timeout", "1s")
			}
			start := time.Now()
			code, _, errs := runCmd(args, "")
			t.Logf("campaign and minimization in %v", time.Since(start).Round(time.Millisecond))
			if code != exitFail {
				t.Fatalf("exit %d: %s", code, errs)
			}
			rep := readCampaignReport(t, dir)
			if len(rep.Findings) == 0 {
				t.Fatalf("no findings: %s", errs)
			}
			for _, f := range rep.Findings {
				g, err := cfg.ParseCompact(f.Minimized, cfg.Limits{})
				if err != nil {
					t.Fatalf("finding %s minimized to %q: %v", f.Signature, f.Minimized, err)
				}
				orig, err := cfg.ParseCompact(f.First.Graph, cfg.Limits{})
				if !strings.HasPrefix(f.Signature, prefix) || err != nil || g.Len() > 8 || g.Len() >= orig.Len() {
					t.Errorf("finding %s of %q minimized to %q (%v), want a %s finding smaller than its graph and of at most 8 blocks\n%s", f.Signature, f.First.Graph, f.Minimized, err, prefix, errs)
				}
			}
		})
	}
}
