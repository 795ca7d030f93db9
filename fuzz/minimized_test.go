// minimized_test.go checks that every finding of a report says whether it
// is minimized (is_minimized) and, when not, why (not_minimized), in
// report.json, report.md and report.html: a minimizer that went back to
// the finding's graph (a timeout finding's search, corpus.NotShrunk), one
// that returned the graph as found, minimization off, deferred to a merge,
// interrupted, or over its budget; and that a merge carries it.
package fuzz

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// backToOriginal is a minimizer whose search went back to the finding's
// graph, as a timeout finding's does when a replay times out on none of
// the smaller graphs it kept.
func backToOriginal(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
	return g, &corpus.NotShrunk{Original: true}
}

// toTwoBlocks is a minimizer that shrinks every finding to two blocks.
func toTwoBlocks(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
	return cfg.FromSuccs([][]int{{0, 1}, {}}), nil
}

// checkMinimizedFields fails unless every finding of dir's report.json
// has is_minimized as want and, when false, a not_minimized that holds
// why, and report.md and report.html say it.
func checkMinimizedFields(t *testing.T, dir string, want bool, why string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep := readReport(t, dir)
	if len(rep.Findings) == 0 {
		t.Fatalf("%s: no findings", dir)
	}
	if n := strings.Count(string(raw), `"is_minimized": `); n != len(rep.Findings) {
		t.Errorf("%s: is_minimized written %d times for %d findings", dir, n, len(rep.Findings))
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, f := range rep.Findings {
		if f.IsMinimized != want {
			t.Errorf("%s: %s is_minimized %v, want %v (not_minimized %q)", dir, f.Signature, f.IsMinimized, want, f.NotMinimized)
		}
		if want {
			if f.NotMinimized != "" {
				t.Errorf("%s: %s is minimized, with not_minimized %q", dir, f.Signature, f.NotMinimized)
			}
			continue
		}
		if !strings.Contains(f.NotMinimized, why) {
			t.Errorf("%s: %s not_minimized %q, want it to say %q", dir, f.Signature, f.NotMinimized, why)
		}
	}
	if !want && (!strings.Contains(string(md), "# not minimized: ") || !strings.Contains(string(html), "<strong>Not minimized</strong>: ")) {
		t.Errorf("%s: report.md or report.html does not say the findings are not minimized", dir)
	}
	if want && (strings.Contains(string(md), "not minimized") || strings.Contains(string(html), "Not minimized")) {
		t.Errorf("%s: report.md or report.html says a minimized finding is not minimized", dir)
	}
}

func TestMinimizedSaysWhetherTheGraphShrank(t *testing.T) {
	for _, c := range []struct {
		name string
		min  Minimizer
		want bool
		why  string
	}{
		{"shrunk", toTwoBlocks, true, ""},
		{"back to the original", backToOriginal, false, "went back to the finding's graph and found no smaller one"},
		{"as found", func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) { return g, nil }, false, "no smaller than its graph"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cf := testConfig(t, 40)
			cf.Inject, cf.Minimize = []string{"swap-arms"}, c.min
			rep := mustRun(t, cf).Report
			checkMinimizedFields(t, cf.Dir, c.want, c.why)
			if !c.want && rep.Findings[0].Minimized == "" {
				t.Errorf("the minimized graph is left out of a finding the minimizer did not shrink")
			}
		})
	}
}

