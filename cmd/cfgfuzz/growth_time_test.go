// growth_time_test.go: --growth-time sets the growth check's time limit
// on every judging command; a structurizer slower than the default limit
// is growth:time without the flag and passes with it above its time, and
// a campaign's finding records a value other than the default in its
// replay command and its saved regression, which regress judges under.
package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/schema"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// TestGrowthTimeReachesTheOracle: the flag's value is the oracle's
// GrowthOptions.TimeLimit on check (apply), in a campaign's settings
// (settings, read back by judgeOf) and in the runners of minimize and
// regress (corpus.CampaignOracle); the default records nothing.
func TestGrowthTimeReachesTheOracle(t *testing.T) {
	var j judgeFlags
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	j.define(fs)
	if err := fs.Parse([]string{"--growth-time", "30s"}); err != nil {
		t.Fatal(err)
	}
	if err := j.validate(); err != nil {
		t.Fatal(err)
	}
	var o oracle.Options
	j.apply(&o)
	var s fuzz.Settings
	j.settings(&s)
	if o.Growth.TimeLimit != 30*time.Second || time.Duration(s.GrowthTime) != 30*time.Second || judgeOf(&s).growthTime != 30*time.Second {
		t.Errorf("--growth-time 30s: oracle %v, settings %v, read back %v", o.Growth.TimeLimit, s.GrowthTime, judgeOf(&s).growthTime)
	}
	if got := corpus.CampaignOracle(corpus.Judging{GrowthTime: j.growthTime}).Growth.TimeLimit; got != 30*time.Second {
		t.Errorf("corpus.CampaignOracle: %v, want 30s", got)
	}
	var d judgeFlags
	d.define(flag.NewFlagSet("check", flag.ContinueOnError))
	var ds fuzz.Settings
	d.settings(&ds)
	if d.growthTime != oracle.DefaultGrowthTime || ds.GrowthTime != 0 || !strings.Contains(fuzz.CheckCommand(&s, ""), " --growth-time 30s") || strings.Contains(fuzz.CheckCommand(&ds, ""), "growth-time") {
		t.Errorf("default %v recorded as %v; replays %q, %q", d.growthTime, ds.GrowthTime, fuzz.CheckCommand(&s, ""), fuzz.CheckCommand(&ds, ""))
	}
}

// TestGrowthTimeJudgesASlowStructurizer: a structurizer that takes 1.1 s
// a graph fails growth:time on check under the default limit (1 s and
// 1 ms a block), the detail naming --growth-time, and passes with
// --growth-time 5s.
func TestGrowthTimeJudgesASlowStructurizer(t *testing.T) {
	if testing.Short() {
		t.Skip("a structurizer that sleeps")
	}
	slow := misbehaveSpec(t, "slow:1.1")
	const g = "{{1, 2}, {3}, {3}, {}}\n"
	code, out, errs := runCmd([]string{"check", "--structurizer", slow, "--checks", "growth", "-"}, g)
	if code != exitFail || !strings.Contains(out, "FAIL growth:time ") || !strings.Contains(out, "--growth-time raises the 1s") {
		t.Errorf("default limit: exit %d, want 1 failing growth:time naming --growth-time\n%s%s", code, out, errs)
	}
	code, out, errs = runCmd([]string{"check", "--structurizer", slow, "--checks", "growth", "--growth-time", "5s", "-"}, g)
	if code != exitOK {
		t.Errorf("--growth-time 5s: exit %d, want 0\n%s%s", code, out, errs)
	}
}

// TestGrowthTimeCampaignReplayAndRegression: a campaign run with
// --growth-time 20ms on a structurizer that takes 0.15 s a graph finds
// growth:time; its replay commands (report and findings store) carry the
// flag, its saved regression records '# growth-time: 20ms', and regress
// judges the file under it (fails, as the campaign did) unless
// --growth-time says otherwise.
func TestGrowthTimeCampaignReplayAndRegression(t *testing.T) {
	if testing.Short() {
		t.Skip("a structurizer that sleeps")
	}
	slow := misbehaveSpec(t, "slow:0.15")
	dir := t.TempDir()
	out, regs := filepath.Join(dir, "c"), filepath.Join(dir, "regs")
	code, stdout, stderr := runCmd([]string{"run", "--structurizer", slow, "--checks", "growth", "--growth-time", "20ms", "--graphs", "1",
		"--blocks", "3-4", "--minimize-steps", "1", "--progress", "none", "--out", out, "--save-regressions", regs}, "")
	if code != exitFail {
		t.Fatalf("campaign: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	rep := readCampaignReport(t, out)
	if err := schema.Validate([]byte(readFile(t, filepath.Join(out, "report.json")))); err != nil || time.Duration(rep.Settings.GrowthTime) != 20*time.Millisecond {
		t.Errorf("report.json: config growth_time %v, schema: %v", rep.Settings.GrowthTime, err)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Signature != "growth:time" || !strings.Contains(rep.Findings[0].Replay, " --growth-time 20ms") {
		t.Fatalf("findings %+v: want one growth:time whose replay carries --growth-time 20ms", rep.Findings)
	}
	replays := storedReplays(t, out)
	for _, r := range replays {
		if !strings.Contains(r, " --growth-time 20ms") {
			t.Errorf("the findings store's replay %q lacks --growth-time 20ms", r)
		}
	}
	if len(replays) == 0 {
		t.Errorf("the campaign stored no finding in %s", out)
	}
	files, err := filepath.Glob(filepath.Join(regs, "*.cfg"))
	if err != nil || len(files) != 1 {
		t.Fatalf("saved regressions %v (%v), want one\n%s%s", files, err, stdout, stderr)
	}
	r, err := corpus.ReadRegression(files[0])
	if err != nil || r.Header.GrowthTime != 20*time.Millisecond || !strings.Contains(readFile(t, files[0]), "# growth-time: 20ms\n") {
		b, _ := os.ReadFile(files[0])
		t.Fatalf("the saved regression (%v) does not record the limit:\n%s", err, b)
	}
	code, stdout, stderr = runCmd([]string{"regress", regs}, "")
	if code != exitFail || !strings.Contains(stdout+stderr, "growth:time") || !strings.Contains(stdout+stderr, "--growth-time 20ms") {
		t.Errorf("regress under the file's own limit: exit %d, want 1 failing growth:time with a replay carrying it\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr = runCmd([]string{"regress", "--growth-time", "5s", regs}, ""); code != exitOK {
		t.Errorf("regress --growth-time 5s: exit %d, want 0\n%s%s", code, stdout, stderr)
	}
}
