// minimize_test.go: `cfgfuzz minimize` end to end: a failing graph under a
// planted fault is shrunk, written with its header, saved as a regression
// file that reads back, and stored in a findings store.
package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestMinimizeCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(in, []byte("{{1}, {2, 3}, {4}, {4}, {5, 1}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	regs, store := filepath.Join(dir, "regs"), filepath.Join(dir, "store")
	var out, errw bytes.Buffer
	code := run([]string{"minimize", in, "--inject", "swap-arms", "--save-regression", "swap", "--regressions", regs, "--store", store}, nil, &out, &errw)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	if !strings.Contains(out.String(), "# signature: exec:") {
		t.Errorf("output lacks the signature header:\n%s", out.String())
	}
	r, err := corpus.ReadRegression(filepath.Join(regs, "swap.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Header.Fault != "swap-arms" || r.Graph.Len() > 3 {
		t.Errorf("regression %+v: %v", r.Header, r.Graph)
	}
	sigs, err := (&corpus.Store{Dir: store}).List()
	if err != nil || len(sigs) != 1 || len(sigs[0].Entries) != 1 {
		t.Fatalf("store: %+v %v", sigs, err)
	}
	for _, f := range []string{"graph.cfg", "min.cfg", "verdict.json", "module.spv", "min.spv", "before.svg", "after.svg"} {
		if _, err := os.Stat(filepath.Join(sigs[0].Entries[0], f)); err != nil {
			t.Error(err)
		}
	}
	if code := run([]string{"minimize", in}, nil, &out, &errw); code != exitUsage {
		t.Errorf("a passing graph: exit %d, want %d", code, exitUsage)
	}
}

// TestMinimizeOutUnwritable: an --out in a directory that is not there is
// refused before the search, exit 2 naming the file; an --out that fails
// when written, after the search, puts the graph on standard output
// (TestMinimizeOutReplacedWhole).
func TestMinimizeOutUnwritable(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(in, []byte("{{1, 2}, {3}, {3}, {4, 1}, {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(dir, "missing", "min.cfg")
	var out, errw bytes.Buffer
	code := run([]string{"minimize", in, "--inject", "swap-arms", "--out", outFile}, nil, &out, &errw)
	if code != exitUsage || !strings.Contains(errw.String(), outFile) || strings.Contains(errw.String(), "blocks ->") {
		t.Errorf("exit %d, want 2 naming %s before any search\n%s", code, outFile, errw.String())
	}
}

// TestCampaignMinimizer runs a small campaign with swap-arms planted and
// the clean tree as baseline, minimized through campaignMinimizer: the new
// finding comes back minimized and stored.
func TestCampaignMinimizer(t *testing.T) {
	streams, err := streamsFor("reducible", "", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	c := fuzz.Config{Source: genSource{}, Workers: 1, Dir: dir,
		Settings: fuzz.Settings{Seed: 1, Graphs: 20, Streams: streams[:1], Strategy: "dispatch", Inject: []string{"swap-arms"}, Current: "in-process", Baseline: "in-process"},
		Current:  fuzz.InProcessFactory(), Baseline: fuzz.InProcessFactory()}
	var sides openSides
	defer sides.close()
	if err := campaignMinimizer(&c, &sides, minimizeBudget{timeout: DefaultMinimizeTimeout, steps: DefaultMinimizeSteps}, io.Discard); err != nil {
		t.Fatal(err)
	}
	out, err := fuzz.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Report.Findings) == 0 {
		t.Fatal("swap-arms not found")
	}
	for _, f := range out.Report.Findings {
		g, err := cfg.ParseCompact(f.Minimized, cfg.Limits{})
		if err != nil || g.Len() > 8 {
			t.Errorf("%s: minimized %q (%v)", f.Signature, f.Minimized, err)
		}
	}
	sigs, err := (&corpus.Store{Dir: dir}).List()
	if err != nil || len(sigs) == 0 {
		t.Errorf("store: %v %v", sigs, err)
	}
}

func TestStageCounts(t *testing.T) {
	if got := stageCounts(map[string]int{}); got != "none" {
		t.Errorf("no stage: %q", got)
	}
	if got := stageCounts(map[string]int{"split": 2, "drop-block": 5}); got != "drop-block 5, split 2" {
		t.Errorf("two stages: %q", got)
	}
}

// TestMinimizeChecksAreChecks: minimize judges with check's default checks
// (no gpu unless asked for with +gpu, whatever drivers the machine has), so
// the result is judged as its replay command (`cfgfuzz check`) judges it,
// and a large graph is not run on lavapipe at every step.
func TestMinimizeChecksAreChecks(t *testing.T) {
	for flag, want := range map[string][]string{
		"":     oracle.DefaultChecks,
		"+gpu": append(slices.Clone(oracle.DefaultChecks), "gpu"),
		"exec": {"exec"},
	} {
		if got := (minimizeFlags{checks: flag}).runnerOptions().Checks; !slices.Equal(got, want) {
			t.Errorf("--checks %q: minimize runs %v, want %v", flag, got, want)
		}
	}
}

// TestMinimizeProgress: without -v, minimize writes where its search
// stands once an interval from a ticker of its own, also while one
// judgement (a large graph through a slow structurizer) takes several
// intervals, and nothing after it ends.
func TestMinimizeProgress(t *testing.T) {
	var out lockedBuffer
	// lines waits until the ticker has written at least n lines (on a
	// loaded machine a tick may come late, never not at all).
	lines := func(n int) {
		for deadline := time.Now().Add(10 * time.Second); strings.Count(out.String(), "\n") < n; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("fewer than %d progress lines in 10 s:\n%s", n, out.String())
			}
		}
	}
	p := startMinimizeProgress(&out, "minimize: ", 10*time.Millisecond, corpus.Size{Blocks: 2000, Edges: 3230})
	lines(2) // the first judgement, still running
	p.update(1, corpus.Size{Blocks: 1001, Edges: 1609})
	lines(strings.Count(out.String(), "\n") + 2)
	p.end()
	p.end()
	got := out.String()
	time.Sleep(30 * time.Millisecond)
	if out.String() != got {
		t.Errorf("a line after end:\n%s", out.String())
	}
	printed := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	first := "minimize: 0s, judging the graph itself (2000 blocks, 3230 edges) before the search"
	last := "minimize: 0s, 1 judgement, now 1001 blocks, 1609 edges"
	if len(printed) < 4 || printed[0] != first || printed[len(printed)-1] != last {
		t.Errorf("progress lines:\n%s\nwant several, from %q to %q", got, first, last)
	}
	for _, l := range printed {
		if l != first && l != last {
			t.Errorf("progress line %q", l)
		}
	}
}

// TestMinimizeKeepsTheUnreachableBlockTheFailureNeeds: a structurizer
// process that fails on a graph only with its unreachable block
// (badstruct panics on 4 blocks: three reachable and one not) has the
// graph minimized as given: the result keeps 4 blocks, one unreachable.
func TestMinimizeKeepsTheUnreachableBlockTheFailureNeeds(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "g.cfg")
	if err := os.WriteFile(in, []byte("{{1, 2}, {2}, {}, {2}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := "cmd:" + builtProgram(t, "../../fuzz/testdata/badstruct")
	var out, errw bytes.Buffer
	if code := run([]string{"check", "--structurizer", spec, in}, nil, &out, &errw); code != exitFail || !strings.Contains(out.String(), "FAIL structurize:panic") {
		t.Fatalf("check: exit %d\n%s%s", code, out.String(), errw.String())
	}
	out.Reset()
	errw.Reset()
	minimized := filepath.Join(dir, "min.cfg")
	code := run([]string{"minimize", "--structurizer", spec, "--out", minimized, in}, nil, &out, &errw)
	if code != exitOK || !strings.Contains(errw.String(), "verified: true") {
		t.Fatalf("minimize: exit %d, want %d and a verified result\n%s%s", code, exitOK, out.String(), errw.String())
	}
	b, err := os.ReadFile(minimized)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := cfg.Parse(minimized, b, cfg.Limits{})
	if err != nil || len(gs) != 1 {
		t.Fatalf("minimized %q: %v", b, err)
	}
	if g := gs[0].Graph; g.Len() != 4 || !slices.Contains(g.Reachable(), false) {
		t.Errorf("minimized to %v, want 4 blocks, one unreachable", g)
	}
}

// TestMinimizeOutReplacedWhole: minimize --out replaces its file whole: a
// write that fails (its temporary file blocked; a full disk fails the
// same way) leaves the file as it was and puts the result on standard
// output; a write that succeeds leaves no temporary file behind.
func TestMinimizeOutReplacedWhole(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "g.cfg"), filepath.Join(dir, "min.cfg")
	os.WriteFile(in, []byte("{{1, 2}, {3}, {3}, {}}\n"), 0o644)
	os.WriteFile(out, []byte("PREVIOUS RESULT\n"), 0o644)
	block := out + ".tmp"
	os.MkdirAll(filepath.Join(block, "x"), 0o755)
	code, stdout, stderr := runCmd([]string{"minimize", "--inject", "swap-arms", "--out", out, in}, "")
	if code != exitUsage || !strings.Contains(stderr, "standard output instead") || !strings.Contains(stdout, "# compact: ") {
		t.Errorf("blocked --out: exit %d\n%s%s\nwant 2 and the result on standard output", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "PREVIOUS RESULT\n" {
		t.Errorf("the failed write changed %s: %q", out, b)
	}
	os.RemoveAll(block)
	if code, stdout, stderr := runCmd([]string{"minimize", "--inject", "swap-arms", "--out", out, in}, ""); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "# compact: ") {
		t.Errorf("%s after the write: %q", out, b)
	}
	if _, err := os.Stat(block); !os.IsNotExist(err) {
		t.Errorf("the write left %s: %v", block, err)
	}
	// Through a symbolic link, the file it names is replaced.
	link, target := filepath.Join(dir, "link.cfg"), filepath.Join(dir, "target.cfg")
	os.WriteFile(target, []byte("OLD\n"), 0o644)
	os.Symlink(target, link)
	if code, stdout, stderr := runCmd([]string{"minimize", "--inject", "swap-arms", "--out", link, in}, ""); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("--out through a link replaced the link: %v", err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "# compact: ") {
		t.Errorf("the link's target after the write: %q", b)
	}
}

// TestMinimizeSaysWhatIsWrongWithItsArguments: two files are refused with
// a line naming them after the usage; a file of several graphs notes
// which one is minimized.
func TestMinimizeSaysWhatIsWrongWithItsArguments(t *testing.T) {
	if code, _, stderr := runCmd([]string{"minimize", "a.cfg", "b.cfg"}, ""); code != exitUsage || !strings.HasSuffix(stderr, "want one GRAPH-FILE (- for standard input), got 2 a.cfg b.cfg\n") {
		t.Errorf("two files: exit %d, %q", code, stderr)
	}
	code, _, stderr := runCmd([]string{"minimize", "--inject", "swap-arms", "-"}, "{{1, 2}, {3}, {3}, {}}\n{{1}, {}}\n")
	if code != exitOK || !strings.Contains(stderr, "note: standard input holds 2 graphs; minimizing the first (--index N picks another)") {
		t.Errorf("two graphs: exit %d, %q", code, stderr)
	}
}

// TestMinimizeRefusesOutputsItCannotWriteFirst: outputs the search could
// not write are refused before it runs (no "minimize:" result line), each
// naming its flag; so is a run's --save-regressions that is a file.
func TestMinimizeRefusesOutputsItCannotWriteFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	regs := filepath.Join(dir, "regs")
	os.MkdirAll(regs, 0o755)
	os.WriteFile(filepath.Join(regs, "taken.cfg"), []byte("{{}}\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--save-regression", "a/b", "--regressions", regs}, `--save-regression: regression name "a/b"`},
		{[]string{"--save-regression", "taken", "--regressions", regs}, "--save-regression: " + filepath.Join(regs, "taken.cfg") + ": file already exists"},
		{[]string{"--save-regression", "x", "--regressions", file}, "--save-regression: regression directory " + file + ": " + file + " is a file"},
		{[]string{"--out", dir}, "--out " + dir + " is a directory"},
		{[]string{"--out", filepath.Join(dir, "none", "x.cfg")}, "is no directory that exists"},
		{[]string{"--store", file}, "--store " + file + ": " + file + " is a file"},
		{[]string{"--store", filepath.Join(file, "sub")}, ": " + file + " is a file"},
		{[]string{"--save-regression", ".hidden", "--regressions", regs}, "starting with a letter or digit"},
	} {
		code, _, stderr := runCmd(append(append([]string{"minimize", "--inject", "swap-arms"}, tc.args...), "-"), "{{1, 2}, {3}, {3}, {}}\n")
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "blocks ->") {
			t.Errorf("%q: exit %d, %q; want 2 and %q before any search", tc.args, code, stderr, tc.want)
		}
	}
	out := filepath.Join(dir, "c")
	if code, _, stderr := runCmd([]string{"run", "--graphs", "5", "--progress", "none", "--out", out, "--save-regressions", file}, ""); code != exitUsage || !strings.Contains(stderr, "is a file, not a directory") {
		t.Errorf("run --save-regressions FILE: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the refused run made %s", out)
	}
}

