// minimizebudget_test.go: a campaign's minimization budget is set from
// the command line (--minimize-steps, --minimize-timeout; 0 none), and a
// finding whose search a limit stopped says so in report.json
// (minimize_stopped), report.md and the summary; a search run to its
// fixpoint says nothing of the kind; a negative budget is a usage error.
package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

func TestMinimizeBudgetFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		args    []string
		stopped string
	}{
		{"steps", []string{"--minimize-steps", "3"}, "step limit (3)"},
		{"none", []string{"--minimize-steps", "0", "--minimize-timeout", "0"}, ""},
	} {
		out := filepath.Join(dir, c.name)
		args := append([]string{"run", "--graphs", "40", "--kinds", "reducible", "--weights", "w0", "--inject", "swap-arms", "--dispatch-every", "0", "--progress", "none", "--out", out}, c.args...)
		code, stdout, stderr := runCmd(args, "")
		if code != exitFail {
			t.Fatalf("%s: exit %d, want 1\n%s%s", c.name, code, stdout, stderr)
		}
		rep := readReportJSON(t, out)
		md, err := os.ReadFile(filepath.Join(out, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Findings) == 0 {
			t.Fatalf("%s: no finding", c.name)
		}
		for _, f := range rep.Findings {
			if f.Minimized == "" || f.MinimizeStopped != c.stopped {
				t.Errorf("%s: %s: minimized %q, minimize_stopped %q, want a graph and %q", c.name, f.Signature, f.Minimized, f.MinimizeStopped, c.stopped)
			}
		}
		said := strings.Contains(string(md), "stopped by its") && strings.Contains(stdout, "stopped by its")
		if said != (c.stopped != "") {
			t.Errorf("%s: report.md and the summary say the search was stopped: %v, want %v\n%s", c.name, said, c.stopped != "", stdout)
		}
	}
	code, _, stderr := runCmd([]string{"run", "--minimize-steps", "-1", "--out", filepath.Join(dir, "neg")}, "")
	if code != exitUsage || !strings.Contains(stderr, "minimize-steps") {
		t.Errorf("--minimize-steps -1: exit %d, %s; want 2 naming the flag", code, stderr)
	}
}

// TestMinimizeStoppedCarriedByTheState: a night whose minimization a limit
// stopped stores the mark with the signature's minimized graph, and the
// next night, which takes that graph from the state instead of minimizing
// again, reports the mark too.
func TestMinimizeStoppedCarriedByTheState(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	night := func(name, seed string) *fuzz.Report {
		t.Helper()
		out := filepath.Join(dir, name)
		code, stdout, stderr := runCmd([]string{"run", "--graphs", "40", "--seed", seed, "--kinds", "reducible", "--weights", "w0", "--inject", "swap-arms", "--dispatch-every", "0", "--minimize-steps", "3", "--state", state, "--progress", "none", "--out", out}, "")
		if code != exitFail && code != exitOK {
			t.Fatalf("%s: exit %d\n%s%s", name, code, stdout, stderr)
		}
		rep := readReportJSON(t, out)
		if len(rep.Findings) == 0 {
			t.Fatalf("%s: no finding", name)
		}
		return rep
	}
	night("first", "1")
	var st struct {
		Signatures []fuzz.StoredSignature `json:"signatures"`
	}
	data, err := os.ReadFile(filepath.Join(state, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	for _, e := range st.Signatures {
		if e.Minimized == "" || e.MinimizeStopped != "step limit (3)" {
			t.Errorf("stored %s: minimized %q, minimize_stopped %q; want a graph and the step limit", e.Signature, e.Minimized, e.MinimizeStopped)
		}
	}
	for _, f := range night("second", "2").Findings {
		if f.MinimizeStopped != "step limit (3)" {
			t.Errorf("second night, %s: minimize_stopped %q, want the stored mark", f.Signature, f.MinimizeStopped)
		}
	}
}

// TestBudgetHelpSaysHowFarMinimizationRuns: --duration's and
// --minimize-timeout's help say up front how far past them a campaign's
// minimization may run (the judgements around each search, each up to 4
// structurizer calls of up to --timeout on a structurizer that hangs, and
// a new process's start-up), so that a job sized for
// --duration is sized for them too.
func TestBudgetHelpSaysHowFarMinimizationRuns(t *testing.T) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f campaignFlags
	f.define(fs, false)
	for name, want := range map[string][]string{
		"duration":         {"past it", "--minimize-timeout plus 9 judgements, each up to 4 structurizer calls (the graph's and the meta check's 3 re-runs) of up to --timeout", "a new process's start-up", "--minimize-budget bounds all of it"},
		"minimize-timeout": {"runs past it by up to 9 judgements, each up to 4 structurizer calls (the graph's and the meta check's 3 re-runs) of up to the structurizer's --timeout", "a new process's start-up", "the findings store's 2"},
	} {
		usage := fs.Lookup(name).Usage
		for _, w := range want {
			if !strings.Contains(usage, w) {
				t.Errorf("--%s's help %q: want %q", name, usage, w)
			}
		}
	}
}

// TestCampaignMinimizerJudgesWithTheCampaignsChecks: a campaign's
// minimizer, and the judgements it stores beside a finding, run the checks
// the campaign ran, not every check that can run here: with the gpu check
// built in and a Vulkan device present, a campaign on the default checks
// does not run it on the candidates of its minimizations.
func TestCampaignMinimizerJudgesWithTheCampaignsChecks(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	code, stdout, stderr := runCmd([]string{"run", "--graphs", "20", "--kinds", "reducible", "--inject", "swap-arms", "--dispatch-every", "0", "--progress", "none", "--out", out}, "")
	if code != exitFail {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	rep := readCampaignReport(t, out)
	stored, err := filepath.Glob(filepath.Join(out, "findings", "*", "*", "verdict.json"))
	if err != nil || len(stored) == 0 {
		t.Fatalf("no stored finding: %v", err)
	}
	for _, path := range stored {
		var v struct{ Verdicts []oracle.Verdict }
		b, err := os.ReadFile(path)
		if err != nil || json.Unmarshal(b, &v) != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var ran []string
		for _, x := range v.Verdicts {
			ran = append(ran, x.Check)
		}
		if !slices.Equal(ran, rep.Checks) {
			t.Errorf("%s: judged with %v, the campaign with %v", path, ran, rep.Checks)
		}
	}
}
