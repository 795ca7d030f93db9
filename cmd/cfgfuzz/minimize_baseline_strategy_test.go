// minimize_baseline_strategy_test.go: a campaign's minimizer asks the
// baseline the strategy the campaign asked it (--baseline-strategy), not
// the current side's.
package main

import (
	"sync"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// strategySide records the strategies it is asked.
type strategySide struct {
	fuzz.Side
	mu    *sync.Mutex
	asked *[]string
}

func (s strategySide) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) fuzz.Answer {
	s.mu.Lock()
	*s.asked = append(*s.asked, opt.Strategy)
	s.mu.Unlock()
	return s.Side.Structurize(g, opt, limit)
}

func TestCampaignMinimizerAsksTheBaselineItsStrategy(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	base := fuzz.SideFactory{Describe: "self", New: func() (fuzz.Side, error) {
		s, err := fuzz.InProcessFactory().New()
		return strategySide{s, &mu, &asked}, err
	}}
	c := fuzz.Config{Settings: fuzz.Settings{Current: "self", Baseline: "self", Strategy: "structured", BaselineStrategy: "dispatch",
		Inject: []string{"swap-arms"}, Walks: 16, Seed: 1}, Dir: t.TempDir(), Current: fuzz.InProcessFactory(), Baseline: base}
	var sides openSides
	defer sides.close()
	hook, err := strategyMinimizer(&c, &sides, "structured", minimizeBudget{timeout: 5 * time.Second, steps: 50}, &budgetClock{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfg.ParseCompact("{{3, 1}, {2}, {3, 4}, {4, 0}, {5}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = hook(g, "exec:trace-mismatch", corpus.BaselineAnswer{})
	t.Logf("hook: %v", err)
	mu.Lock()
	defer mu.Unlock()
	if len(asked) == 0 {
		t.Fatal("the baseline was never asked")
	}
	for _, s := range asked {
		if s != "dispatch" {
			t.Fatalf("the minimizer asked the baseline strategy %q; the campaign asks it --baseline-strategy dispatch", s)
		}
	}
}

// TestBaselineStrategyAsTheWorkersAsk: the minimizer asks the baseline
// what a campaign's worker asks it for the graph: the graph's own
// strategy on the dispatch share, else --baseline-strategy, else
// --strategy.
func TestBaselineStrategyAsTheWorkersAsk(t *testing.T) {
	for _, c := range []struct {
		strategy, baseline, graph, want string
	}{
		{"structured", "", "structured", "structured"},
		{"structured", "dispatch", "structured", "dispatch"},
		{"structured", "", "dispatch", "dispatch"}, // the dispatch share (--dispatch-every)
		{"structured", "structured", "dispatch", "dispatch"},
	} {
		s := fuzz.Settings{Strategy: c.strategy, BaselineStrategy: c.baseline}
		if got := baselineStrategy(s, c.graph); got != c.want {
			t.Errorf("--strategy %s --baseline-strategy %q, a graph of strategy %s: the baseline asked %q, want %q", c.strategy, c.baseline, c.graph, got, c.want)
		}
	}
}