// TestMinimizeJudgeReplaysTimeouts: minimize's judge, as minimizeFile
// wires it (no --signature: the graph's first judgement decides it),
// gives a timeout finding a result that a replay judges a timeout. The
// structurizer here answers a graph of n blocks in n*700ms (reported, not
// slept) and not at all from 6 blocks on, so the search, which keeps
// graphs answered later than 2s, reaches 3 blocks, which `check` judges
// growth:time.
func TestMinimizeJudgeReplaysTimeouts(t *testing.T) {
	open := func() (*corpus.Runner, fuzz.Side, error) {
		side, err := fuzz.InProcessFactory().New()
		if err != nil {
			return nil, nil, err
		}
		answer := fuzz.SideStructurizer(side, proto.Options{}, time.Minute)
		run, err := corpus.NewRunner(corpus.RunnerOptions{Checks: []string{"growth"}, Structurize: func(g *cfg.Graph) corpus.Structurized {
			if g.Len() >= 6 {
				return corpus.Structurized{Failure: corpus.SigTimeout, Detail: "no answer within 10s"}
			}
			s := answer(g)
			s.Info.Duration = time.Duration(g.Len()) * 700 * time.Millisecond
			return s
		}})
		return run, side, err
	}
	judge, err := newBoundedJudge(time.Minute, "", open, (*corpus.Runner).PredicateFor)
	if err != nil {
		t.Fatal(err)
	}
	defer judge.close()
	g, err := cfg.ParseCompact("{{1}, {2, 3}, {4}, {4}, {5}, {6, 1}, {7}, {8, 9}, {9}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := corpus.Minimize(g, judge.predicate(), corpus.Options{Fresh: judge.fresh(), Replay: judge.replay()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Signature != corpus.SigTimeout || res.Graph.Len() != 6 || !res.Verified || res.Overshot == nil {
		t.Errorf("%s on %d blocks, verified %v, overshot %+v; want %s on 6 blocks, verified, past the search's smallest graph",
			res.Signature, res.Graph.Len(), res.Verified, res.Overshot, corpus.SigTimeout)
	}
	var out bytes.Buffer
	report(res, &out)
	if want := "minimize: the search's smallest graph, 3 blocks, gave growth:time, not structurize:timeout,"; !strings.Contains(out.String(), want) {
		t.Errorf("minimize's report does not say %q:\n%s", want, out.String())
	}
}

// TestMinimizeReportSaysAnInterruptedResultWasNotJudged: minimize's last
// line on a search a stop signal ended says the result was not verified
// because it was stopped, not "verified: false".
func TestMinimizeReportSaysAnInterruptedResultWasNotJudged(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res := &corpus.Result{Graph: g, Signature: "fake:bug", Stopped: corpus.StoppedByInterruption, Original: corpus.Tally{Judged: 3, Failed: 3}}
	var out bytes.Buffer
	report(res, &out)
	if s := out.String(); !strings.Contains(s, "minimize: not verified: the interruption stopped it before its result was judged") || strings.Contains(s, "verified: false") {
		t.Errorf("minimize's report:\n%s\nwant the result not verified because the interruption stopped it", s)
	}
}
