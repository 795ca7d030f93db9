// mergeout_test.go: merge's --out. A folder that holds an earlier merge is
// refused without --force, and with it cleared of what a merge writes
// (reports, findings, pictures, state update) once the merge goes on; a
// refused merge leaves no folder of its own behind, and an earlier merge
// as it was.
package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mergeShards runs a campaign of 12 graphs as two shards in base/name0
// and base/name1, with extra flags.
func mergeShards(t *testing.T, base, name string, extra ...string) []string {
	t.Helper()
	var dirs []string
	for i := range 2 {
		d := filepath.Join(base, name+string(rune('0'+i)))
		args := append([]string{"run", "--seed", "3", "--graphs", "12", "--shard", string(rune('0'+i)) + "/2", "--out", d, "--progress", "none"}, extra...)
		if code, _, stderr := runCmd(args, ""); code == exitUsage {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

func TestMergeOutHoldingAMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two sharded campaigns")
	}
	tmp := t.TempDir()
	a := mergeShards(t, tmp, "A", "--inject", "swap-arms")
	b := mergeShards(t, tmp, "B")
	m := filepath.Join(tmp, "M")
	code, stdout, stderr := runCmd(append([]string{"merge", "--progress", "none", "--out", m}, a...), "")
	if code != exitFail {
		t.Fatalf("merge A: exit %d, want 1 (the planted bug's findings)\n%s", code, stderr)
	}
	if !regexp.MustCompile(`; 2 shards ran \d+ in [\d.]+ s \(the longest shard's time\), `).MatchString(stdout) || strings.Contains(stdout, "this run") {
		t.Errorf("merge A's summary says the shards' time as a run's:\n%s", stdout)
	}
	old, _ := os.ReadDir(filepath.Join(m, "findings"))
	if len(old) == 0 {
		t.Fatal("merge A minimized nothing into M/findings")
	}
	report := readFile(t, filepath.Join(m, "report.json"))
	code, _, stderr = runCmd(append([]string{"merge", "--progress", "none", "--out", m}, b...), "")
	if code != exitUsage || !strings.Contains(stderr, "holds an earlier merge") || !strings.Contains(stderr, "--force") {
		t.Errorf("merge B into M: exit %d, want 2 naming the earlier merge and --force\n%s", code, stderr)
	}
	if readFile(t, filepath.Join(m, "report.json")) != report {
		t.Error("the refused merge changed M/report.json")
	}
	// A merge --force that is refused (one shard of two) leaves the
	// earlier merge whole: it removes it only once it goes on.
	code, _, stderr = runCmd([]string{"merge", "--force", "--progress", "none", "--out", m, b[0]}, "")
	if code != exitUsage || !strings.Contains(stderr, "incomplete shard set") {
		t.Errorf("merge --force of one shard into M: exit %d, want 2 (incomplete)\n%s", code, stderr)
	}
	if left, _ := os.ReadDir(filepath.Join(m, "findings")); len(left) != len(old) || readFile(t, filepath.Join(m, "report.json")) != report {
		t.Error("the refused merge --force removed or changed the earlier merge")
	}
	code, _, stderr = runCmd(append([]string{"merge", "--force", "--progress", "none", "--out", m}, b...), "")
	if code != exitOK {
		t.Fatalf("merge --force B into M: exit %d, want 0\n%s", code, stderr)
	}
	if left, _ := os.ReadDir(filepath.Join(m, "findings")); len(left) > 0 {
		t.Errorf("merge --force B left merge A's findings in M/findings: %v", left)
	}
	if rep := readReportJSON(t, m); len(rep.Findings) != 0 {
		t.Errorf("merge --force B: %d findings, want none", len(rep.Findings))
	}
}

// TestRefusedMergeLeavesNoFolder: a merge refused after it made --out
// (a shard without a results log, a state it cannot read) removes the
// folder; one that existed stays.
func TestRefusedMergeLeavesNoFolder(t *testing.T) {
	tmp := t.TempDir()
	empty := filepath.Join(tmp, "empty-shard")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(tmp, "badstate")
	os.Mkdir(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "findings.json"), []byte("{not json"), 0o644)
	for _, args := range [][]string{
		{"merge", "--out", filepath.Join(tmp, "m1"), empty},
		{"merge", "--out", filepath.Join(tmp, "m2"), filepath.Join(tmp, "nosuch")},
		{"merge", "--state", bad, "--out", filepath.Join(tmp, "m3"), empty},
	} {
		code, _, stderr := runCmd(args, "")
		if code != exitUsage {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, stderr)
		}
		if _, err := os.Stat(args[len(args)-2]); err == nil {
			t.Errorf("%v: the refused merge left %s behind", args, args[len(args)-2])
		}
	}
	kept := filepath.Join(tmp, "kept")
	os.Mkdir(kept, 0o755)
	if code, _, _ := runCmd([]string{"merge", "--out", kept, empty}, ""); code != exitUsage {
		t.Errorf("merge into kept: exit %d, want 2", code)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the refused merge removed the --out it did not make: %v", err)
	}
}
