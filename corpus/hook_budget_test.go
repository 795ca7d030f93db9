// hook_budget_test.go: a search cut to the time left of a campaign's
// minimization budget names that limit as a person reads it.
package corpus

import (
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestBudgetLimitReadsRounded: the time left of a --minimize-budget
// (8.03953746s) becomes the search's limit rounded to 10 ms, which the
// report's minimize_stopped and the summary print ("time limit (8.04s)").
func TestBudgetLimitReadsRounded(t *testing.T) {
	h := &findingHook{mo: Options{Timeout: 30 * time.Second}, opt: HookOptions{
		Remaining: func() time.Duration { return 8039537460 * time.Nanosecond },
		Predicate: func(*cfg.Graph) (string, error) { return "", nil },
	}}
	o, _ := h.options("exec:trace-mismatch")
	if o.Timeout != 8040*time.Millisecond {
		t.Errorf("limit %s, want 8.04s", o.Timeout)
	}
	h.opt.Remaining = func() time.Duration { return 0 }
	if o, _ = h.options("exec:trace-mismatch"); o.Timeout <= 0 {
		t.Errorf("limit %s with the budget spent, want a positive one", o.Timeout)
	}
}
