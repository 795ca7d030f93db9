// campaigndir_test.go: a campaign directory has one owner at a time (a
// second campaign is refused while the first runs, a killed owner's lock
// is taken over), a new run does not replace a campaign without --force,
// and merge does not write over one of its inputs.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// smallRun is a quick campaign into dir.
func smallRun(bin, dir string, extra ...string) *exec.Cmd {
	return exec.Command(bin, append([]string{"run", "--graphs", "20", "--progress", "none", "--minimize=false", "--out", dir}, extra...)...)
}

func TestRunRefusesToReplaceCampaign(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := filepath.Join(t.TempDir(), "c")
	if code, out := exitCode(t, smallRun(bin, dir)); code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, out)
	}
	before := readFile(t, filepath.Join(dir, "results.jsonl"))
	code, out := exitCode(t, smallRun(bin, dir, "--seed", "2"))
	if code != exitUsage || !strings.Contains(out, "--force") || !strings.Contains(out, "--resume") {
		t.Errorf("second run into the campaign: exit %d, want 2 naming --force and --resume\n%s", code, out)
	}
	if after := readFile(t, filepath.Join(dir, "results.jsonl")); after != before {
		t.Errorf("the refused run changed the log")
	}
	if code, out := exitCode(t, smallRun(bin, dir, "--seed", "2", "--force")); code != 0 {
		t.Errorf("--force: exit %d\n%s", code, out)
	}
	if after := readFile(t, filepath.Join(dir, "results.jsonl")); after == before {
		t.Errorf("--force did not replace the log")
	}
}

// TestRefusedDirStartsNothing: a run refused for its directory refuses
// before it starts (or builds) a structurizer: the command of its
// --structurizer never runs.
func TestRefusedDirStartsNothing(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := filepath.Join(t.TempDir(), "c")
	if code, out := exitCode(t, smallRun(bin, dir)); code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, out)
	}
	marker := filepath.Join(t.TempDir(), "started")
	code, out := exitCode(t, smallRun(bin, dir, "--structurizer", "cmd:touch "+marker+"; exec "+bin+" structurize"))
	if code != exitUsage || !strings.Contains(out, "holds a campaign") {
		t.Errorf("run into the campaign: exit %d, want 2 saying the directory holds a campaign\n%s", code, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the refused run started its structurizer first")
	}
}

// TestRunLocksDir starts a long campaign, checks that a second one into its
// directory is refused naming the owner, kills the owner with SIGKILL
// (leaving its lock) and checks that the stale lock is taken over, saying
// so on stderr whatever --progress says.
func TestRunLocksDir(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := filepath.Join(t.TempDir(), "c")
	owner := exec.Command(bin, "run", "--graphs", "100000000", "--progress", "none", "--minimize=false", "--out", dir)
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	defer owner.Process.Kill()
	waitForFile(t, filepath.Join(dir, "lock"))
	for _, args := range [][]string{{"run", "--force", "--graphs", "5", "--progress", "none", "--out", dir}, {"run", "--resume", dir, "--progress", "none"}} {
		code, out := exitCode(t, exec.Command(bin, args...))
		if code != exitUsage || !strings.Contains(out, "in use by process "+strconv.Itoa(owner.Process.Pid)) {
			t.Errorf("%v while %d runs: exit %d, want 2 naming the owner\n%s", args, owner.Process.Pid, code, out)
		}
	}
	owner.Process.Signal(syscall.SIGKILL)
	owner.Wait()
	if _, err := os.Stat(filepath.Join(dir, "lock")); err != nil {
		t.Fatalf("the killed owner left no lock: %v", err)
	}
	code, out := exitCode(t, smallRun(bin, dir, "--force"))
	if want := fmt.Sprintf("took over %s, the lock of process %d on ", filepath.Join(dir, "lock"), owner.Process.Pid); code != 0 || !strings.Contains(out, want) || !strings.Contains(out, ": that process is gone") {
		t.Errorf("run after the owner was killed: exit %d, want 0 (stale lock) and %q, that process is gone\n%s", code, want, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "lock")); err == nil {
		t.Errorf("the lock outlived its campaign")
	}
}

