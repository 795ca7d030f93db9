// journal_full_test.go: a campaign whose log cannot be written (a full
// disk) stops handing out graphs and fails with the write's error and the
// command that continues it, instead of checking its whole budget first;
// once the disk has room, that resume completes the campaign as a whole
// run would have. A campaign whose directory is removed stops too.
package fuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// smallTmpfs mounts a tmpfs of size (mount's notation) on a new directory,
// unmounted when the test ends, or skips the test when it cannot (not
// root, no mount).
func smallTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (root needed): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

func TestFullDiskStopsTheCampaign(t *testing.T) {
	dir := smallTmpfs(t, "256k")
	c := testConfigIn(dir, 1_000_000) // minutes of graphs, were they all checked
	c.ResumeCommand = "cfgfuzz run --resume " + dir
	start := time.Now()
	_, err := Run(c)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("a campaign logging into a full disk: error %v, want ENOSPC", err)
	}
	if !strings.Contains(err.Error(), filepath.Join(dir, ResultsFile)) || !strings.Contains(err.Error(), c.ResumeCommand) {
		t.Errorf("the error %q names neither the log nor the command that continues the campaign", err)
	}
	if took > 30*time.Second {
		t.Errorf("it ran %v after its log stopped taking records", took)
	}
	t.Logf("stopped after %v: %v", took, err)
}

// TestFullDiskResumes: a campaign stopped by a full disk, resumed once the
// file system has room, reports what the campaign run whole reports.
func TestFullDiskResumes(t *testing.T) {
	whole := testConfig(t, 3000)
	whole.Inject = []string{"swap-arms"}
	mustRun(t, whole)
	dir := smallTmpfs(t, "256k")
	c := testConfigIn(dir, 3000)
	c.Inject = []string{"swap-arms"}
	if _, err := Run(c); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("a campaign logging into a full disk: error %v, want ENOSPC", err)
	}
	if out, err := exec.Command("mount", "-o", "remount,size=64m", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v %s", err, out)
	}
	saved, err := LoadSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	c.Settings, c.Resume = saved, true
	mustRun(t, c)
	if a, b := reportJSON(t, whole.Dir), reportJSON(t, dir); a != b {
		t.Errorf("the resumed campaign's report differs from the whole campaign's:\n%s\n---\n%s", a, b)
	}
}

// TestRemovedDirStopsTheCampaign: a campaign whose directory is removed
// while it runs (a cleanup job, a volume unmounted) stops within seconds,
// naming its log, instead of checking its whole budget into a file no one
// can read; it offers no resume of the log that is gone.
func TestRemovedDirStopsTheCampaign(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	c := testConfigIn(dir, 1_000_000) // minutes of graphs, were they all checked
	c.ResumeCommand = "cfgfuzz run --resume " + dir
	go func() {
		for {
			time.Sleep(100 * time.Millisecond)
			if _, err := os.Stat(filepath.Join(dir, ResultsFile)); err == nil {
				os.RemoveAll(dir)
				return
			}
		}
	}()
	start := time.Now()
	_, err := Run(c)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ResultsFile)) || strings.Contains(err.Error(), c.ResumeCommand) {
		t.Fatalf("a campaign whose directory was removed: error %v, want one naming its log and no resume", err)
	}
	if took > 30*time.Second {
		t.Errorf("it ran %v after its directory was removed", took)
	}
	t.Logf("stopped after %v: %v", took, err)
}
