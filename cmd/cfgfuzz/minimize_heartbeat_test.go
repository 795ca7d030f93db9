// minimize_heartbeat_test.go: a campaign minimizing a finding on a slow
// structurizer says where each search stands at intervals, as minimize
// does, rather than nothing between "minimizing 1 of 1" and the result.
package main

import (
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

func TestCampaignMinimizationHeartbeat(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := slowServer(t, dir, bin, "0.05", "--inject swap-arms")
	defer func(every time.Duration) { campaignMinimizeEvery = every }(campaignMinimizeEvery)
	campaignMinimizeEvery = 200 * time.Millisecond
	out := filepath.Join(dir, "c")
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", server, "--graphs", "1", "--kinds", "reducible", "--checks", "exec",
		"--minimize-steps", "2", "--progress", "plain", "--out", out}, "")
	re := regexp.MustCompile(`(?m)^cfgfuzz: minimizing exec:trace-mismatch: [0-9]+s, [0-9]+ judgements?, now [0-9]+ blocks?, [0-9]+ edges?$`)
	if code != exitFail || !re.MatchString(stderr) {
		t.Errorf("exit %d, want 1 and a line on the search while it runs:\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd([]string{"run", "--structurizer", server, "--graphs", "1", "--kinds", "reducible", "--checks", "exec",
		"--minimize-steps", "2", "--progress", "none", "--out", out, "--force"}, "")
	if code != exitFail || re.MatchString(stderr) {
		t.Errorf("--progress none: exit %d, want 1 and no line on the search:\n%s%s", code, stdout, stderr)
	}
}