func TestMergeRefusesInputAsOutput(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := filepath.Join(t.TempDir(), "s")
	if code, out := exitCode(t, smallRun(bin, dir)); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	before := readFile(t, filepath.Join(dir, "report.json"))
	code, out := exitCode(t, exec.Command(bin, "merge", "--out", dir+"/.", dir))
	if code != exitUsage || !strings.Contains(out, "one of the shards") {
		t.Errorf("merge --out INPUT: exit %d, want 2\n%s", code, out)
	}
	if readFile(t, filepath.Join(dir, "report.json")) != before {
		t.Errorf("merge overwrote its input's report")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitForFile waits up to a minute for path to exist.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s never appeared", path)
}

// TestResumeRefusesWhatDoesNotVerify edits a finished campaign (its seed,
// then one record's outcome) and resumes it: exit 2 naming the file, where
// an unverified resume would mix two seeds or count a made-up outcome.
func TestResumeRefusesWhatDoesNotVerify(t *testing.T) {
	bin := cfgfuzzBinary(t)
	for _, tc := range []struct {
		file, old, new, want string
	}{
		{"campaign.json", `"seed": 1,`, `"seed": 2,`, "campaign.json: the settings do not match"},
		{"results.jsonl", `"outcome":"ok"`, `"outcome":"okay"`, "results.jsonl:"},
	} {
		dir := filepath.Join(t.TempDir(), "c")
		if code, out := exitCode(t, smallRun(bin, dir)); code != 0 {
			t.Fatalf("run: exit %d\n%s", code, out)
		}
		path := filepath.Join(dir, tc.file)
		b := readFile(t, path)
		if !strings.Contains(b, tc.old) {
			t.Fatalf("%s lacks %q", path, tc.old)
		}
		os.WriteFile(path, []byte(strings.Replace(b, tc.old, tc.new, 1)), 0o644)
		code, out := exitCode(t, exec.Command(bin, "run", "--resume", dir, "--progress", "none", "--minimize=false"))
		if code != exitUsage || !strings.Contains(out, tc.want) {
			t.Errorf("resume after editing %s: exit %d, want 2 and %q\n%s", tc.file, code, tc.want, out)
		}
	}
}

// TestResumeTakesTheRecordedFlags: the campaign's own command repeated
// with --resume (a relative adapter, seed, budget, guided generation, its
// --out) is taken, its flags being the recorded settings; one flag changed
// is refused naming it and both values.
func TestResumeTakesTheRecordedFlags(t *testing.T) {
	dir := t.TempDir()
	adapterScript(t, filepath.Join(dir, "mystruct", "adapter"), `"$@"`)
	t.Chdir(dir)
	flags := func(seed string) []string {
		return []string{"--structurizer", "./mystruct/adapter", "--seed", seed, "--graphs", "20", "--mutate", "0.5", "--out", "c", "--progress", "none", "--minimize=false"}
	}
	if code, out, errs := runCmd(append([]string{"run"}, flags("7")...), ""); code == exitUsage {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCmd(append([]string{"run", "--resume", "c"}, flags("7")...), ""); code == exitUsage || strings.Contains(errs, "cannot change") {
		t.Errorf("--resume with the campaign's own flags: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCmd(append([]string{"run", "--resume", "c"}, flags("8")...), "")
	if code != exitUsage || !strings.Contains(errs, "--seed changed from 7 to 8") || strings.Contains(errs, "--graphs") || strings.Contains(errs, "--structurizer") {
		t.Errorf("--resume with --seed changed: exit %d, want 2 naming --seed alone\n%s%s", code, out, errs)
	}
}

// TestResumeTakesTheRecordedRegisterFile: --registers repeated with its
// recorded value resumes; another value is refused, naming both.
func TestResumeTakesTheRecordedRegisterFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	first := []string{"run", "--graphs", "12", "--registers", "4", "--progress", "none", "--minimize=false", "--out", dir}
	if code, out, errs := runCmd(first, ""); code != exitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCmd([]string{"run", "--resume", dir, "--registers", "4", "--progress", "none", "--minimize=false"}, ""); code != exitOK {
		t.Errorf("--resume with --registers 4 as recorded: exit %d, want 0\n%s%s", code, out, errs)
	}
	code, out, errs := runCmd([]string{"run", "--resume", dir, "--registers", "8", "--progress", "none"}, "")
	if code != exitUsage || !strings.Contains(errs, "--registers changed from 4 to 8") {
		t.Errorf("--resume with --registers 8: exit %d, want 2 and --registers changed from 4 to 8\n%s%s", code, out, errs)
	}
}

// TestResumeTakesTheRecordedJudgingAndStreams: the checks, the streams'
// generators, weights and block range, the check limit, the growth time
// limit and the dispatch share repeated with their recorded values
// resume; a stream part or the growth time limit changed is refused
// naming that part's values alone.
func TestResumeTakesTheRecordedJudgingAndStreams(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	flags := func(blocks string) []string {
		return []string{"--graphs", "12", "--checks", "-meta", "--allow-fallbacks", "--kinds", "reducible,irreducible", "--weights", "w0,w16",
			"--blocks", blocks, "--check-timeout", "20s", "--growth-time", "5s", "--dispatch-every", "4", "--progress", "none", "--minimize=false"}
	}
	if code, out, errs := runCmd(append([]string{"run", "--out", dir}, flags("5-12")...), ""); code != exitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runCmd(append([]string{"run", "--resume", dir}, flags("5-12")...), ""); code != exitOK {
		t.Errorf("--resume with the recorded flags: exit %d, want 0\n%s%s", code, out, errs)
	}
	code, out, errs := runCmd(append(append([]string{"run", "--resume", dir}, flags("5-13")...), "--kinds", "reducible"), "")
	for _, want := range []string{"--blocks changed from 5-12 to 5-13", "--kinds changed from reducible,irreducible to reducible"} {
		if code != exitUsage || !strings.Contains(errs, want) {
			t.Errorf("--resume with --blocks and --kinds changed: exit %d, want 2 and %q\n%s%s", code, want, out, errs)
		}
	}
	if strings.Contains(errs, "--checks") || strings.Contains(errs, "--weights") || strings.Contains(errs, "--growth-time") {
		t.Errorf("--resume named a flag repeated with its recorded value:\n%s", errs)
	}
	code, out, errs = runCmd(append(append([]string{"run", "--resume", dir}, flags("5-12")...), "--growth-time", "6s"), "")
	if code != exitUsage || !strings.Contains(errs, "--growth-time changed from 5s to 6s") {
		t.Errorf("--resume with --growth-time changed: exit %d, want 2 naming it\n%s%s", code, out, errs)
	}
}

// TestResumeTakesTheRecordedProject: compare's --repo, --build and
// --serve read as the recorded repository and project commands.
func TestResumeTakesTheRecordedProject(t *testing.T) {
	repo := t.TempDir()
	f := campaignFlags{resume: "c", repo: repo, project: projectFlags{build: "make", serve: "{out}/server"}}
	recorded := fuzz.Settings{Baseline: "repo:" + repo + "@0123abcd", Project: &fuzz.Project{Build: "make", Serve: "{out}/server"}}
	for _, name := range []string{"repo", "build", "serve"} {
		if was, is, known := f.repeatedFlag(name, &recorded, &fuzz.Settings{}); !known || was != is {
			t.Errorf("--%s: recorded %q, given %q (known %v), want them equal", name, was, is, known)
		}
	}
	f.project.serve = "{out}/other"
	if was, is, _ := f.repeatedFlag("serve", &recorded, &fuzz.Settings{}); was == is {
		t.Errorf("--serve changed reads as recorded: %q", is)
	}
	f.baseline = lastGoodBaseline
	if _, _, known := f.repeatedFlag("baseline", &recorded, &fuzz.Settings{}); known {
		t.Errorf("--baseline last-good compared with a recorded revision; want it refused (another night may be the last good one)")
	}
}

// TestResumeRefusesOtherSettings: --resume runs on the campaign's recorded
// settings, so a flag that would change them is refused by name instead of
// being ignored; the run's own flags (--workers, --progress) are taken.
func TestResumeRefusesOtherSettings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	var out, errOut strings.Builder
	if code := run([]string{"run", "--graphs", "20", "--progress", "none", "--minimize=false", "--out", dir}, strings.NewReader(""), &out, &errOut); code != exitOK {
		t.Fatalf("first run: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	code := run([]string{"run", "--resume", dir, "--graphs", "10", "--inject", "swap-arms", "--blocks", "5", "--force", "--progress", "none"}, strings.NewReader(""), &out, &errOut)
	for _, want := range []string{"--graphs changed from 20 to 10", "--inject changed from (none) to swap-arms", "--blocks changed from (none) to 5-5", "--force cannot change"} {
		if code != exitUsage || !strings.Contains(errOut.String(), want) {
			t.Errorf("--resume with --graphs, --inject and --blocks: exit %d, want 2 and %q\n%s%s", code, want, out.String(), errOut.String())
		}
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"run", "--resume", dir, "--workers", "1", "--progress", "none", "--minimize=false"}, strings.NewReader(""), &out, &errOut); code != exitOK {
		t.Errorf("--resume with --workers: exit %d, want 0\n%s%s", code, out.String(), errOut.String())
	}
}

// TestResumeOfACampaignStillStarting: a campaign directory whose lock a
// live process holds but which has no settings yet (the campaign is still
// starting) is refused naming the owner, not as a missing campaign.json.
func TestResumeOfACampaignStillStarting(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	host, _ := os.Hostname()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	owner := exec.Command("sleep", "30") // the campaign's process, another one
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { owner.Process.Kill(); owner.Wait() }()
	if err := os.WriteFile(filepath.Join(dir, fuzz.LockFile), []byte(strconv.Itoa(owner.Process.Pid)+" "+host+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd([]string{"run", "--resume", dir, "--progress", "none"}, "")
	if want := "in use by process " + strconv.Itoa(owner.Process.Pid); code != exitUsage || !strings.Contains(errs, want) {
		t.Errorf("exit %d, want 2 and %q\n%s%s", code, want, out, errs)
	}
}
