// rejudge_test.go checks the re-judgement of a stored signature (classify.go,
// rejudge): a generic signature the store knows, shown tonight by another
// defect whose graphs fail while the store's minimized graph passes, is
// new, fails the night, is minimized on tonight's first graph (its first
// new one, with a baseline that fails the first) and starts the store's
// entry afresh; the night after, the same defect is known; the unsharded
// night, its workers and its merged shards agree.
package fuzz

import (
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// swapsLarger is a structurizer with a defect other than swap-arms on
// every graph but of the same signature: it swaps the arms of graphs of
// more than two blocks only, so the two-block graph of smallSwap passes.
// It stands for another revision of cfgfuzz's structurizer.
func swapsLarger() SideFactory {
	return SideFactory{Describe: "rev:swaps-arms-of-larger-graphs", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if g.Len() > 2 {
				opt.Inject = append(slices.Clone(opt.Inject), "swap-arms")
			}
			return structureLocal(g, opt)
		}}, nil
	}}
}

// smallSwap is the minimized graph the first night stores for swapSig: a
// graph swap-arms fails on, but swapsLarger passes.
const smallSwap = "{{0, 1}, {}}"

// rejudgeBase is a state whose store knows swapSig with smallSwap as its
// minimized graph (swap-arms planted on the first night).
func rejudgeBase(t *testing.T) string {
	state := t.TempDir()
	toSmall := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		return cfg.ParseCompact(smallSwap, cfg.Limits{})
	}
	one := night(t, state, "2026-03-01", 1, 40, func(c *Config) { c.Inject, c.Minimize = []string{"swap-arms"}, toSmall })
	if classesOf(one)[swapSig] != ClassNew {
		t.Fatalf("night 1: classes %v, want %s new", classesOf(one), swapSig)
	}
	st, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	if e := st.lookup(swapSig, ""); e == nil || e.Minimized != smallSwap {
		t.Fatalf("night 1 stored %+v, want the minimized graph %s", e, smallSwap)
	}
	return state
}

func TestKnownSignatureOfAnotherDefectIsNew(t *testing.T) {
	state := rejudgeBase(t)
	var minimized []string
	asFound := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		minimized = append(minimized, sig)
		return g, nil
	}
	other := func(c *Config) { c.Current, c.Minimize, c.Workers = swapsLarger(), asFound, 1 }

	two := night(t, state, "2026-03-02", 2, 40, other)
	var s *SignatureState
	for i := range two.State.Signatures {
		if two.State.Signatures[i].Signature == swapSig {
			s = &two.State.Signatures[i]
		}
	}
	if s == nil || s.Tonight == 0 {
		t.Fatalf("night 2: %s did not show: %+v", swapSig, two.State.Signatures)
	}
	if s.Class != ClassNew || two.State.NewSignatures() == 0 {
		t.Errorf("night 2: %s is %s (%s), want new: its recorded graph passes", swapSig, s.Class, s.Reason)
	}
	if s.Minimized != MinimizedPasses || !strings.Contains(s.Reason, "its recorded graph "+smallSwap+" passes tonight; tonight's first failing graph is ") {
		t.Errorf("night 2: minimized_rerun %q, reason %q", s.Minimized, s.Reason)
	}
	if !slices.Contains(minimized, swapSig) {
		t.Errorf("night 2 did not minimize %s again (minimized %v)", swapSig, minimized)
	}
	var first string
	for _, f := range two.Findings {
		if f.Signature == swapSig {
			first = f.First.Graph
			if f.Minimized != f.First.Graph {
				t.Errorf("night 2's finding shows the minimized graph %q, want tonight's (%s)", f.Minimized, f.First.Graph)
			}
		}
	}
	if md := Markdown(two); !strings.Contains(md, "its recorded graph "+smallSwap+" passes tonight") {
		t.Errorf("report.md does not say why %s is new:\n%s", swapSig, md)
	}
	st, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	if e := st.lookup(swapSig, ""); e == nil || e.Minimized != first || e.FirstSeen != "2026-03-02" || slices.ContainsFunc(e.Graphs, func(g KeptGraph) bool { return g.Graph == smallSwap }) {
		t.Errorf("night 2 stored %+v, want tonight's minimized graph %s, first seen tonight", e, first)
	}

	// The same defect the night after: known, its recorded graph shows it.
	minimized = nil
	three := night(t, state, "2026-03-03", 3, 40, other)
	if c := classesOf(three)[swapSig]; c != ClassKnown || len(minimized) != 0 {
		t.Errorf("night 3: %s is %s, minimized %v; want known, not minimized", swapSig, c, minimized)
	}
}

