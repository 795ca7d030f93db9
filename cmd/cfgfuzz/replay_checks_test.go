// replay_checks_test.go: a campaign under --allow-fallbacks prints replay
// commands that name the checks it ran, as a finding's header records
// them (corpus.PinChecks), not as changes of the defaults (--checks
// -fallback), which a later cfgfuzz with other defaults would resolve to
// other checks; its regression files keep the changes (saveregs.go).
package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/corpus"
)

func TestAllowFallbacksReplayNamesTheChecks(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	code, stdout, stderr := runCmd([]string{"run", "--inject", "swap-arms", "--allow-fallbacks", "--graphs", "20", "--kinds", "reducible",
		"--progress", "none", "--minimize=false", "--out", out}, "")
	if code != exitFail || !strings.Contains(stdout, "replay: ") {
		t.Fatalf("campaign: exit %d, want 1 with replay commands\n%s%s", code, stdout, stderr)
	}
	want := "cfgfuzz check --inject swap-arms --checks " + corpus.PinChecks("-fallback")
	for _, text := range []string{stdout, readFile(t, filepath.Join(out, "report.json"))} {
		if !strings.Contains(text, want) || strings.Contains(text, "--checks -fallback") {
			t.Errorf("the replay commands of an --allow-fallbacks campaign: want %q, no change of the defaults\n%s", want, text)
		}
	}
}

// TestMinimizeFindingReplayNamesTheChecks: the replay minimize stores
// for a finding it meets names the checks it judged under, as that
// finding's header does, however they were given.
func TestMinimizeFindingReplayNamesTheChecks(t *testing.T) {
	for _, checks := range []string{"-fallback", "+gpu", "exec,pdom"} {
		got := findingTag{walks: 16, seed: 1, checks: checks}.replay("g.cfg", "exec:trace-mismatch")
		if want := "cfgfuzz check --checks " + corpus.PinChecks(checks) + " g.cfg"; got != want {
			t.Errorf("--checks %s: replay %q, want %q", checks, got, want)
		}
	}
}
