// hook_store_test.go: the campaign's minimizer says, before it judges the
// finding's graph and its minimized graph once more for the findings store,
// that it does: on a slow structurizer those judgements take as long as
// any others, and without the line the campaign looks stuck after the
// minimizer's result.
package corpus

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func TestHookSaysItJudgesForTheStore(t *testing.T) {
	g := compact(t, "{{1, 2}, {3}, {3}, {4, 1}, {}}")
	var log strings.Builder
	hook, err := MinimizeHook(HookOptions{Runner: RunnerOptions{Structurizer: structurizer.Options{Inject: []string{"swap-arms"}}},
		Store: &Store{Dir: t.TempDir()}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := hook(g, "exec:trace-mismatch", BaselineAnswer{}); m == nil || err != nil {
		t.Fatalf("%v, %v", m, err)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	want := "minimize exec:trace-mismatch: judging the graph and its minimized graph once more for the findings store"
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "minimize exec:trace-mismatch: 5 -> ") || !strings.HasPrefix(lines[1], want) {
		t.Errorf("logged:\n%s\nwant the result's line, then %q", log.String(), want)
	}
}

// TestHookNamesTheStrategy: a finding of another strategy than the
// campaign's (the dispatch share's) is named with it in every line, as
// the campaign names it, so two findings of one signature read apart.
func TestHookNamesTheStrategy(t *testing.T) {
	g := compact(t, "{{1, 2}, {3}, {3}, {4, 1}, {}}")
	var log strings.Builder
	hook, err := MinimizeHook(HookOptions{Runner: RunnerOptions{Structurizer: structurizer.Options{Strategy: "dispatch", Inject: []string{"swap-arms"}}},
		Store: &Store{Dir: t.TempDir()}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := hook(g, "exec:trace-mismatch", BaselineAnswer{}); m == nil || err != nil {
		t.Fatalf("%v, %v", m, err)
	}
	for _, l := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if !strings.HasPrefix(l, "minimize exec:trace-mismatch (strategy dispatch): ") {
			t.Errorf("a line without the strategy: %q", l)
		}
	}
}
