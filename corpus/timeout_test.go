// timeout_test.go: a timeout finding of a structurizer whose time grows
// with the graph minimizes past the graphs that still answer, late: with
// the plain predicate the search stops at the smallest graph that gets no
// answer at all; with PredicateFor it goes on while candidates still take
// longer than the slow bound, and stops at the first that answers in time.
package corpus

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// slowStructurizer answers a graph of n blocks in n*700ms (reported, not
// slept) and not at all from 6 blocks on.
func slowStructurizer(g *cfg.Graph) Structurized {
	if g.Len() >= 6 {
		return Structurized{Failure: SigTimeout, Detail: "no answer within 10s"}
	}
	return inProcess(g, structurizer.Options{}, time.Duration(g.Len())*700*time.Millisecond)
}

// inProcess is this tree's structurizer on g as a seam's answer, taking
// the time given.
func inProcess(g *cfg.Graph, opt structurizer.Options, took time.Duration) Structurized {
	res, err := structurizer.Structurize(g, opt)
	if err != nil {
		return Structurized{Err: err}
	}
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		return Structurized{Err: err}
	}
	st := res.Stats
	return Structurized{Module: mod, Stats: &st, Info: infoOf(st, took)}
}

func TestTimeoutMinimizesPastSlowAnswers(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {2, 3}, {4}, {4}, {5}, {6, 1}, {7}, {8, 9}, {9}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	run, err := NewRunner(RunnerOptions{Structurize: slowStructurizer, Checks: []string{"growth"}})
	if err != nil {
		t.Fatal(err)
	}
	if b := run.SlowBound(); b != 2*time.Second {
		t.Fatalf("slow bound %v, want 2s", b)
	}
	plain, err := Minimize(g, run.Predicate(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	slow, err := Minimize(g, run.PredicateFor(""), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Signature != SigTimeout || plain.Graph.Len() != 6 {
		t.Errorf("plain predicate: %s on %d blocks, want %s on 6", plain.Signature, plain.Graph.Len(), SigTimeout)
	}
	if slow.Signature != SigTimeout || slow.Graph.Len() != 3 || !slow.Verified {
		t.Errorf("timeout predicate: %s on %d blocks (verified %v), want %s on 3 (3 x 700ms > 2s)", slow.Signature, slow.Graph.Len(), slow.Verified, SigTimeout)
	}
	if _, ok := slow.Others["growth:time"]; !ok {
		t.Errorf("the 2-block candidates (1.4s, growth:time) were not met as another signature: %v", slow.Others)
	}
}

// infoOf describes a structurization as Runner.structurize does.
func infoOf(st structurizer.Stats, took time.Duration) oracle.ResultInfo {
	return oracle.ResultInfo{Strategy: st.Strategy, BlocksIn: st.BlocksIn, BlocksOut: st.BlocksOut, WordsIn: st.WordsIn,
		WordsOut: st.WordsOut, Synthetic: st.Synthetic, Duration: took, Idempotent: st.Strategy != "dispatch"}
}

// A candidate of a timeout finding that answers late is decided by its
// time alone: two structurizer calls (the fastest of two runs), not two
// whole judgements, each of which calls the structurizer again for the
// meta check's re-runs and the growth check's re-timing. On a large graph
// through a slow external structurizer that is the difference between
// seconds and minutes per candidate.
func TestTimeoutCandidateCostsTwoCalls(t *testing.T) {
	calls := 0
	seam := func(g *cfg.Graph) Structurized {
		calls++
		return slowStructurizer(g)
	}
	run, err := NewRunner(RunnerOptions{Structurize: seam, Checks: []string{"growth", "meta", "exec"}})
	if err != nil {
		t.Fatal(err)
	}
	pred := run.PredicateFor(SigTimeout)
	for _, c := range []struct {
		graph    string
		sig      string
		maxCalls int
	}{
		{"{{1}, {2}, {3}, {4}, {5}, {}}", SigTimeout, 1},               // no answer: one call
		{"{{1}, {2, 3}, {}, {}}", SigTimeout, 2},                       // 4 x 700ms, late twice
		{"{{1}, {}}", "growth:" + oracle.SigGrowthTime, 1 + 2 + 2 + 2}, // 1.4s: judged whole
	} {
		g, err := cfg.ParseCompact(c.graph, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		calls = 0
		sig, err := pred(g)
		if err != nil || sig != c.sig {
			t.Errorf("%s: %q (%v), want %q", c.graph, sig, err, c.sig)
		}
		if calls > c.maxCalls {
			t.Errorf("%s: %d structurizer calls, want at most %d", c.graph, calls, c.maxCalls)
		}
	}
}

// hangsFrom is a structurizer that answers a graph of n blocks in
// n*700ms (reported, not slept), and not at all from hangs blocks on.
func hangsFrom(hangs int) StructurizeFunc {
	return func(g *cfg.Graph) Structurized {
		if g.Len() >= hangs {
			return Structurized{Failure: SigTimeout, Detail: "no answer within 10s"}
		}
		return inProcess(g, structurizer.Options{}, time.Duration(g.Len())*700*time.Millisecond)
	}
}

// A timeout finding's search keeps graphs answered late, within the time
// limit, which a replay command judges by their answer (growth:time here).
// Judged as its replay judges it, the search's smallest graph (3 blocks,
// answered in 2.1s) is not a timeout: the search goes back to the smallest
// graph it had accepted that is (5 blocks, with no answer from 5 blocks
// on), or, with no answer only from 6 blocks on, to the original (its
// path went from 10 blocks to 5) and from there on judging candidates as
// a replay does, to a graph of 6 blocks.
func TestTimeoutResultReplaysAsATimeout(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {2, 3}, {4}, {4}, {5}, {6, 1}, {7}, {8, 9}, {9}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ hangs, back int }{{5, 5}, {6, 10}} {
		run, err := NewRunner(RunnerOptions{Structurize: hangsFrom(c.hangs), Checks: []string{"growth"}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Minimize(g, run.PredicateFor(SigTimeout), Options{Signature: SigTimeout, Replay: run.ReplayFor(SigTimeout)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Graph.Len() != c.hangs || !res.Verified || res.Confirmed != (Tally{3, 3}) {
			t.Errorf("no answer from %d blocks: the result has %d, verified %v in %v judgements; want %d, verified in 3 of 3",
				c.hangs, res.Graph.Len(), res.Verified, res.Confirmed, c.hangs)
		}
		if o := res.Overshot; o == nil || o.Size.Blocks != 3 || o.Got != "growth:"+oracle.SigGrowthTime || o.Back.Blocks != c.back || o.Original != (c.back == g.Len()) {
			t.Errorf("no answer from %d blocks: overshot %+v, want the search's 3-block graph, growth:time, and back to %d blocks (the original's: %v)", c.hangs, o, c.back, c.back == g.Len())
		}
		if sig, _ := run.Predicate()(res.Graph); sig != SigTimeout {
			t.Errorf("no answer from %d blocks: the result judged as a replay judges it: %q, want %s", c.hangs, sig, SigTimeout)
		}
	}
}

// TestTimeoutHookResultReplaysAsATimeout: a campaign's timeout finding is
// stored with a minimized graph that its replay judges a timeout (6
// blocks, with no answer from 6 blocks on), not the search's smallest
// graph (3 blocks, answered late: growth:time), and the hook's line says
// what that one gave.
func TestTimeoutHookResultReplaysAsATimeout(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {2, 3}, {4}, {4}, {5}, {6, 1}, {7}, {8, 9}, {9}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ropt := RunnerOptions{Structurize: hangsFrom(6), Checks: []string{"growth"}}
	run, err := NewRunner(ropt)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	hook, err := MinimizeHook(HookOptions{Runner: ropt, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	m, err := hook(g, SigTimeout, BaselineAnswer{})
	if err != nil || m == nil {
		t.Fatalf("hook: %v, %v", m, err)
	}
	if sig, _ := run.Predicate()(m); sig != SigTimeout || m.Len() != 6 {
		t.Errorf("the minimized graph, %d blocks, judged as a replay judges it: %q, want %s on 6 blocks", m.Len(), sig, SigTimeout)
	}
	if want := "the search's smallest graph, 3 blocks, gave growth:time, not structurize:timeout,"; !strings.Contains(log.String(), want) {
		t.Errorf("the hook's line does not say %q:\n%s", want, log.String())
	}
}

// TestTimeoutResultBackToTheOriginal: with a replay that times out only
// the original graph's size (12 edges; a fake pair of predicate and
// replay), every graph the search accepted replays as growth:time, so it
// goes back to the original; searching on from there finds no smaller
// graph, or the step limit stops it first. Either way the result is the
// original's size, the reductions the search went back past are not
// counted, and the note says the search went back to the original and the
// finding is not minimized, and why.
func TestTimeoutResultBackToTheOriginal(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {2, 3}, {4}, {4}, {5}, {6, 1}, {7}, {8, 9}, {9}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lax := func(h *cfg.Graph) (string, error) { // the search's: late answers keep the finding
		if h.Len() >= 2 {
			return SigTimeout, nil
		}
		return "", nil
	}
	replay := func(h *cfg.Graph) (string, error) { // a replay's: no answer only at the original's size
		if h.Edges() >= g.Edges() {
			return SigTimeout, nil
		}
		return "growth:" + oracle.SigGrowthTime, nil
	}
	for _, c := range []struct {
		steps int
		why   string
	}{
		{0, "searching on from it, judging candidates as a replay does, found no smaller graph"},
		{40, "the step limit (40) stopped the search from it before it found a smaller graph its replay judges " + SigTimeout},
	} {
		res, err := Minimize(g, lax, Options{Signature: SigTimeout, Replay: replay, MaxSteps: c.steps})
		if err != nil {
			t.Fatal(err)
		}
		o := res.Overshot
		if o == nil || !o.Original || o.Back != res.Before || res.After != res.Before || !res.Verified {
			t.Fatalf("max steps %d: %v -> %v, verified %v, overshot %+v; want the original's size, verified, back to the original",
				c.steps, res.Before, res.After, res.Verified, o)
		}
		for stage, n := range res.Stages {
			if stage != "renumber" && n > 0 { // the final renumbering keeps the size
				t.Errorf("max steps %d: stages %v count reductions the search went back past", c.steps, res.Stages)
			}
		}
		note := OvershotNote(res)
		for _, want := range []string{
			"the search's smallest graph, 2 blocks, gave growth:time, not structurize:timeout,",
			"none of the graphs it had accepted that were judged so gave structurize:timeout: the search went back to the original graph, 10 blocks",
			"the result is the original graph's size, not minimized: " + c.why,
		} {
			if !strings.Contains(note, want) {
				t.Errorf("max steps %d: the note does not say %q:\n%s", c.steps, want, note)
			}
		}
	}
}

// TestTimeoutHookNotShrunk: a campaign's timeout finding whose replay
// times out only at the original graph's size (every smaller graph is
// answered late, in 5 s, which a replay judges growth:time) goes back to
// the original graph and finds no smaller one: the hook returns the
// original's size with a *NotShrunk error saying so, which the campaign's
// report records as not minimized; a finding that shrinks has none.
func TestTimeoutHookNotShrunk(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {2, 3}, {4}, {4}, {5}, {6, 1}, {7}, {8, 9}, {9}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lateBelow := func(h *cfg.Graph) Structurized {
		if h.Edges() >= g.Edges() {
			return Structurized{Failure: SigTimeout, Detail: "no answer within 10s"}
		}
		return inProcess(h, structurizer.Options{}, 5*time.Second)
	}
	for _, c := range []struct {
		name      string
		run       StructurizeFunc
		notShrunk bool
	}{
		{"late below the original", lateBelow, true},
		{"no answer from 6 blocks", hangsFrom(6), false},
	} {
		hook, err := MinimizeHook(HookOptions{Runner: RunnerOptions{Structurize: c.run, Checks: []string{"growth"}}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := hook(g, SigTimeout, BaselineAnswer{})
		if m == nil {
			t.Fatalf("%s: no graph (%v)", c.name, err)
		}
		var ns *NotShrunk
		if got := errors.As(err, &ns); got != c.notShrunk {
			t.Fatalf("%s: %d blocks, error %v; want a NotShrunk error %v", c.name, m.Len(), err, c.notShrunk)
		}
		if !c.notShrunk {
			continue
		}
		if SizeOf(m) != SizeOf(g) || !ns.Original || ns.Stopped != "" {
			t.Errorf("%s: %v, %+v; want the original's size, back to the original at the fixpoint", c.name, SizeOf(m), ns)
		}
		if want := "went back to the finding's graph and found no smaller one"; !strings.Contains(ns.What(), want) {
			t.Errorf("%s: %q does not say %q", c.name, ns.What(), want)
		}
	}
}