func TestNotMinimizedWhenNoMinimizerRan(t *testing.T) {
	t.Run("off", func(t *testing.T) {
		cf := testConfig(t, 40)
		cf.Inject = []string{"swap-arms"}
		mustRun(t, cf)
		checkMinimizedFields(t, cf.Dir, false, MinimizeOff)
	})
	t.Run("shard", func(t *testing.T) {
		cf := testConfig(t, 40)
		cf.Inject, cf.Minimize, cf.Shard = []string{"swap-arms"}, toTwoBlocks, Shard{I: 0, N: 2}
		mustRun(t, cf)
		checkMinimizedFields(t, cf.Dir, false, "minimization deferred to merge")
	})
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		cf := testConfig(t, 40)
		cf.Inject, cf.Context, cf.ResumeCommand = []string{"swap-arms"}, ctx, "cfgfuzz run --resume DIR"
		cf.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
			cancel(errors.New("SIGINT"))
			return toTwoBlocks(g, sig, strategy, corpus.BaselineAnswer{})
		}
		mustRun(t, cf)
		checkMinimizedFields(t, cf.Dir, false, "incomplete (interrupted (SIGINT) while minimizing): its resume minimizes it")
	})
	t.Run("budget", func(t *testing.T) {
		cf := testConfig(t, 40)
		cf.Inject = []string{"swap-arms"}
		cf.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
			return nil, &BudgetSpent{Budget: 1}
		}
		mustRun(t, cf)
		checkMinimizedFields(t, cf.Dir, false, "minimization budget (--minimize-budget) was spent")
	})
}

// TestMergeCarriesNotMinimized: a merge of runs whose minimizer went back
// to the finding's graph says why, as they do; a merge of shards that
// minimizes says the findings are minimized, and one that does not
// (merge --minimize=false) says minimization is off.
func TestMergeCarriesNotMinimized(t *testing.T) {
	var dirs []string
	for i := range 2 {
		cf := testConfig(t, 40)
		cf.Inject, cf.Minimize, cf.Shard = []string{"swap-arms"}, backToOriginal, Shard{I: i, N: 2}
		dirs = append(dirs, cf.Dir)
		mustRun(t, cf)
	}
	for _, c := range []struct {
		name string
		min  Minimizer
		want bool
		why  string
	}{
		{"minimizing", toTwoBlocks, true, ""},
		{"back to the original", backToOriginal, false, "went back to the finding's graph"},
		{"--minimize=false", nil, false, MinimizeOff},
	} {
		out := mergeNightInto(t, dirs, MergeOptions{Minimize: c.min}, "")
		checkMinimizedFields(t, out, c.want, c.why)
	}

	// Unsharded runs of one campaign carry their minimized graphs, and
	// the merge says what their reports said of them.
	whole := testConfig(t, 40)
	whole.Inject, whole.Minimize = []string{"swap-arms"}, backToOriginal
	mustRun(t, whole)
	out := mergeNightInto(t, []string{whole.Dir}, MergeOptions{}, "")
	checkMinimizedFields(t, out, false, "went back to the finding's graph and found no smaller one")
	if reportJSON(t, out) != reportJSON(t, whole.Dir) {
		t.Errorf("the merge of one whole run differs from its report")
	}
}

// TestNotMinimizedNamesWhatIsNotMinimized: a finding the baseline fails
// on every graph (not new) and one of an ignored signature are not
// minimized, and say why; a known one given the state's minimized graph
// is.
func TestNotMinimizedNamesWhatIsNotMinimized(t *testing.T) {
	first := Example{Graph: "{{1, 2}, {3}, {3}, {}}"}
	rep := &Report{Findings: []Finding{
		{Signature: "exec:trace-mismatch", Count: 2, New: 0, First: first},
		{Signature: "rules:R7", Count: 1, New: 1, First: first},
		{Signature: "rules:R9", Count: 1, New: 1, First: first, Minimized: "{{}}"},
	}, State: &StateReport{Signatures: []SignatureState{
		{Signature: "exec:trace-mismatch", Class: ClassKnown},
		{Signature: "rules:R7", Class: ClassIgnored},
		{Signature: "rules:R9", Class: ClassKnown},
	}}}
	noteMinimized(rep)
	for i, want := range []string{"not new (the baseline fails its graphs too)", "a signature classed ignored", ""} {
		f := &rep.Findings[i]
		if f.IsMinimized != (want == "") || !strings.Contains(f.NotMinimized, want) || want == "" && f.NotMinimized != "" {
			t.Errorf("%s: is_minimized %v, not_minimized %q; want %q", f.Signature, f.IsMinimized, f.NotMinimized, want)
		}
	}
}
