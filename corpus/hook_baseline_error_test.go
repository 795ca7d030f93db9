// hook_baseline_error_test.go: a baseline that cannot judge the
// minimized graph leaves it unverified, and the campaign's hook says so
// in its error (Finding.MinimizeError), not a clean minimization.
package corpus

import (
	"errors"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestHookSaysTheBaselineCouldNotJudgeTheResult(t *testing.T) {
	g := randomGraph(7, 30)
	if sig, _ := fakeBugs(g); sig != "fake:A" {
		t.Fatalf("setup: %v gives %q", g, sig)
	}
	fresh := 0
	base := func(c *cfg.Graph) (string, error) {
		if fresh >= 3 {
			return "", errors.New("the baseline's process died")
		}
		return "", nil
	}
	hook, err := MinimizeHook(HookOptions{Predicate: fakeBugs, Minimize: Options{Baseline: base},
		Fresh: func(string) Predicate { return func(c *cfg.Graph) (string, error) { fresh++; return fakeBugs(c) } }})
	if err != nil {
		t.Fatal(err)
	}
	min, err := hook(g, "fake:A", BaselineAnswer{})
	t.Logf("fresh calls %d; minimized %v; err %v", fresh, min, err)
	if fresh < 3 {
		t.Fatalf("setup: %d fresh judgements; the result's are the third and after", fresh)
	}
	if err == nil || !strings.Contains(err.Error(), "on the baseline: the baseline's process died") {
		t.Errorf("the baseline could not judge the result: the hook returned %v with error %v, want the baseline's error", min, err)
	}
}
