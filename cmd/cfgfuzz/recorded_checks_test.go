// recorded_checks_test.go: a header's `# checks:` of changes alone is kept
// by a judging that adds checks beside them, as regress's replay command
// adds `+gpu` where a Vulkan device is; one that drops a check it leaves,
// or runs one it removes, is noted.
package main

import (
	"os"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestRecordedChecksHeldAgainstChecks(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2}, {2}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		header, checks string
		allowFallbacks bool
		note           bool
	}{
		{"-fallback", "+gpu,-fallback", false, false}, // regress's replay where a device is
		{"-fallback", "-fallback", false, false},
		{"-fallback", "", true, false},
		{"-fallback", "", false, true},           // the fallback check runs
		{"-fallback", "+gpu", false, true},       // so it does here
		{"-fallback", "rules,exec", false, true}, // pdom, spirv-val, ... left out
		{"pdom,rules", "pdom,rules", false, false},
		{"pdom,rules", "pdom,rules,gpu", false, true}, // a list is the set judged
	} {
		path, err := corpus.WriteRegression(t.TempDir(), "r", corpus.Header{Signature: "exec:trace-mismatch", Expect: corpus.ExpectPass, Checks: tc.header}, g)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := corpus.ParseRegression(path, data)
		if err != nil {
			t.Fatal(err)
		}
		u := usedJudging{walks: r.Header.JudgedWalks(), checks: tc.checks,
			judge: judgeFlags{targetEnv: r.Header.Env(), rulesCompat: r.Header.RulesCompat, allowFallbacks: tc.allowFallbacks}}
		note := recordedMismatch(path, data, u)
		if got := note != ""; got != tc.note {
			t.Errorf("# checks: %s judged with --checks %q (--allow-fallbacks %v): note %q, want a note: %v", tc.header, tc.checks, tc.allowFallbacks, note, tc.note)
		} else if got && !strings.Contains(note, "--checks "+tc.header) {
			t.Errorf("# checks: %s: note %q does not name the header's checks", tc.header, note)
		}
	}
}
