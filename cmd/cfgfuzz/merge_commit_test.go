// merge_commit_test.go: a merge whose commit into the state cannot be
// written keeps its output, its reports saying the night is not
// committed and how to run the merge again; that same command, run again
// once the state can be written, replaces the unfinished merge and
// commits the night.
package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// stateShards runs a night of 12 graphs with --state st as two shards in
// base/name0 and base/name1.
func stateShards(t *testing.T, base, name, st string) []string {
	t.Helper()
	var dirs []string
	for i := range 2 {
		d := filepath.Join(base, name+string(rune('0'+i)))
		args := []string{"run", "--seed", "3", "--graphs", "12", "--shard", string(rune('0'+i)) + "/2", "--out", d, "--progress", "none",
			"--inject", "swap-arms", "--state", st, "--night", "2026-03-01"}
		if code, _, stderr := runCmd(args, ""); code == exitUsage {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

func TestMergeCommitNotWrittenKeepsItsOutput(t *testing.T) {
	tmp := t.TempDir()
	st := filepath.Join(tmp, "st")
	shards := stateShards(t, tmp, "s", st)
	// A seen.bloom.tmp that cannot be made (a directory in its place)
	// fails the commit as a full disk does, after the reports.
	block := filepath.Join(st, fuzz.StateSeenFile+".tmp")
	if err := os.MkdirAll(filepath.Join(block, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(tmp, "m")
	args := append([]string{"merge", "--minimize=false", "--progress", "none", "--state", st, "--out", m}, shards...)
	again := "cfgfuzz " + shellWords(args)
	code, stdout, stderr := runCmd(args, "")
	t.Logf("merge: exit %d\n%s%s", code, stdout, stderr)
	if code != exitUsage || !strings.Contains(stderr, "state not committed: ") || !strings.Contains(stderr, again) {
		t.Errorf("merge: exit %d; want 2, saying the state is not committed and naming %q", code, again)
	}
	for _, f := range []string{"report.json", "report.md", fuzz.StateUpdateDir + "/" + fuzz.StateFindingsFile, fuzz.StateUpdateDir + "/" + fuzz.StateSeenFile, unfinishedFile} {
		if _, err := os.Stat(filepath.Join(m, f)); err != nil {
			t.Errorf("the merge whose commit failed left no %s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(st, fuzz.StateFindingsFile)); err == nil {
		t.Error("the failed commit wrote the state's findings.json")
	}
	if _, err := os.Stat(filepath.Join(m, "report.json")); err == nil {
		rep := readJSONReport(t, m)
		if n := rep.State.NotCommitted; !strings.Contains(n, "could not be written into "+st) || !strings.Contains(n, filepath.Join(m, fuzz.StateUpdateDir)) || !strings.Contains(n, again) {
			t.Errorf("report.json's state.not_committed = %q; want why, the update's path and the command to run again", n)
		}
	}
	// Another merge into m is still refused without --force.
	if code, _, stderr := runCmd([]string{"merge", "--minimize=false", "--state", st, "--out", m, shards[0], shards[1], shards[1]}, ""); code != exitUsage || !strings.Contains(stderr, "unfinished merge of other shards") {
		t.Errorf("another merge into m: exit %d, want 2 naming the unfinished merge\n%s", code, stderr)
	}
	// Once the state can be written the same command commits the night.
	if err := os.RemoveAll(block); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCmd(args, "")
	t.Logf("merge again: exit %d\n%s%s", code, stdout, stderr)
	if code == exitUsage {
		t.Fatalf("the merge run again: exit 2, want the night's verdict")
	}
	if _, err := os.Stat(filepath.Join(st, fuzz.StateFindingsFile)); err != nil {
		t.Errorf("the merge run again did not commit the night: %v", err)
	}
	if _, err := os.Stat(filepath.Join(m, unfinishedFile)); err == nil {
		t.Errorf("the merge run again left %s", unfinishedFile)
	}
	if rep := readJSONReport(t, m); rep.State.NotCommitted != "" {
		t.Errorf("the merge run again says %q", rep.State.NotCommitted)
	}
}
