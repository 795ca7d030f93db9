// minimizedweights_test.go: a finding that fails only with its blocks'
// weights keeps them through minimization, in report.json, its replay
// command, a state directory and a merge of shards.
package fuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestMinimizedFindingKeepsItsWeights: a structurizer process that drops
// the filler of light blocks (testdata/thinstruct -drop-filler) gives
// filler:short, which the campaign's minimizer (corpus.MinimizeHook on the
// same process) shrinks to a graph that fails only with a weight. The
// report keeps the weights beside the compact graph, the replay command
// report.md and report.html print fails on that process, and the state
// and the merge of shards keep them too.
func TestMinimizedFindingKeepsItsWeights(t *testing.T) {
	bin := buildCmd(t, "./testdata/thinstruct")
	factory := ProcessFactory("thinstruct", []string{bin, "-drop-filler"}, "")
	side, err := factory.New()
	if err != nil {
		t.Fatal(err)
	}
	defer side.Close()
	popt := proto.Options{Strategy: "structured"}
	run, err := corpus.NewRunner(corpus.RunnerOptions{Structurize: SideStructurizer(side, popt, 10*time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	hook, err := corpus.MinimizeHook(corpus.HookOptions{Runner: corpus.RunnerOptions{Structurize: SideStructurizer(side, popt, 10*time.Second)}})
	if err != nil {
		t.Fatal(err)
	}
	minimize := func(g *cfg.Graph, sig, _ string, baseline corpus.BaselineAnswer) (*cfg.Graph, error) {
		return hook(g, sig, baseline)
	}
	config := func(dir string) Config {
		c := testConfigIn(dir, 20)
		c.Strategy, c.Current, c.Minimize = "structured", factory, minimize
		return c
	}

	st, err := LoadState(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := config(t.TempDir())
	c.State, c.Night = st, "2026-12-01"
	rep := mustRun(t, c).Report
	f := findingOf(t, rep, "filler:short")
	if f.Minimized == "" || len(f.MinimizedWeights) == 0 {
		t.Fatalf("minimized %q, weights %v: want a graph and its weights", f.Minimized, f.MinimizedWeights)
	}
	g, err := f.MinimizedGraph()
	if err != nil {
		t.Fatal(err)
	}
	if got := run.Run(g).Signature; got != "filler:short" {
		t.Errorf("the minimized graph with its weights gives %q, want filler:short", got)
	}
	bare, _ := cfg.ParseCompact(f.Minimized, cfg.Limits{})
	if got := run.Run(bare).Signature; got != "" {
		t.Errorf("the minimized graph without weights gives %q, want a pass (the test no longer shows why the weights are kept)", got)
	}
	replay := MinimizedReplay(&rep.Settings, f)
	if !strings.HasPrefix(replay, "printf '%s' ") || !strings.Contains(replay, "[w=") {
		t.Errorf("replay %q: want the graph in line notation with its weights", replay)
	}
	var onDisk struct {
		Findings []Finding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(reportJSON(t, c.Dir)), &onDisk); err != nil {
		t.Fatal(err)
	}
	if w := findingOf(t, &Report{Findings: onDisk.Findings}, "filler:short").MinimizedWeights; len(w) == 0 {
		t.Error("report.json has no minimized_weights")
	}
	md, err := os.ReadFile(filepath.Join(c.Dir, "report.md"))
	if err != nil || !strings.Contains(string(md), replay) {
		t.Errorf("report.md does not print the minimized graph's replay %q (%v)", replay, err)
	}

	again, err := LoadState(st.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if e := again.lookup("filler:short", ""); e == nil || e.Minimized != f.Minimized || len(e.MinimizedWeights) == 0 {
		t.Errorf("state entry %+v: want the minimized graph with its weights", e)
	}

	var dirs []string
	for i := range 2 {
		s := config(t.TempDir())
		s.Shard = Shard{I: i, N: 2}
		mustRun(t, s)
		dirs = append(dirs, s.Dir)
	}
	merged, _, _, err := MergeNight(dirs, MergeOptions{Minimize: minimize})
	if err != nil {
		t.Fatal(err)
	}
	if m := findingOf(t, merged, "filler:short"); m.Minimized != f.Minimized || len(m.MinimizedWeights) != len(f.MinimizedWeights) {
		t.Errorf("merged: minimized %q weights %v, the whole run %q %v", m.Minimized, m.MinimizedWeights, f.Minimized, f.MinimizedWeights)
	}
}

// findingOf is rep's finding of sig on the campaign's strategy.
func findingOf(t *testing.T, rep *Report, sig string) *Finding {
	t.Helper()
	for i := range rep.Findings {
		if f := &rep.Findings[i]; f.Signature == sig && f.Strategy == "" {
			return f
		}
	}
	t.Fatalf("no %s finding", sig)
	return nil
}
