// firstnew_test.go: a signature the baseline has on some graphs and the
// current side on more is written up on its first new graph: the graph the
// baseline passed, not the signature's first, which the baseline fails
// too. The replay, the minimized graph, report.md's findings table and
// report.html's pictures are all of it.
package fuzz

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/draw"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// faultyFactory is this tree's structurizer in-process with faults
// planted in every answer, whatever the campaign asks.
func faultyFactory(faults ...string) SideFactory {
	return SideFactory{Describe: "in-process with " + strings.Join(faults, ","), New: func() (Side, error) {
		return &InProcess{Fn: func(g *cfg.Graph, opt proto.Options) Answer {
			opt.Inject = faults
			return structureLocal(g, opt)
		}}, nil
	}}
}

// firstNewConfig is a comparison whose baseline has clone-wrong-id and
// whose current side has swap-arms too: both fail with
// exec:trace-mismatch, the baseline on the graphs it clones a block of.
func firstNewConfig(t *testing.T, minimize Minimizer) Config {
	c := testConfig(t, 60)
	c.Seed = 40 // its first failing graph is one of those the baseline fails
	c.Strategy, c.Inject, c.Minimize = "structured", []string{"clone-wrong-id", "swap-arms"}, minimize
	c.Current = faultyFactory(c.Inject...)
	c.Baseline = faultyFactory("clone-wrong-id")
	return c
}

// TestFindingOnItsFirstNewGraph: when the baseline fails a signature's
// first graph too, the finding keeps that graph as first and names its
// first new one (first_new); that one is minimized, replayed, shown in
// report.md's table and drawn in report.html, and it is the same whatever
// the workers or shards.
func TestFindingOnItsFirstNewGraph(t *testing.T) {
	var mu sync.Mutex
	var got []string
	minimize := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		mu.Lock()
		got = append(got, cfg.FormatCompact(g))
		mu.Unlock()
		return cfg.FromSuccs([][]int{{0, 1}, {}}), nil
	}
	c := firstNewConfig(t, minimize)
	c.Workers = 1
	rep := mustRun(t, c).Report
	var f *Finding
	for _, g := range readReport(t, c.Dir).Findings {
		if g.FirstNew != nil {
			f = &g
		}
	}
	if f == nil {
		t.Fatalf("no finding whose first graph the baseline fails too and that has new graphs: %+v", rep.Findings)
	}
	if !strings.HasPrefix(f.First.Baseline, OutInvalid) || f.FirstNew.Baseline != OutOK || f.FirstNew.Index <= f.First.Index || f.New == 0 {
		t.Errorf("first %d (baseline %q), first new %d (baseline %q), %d new: want the first failed by the baseline, a later one passed", f.First.Index, f.First.Baseline, f.FirstNew.Index, f.FirstNew.Baseline, f.New)
	}
	if !strings.Contains(strings.Join(got, "\n"), f.FirstNew.Graph) {
		t.Errorf("the minimizer was given %q, not the first new graph %s", got, f.FirstNew.Graph)
	}
	if f.BaselineFlaky != "" {
		t.Errorf("baseline flaky: %s", f.BaselineFlaky)
	}
	for _, g := range got {
		for _, o := range rep.Findings {
			if o.FirstNew != nil && g == o.First.Graph {
				t.Errorf("the minimizer was given %s's first graph, which the baseline fails too", o.Signature)
			}
		}
	}
	if want := (testSource{}).Replay(f.FirstNew.Stream, f.FirstNew.Seed); !strings.Contains(f.Replay, want) {
		t.Errorf("replay %q does not print the first new graph (%s)", f.Replay, want)
	}
	showsFirstNew(t, c.Dir, f)

	two := firstNewConfig(t, minimize)
	two.Workers = 2
	mustRun(t, two)
	if a, b := reportJSON(t, c.Dir), reportJSON(t, two.Dir); a != b {
		t.Errorf("reports differ between 1 and 2 workers:\n%s\n---\n%s", a, b)
	}
	var dirs []string
	for i := range 3 {
		s := firstNewConfig(t, minimize)
		s.Shard = Shard{I: i, N: 3}
		mustRun(t, s)
		dirs = append(dirs, s.Dir)
	}
	out := mergeNightInto(t, dirs, MergeOptions{Minimize: minimize}, "")
	if a, b := reportJSON(t, c.Dir), reportJSON(t, out); a != b {
		t.Errorf("merged shards differ from the whole run:\n%s\n---\n%s", a, b)
	}
}

// showsFirstNew checks that dir's report.md and report.html show finding
// f on its first new graph: the findings table's row gives its graph,
// generator and seed, and the pictures before and after structurization
// are of it and of the current side's function of it, as its record in
// results.jsonl holds it.
func showsFirstNew(t *testing.T, dir string, f *Finding) {
	t.Helper()
	n := f.FirstNew
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if row := fmt.Sprintf("| `%s` (first new) | %s | %d |", n.Graph, n.Stream, n.Seed); !strings.Contains(string(md), row) {
		t.Errorf("report.md's findings table lacks %q:\n%s", row, md)
	}
	funcs := map[int]*structurizer.Func{}
	for _, r := range readRecords(t, dir) {
		funcs[r.Index] = r.Current.Func
	}
	first, fresh := funcs[f.First.Index], funcs[n.Index]
	if fresh == nil || first == nil {
		t.Fatalf("the records of graphs %d and %d keep no function", f.First.Index, n.Index)
	}
	if jsonOf(t, first) == jsonOf(t, fresh) {
		t.Fatalf("graphs %d and %d have the same function: the pictures cannot tell them apart", f.First.Index, n.Index)
	}
	if jsonOf(t, f.Func) != jsonOf(t, fresh) {
		t.Errorf("report.json's func is not the first new graph's (graph %d)", n.Index)
	}
	g, err := graphOf(n)
	if err != nil {
		t.Fatal(err)
	}
	a := findingAnchor(f)
	for name, pic := range map[string]*draw.Picture{a + "-before": draw.FromGraph(g), a + "-after": draw.FromFunc(fresh)} {
		dot, err := os.ReadFile(filepath.Join(dir, PicturesDir, name+".dot"))
		if err != nil {
			t.Fatal(err)
		}
		if string(dot) != pic.DOT(name) {
			t.Errorf("%s.dot is not of the first new graph (%d):\n%s", name, n.Index, dot)
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("before: the first new graph (index %d) as found", n.Index), fmt.Sprintf("Replay the first new graph (index %d) as found:", n.Index)} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html does not say %q", want)
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
