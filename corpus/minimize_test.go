// minimize_test.go: the minimizer against a reference (ddmin's 1-minimality
// on sets), against a fake predicate with two bugs (it must never drift
// from one to the other), and against every planted fault of the
// structurizer: a hunt over generated graphs finds it, the minimizer
// shrinks the finding to at most 8 blocks, and the result still fails the
// same way and passes without the fault. TestMinimizeThousandBlocks (flag
// -thousand) is the 1,000-block case.
package corpus

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var (
	thousand  = flag.Bool("thousand", false, "run the 1,000-block minimization (about a minute)")
	huntLimit = flag.Int("hunt", 300, "graphs generated per fault and strategy before the hunt gives up")
	refresh   = flag.Bool("refresh-fault-regressions", false, "rewrite testdata/regressions/fault-<fault>.cfg from this run's minimized findings")
)

func TestDdminOneMinimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 1 + rng.IntN(40)
		elems := make([]int, n)
		for i := range elems {
			elems[i] = i
		}
		need := map[int]bool{}
		for range 1 + rng.IntN(4) {
			need[rng.IntN(n)] = true
		}
		calls := 0
		got := ddmin(elems, func(keep []int) bool {
			calls++
			for x := range need {
				if !slices.Contains(keep, x) {
					return false
				}
			}
			return true
		}, func() bool { return false })
		if len(got) != len(need) {
			t.Fatalf("n=%d need %v: got %v after %d calls", n, need, got, calls)
		}
	}
}

// fakeBugs is a predicate with two bugs: "A" when some block is a
// conditional with distinct arms, "B" when there is a self-loop too.
func fakeBugs(g *cfg.Graph) (string, error) {
	cond, self := false, false
	for b, s := range g.Succs {
		if len(s) == 2 && s[0] != s[1] {
			cond = true
		}
		if slices.Contains(s, b) {
			self = true
		}
	}
	switch {
	case cond && self:
		return "fake:B", nil
	case cond:
		return "fake:A", nil
	}
	return "", nil
}

