// resume_test.go kills a campaign with SIGKILL partway (a child process:
// this test binary re-run with FUZZ_TEST_CHILD set) and resumes it; the
// final report must equal an uninterrupted run's, and the log must hold
// every graph exactly once.
package fuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

const (
	childEnv     = "FUZZ_TEST_CHILD_DIR"
	resumeGraphs = 400
)

// resumeConfig is the campaign of the kill test: slow enough to be killed
// in the middle.
func resumeConfig(dir string) Config {
	c := testConfigIn(dir, resumeGraphs)
	c.Source = testSource{Delay: 15 * time.Millisecond}
	return c
}

// TestMain runs the child campaign, or the lock's child (lock_test.go),
// when asked to.
func TestMain(m *testing.M) {
	if dir := os.Getenv(lockChildEnv); dir != "" {
		lockChild(dir) // lock_test.go
	}
	if dir := os.Getenv(childEnv); dir != "" {
		c := resumeConfig(dir)
		if _, err := Run(c); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	code := m.Run()
	if redteamBin != "" {
		os.RemoveAll(filepath.Dir(redteamBin)) // built once per test binary (redteamServer)
	}
	os.Exit(code)
}

func TestResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), childEnv+"="+dir)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	lines := waitForLines(t, filepath.Join(dir, ResultsFile), 1) // the first synced batch
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	recs, _, err := ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("killed with %d records synced (%d lines seen)", len(recs), lines)
	if len(recs) >= resumeGraphs {
		t.Fatalf("child finished before the kill")
	}
	c := resumeConfig(dir)
	c.Source = testSource{}
	c.Resume = true
	o := mustRun(t, c)
	if tp := o.Report.Throughput; tp.Resumed != len(recs) || tp.Graphs+tp.Skipped != resumeGraphs-len(recs) {
		t.Errorf("resumed %d, ran %d and skipped %d; want %d and %d in all", tp.Resumed, tp.Graphs, tp.Skipped, len(recs), resumeGraphs-len(recs))
	}
	all, _, err := ReadRecords(dir)
	if err != nil || len(all) != resumeGraphs {
		t.Fatalf("log holds %d records (%v), want resumeGraphs", len(all), err)
	}
	whole := resumeConfig(t.TempDir())
	whole.Source = testSource{}
	mustRun(t, whole)
	if jr, jw := reportJSON(t, dir), reportJSON(t, whole.Dir); jr != jw {
		t.Errorf("resumed report differs from the uninterrupted one:\n%s\n---\n%s", jr, jw)
	}
}

// waitForLines waits until the file has at least n newlines.
func waitForLines(t *testing.T, path string, n int) int {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(path)
		if c := countLines(b); c >= n {
			return c
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never reached %d lines", path, n)
	return 0
}

func countLines(b []byte) int {
	c := 0
	for _, x := range b {
		if x == '\n' {
			c++
		}
	}
	return c
}

// TestResumeNamesTheDifferingSetting: a resume under settings other than
// the log's is refused naming the setting that differs.
func TestResumeNamesTheDifferingSetting(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run(testConfigIn(dir, 20)); err != nil {
		t.Fatal(err)
	}
	c := testConfigIn(dir, 20)
	c.Resume, c.Walks = true, 9
	_, err := Run(c)
	if err == nil || !strings.Contains(err.Error(), "walks 9 against 4") {
		t.Fatalf("resume with --walks 9: %v, want a refusal naming walks", err)
	}
}

// TestResumeOfACompleteCampaignSaysSo: resuming a campaign whose every
// graph is in its log says that it only minimizes and reports again.
func TestResumeOfACompleteCampaignSaysSo(t *testing.T) {
	const note = "was judged before this resume"
	dir := t.TempDir()
	if _, err := Run(testConfigIn(dir, 20)); err != nil {
		t.Fatal(err)
	}
	c := testConfigIn(dir, 20)
	var log strings.Builder
	c.Resume, c.Progress = true, &log
	if _, err := Run(c); err != nil || !strings.Contains(log.String(), note) {
		t.Errorf("resume of a complete campaign: %v; log lacks %q:\n%s", err, note, log.String())
	}
}

// TestResumeOfACompleteCampaignKeepsItsMinimizations: a resume of a
// campaign whose every graph was judged keeps the minimized graphs its
// last report holds (searches at their fixpoint) and searches only for
// the others: a search stopped at a limit is run again.
func TestResumeOfACompleteCampaignKeepsItsMinimizations(t *testing.T) {
	dir := t.TempDir()
	small := cfg.FromSuccs([][]int{{0, 1}, {}})
	calls := 0
	minimize := func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		calls++
		return small, nil
	}
	c := testConfigIn(dir, 40)
	c.Inject, c.Minimize = []string{"swap-arms"}, minimize
	first := mustRun(t, c).Report
	if calls == 0 || len(first.Findings) == 0 {
		t.Fatalf("%d searches, %d findings: the test needs a minimized finding", calls, len(first.Findings))
	}
	c = testConfigIn(dir, 40)
	c.Inject, c.Minimize, c.Resume = []string{"swap-arms"}, minimize, true
	calls = 0
	again := mustRun(t, c).Report
	if calls != 0 {
		t.Errorf("the resume searched %d times, want 0: every finding was minimized whole", calls)
	}
	for i, f := range again.Findings {
		if f.Minimized != first.Findings[i].Minimized || f.Minimized == "" {
			t.Errorf("%s: minimized %q after the resume, %q before", f.Signature, f.Minimized, first.Findings[i].Minimized)
		}
	}
	// A search stopped at a limit is run again.
	c = testConfigIn(t.TempDir(), 40)
	c.Inject = []string{"swap-arms"}
	c.Minimize = func(g *cfg.Graph, sig, strategy string, _ corpus.BaselineAnswer) (*cfg.Graph, error) {
		calls++
		return small, &corpus.StoppedEarly{Limit: "step limit (1)"}
	}
	mustRun(t, c)
	c.Resume, calls = true, 0
	mustRun(t, c)
	if calls == 0 {
		t.Error("a search stopped at its limit was not run again on the resume")
	}
}

// TestResumeRefusesARebuiltStructurizer: a campaign on a cmd side
// records the digest of the program its command names; a resume with the
// same program goes on, and one after the program changed in place (a
// rebuild between the stop and the resume) is refused, naming the side
// and both digests, before any graph runs.
func TestResumeRefusesARebuiltStructurizer(t *testing.T) {
	bin := buildCmd(t, "../cmd/structurize")
	dir := t.TempDir()
	config := func() Config {
		c := testConfigIn(dir, 12)
		c.Current = ProcessFactory("cmd:"+bin, []string{bin}, "")
		return c
	}
	if _, err := Run(config()); err != nil {
		t.Fatal(err)
	}
	then := recordedSideFiles(dir).Current
	if !strings.HasPrefix(then, "sha256:") {
		t.Fatalf("campaign.json records %q for the cmd side, want a sha256 digest", then)
	}
	c := config()
	c.Resume = true
	if _, err := Run(c); err != nil {
		t.Fatalf("a resume with the same program: %v", err)
	}
	f, err := os.OpenFile(bin, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("rebuilt")
	f.Close()
	c = config()
	c.Resume = true
	_, err = Run(c)
	if err == nil || !strings.Contains(err.Error(), "the current structurizer "+bin+" is not the build") || !strings.Contains(err.Error(), "were "+then+", now sha256:") {
		t.Fatalf("a resume after the program changed: %v, want a refusal naming the side and both digests", err)
	}
	if recordedSideFiles(dir).Current != then {
		t.Errorf("the refused resume rewrote the recorded digest")
	}
}
