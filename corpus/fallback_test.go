// fallback_test.go: the Runner judges a structurizer's fallback as the
// campaign does (the oracle's fallback check, last in the defaults), so
// the minimizer keeps a fallback finding's signature; a module that fails
// another check as well reports that check's signature.
package corpus

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// forgetMerges plants a selections pass that drops every selection merge.
func forgetMerges(pass string, f *structurizer.Func) {
	if pass != "selections" {
		return
	}
	for i := range f.Blocks {
		f.Blocks[i].Merge = structurizer.Merge{}
	}
}

// swapArms plants a dispatch layout whose conditionals store their
// targets swapped.
func swapArms(f *structurizer.Func) {
	for i := range f.Blocks {
		for _, s := range f.Blocks[i].Stores {
			if len(s.PerChoice) == 2 {
				s.PerChoice[0], s.PerChoice[1] = s.PerChoice[1], s.PerChoice[0]
			}
		}
	}
}

// fallbackGraph is irreducible (the pass table lays it out) and grows a
// few blocks of padding for the minimizer to remove.
const fallbackGraph = "{{1, 2}, {2, 3}, {1, 3}, {4}, {5}, {}}"

func TestRunnerReportsAndMinimizesFallbacks(t *testing.T) {
	g, err := cfg.ParseCompact(fallbackGraph, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	run := hookedRunner(t, &structurizer.Hooks{AfterPass: forgetMerges})
	o := run.Run(g)
	if o.Err != nil || o.Stats == nil || o.Stats.Fallbacks != 1 {
		t.Fatalf("outcome %+v", o)
	}
	if !strings.HasPrefix(o.Signature, oracle.SigFallback+":selfcheck:R") || !oracle.KnownSignature(o.Signature) {
		t.Fatalf("signature %q, want structurize:fallback:selfcheck:R...", o.Signature)
	}
	for _, v := range o.Verdicts {
		if v.Check != "fallback" && v.Status != oracle.Pass && v.Status != oracle.Skip {
			t.Errorf("the fallback module fails %s: %+v", v.Check, v)
		}
	}
	res, err := Minimize(g, run.Predicate(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verified || res.Signature != o.Signature || res.After.Blocks >= res.Before.Blocks {
		t.Errorf("minimized %v (%d -> %d blocks) to %q, verified %v; want %q", res.Graph, res.Before.Blocks, res.After.Blocks, res.Signature, res.Verified, o.Signature)
	}

	both := hookedRunner(t, &structurizer.Hooks{AfterPass: forgetMerges, Dispatch: swapArms})
	o = both.Run(g)
	if o.Stats == nil || o.Stats.Fallbacks != 1 || !strings.HasPrefix(o.Signature, "exec:") {
		t.Fatalf("a wrong fallback module: signature %q, stats %+v; want exec's signature to win", o.Signature, o.Stats)
	}
	var fb *oracle.Verdict
	for i := range o.Verdicts {
		if o.Verdicts[i].Check == "fallback" {
			fb = &o.Verdicts[i]
		}
	}
	if fb == nil || fb.Status != oracle.Fail {
		t.Errorf("the fallback verdict is lost: %+v", o.Verdicts)
	}
}

func hookedRunner(t *testing.T, h *structurizer.Hooks) *Runner {
	t.Helper()
	run, err := NewRunner(RunnerOptions{Structurizer: structurizer.Options{Hooks: h}})
	if err != nil {
		t.Fatal(err)
	}
	return run
}