func TestMinimizeKeepsTheSignature(t *testing.T) {
	g := randomGraph(7, 60)
	g.Succs[5] = []int{5, 6}
	sig, _ := fakeBugs(g)
	if sig != "fake:B" {
		t.Fatalf("setup: %v gives %q", g, sig)
	}
	var others []string
	sawA := false
	pred := func(h *cfg.Graph) (string, error) {
		s, err := fakeBugs(h)
		sawA = sawA || s == "fake:A"
		return s, err
	}
	res, err := Minimize(g, pred, Options{OnOther: func(_ *cfg.Graph, s string) { others = append(others, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Signature != "fake:B" || !res.Verified {
		t.Fatalf("drifted: %+v", res)
	}
	if got, _ := fakeBugs(res.Graph); got != "fake:B" {
		t.Errorf("result %v gives %q", res.Graph, got)
	}
	if res.Graph.Len() > 3 {
		t.Errorf("result %v has %d blocks, want at most 3", res.Graph, res.Graph.Len())
	}
	if sawA != slices.Contains(others, "fake:A") {
		t.Errorf("other signatures %v, fake:A met %v: want it reported exactly when met", others, sawA)
	}
	t.Logf("%v -> %v in %d steps, %d cache hits, stages %v", res.Before, res.After, res.Steps, res.CacheHits, res.Stages)
}

// TestMinimizeKeepsReturning: a failure shown by any graph with a loop
// shrinks, from a graph that returns from every block and under a
// signature judged on walks, to a graph that still returns from every
// block (the smallest such loop: a block that loops or leaves), never to
// the smaller loop that never exits; under another signature, or from a
// graph that does not return everywhere, to that loop.
func TestMinimizeKeepsReturning(t *testing.T) {
	for _, c := range []struct {
		in, sig   string
		returning bool // the result returns from every block
		most      int  // blocks of the result
	}{
		{"{{1, 2}, {3}, {3}, {4, 1}, {5}, {}}", "exec:loop", true, 2},
		{"{{1, 2}, {3}, {3}, {4, 1}, {5}, {}}", "gpu:loop", true, 2},
		{"{{1, 2}, {3}, {3}, {4, 1}, {5}, {}}", "rules:loop", false, 1},
		{"{{1, 2}, {3}, {3}, {4, 1}, {4}, {}}", "exec:loop", false, 1},
	} {
		loops := func(h *cfg.Graph) (string, error) {
			for b, s := range h.Succs {
				for _, t := range s {
					if t <= b {
						return c.sig, nil
					}
				}
			}
			return "", nil
		}
		g, err := cfg.ParseCompact(c.in, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Minimize(g, loops, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Verified || res.Signature != c.sig {
			t.Fatalf("%s %s: %+v", c.in, c.sig, res)
		}
		if returnsEverywhere(res.Graph) != c.returning || res.Graph.Len() > c.most {
			t.Errorf("%s %s -> %v: returns from every block %v, want %v, in at most %d blocks", c.in, c.sig, res.Graph, returnsEverywhere(res.Graph), c.returning, c.most)
		}
	}
}

// TestMinimizeReportsProgress: Options.Progress hears of every judgement
// of the search, the steps counting up and the size never growing.
func TestMinimizeReportsProgress(t *testing.T) {
	g := randomGraph(7, 60)
	g.Succs[5] = []int{5, 6}
	var calls []int
	last := SizeOf(g)
	opt := Options{Progress: func(steps int, cur Size) {
		if last.Less(cur) {
			t.Errorf("step %d: size %+v after %+v", steps, cur, last)
		}
		calls, last = append(calls, steps), cur
	}}
	res, err := Minimize(g, fakeBugs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) == 0 || !slices.IsSorted(calls) || calls[len(calls)-1] > res.Steps {
		t.Errorf("progress steps %v, the search took %d", calls, res.Steps)
	}
	if last.Less(res.After) {
		t.Errorf("last progress size %+v is below the result's %+v", last, res.After)
	}
}

// TestMinimizeProgressEndsAtTheResult: the last Progress call names the
// result's size and every judgement made, the result's included, even
// when the search stops right after it accepted a candidate (the step
// limit here): a caller printing it must not show the size before that
// reduction while the result is judged.
func TestMinimizeProgressEndsAtTheResult(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1}, {2}, {3}, {4}, {5}, {6}, {7}, {}})
	always := func(*cfg.Graph) (string, error) { return "fake:A", nil }
	var steps int
	var size Size
	res, err := Minimize(g, always, Options{MaxSteps: DefaultRejudge + 1, Progress: func(n int, cur Size) { steps, size = n, cur }})
	if err != nil {
		t.Fatal(err)
	}
	if res.After.Blocks >= g.Len() || res.Stopped == "" {
		t.Fatalf("%d -> %d blocks, stopped %q: want one reduction and the step limit", g.Len(), res.After.Blocks, res.Stopped)
	}
	if size != res.After || steps != res.Steps {
		t.Errorf("last progress: %d judgements, %+v; want the result's %d judgements and %+v", steps, size, res.Steps, res.After)
	}
}

// TestMinimizeStopsWithItsContext: a search whose context is done stops
// at the next step and says it was interrupted.
func TestMinimizeStopsWithItsContext(t *testing.T) {
	g := randomGraph(7, 60)
	g.Succs[5] = []int{5, 6}
	ctx, cancel := context.WithCancel(context.Background())
	steps := 0
	pred := func(h *cfg.Graph) (string, error) {
		if steps++; steps == 3 {
			cancel()
		}
		return fakeBugs(h)
	}
	res, err := Minimize(g, pred, Options{Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != StoppedByInterruption || res.Steps != 3 || res.Verified {
		t.Errorf("stopped %q after %d steps (verified %v), want the interruption right after the third, nothing verified", res.Stopped, res.Steps, res.Verified)
	}
}

// TestMinimizeDeadlineSkipsTheResultsJudgements: past Options.Deadline
// (reached here during the search) no judgement of the result is made:
// each is counted as skipped, none guessed, and the result is not
// verified.
func TestMinimizeDeadlineSkipsTheResultsJudgements(t *testing.T) {
	g := randomGraph(7, 60)
	g.Succs[5] = []int{5, 6}
	res, err := Minimize(g, fakeBugs, Options{Deadline: time.Now().Add(-time.Second), Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unjudged != DefaultRejudge || res.Confirmed.Judged != 0 || res.Verified || res.Original.Judged != DefaultRejudge {
		t.Errorf("unjudged %d, confirmed %v, verified %v, original %v; want %d skipped, none made, not verified, the original judged every time",
			res.Unjudged, res.Confirmed, res.Verified, res.Original, DefaultRejudge)
	}
}

// TestMinimizeRefusesAPassingGraph: a graph that passes, or fails another
// way than the signature asked, is refused with ErrNotFailing and a
// message that says what the graph does.
func TestMinimizeRefusesAPassingGraph(t *testing.T) {
	passing, failingA := cfg.FromSuccs([][]int{{1}, {}}), cfg.FromSuccs([][]int{{1, 2}, {}, {}})
	for _, c := range []struct {
		g    *cfg.Graph
		sig  string
		want string
	}{
		{passing, "", "it passes (judged 3 times), so there is nothing to minimize"},
		{passing, "fake:B", `does not fail with "fake:B": it passes`},
		{failingA, "fake:B", `does not fail with "fake:B": it fails with "fake:A"`},
	} {
		_, err := Minimize(c.g, fakeBugs, Options{Signature: c.sig})
		if !errors.Is(err, ErrNotFailing) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v asked for %q: error %v, want ErrNotFailing saying %q", c.g, c.sig, err, c.want)
		}
	}
}

// TestMinimizeKeepsDeadBlocksTheFailureNeeds: a failure that needs a block
// no path from the entry reaches (a structurizer that crashes on dead
// code) is minimized, not refused: the graph is judged as given, and the
// result keeps a dead block; dead blocks the failure does not need go.
func TestMinimizeKeepsDeadBlocksTheFailureNeeds(t *testing.T) {
	dead := func(g *cfg.Graph) (string, error) {
		if slices.Contains(g.Reachable(), false) {
			return "fake:dead", nil
		}
		return "", nil
	}
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3, 1}, {}, {1, 5}, {4, 2}, {6}})
	res, err := Minimize(g, dead, Options{})
	if err != nil {
		t.Fatalf("Minimize(%v) under a predicate that needs dead code: %v", g, err)
	}
	if !res.Verified || res.Signature != "fake:dead" || !slices.Contains(res.Graph.Reachable(), false) || res.Graph.Len() > 2 || res.Before.Blocks != g.Len() {
		t.Errorf("minimized %v to %v (verified %v, signature %q, before %+v), want at most 2 blocks with a dead one", g, res.Graph, res.Verified, res.Signature, res.Before)
	}
	// A failure that needs no dead code (a live conditional): the dead
	// blocks go, like any block the failure does not need.
	liveCond := func(g *cfg.Graph) (string, error) {
		for b, r := range g.Reachable() {
			if r && len(g.Succs[b]) >= 2 {
				return "fake:live-conditional", nil
			}
		}
		return "", nil
	}
	res, err = Minimize(g, liveCond, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verified || slices.Contains(res.Graph.Reachable(), false) {
		t.Errorf("under a live conditional %v minimized to %v (verified %v), which keeps a dead block", g, res.Graph, res.Verified)
	}
}

func TestMinimizeBaselineMode(t *testing.T) {
	g := randomGraph(3, 40)
	g.Succs[2] = []int{2, 3}
	// The baseline has bug A too, so only B is new: every candidate must
	// keep both a conditional and a self-loop, and A alone never counts.
	res, err := Minimize(g, fakeBugs, Options{Signature: "fake:B", Baseline: func(h *cfg.Graph) (string, error) {
		s, err := fakeBugs(h)
		if s == "fake:B" {
			s = ""
		}
		return s, err
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := fakeBugs(res.Graph); s != "fake:B" || !res.Verified {
		t.Errorf("baseline mode result %v gives %q, verified %v", res.Graph, s, res.Verified)
	}
}

// randomGraph is a seeded graph of n blocks: a spine so every block is
// reachable, branches, conditionals and switches to random targets.
func randomGraph(seed uint64, n int) *cfg.Graph {
	rng := rand.New(rand.NewPCG(seed, 99))
	g := cfg.New(n)
	for b := range n {
		next := b + 1
		if next == n {
			g.Succs[b] = nil
			continue
		}
		switch k := rng.IntN(10); {
		case k < 4:
			g.Succs[b] = []int{next}
		case k < 8:
			g.Succs[b] = []int{next, rng.IntN(n)}
		case k < 9:
			g.Succs[b] = []int{rng.IntN(n), next, rng.IntN(n)}
		default:
			g.Succs[b] = []int{next, rng.IntN(n), rng.IntN(n), rng.IntN(n)}
		}
		if rng.IntN(5) == 0 {
			g.Weights[b] = 16
		}
	}
	return g
}

// hunt generates graphs until one fails under the fault and passes on the
// clean runner; it returns the graph, where it came from and the signature.
func hunt(t *testing.T, run, clean *Runner, limit int) (*cfg.Graph, string, string) {
	kinds := []gen.Kind{gen.Reducible, gen.Program, gen.Irreducible, gen.NonTerminating}
	for i := range limit {
		k := kinds[i%len(kinds)]
		c := gen.Config{Kind: k, MinBlocks: 5, MaxBlocks: 40}
		it, err := gen.Generate(c, gen.SeedFor(k, 1, i/len(kinds)))
		if err != nil {
			continue
		}
		if out, ok := run.Run(it.Graph), clean.Run(it.Graph); out.Failed() && !ok.Failed() && ok.Err == nil {
			return it.Graph, fmt.Sprintf("gen %s seed %d (graph %d of the hunt)", k, it.Seed, i), out.Signature
		}
	}
	return nil, "", ""
}

// faultStrategies are the strategies a fault is hunted under: the default
// first.
func faultStrategies() []string {
	s := []string{structurizer.DefaultStrategy}
	for _, x := range structurizer.Strategies() {
		if x != structurizer.DefaultStrategy {
			s = append(s, x)
		}
	}
	return s
}

// TestMinimizeRetargets: under the drop-merge fault a conditional whose
// arms both return fails rules:R12; no stage but retarget shrinks it (an
// arm dropped or a block dropped leaves no conditional), and retarget
// points one arm at the other's block.
func TestMinimizeRetargets(t *testing.T) {
	run := newTestRunner(t, structurizer.Options{Inject: []string{"drop-merge"}})
	g := compact(t, "{{1, 2}, {}, {}}")
	var without []Stage
	for _, st := range DefaultStages {
		if st.Name != StageRetarget.Name {
			without = append(without, st)
		}
	}
	before, err := Minimize(g, run.Predicate(), Options{Stages: without})
	if err != nil {
		t.Fatal(err)
	}
	after, err := Minimize(g, run.Predicate(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if before.Signature != "rules:R12" || before.After.Blocks != 3 {
		t.Fatalf("without retarget: %v %s; want the graph itself, rules:R12", before.Graph, before.Signature)
	}
	if got := cfg.FormatCompact(after.Graph); got != "{{1, 1}, {}}" || after.Signature != "rules:R12" || !after.Verified {
		t.Errorf("with retarget: %s %s verified %v; want {{1, 1}, {}} rules:R12 verified", got, after.Signature, after.Verified)
	}
}

func TestMinimizeEveryFault(t *testing.T) {
	if testing.Short() {
		t.Skip("hunts every fault")
	}
	for _, fault := range structurizer.FaultNames() {
		t.Run(fault, func(t *testing.T) { huntAndMinimize(t, fault) })
	}
}

func huntAndMinimize(t *testing.T, fault string) {
	for _, strat := range faultStrategies() {
		checks := passingChecks(t, strat)
		faulty, err := NewRunner(RunnerOptions{Structurizer: structurizer.Options{Strategy: strat, Inject: []string{fault}}, Checks: checks})
		if err != nil {
			t.Fatal(err)
		}
		cleanRun, err := NewRunner(RunnerOptions{Structurizer: structurizer.Options{Strategy: strat}, Checks: checks})
		if err != nil {
			t.Fatal(err)
		}
		g, origin, sig := hunt(t, faulty, cleanRun, *huntLimit)
		if g == nil {
			t.Logf("strategy %s: no failure in %d graphs", strat, *huntLimit)
			continue
		}
		start := time.Now()
		res, err := Minimize(g, faulty.Predicate(), Options{Timeout: 60 * time.Second, Baseline: cleanRun.Predicate()})
		if err != nil {
			t.Fatalf("strategy %s, %s: %v", strat, origin, err)
		}
		clean := cleanRun.Run(res.Graph)
		t.Logf("fault %s strategy %s: %s, %s: %d blocks -> %d blocks (%d edges) in %v, %d steps, %d cache hits: %v",
			fault, strat, origin, sig, res.Before.Blocks, res.After.Blocks, res.After.Edges, time.Since(start).Round(time.Millisecond), res.Steps, res.CacheHits, res.Graph)
		switch {
		case !res.Verified || res.Signature != sig:
			t.Errorf("result not verified with %s: %+v", sig, res)
		case res.After.Blocks > 8:
			t.Errorf("result has %d blocks, want at most 8", res.After.Blocks)
		case clean.Failed() || clean.Err != nil:
			t.Errorf("result fails without the fault: %s %v", clean.Signature, clean.Err)
		case *refresh:
			refreshRegression(t, fault, strat, origin, res)
		}
		return
	}
	t.Errorf("no strategy of %v fails under %s in %d graphs each", faultStrategies(), fault, *huntLimit)
}

// refreshRegression rewrites the fault's regression file when it is
// missing or stale (no longer fails under its fault).
func refreshRegression(t *testing.T, fault, strat, origin string, res *Result) {
	name := "fault-" + fault
	path := filepath.Join(regressionDir, name+".cfg")
	if old, err := ReadRegression(path); err == nil {
		run := newTestRunner(t, structurizer.Options{Strategy: old.Header.Strategy, Inject: old.Header.Faults()})
		if run.Run(old.Graph).Signature == old.Header.Signature {
			t.Logf("%s still fails under its fault; kept", path)
			return
		}
	}
	os.Remove(path)
	h := Header{Signature: res.Signature, Fault: fault, Strategy: strat, Date: time.Now().UTC().Format("2006-01-02"),
		Origin: "go test ./corpus -run TestMinimizeEveryFault -refresh-fault-regressions: " + origin + ", minimized in baseline mode (the clean tree passes it)"}
	p, err := WriteRegression(regressionDir, name, h, res.Graph)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", p)
}

// passingChecks are the checks the clean strategy passes on the
// regression suite; the others are logged as the strategy's known
// failures and left out of fault hunts.
func passingChecks(t *testing.T, strategy string) []string {
	var graphs []*cfg.Graph
	for _, r := range loadSuite(t) {
		graphs = append(graphs, r.Graph)
	}
	pass, fail, err := PassingChecks(structurizer.Options{Strategy: strategy}, graphs)
	if err != nil {
		t.Fatal(err)
	}
	if len(fail) > 0 {
		t.Logf("strategy %s fails %v on the regression suite without any fault; hunting with %v", strategy, fail, pass)
	}
	return pass
}

func TestMinimizeThousandBlocks(t *testing.T) {
	if !*thousand {
		t.Skip("run with -thousand")
	}
	cases := []struct{ strategy, fault string }{
		{"dispatch", "swap-arms"},
		{"structured", "route-not-cleared"},
		{"structured", "swap-arms"},
	}
	for _, c := range cases {
		t.Run(c.strategy+"/"+c.fault, func(t *testing.T) { minimizeThousand(t, c.strategy, c.fault) })
	}
}

// minimizeThousand minimizes a 1,000-block graph that fails under the
// fault (and passes without it on the checks the clean strategy passes) in
// baseline mode against the clean strategy.
func minimizeThousand(t *testing.T, strategy, fault string) {
	if !slices.Contains(structurizer.Strategies(), strategy) {
		t.Skipf("strategy %s not built", strategy)
	}
	checks := passingChecks(t, strategy)
	faulty, err := NewRunner(RunnerOptions{Structurizer: structurizer.Options{Strategy: strategy, Inject: []string{fault}}, Checks: checks})
	if err != nil {
		t.Fatal(err)
	}
	clean, err := NewRunner(RunnerOptions{Structurizer: structurizer.Options{Strategy: strategy}, Checks: checks})
	if err != nil {
		t.Fatal(err)
	}
	var g *cfg.Graph
	for seed := uint64(1000); seed < 1010 && g == nil; seed++ {
		c := randomGraph(seed, 1000)
		if faulty.Run(c).Failed() && !clean.Run(c).Failed() {
			g = c
		}
	}
	if g == nil {
		t.Skipf("no 1,000-block graph of seeds 1000-1009 fails under %s and passes without it", fault)
	}
	start := time.Now()
	res, err := Minimize(g, faulty.Predicate(), Options{Timeout: 60 * time.Second, Baseline: clean.Predicate()})
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	t.Logf("1,000 blocks, %s, %s, %s: %v -> %v in %v, %d steps, %d cache hits, stopped %q, stages %v: %v",
		strategy, fault, res.Signature, res.Before, res.After, el.Round(time.Millisecond), res.Steps, res.CacheHits, res.Stopped, res.Stages, res.Graph)
	if el > 60*time.Second || res.After.Blocks > 12 || !res.Verified {
		t.Errorf("want at most 12 blocks in at most 60 s, verified; got %d blocks in %v, verified %v", res.After.Blocks, el, res.Verified)
	}
}

func TestMinimizeLimits(t *testing.T) {
	g := randomGraph(11, 200)
	g.Succs[7] = []int{7, 8}
	res, err := Minimize(g, fakeBugs, Options{MaxSteps: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Stopped, "step limit") || !res.Verified || res.Steps > 5+DefaultRejudge {
		t.Errorf("step limit: stopped %q, verified %v, %d steps", res.Stopped, res.Verified, res.Steps)
	}
	if s, _ := fakeBugs(res.Graph); s != "fake:B" {
		t.Errorf("result under the step limit gives %q", s)
	}
	slow := func(h *cfg.Graph) (string, error) { time.Sleep(20 * time.Millisecond); return fakeBugs(h) }
	res, err = Minimize(g, slow, Options{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Stopped, "time limit") || !res.Verified {
		t.Errorf("time limit: stopped %q, verified %v", res.Stopped, res.Verified)
	}
	// The time limit is the search's: a first judgement slower than the
	// whole limit leaves it all to the candidates.
	first := true
	slowFirst := func(h *cfg.Graph) (string, error) {
		if first {
			first = false
			time.Sleep(120 * time.Millisecond)
		}
		return fakeBugs(h)
	}
	res, err = Minimize(g, slowFirst, Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Steps < 10 || !res.After.Less(res.Before) {
		t.Errorf("a slow first judgement took the search's time: %d steps, %v -> %v, stopped %q", res.Steps, res.Before, res.After, res.Stopped)
	}
}

func TestMinimizeIsomorphicCache(t *testing.T) {
	g := randomGraph(9, 80)
	g.Succs[4] = []int{4, 5}
	plain, err := Minimize(g, fakeBugs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	iso, err := Minimize(g, fakeBugs, Options{IsomorphicCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if !iso.Verified || iso.After.Blocks > plain.After.Blocks || iso.Steps > plain.Steps {
		t.Errorf("isomorphic cache: %v in %d steps, plain %v in %d steps, verified %v", iso.After, iso.Steps, plain.After, plain.Steps, iso.Verified)
	}
}

func TestMinimizeHalvesWeights(t *testing.T) {
	g := randomGraph(21, 30)
	for b := range g.Weights {
		g.Weights[b] = 1000
	}
	heavy := func(h *cfg.Graph) (string, error) {
		if h.TotalWeight() >= 300 {
			return "fake:heavy", nil
		}
		return "", nil
	}
	res, err := Minimize(g, heavy, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.After.Blocks != 1 || res.After.Words >= 600 || !res.Verified {
		t.Errorf("got %v (%v), want one block under 600 words", res.After, res.Graph.Weights)
	}
}

// TestHookSaysWhenItStoppedEarly: the campaign's minimizer logs a search
// that a limit ended before the fixpoint (its result is what a faster or
// longer run shrinks further) and returns a *StoppedEarly naming the limit
// beside the graph, and does neither at the fixpoint.
func TestHookSaysWhenItStoppedEarly(t *testing.T) {
	g := compact(t, "{{1, 2}, {3}, {3}, {4, 1}, {}}")
	for _, c := range []struct {
		steps int
		want  string
	}{{3, "; the search stopped early by the step limit (3)"}, {0, ""}} {
		var log strings.Builder
		hook, err := MinimizeHook(HookOptions{Runner: RunnerOptions{Structurizer: structurizer.Options{Inject: []string{"swap-arms"}}},
			Minimize: Options{MaxSteps: c.steps}, Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		m, err := hook(g, "exec:trace-mismatch", BaselineAnswer{})
		var se *StoppedEarly
		if m == nil || c.want == "" && err != nil || c.want != "" && (!errors.As(err, &se) || se.Limit != "step limit (3)") {
			t.Fatalf("max steps %d: %v, %v: want the graph, with *StoppedEarly only when a limit stopped the search", c.steps, m, err)
		}
		if got := log.String(); c.want != "" && !strings.Contains(got, c.want) || c.want == "" && strings.Contains(got, "stopped") {
			t.Errorf("max steps %d: logged %q, want %q", c.steps, got, cmp.Or(c.want, "no stop"))
		}
	}
}

// TestHookSplitsItsTime: a search a time limit ended logs its time split
// between the search, which the limit bounds, and the judgements of the
// graph and of its result around it, which it does not, so that a total
// far past the limit does not read as the limit broken.
func TestHookSplitsItsTime(t *testing.T) {
	g := compact(t, "{{1, 2}, {3}, {3}, {4, 1}, {}}")
	const judgement = 100 * time.Millisecond
	slow := func(*cfg.Graph) (string, error) {
		time.Sleep(judgement)
		return "fake:slow", nil
	}
	var log strings.Builder
	hook, err := MinimizeHook(HookOptions{Predicate: slow, Minimize: Options{Timeout: judgement / 2}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := hook(g, "fake:slow", BaselineAnswer{}); m == nil {
		t.Fatalf("no graph; log %q", log.String())
	}
	line := log.String()
	var search, around time.Duration
	i := strings.Index(line, "(the search ")
	if i >= 0 {
		var s, a string
		if _, err := fmt.Sscanf(strings.ReplaceAll(line[i:], ",", " "), "(the search %s the 6 judgements of the graph and of its result around it %s", &s, &a); err == nil {
			search, _ = time.ParseDuration(s)
			around, _ = time.ParseDuration(strings.TrimSuffix(a, ")"))
		}
	}
	if search < judgement || search > 3*judgement || around < 6*judgement ||
		!strings.Contains(line, "verified true; the search stopped early by the time limit (50ms), not at the fixpoint") {
		t.Errorf("logged %q (search %v, around it %v): want the search's time (one candidate, %v) apart from the 6 judgements' around it (%v each), and the time limit said to have stopped the search", line, search, around, judgement, judgement)
	}
}

// TestHookSaysAnInterruptedResultWasNotJudged: a search an interruption
// stops makes no judgement of its result, and its log line says it was
// not verified because it was stopped, not "verified false", which reads
// as a result that does not fail.
func TestHookSaysAnInterruptedResultWasNotJudged(t *testing.T) {
	g := randomGraph(7, 60)
	g.Succs[5] = []int{5, 6}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	steps := 0
	pred := func(h *cfg.Graph) (string, error) {
		if steps++; steps == 5 {
			cancel()
		}
		return fakeBugs(h)
	}
	sig, err := fakeBugs(g)
	if err != nil || sig == "" {
		t.Fatalf("the graph gives %q, %v; want a fake bug", sig, err)
	}
	var log strings.Builder
	hook, err := MinimizeHook(HookOptions{Predicate: pred, Minimize: Options{Context: ctx}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	hook(g, sig, BaselineAnswer{})
	line := log.String()
	if !strings.Contains(line, "not verified: the interruption stopped it before its result was judged") || strings.Contains(line, "verified false") {
		t.Errorf("logged %q: want the result not verified because the interruption stopped it", line)
	}
}
