// regress_test.go: the regression suite. Every file of
// testdata/regressions is replayed through every oracle check with no
// fault planted (it must pass), and every file found under a fault is
// replayed with that fault planted (it must fail with its signature), which
// shows the suite would catch the bug coming back.
package corpus

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

var allStrategies = flag.Bool("all-strategies", false, "replay the regressions under every strategy, not only the default and the file's own")

const regressionDir = "testdata/regressions"

func loadSuite(t *testing.T) []*Regression {
	t.Helper()
	rs, err := LoadRegressions(regressionDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 {
		t.Fatalf("no regressions in %s", regressionDir)
	}
	return rs
}

func newTestRunner(t testing.TB, sopt structurizer.Options) *Runner {
	t.Helper()
	return newSuiteRunner(t, sopt, Header{})
}

// newSuiteRunner is newTestRunner under a register file of registers
// values (a regression's # registers:).
func newSuiteRunner(t testing.TB, sopt structurizer.Options, h Header) *Runner {
	t.Helper()
	o := RunnerOptions{Structurizer: sopt}
	o.Oracle.Walks.Registers = h.Registers
	if h.Walks != nil {
		w := CampaignOracle(Judging{Walks: h.Walks.Random, Seed: h.Walks.Seed})
		o.Oracle.Walks.Random, o.Oracle.Walks.Seed, o.Oracle.Seed = w.Walks.Random, w.Walks.Seed, w.Seed
	}
	o.Oracle.Env, o.Oracle.RulesCompat = h.Env(), h.RulesCompat
	o.Oracle.Growth.TimeLimit = h.GrowthTime
	r, err := NewRunner(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// replayStrategies are the strategies a regression is replayed under.
func replayStrategies(r *Regression) []string {
	if *allStrategies {
		return structurizer.Strategies()
	}
	s := []string{""}
	if r.Header.Strategy != "" && r.Header.Strategy != structurizer.DefaultStrategy {
		s = append(s, r.Header.Strategy)
	}
	return s
}

func TestRegressionsPass(t *testing.T) {
	t.Logf("checks: %v", newTestRunner(t, structurizer.Options{}).Oracle.Checks())
	for _, r := range loadSuite(t) {
		for _, strat := range replayStrategies(r) {
			if !slices.Contains(append(structurizer.Strategies(), ""), strat) {
				t.Logf("%s: strategy %q not built, skipped", r.Name, strat)
				continue
			}
			run := newSuiteRunner(t, structurizer.Options{Strategy: strat}, r.Header)
			out := run.Run(r.Graph)
			if out.Err != nil {
				t.Errorf("%s (strategy %q): %v", r.Path, strat, out.Err)
			} else if out.Failed() {
				t.Errorf("%s (strategy %q): fails with %s, want every check to pass (checks %v)", r.Path, strat, out.Signature, run.Oracle.Checks())
			}
		}
	}
}

// TestRegressionsFailUnderTheirFault replays every regression found under
// a fault with that fault planted. A regression of the dispatch strategy
// (the reference layout, which does not change) must fail with its
// signature. One of another strategy that no longer fails is reported as
// stale rather than failed: the strategy's layout moved so the fault no
// longer reaches this graph, and the file should be re-minimized from a
// fresh hunt; at least one file must still show its fault.
func TestRegressionsFailUnderTheirFault(t *testing.T) {
	shown := 0
	for _, r := range loadSuite(t) {
		faults := r.Header.Faults()
		if len(faults) == 0 {
			continue
		}
		if missing := unknownFaults(faults); missing != nil {
			t.Logf("%s: fault %v not built here, skipped", r.Name, missing)
			continue
		}
		run := newSuiteRunner(t, structurizer.Options{Strategy: r.Header.Strategy, Inject: faults}, r.Header)
		out := run.Run(r.Graph)
		switch {
		case out.Signature == r.Header.Signature:
			shown++
		case r.Header.Strategy == "dispatch":
			t.Errorf("%s: under %v gives %q (err %v), want %q", r.Path, faults, out.Signature, out.Err, r.Header.Signature)
		default:
			t.Logf("%s: stale: under %v gives %q (err %v), not %q; re-minimize it from a fresh hunt", r.Path, faults, out.Signature, out.Err, r.Header.Signature)
		}
	}
	if shown == 0 {
		t.Fatal("no regression fails under its fault; the suite shows nothing")
	}
}

func unknownFaults(fs []string) []string {
	var out []string
	for _, f := range fs {
		if _, ok := structurizer.Faults[f]; !ok {
			out = append(out, f)
		}
	}
	return out
}

func TestRegressionFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	r := loadSuite(t)[0]
	h := Header{Signature: "exec:trace-mismatch", Fault: "swap-arms", Registers: 64, TargetEnv: "vulkan1.3", RulesCompat: oracle.CompatSPIRVTools2023,
		Walks: &Walks{Random: 0, Seed: 20261205}, CheckTimeout: 5 * time.Minute, GrowthTime: 30 * time.Second, Origin: "test", Date: "2026-11-29", Notes: []string{"a note"}}
	path, err := WriteRegression(dir, "x", h, r.Graph)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadRegression(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Graph.Equal(r.Graph) && Key(back.Graph) != Key(r.Graph) {
		t.Errorf("graph %v read back as %v", r.Graph, back.Graph)
	}
	if back.Header.Signature != h.Signature || back.Header.Fault != h.Fault || back.Header.Registers != h.Registers || back.Header.TargetEnv != h.TargetEnv ||
		back.Header.RulesCompat != h.RulesCompat || back.Header.Walks == nil || *back.Header.Walks != *h.Walks || back.Header.Date != h.Date || back.Name != "x" ||
		back.Header.CheckTimeout != h.CheckTimeout || back.Header.GrowthTime != h.GrowthTime {
		t.Errorf("header %+v read back as %+v", h, back.Header)
	}
	if _, err := WriteRegression(dir, "x", h, r.Graph); err == nil {
		t.Error("WriteRegression overwrote an existing file")
	}
	for _, bad := range []string{"# signature: none\n# rules-compat: spirv-tools-1999\n{{1}, {}}\n", "# signature: none\n# target-env:\n{{1}, {}}\n",
		"# signature: none\n# walks: 16\n{{1}, {}}\n", "# signature: none\n# walks: -1 seed 3\n{{1}, {}}\n", "# signature: none\n# walks: 16 seed 3 more\n{{1}, {}}\n",
		"# signature: none\n# growth-time: 0s\n{{1}, {}}\n", "# signature: none\n# growth-time: slow\n{{1}, {}}\n"} {
		if _, err := ParseRegression("bad.cfg", []byte(bad)); err == nil {
			t.Errorf("%q parses", bad)
		}
	}
	if d, err := ParseRegression("d.cfg", []byte("# signature: none\n# target-env: vulkan1.1\n{{1}, {}}\n")); err != nil || d.Header.Env() != oracle.DefaultTargetEnv || strings.Contains(d.Header.Format(), "target-env") {
		t.Errorf("the default target environment: %v, header %q", err, d.Header.Format())
	}
	if _, err := WriteRegression(dir, filepath.Join("..", "y"), h, r.Graph); err == nil {
		t.Error("WriteRegression accepted a path as a name")
	}
}

func TestRunnerContainsPanicsAndTimeouts(t *testing.T) {
	if got := PanicSignature("index out of range [5] with length 3\ngoroutine 7"); got != "structurize:panic:index out of range [N] with length N" {
		t.Errorf("PanicSignature: %q", got)
	}
	r := newTestRunner(t, structurizer.Options{Strategy: "dispatch"})
	r.Timeout = time.Nanosecond
	big := loadSuite(t)[0].Graph
	if o := r.Run(big); o.Signature != SigTimeout && o.Failed() {
		t.Errorf("a 1 ns limit gave %q", o.Signature)
	}
	r.Timeout = time.Minute
	if o := r.Run(big); o.Failed() || o.Err != nil {
		t.Errorf("after a timeout the runner gives %q %v", o.Signature, o.Err)
	}
}
