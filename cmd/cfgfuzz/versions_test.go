// versions_test.go: one night's shards run by two builds of cfgfuzz,
// told apart at link time (-X main.buildID): merge refuses them (exit 2,
// naming both builds and --mixed), merge --mixed reports the night as
// mixed (report.json, report.md, stdout, exit 2 with nothing new) and
// leaves the state directory as it was; --resume of one build's shard by
// the other is refused, exit 2, naming both and what to do.

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// buildAs builds this command into dir with buildID set to id.
func buildAs(t *testing.T, dir, id string) string {
	t.Helper()
	bin := filepath.Join(dir, id)
	if out, err := exec.Command("go", "build", "-ldflags", "-X main.buildID="+id, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", id, err, out)
	}
	return bin
}

func TestShardsOfTwoBuilds(t *testing.T) {
	tmp := t.TempDir()
	binA, binB := buildAs(t, tmp, "fake-a"), buildAs(t, tmp, "fake-b")
	state := filepath.Join(tmp, "state")
	shard := func(bin, i string) string {
		out := filepath.Join(tmp, "s"+i)
		code, msg := exitCode(t, exec.Command(bin, "run", "--graphs", "40", "--seed", "3", "--shard", i+"/2", "--state", state, "--night", "2026-12-05",
			"--progress", "none", "--minimize=false", "--out", out))
		if code != exitOK {
			t.Fatalf("shard %s: exit %d\n%s", i, code, msg)
		}
		return out
	}
	s0, s1 := shard(binA, "0"), shard(binB, "1")
	// each writer as messages name it: the build, the log format and the
	// SPIRV-Tools both builds link
	wA := "cfgfuzz fake-a (log format 2; " + oracle.ValidatorVersion() + ")"
	wB := "cfgfuzz fake-b (log format 2; " + oracle.ValidatorVersion() + ")"

	code, msg := exitCode(t, exec.Command(binA, "merge", "--state", state, "--out", filepath.Join(tmp, "refused"), s0, s1))
	if code != exitUsage || !strings.Contains(msg, wA+" wrote "+s0+" (0/2)") || !strings.Contains(msg, wB+" wrote "+s1+" (1/2)") || !strings.Contains(msg, "--mixed") || !strings.Contains(msg, "main.buildID=ID") {
		t.Errorf("merge of two builds: exit %d, want 2 naming both builds, how to name them alike and --mixed\n%s", code, msg)
	}

	merged := filepath.Join(tmp, "merged")
	cmd := exec.Command(binA, "merge", "--mixed", "--state", state, "--out", merged, s0, s1)
	var stdout strings.Builder
	cmd.Stdout = &stdout
	code, msg = exitCode(t, cmd)
	if code != exitUsage || !strings.Contains(stdout.String(), "mixed: shards of 2 cfgfuzz builds merged by cfgfuzz fake-a") || !strings.Contains(msg, "leaves "+state+" as it was") {
		t.Errorf("merge --mixed: exit %d, want 2 with the mixed line on stdout and the state left\n%s%s", code, stdout.String(), msg)
	}
	rep := readReportJSON(t, merged)
	if m := rep.Mixed; m == nil || len(m.Shards) != 2 || m.Shards[0].Writer.Build != "fake-a" || m.Shards[1].Writer.Build != "fake-b" || m.MergedBy.Build != "fake-a" {
		t.Errorf("report.json mixed = %+v", rep.Mixed)
	}
	if rep.Graphs+rep.Skipped != 40 || rep.Incomplete != nil {
		t.Errorf("merged %d graphs and %d skipped (incomplete %+v), want 40 indices", rep.Graphs, rep.Skipped, rep.Incomplete)
	}
	if md := readFile(t, filepath.Join(merged, "report.md")); !strings.Contains(md, "These verdicts are not one cfgfuzz's") {
		t.Errorf("report.md does not say the night is mixed")
	}
	if _, err := os.Stat(filepath.Join(state, "findings.json")); !os.IsNotExist(err) {
		t.Errorf("a mixed night committed its state (%v)", err)
	}

	code, msg = exitCode(t, exec.Command(binB, "run", "--resume", s0, "--progress", "none", "--minimize=false", "--state", state))
	if code != exitUsage || !strings.Contains(msg, s0+" was written by "+wA+"; this is "+wB+". ") || !strings.Contains(msg, "--force") {
		t.Errorf("resume by another build: exit %d, want 2 naming both builds and what to do\n%s", code, msg)
	}

	if out, err := exec.Command(binA, "version").Output(); err != nil || !strings.Contains(string(out), "campaign writer: "+wA+"\n") {
		t.Errorf("version: %s (%v), want a line naming the writer, %s", out, err, wA)
	}
	out, err := exec.Command(binA, "version", "--json").Output()
	var v struct {
		Writer struct {
			Format    int    `json:"format"`
			Build     string `json:"build"`
			Validator string `json:"validator"`
		} `json:"writer"`
	}
	if err != nil || json.Unmarshal(out, &v) != nil || v.Writer.Build != "fake-a" || v.Writer.Format != 2 || v.Writer.Validator != oracle.ValidatorVersion() {
		t.Errorf("version --json: %s (%v), want writer fake-a, format 2, validator %s", out, err, oracle.ValidatorVersion())
	}
}
