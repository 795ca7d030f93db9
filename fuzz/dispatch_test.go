// dispatch_test.go: the dispatch share is drawn from the seed and the
// index alone, so the report is the same for any number of workers and
// for merged shards; the drawn graphs run the dispatch strategy and say so;
// campaign.json keeps the share for --resume.
package fuzz

import (
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// shareConfig is testConfig on the default strategy with a dispatch share
// of one graph in 4.
func shareConfig(t *testing.T, n int) Config {
	c := testConfig(t, n)
	c.Strategy, c.DispatchEvery = "", 4
	return c
}

func TestDispatchShareIsDeterministic(t *testing.T) {
	const n = 120
	a, b := shareConfig(t, n), shareConfig(t, n)
	a.Workers, b.Workers = 1, 2
	ra := mustRun(t, a).Report
	mustRun(t, b)
	if ja, jb := reportJSON(t, a.Dir), reportJSON(t, b.Dir); ja != jb {
		t.Errorf("reports differ between 1 and 2 workers:\n%s\n---\n%s", ja, jb)
	}
	var dirs []string
	for i := range 2 {
		c := shareConfig(t, n)
		c.Shard = Shard{I: i, N: 2}
		mustRun(t, c)
		dirs = append(dirs, c.Dir)
	}
	merged, err := Merge(dirs)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := WriteReports(out, merged, testSource{}); err != nil {
		t.Fatal(err)
	}
	if jw, jm := reportJSON(t, a.Dir), reportJSON(t, out); jw != jm {
		t.Errorf("merged shards differ from the whole run:\n%s\n---\n%s", jw, jm)
	}
	recs, _, err := ReadRecords(a.Dir)
	if err != nil {
		t.Fatal(err)
	}
	drawn := 0
	for _, r := range recs {
		want := ""
		if a.Settings.GraphStrategy(r.Index) == DispatchStrategy {
			want = DispatchStrategy
			drawn++
		}
		if r.Strategy != want {
			t.Errorf("graph %d ran strategy %q, want %q", r.Index, r.Strategy, want)
		}
	}
	if drawn < n/10 || drawn > n*4/10 || ra.Strategies[DispatchStrategy] != drawn {
		t.Errorf("%d of %d graphs drawn for a share of 1 in 4; the report counts %v", drawn, n, ra.Strategies)
	}
	s, err := LoadSettings(a.Dir)
	if err != nil || s.DispatchEvery != 4 {
		t.Errorf("campaign.json: dispatch_every %d (%v), want 4", s.DispatchEvery, err)
	}
	if len(ra.Findings) != 0 {
		t.Errorf("findings on a clean tree: %+v", ra.Findings)
	}
}

func TestDispatchShareDrawsNothingOnDispatch(t *testing.T) {
	s := Settings{Seed: 1, Strategy: DispatchStrategy, DispatchEvery: 1}
	z := Settings{Seed: 1}
	for i := range 100 {
		if s.dispatchDrawn(i) || z.dispatchDrawn(i) {
			t.Fatalf("graph %d drawn with strategy %q, share %d", i, s.Strategy, s.DispatchEvery)
		}
	}
	if every := (Settings{Seed: 1, DispatchEvery: 1}); every.GraphStrategy(7) != DispatchStrategy {
		t.Error("a share of 1 in 1 does not draw every graph")
	}
}

// TestDispatchShareFindingsKeepTheirStrategy: swap-arms planted on a
// campaign with a share gives findings on the dispatch share apart from
// the default strategy's, each replayed, drawn and tabled with its strategy.
func TestDispatchShareFindingsKeepTheirStrategy(t *testing.T) {
	c := shareConfig(t, 80)
	c.Inject = []string{"swap-arms"}
	var calls []string
	c.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		calls = append(calls, strategy)
		return nil, nil
	}
	rep := mustRun(t, c).Report
	var share *Finding
	for i, f := range rep.Findings {
		if f.Strategy == DispatchStrategy {
			share = &rep.Findings[i]
		}
	}
	if share == nil {
		t.Fatalf("no finding on the dispatch share: %+v", rep.Findings)
	}
	if !strings.Contains(share.Replay, "--strategy dispatch") {
		t.Errorf("replay %q", share.Replay)
	}
	if !slices.Contains(calls, DispatchStrategy) {
		t.Errorf("the minimizer was called with strategies %q", calls)
	}
	md, h := Markdown(rep), HTML(rep)
	if !strings.Contains(md, "| dispatch (share) |") || !strings.Contains(md, "ran the dispatch strategy (the dispatch share)") {
		t.Errorf("report.md does not name the share:\n%s", md)
	}
	if !strings.Contains(h, "(strategy dispatch)") {
		t.Error("report.html does not name the share's findings")
	}
}
