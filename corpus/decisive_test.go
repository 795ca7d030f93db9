// decisive_test.go: a minimizer's predicate reads only the signature, so
// once a check has failed it does not run meta, whose re-runs call the
// structurizer again (three calls a candidate instead of one, each of them
// seconds on a large graph through a slow external structurizer); Run,
// whose verdicts the findings store keeps, still runs every check.
package corpus

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestPredicateSkipsMetaAfterAFailure(t *testing.T) {
	calls := 0
	seam := func(g *cfg.Graph) Structurized {
		calls++
		return inProcess(g, structurizer.Options{Inject: []string{"swap-arms"}}, 0)
	}
	run, err := NewRunner(RunnerOptions{Structurize: seam, Checks: []string{"exec", "meta"}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfg.ParseCompact("{{1, 2}, {3}, {3}, {4, 1}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for name, pred := range map[string]Predicate{"Predicate": run.Predicate(), "PredicateFor": run.PredicateFor("exec:trace-mismatch")} {
		calls = 0
		if sig, err := pred(g); sig != "exec:trace-mismatch" || err != nil {
			t.Fatalf("%s: %q (%v), want exec:trace-mismatch", name, sig, err)
		}
		if calls != 1 {
			t.Errorf("%s: %d structurizer calls, want 1 (meta skipped after exec failed)", name, calls)
		}
	}
	calls = 0
	o := run.Run(g)
	if o.Signature != "exec:trace-mismatch" || len(o.Verdicts) != 2 || o.Verdicts[1].Check != "meta" || calls < 2 {
		t.Errorf("Run: %q, verdicts %v, %d calls; want every check run", o.Signature, o.Verdicts, calls)
	}
}
