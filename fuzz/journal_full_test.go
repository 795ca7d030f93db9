// journal_full_test.go: a campaign whose log cannot be written (a full
// disk) stops handing out graphs and fails with the write's error, instead
// of checking its whole budget first.
package fuzz

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestFullDiskStopsTheCampaign(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (root needed): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	c := testConfigIn(dir, 1_000_000) // minutes of graphs, were they all checked
	start := time.Now()
	_, err := Run(c)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("a campaign logging into a full disk: error %v, want ENOSPC", err)
	}
	if took > 30*time.Second {
		t.Errorf("it ran %v after its log stopped taking records", took)
	}
	t.Logf("stopped after %v: %v", took, err)
}
