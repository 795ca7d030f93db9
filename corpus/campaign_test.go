// campaign_test.go: the fault campaigns. For every planted fault of the
// structurizer, a campaign of the engine in package fuzz (workers, records,
// report) runs over generated graphs with the fault planted, under each
// strategy until one fails, with the clean tree as the baseline and
// MinimizeHook (in baseline mode) as its Config.Minimize; every new finding must come back minimized to at most 8 blocks, fail with the
// same signature under the fault and pass without it. External test
// package: package fuzz's own harness imports corpus.
package corpus_test

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var campaignGraphs = flag.Int("campaign-graphs", 120, "graphs per fault campaign")

// genSource is a fuzz.Source over package gen, the streams named by kind.
type genSource struct{}

func (genSource) Item(s fuzz.Stream, run uint64, j int) (fuzz.Item, error) {
	k := gen.Kind(s.Kind)
	it, err := gen.Generate(gen.Config{Kind: k, MinBlocks: 5, MaxBlocks: 30}, gen.SeedFor(k, run, j))
	if err != nil {
		return fuzz.Item{}, err
	}
	return fuzz.Item{Graph: it.Graph, Seed: it.Seed, Program: it.Program}, nil
}

func (genSource) Replay(s fuzz.Stream, seed uint64) string {
	return fmt.Sprintf("cfgfuzz gen --kind %s --seed %d --count 1", s.Kind, seed)
}

func TestFaultCampaigns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a campaign per fault")
	}
	for _, fault := range structurizer.FaultNames() {
		t.Run(fault, func(t *testing.T) { faultCampaign(t, fault) })
	}
}

func faultCampaign(t *testing.T, fault string) {
	strategies := []string{structurizer.DefaultStrategy}
	for _, s := range structurizer.Strategies() {
		if s != structurizer.DefaultStrategy {
			strategies = append(strategies, s)
		}
	}
	for _, strat := range strategies {
		sopt := structurizer.Options{Strategy: strat, Inject: []string{fault}}
		checks := passingChecks(t, strat)
		rep := runCampaign(t, sopt, checks)
		found := false
		for _, f := range rep.Findings {
			if f.New == 0 {
				t.Logf("strategy %s: %s fails without the fault too (%d graphs, first %s): not the fault's", strat, f.Signature, f.Count, f.First.Graph)
				continue
			}
			found = true
			checkFinding(t, sopt, checks, f)
		}
		if found {
			return
		}
		t.Logf("strategy %s: %d graphs, no new finding", strat, rep.Graphs)
	}
	t.Errorf("no campaign under %v found fault %s in %d graphs", strategies, fault, *campaignGraphs)
}

// runCampaign runs a campaign with the fault planted on the current side
// and the same tree without it as the baseline, so a finding is new only
// when the fault causes it, and the minimizer runs in baseline mode (the
// clean tree must pass every candidate).
func runCampaign(t *testing.T, sopt structurizer.Options, checks []string) *fuzz.Report {
	orc := corpus.CampaignOracle(corpus.Judging{Walks: 16, Seed: 1})
	clean, err := corpus.NewRunner(corpus.RunnerOptions{Structurizer: structurizer.Options{Strategy: sopt.Strategy}, Checks: checks, Oracle: orc})
	if err != nil {
		t.Fatal(err)
	}
	hook, err := corpus.MinimizeHook(corpus.HookOptions{Runner: corpus.RunnerOptions{Structurizer: sopt, Checks: checks, Oracle: orc},
		Minimize: corpus.Options{Timeout: 60 * time.Second, Baseline: clean.Predicate()}, Store: &corpus.Store{Dir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := fuzz.Run(fuzz.Config{
		Settings: fuzz.Settings{Seed: 1, Walks: 16, Graphs: *campaignGraphs, Strategy: sopt.Strategy, Inject: sopt.Inject, Checks: checks,
			Streams: []fuzz.Stream{{Kind: "reducible", Weights: "w0"}, {Kind: "program", Weights: "w0"}, {Kind: "irreducible", Weights: "w0"}}},
		Source: genSource{}, Current: fuzz.InProcessFactory(), Baseline: fuzz.InProcessFactory(), Dir: t.TempDir(), Workers: 2,
		Minimize: func(g *cfg.Graph, sig, _ string, baseline corpus.BaselineAnswer) (*cfg.Graph, error) {
			return hook(g, sig, baseline)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Harness) > 0 {
		t.Logf("harness: %v", out.Harness)
	}
	t.Logf("campaign %s %v: %d graphs, %d findings in %v", sopt.Strategy, sopt.Inject, out.Report.Graphs, len(out.Report.Findings), time.Since(start).Round(time.Millisecond))
	return out.Report
}

// checkFinding re-judges a campaign finding's minimized graph with and
// without the fault.
func checkFinding(t *testing.T, sopt structurizer.Options, checks []string, f fuzz.Finding) {
	if f.Minimized == "" {
		t.Errorf("%s (%d graphs, first %s): not minimized", f.Signature, f.Count, f.First.Graph)
		return
	}
	g, err := cfg.ParseCompact(f.Minimized, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	faulty, err := corpus.NewRunner(corpus.RunnerOptions{Structurizer: sopt, Checks: checks})
	if err != nil {
		t.Fatal(err)
	}
	clean, err := corpus.NewRunner(corpus.RunnerOptions{Structurizer: structurizer.Options{Strategy: sopt.Strategy}, Checks: checks})
	if err != nil {
		t.Fatal(err)
	}
	with, without := faulty.Run(g), clean.Run(g)
	t.Logf("fault %s strategy %s: %s (%d graphs): %s -> %d blocks %s", sopt.Inject[0], sopt.Strategy, f.Signature, f.Count, f.First.Graph, g.Len(), f.Minimized)
	switch {
	case g.Len() > 8:
		t.Errorf("%s: minimized to %d blocks, want at most 8", f.Signature, g.Len())
	case with.Signature != f.Signature:
		t.Errorf("%s: minimized graph gives %q under the fault", f.Signature, with.Signature)
	case without.Failed() || without.Err != nil:
		t.Errorf("%s: minimized graph fails without the fault: %s %v", f.Signature, without.Signature, without.Err)
	}
}

// passingChecks are the checks the clean strategy passes on the regression
// suite (corpus.PassingChecks); a check the clean tree already fails would
// make every finding old and hide the fault.
func passingChecks(t *testing.T, strategy string) []string {
	rs, err := corpus.LoadRegressions("testdata/regressions")
	if err != nil {
		t.Fatal(err)
	}
	var graphs []*cfg.Graph
	for _, r := range rs {
		graphs = append(graphs, r.Graph)
	}
	pass, fail, err := corpus.PassingChecks(structurizer.Options{Strategy: strategy}, graphs)
	if err != nil {
		t.Fatal(err)
	}
	if len(fail) > 0 {
		t.Logf("strategy %s fails %v on the regression suite without any fault; the campaign runs %v", strategy, fail, pass)
	}
	return pass
}
