// minimize_heartbeat_test.go: a campaign minimizing a finding on a slow
// structurizer says where each search stands at intervals, as minimize
// does, rather than nothing between "minimizing 1 of 1" and the result;
// so does merge, minimizing what the shards deferred.
package main

import (
	"path/filepath"
	"regexp"
	"strings"
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
	re := regexp.MustCompile(`(?m)^cfgfuzz: minimizing exec:trace-mismatch: [0-9]+s, ([0-9]+ judgements?, now [0-9]+ blocks?, [0-9]+ edges?|judging the graph itself \([0-9]+ blocks?, [0-9]+ edges?\) before the search)$`)
	if code != exitFail || !re.MatchString(stderr) {
		t.Errorf("exit %d, want 1 and a line on the search while it runs:\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd([]string{"run", "--structurizer", server, "--graphs", "1", "--kinds", "reducible", "--checks", "exec",
		"--minimize-steps", "2", "--progress", "none", "--out", out, "--force"}, "")
	if code != exitFail || re.MatchString(stderr) {
		t.Errorf("--progress none: exit %d, want 1 and no line on the search:\n%s%s", code, stdout, stderr)
	}
}

// TestCampaignMinimizationHeartbeatEndsAtTheResult: the lines on where a
// campaign's search stands end before its result's line (none while the
// findings store judges the graph and its result after it), and the last
// of them names the result's size, not the one before its last reduction.
func TestCampaignMinimizationHeartbeatEndsAtTheResult(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := slowServer(t, dir, bin, "0.05", "--inject swap-arms")
	defer func(every time.Duration) { campaignMinimizeEvery = every }(campaignMinimizeEvery)
	campaignMinimizeEvery = 20 * time.Millisecond
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", server, "--graphs", "1", "--kinds", "reducible", "--checks", "exec",
		"--minimize-timeout", "1s", "--progress", "plain", "--out", filepath.Join(dir, "c")}, "")
	result := regexp.MustCompile(`(?m)^minimize exec:trace-mismatch: [0-9]+ -> ([0-9]+) blocks`).FindStringSubmatchIndex(stderr)
	if code != exitFail || result == nil {
		t.Fatalf("exit %d, want 1 and the minimization's result:\n%s%s", code, stdout, stderr)
	}
	tick := regexp.MustCompile(`(?m)^cfgfuzz: minimizing exec:trace-mismatch: [0-9]+s, .*$`)
	if after := tick.FindAllString(stderr[result[1]:], -1); len(after) > 0 {
		t.Errorf("%d lines on the search after its result's, the first %q:\n%s", len(after), after[0], stderr)
	}
	before := tick.FindAllString(stderr[:result[0]], -1)
	if want := ", now " + stderr[result[2]:result[3]] + " block"; len(before) == 0 || !strings.Contains(before[len(before)-1], want) {
		t.Errorf("the last line on the search before its result does not say %q:\n%s", want, stderr)
	}
}

// TestMergeMinimizationHeartbeat: merge minimizes the findings the shards
// deferred, and says where each search stands at intervals as run does,
// unless --progress none.
func TestMergeMinimizationHeartbeat(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	server := slowServer(t, dir, bin, "0.05", "--inject swap-arms")
	defer func(every time.Duration) { campaignMinimizeEvery = every }(campaignMinimizeEvery)
	campaignMinimizeEvery = 200 * time.Millisecond
	var shards []string
	for _, sh := range []string{"0/2", "1/2"} {
		out := filepath.Join(dir, "s"+sh[:1])
		code, stdout, stderr := runCmd([]string{"run", "--structurizer", server, "--graphs", "2", "--kinds", "reducible", "--checks", "exec",
			"--shard", sh, "--progress", "none", "--out", out}, "")
		if code != exitFail && code != exitOK {
			t.Fatalf("shard %s: exit %d\n%s%s", sh, code, stdout, stderr)
		}
		shards = append(shards, out)
	}
	re := regexp.MustCompile(`(?m)^cfgfuzz: minimizing exec:trace-mismatch: [0-9]+s, ([0-9]+ judgements?, now [0-9]+ blocks?, [0-9]+ edges?|judging the graph itself \([0-9]+ blocks?, [0-9]+ edges?\) before the search)$`)
	code, stdout, stderr := runCmd(append([]string{"merge", "--minimize-steps", "2", "--progress", "plain", "--out", filepath.Join(dir, "m")}, shards...), "")
	if code != exitFail || !re.MatchString(stderr) {
		t.Errorf("merge: exit %d, want 1 and a line on the search while it runs:\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd(append([]string{"merge", "--minimize-steps", "2", "--progress", "none", "--out", filepath.Join(dir, "m2")}, shards...), "")
	if code != exitFail || re.MatchString(stderr) || strings.Contains(stderr, "minimizing") {
		t.Errorf("merge --progress none: exit %d, want 1 and no line on the search:\n%s%s", code, stdout, stderr)
	}
}

// TestProgressNoneQuietsTheMinimization: with --progress none a campaign
// writes no line on its minimizations (their results are in the report);
// with plain lines it says what each search gave.
func TestProgressNoneQuietsTheMinimization(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []string{"none", "plain"} {
		code, stdout, stderr := runCmd([]string{"run", "--graphs", "20", "--kinds", "reducible", "--inject", "swap-arms", "--dispatch-every", "0",
			"--progress", mode, "--out", filepath.Join(dir, mode)}, "")
		if code != exitFail {
			t.Fatalf("--progress %s: exit %d, want 1\n%s%s", mode, code, stdout, stderr)
		}
		if got := strings.Contains(stderr, "minimize exec:trace-mismatch: "); got != (mode == "plain") {
			t.Errorf("--progress %s: a minimization line on stderr: %v\n%s", mode, got, stderr)
		}
	}
}

// TestCampaignStoreHeartbeat: after a timeout finding's minimization, the
// findings store judges its graph and its minimized graph once more, each
// up to --timeout on a structurizer that hangs (badstruct loops forever
// on graphs of 5 blocks); a campaign says where those judgements stand at
// intervals, as it does for the search, unless --progress none.
func TestCampaignStoreHeartbeat(t *testing.T) {
	dir := t.TempDir()
	spec := "cmd:" + builtProgram(t, "../../fuzz/testdata/badstruct")
	defer func(every time.Duration) { campaignMinimizeEvery = every }(campaignMinimizeEvery)
	campaignMinimizeEvery = 200 * time.Millisecond
	args := []string{"run", "--structurizer", spec, "--graphs", "1", "--seed", "2", "--kinds", "reducible", "--blocks", "5-5",
		"--checks", "exec", "--timeout", "1s", "--minimize-steps", "2"}
	tick := regexp.MustCompile(`(?m)^cfgfuzz: storing structurize:timeout: [0-9]+s, judging (the graph found|its minimized graph) \(5 blocks, [0-9]+ edges?\) once more for the findings store, [12] of 2$`)
	code, stdout, stderr := runCmd(append(args, "--progress", "plain", "--out", filepath.Join(dir, "plain")), "")
	announce := strings.Index(stderr, "judging the graph and its minimized graph once more for the findings store")
	if code != exitFail || announce < 0 || !tick.MatchString(stderr[announce:]) {
		t.Errorf("exit %d, want 1 and lines while the findings store judges the timeout finding:\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd(append(args, "--progress", "none", "--out", filepath.Join(dir, "none")), "")
	if code != exitFail || strings.Contains(stderr, "cfgfuzz: storing") {
		t.Errorf("--progress none: exit %d, want 1 and no line on the findings store:\n%s%s", code, stdout, stderr)
	}
}