// TestRejudgeDeterministic: a night that re-judges a signature gives the
// same report and state on 1 and 2 workers and as 2 or 3 shards merged
// (the minimized graph's re-run on one shard, the first graph on another).
func TestRejudgeDeterministic(t *testing.T) {
	base := rejudgeBase(t)
	asFound := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) { return g, nil }
	run := func(workers int, shard Shard) (string, string) {
		st := t.TempDir()
		copyDir(t, base, st)
		state, err := LoadState(st)
		if err != nil {
			t.Fatal(err)
		}
		c := testConfig(t, 40)
		c.Seed, c.State, c.Night, c.Workers, c.Shard = 2, state, "2026-03-02", workers, shard
		c.Current, c.Minimize = swapsLarger(), asFound
		rep := mustRun(t, c).Report
		if shard.N == 0 && classesOf(rep)[swapSig] != ClassNew {
			t.Fatalf("%d workers: %s is %s, want new", workers, swapSig, classesOf(rep)[swapSig])
		}
		return c.Dir, st
	}
	w1, s1 := run(1, Shard{})
	w2, s2 := run(2, Shard{})
	if a, b := reportJSON(t, w1), reportJSON(t, w2); a != b {
		t.Errorf("reports differ between 1 and 2 workers:\n%s\n---\n%s", a, b)
	}
	sameState(t, s1, s2)
	for _, n := range []int{2, 3} {
		var dirs []string
		for i := range n {
			d, _ := run(2, Shard{I: i, N: n})
			dirs = append(dirs, d)
		}
		st := t.TempDir()
		copyDir(t, base, st)
		state, err := LoadState(st)
		if err != nil {
			t.Fatal(err)
		}
		out := mergeNightInto(t, dirs, MergeOptions{State: state, Minimize: asFound}, st)
		if a, m := reportJSON(t, w1), reportJSON(t, out); a != m {
			t.Errorf("%d shards merged differ from the whole night:\n%s\n---\n%s", n, a, m)
		}
		sameState(t, s1, st)
	}
}

// swapsOn is a baseline with swapsLarger's defect on the given graphs
// (compact notation) only: it fails them with swapSig and passes the rest.
func swapsOn(graphs []string) SideFactory {
	return SideFactory{Describe: "rev:swaps-arms-of-some-graphs", New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			if slices.Contains(graphs, cfg.FormatCompact(g)) {
				opt.Inject = append(slices.Clone(opt.Inject), "swap-arms")
			}
			return structureLocal(g, opt)
		}}, nil
	}}
}

// TestRejudgedOnItsFirstNewGraph: the re-judging night of
// TestKnownSignatureOfAnotherDefectIsNew, with a baseline that fails the
// signature's first KeepGraphs graphs of tonight (first and others) and
// passes the rest. The finding's first new graph comes after all of them:
// the reason names it, it is minimized, and the store keeps it beside the
// first graph though first and others alone fill KeepGraphs; 1 and 2
// workers give the same report and state.
func TestRejudgedOnItsFirstNewGraph(t *testing.T) {
	base := rejudgeBase(t)
	asFound := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) { return g, nil }
	run := func(baseline []string, workers int) (rep *Report, dir, state string) {
		state = t.TempDir()
		copyDir(t, base, state)
		rep = night(t, state, "2026-03-02", 2, 40, func(c *Config) {
			c.Current, c.Minimize, c.Workers, dir = swapsLarger(), asFound, workers, c.Dir
			if baseline != nil {
				c.Baseline = swapsOn(baseline)
			}
		})
		return rep, dir, state
	}
	swapFinding := func(rep *Report) *Finding {
		for i := range rep.Findings {
			if rep.Findings[i].Signature == swapSig {
				return &rep.Findings[i]
			}
		}
		t.Fatalf("%s did not show: %+v", swapSig, rep.Findings)
		return nil
	}

	alone, _, _ := run(nil, 1)
	kept := []string{swapFinding(alone).First.Graph}
	for _, o := range swapFinding(alone).Others {
		kept = append(kept, o.Graph)
	}
	if len(kept) != KeepGraphs {
		t.Fatalf("tonight's first graphs of %s: %v, want %d", swapSig, kept, KeepGraphs)
	}

	rep, dir, state := run(kept, 1)
	f := swapFinding(rep)
	if f.FirstNew == nil || slices.Contains(kept, f.FirstNew.Graph) {
		t.Fatalf("first new graph %+v: want one after %v, which the baseline fails", f.FirstNew, kept)
	}
	t.Logf("first %d, others %d, first new %d (%s)", f.First.Index, len(f.Others), f.FirstNew.Index, f.FirstNew.Graph)
	var s *SignatureState
	for i := range rep.State.Signatures {
		if rep.State.Signatures[i].Signature == swapSig {
			s = &rep.State.Signatures[i]
		}
	}
	if want := "tonight's first failing graph the baseline did not fail is " + f.FirstNew.Graph; s == nil || s.Class != ClassNew || !strings.Contains(s.Reason, want) {
		t.Errorf("night 2: %+v, want %s new with a reason that says %q", s, swapSig, want)
	}
	st, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	e := st.lookup(swapSig, "")
	if e == nil || e.Minimized != f.FirstNew.Graph || !slices.ContainsFunc(e.Graphs, func(g KeptGraph) bool { return g.Graph == f.FirstNew.Graph }) {
		t.Errorf("night 2 stored %+v, want the first new graph %s minimized and kept", e, f.FirstNew.Graph)
	}
	if e != nil && (len(e.Graphs) != KeepGraphs || e.Graphs[0].Graph != f.First.Graph) {
		t.Errorf("night 2 kept %+v, want %d graphs, the first %s", e.Graphs, KeepGraphs, f.First.Graph)
	}

	_, dir2, state2 := run(kept, 2)
	if a, b := reportJSON(t, dir), reportJSON(t, dir2); a != b {
		t.Errorf("reports differ between 1 and 2 workers:\n%s\n---\n%s", a, b)
	}
	sameState(t, state, state2)
}
