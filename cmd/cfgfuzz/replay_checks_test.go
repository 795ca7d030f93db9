// replay_checks_test.go: a campaign under --allow-fallbacks prints replay
// commands that leave the fallback check out as its regression files
// record it, --checks -fallback, not every other check by name.
package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestAllowFallbacksReplayShort(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	code, stdout, stderr := runCmd([]string{"run", "--inject", "swap-arms", "--allow-fallbacks", "--graphs", "20", "--kinds", "reducible",
		"--progress", "none", "--minimize=false", "--out", out}, "")
	if code != exitFail || !strings.Contains(stdout, "replay: ") {
		t.Fatalf("campaign: exit %d, want 1 with replay commands\n%s%s", code, stdout, stderr)
	}
	for _, text := range []string{stdout, readFile(t, filepath.Join(out, "report.json"))} {
		if !strings.Contains(text, "cfgfuzz check --inject swap-arms --checks -fallback") || strings.Contains(text, "--checks pdom") {
			t.Errorf("the replay commands of an --allow-fallbacks campaign: want --checks -fallback, no check named\n%s", text)
		}
	}
}
