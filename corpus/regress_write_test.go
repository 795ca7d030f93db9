// regress_write_test.go: a regression file is written whole or not at
// all.
package corpus

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestRegressionWriteOnFullDisk: a regression whose write fails part way
// (a full disk) leaves no file in the directory, neither under its name
// nor as a temporary one, so `cfgfuzz regress` reads no part of a graph
// and the same name can be saved once there is room. Needs root to mount
// a small tmpfs; skipped otherwise.
func TestRegressionWriteOnFullDisk(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (root needed): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	succs := make([][]int, 3000) // a chain whose text is far over 8 KiB
	for b := range succs[:len(succs)-1] {
		succs[b] = []int{b + 1}
	}
	g := cfg.FromSuccs(succs)
	if _, err := WriteRegression(dir, "big", Header{Signature: "none"}, g); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("a regression larger than the disk: %v, want ENOSPC", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the failed write left %v", ents)
	}
	if out, err := exec.Command("mount", "-o", "remount,size=1m", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v %s", err, out)
	}
	p, err := WriteRegression(dir, "big", Header{Signature: "none"}, g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadRegression(p)
	if err != nil {
		t.Fatal(err)
	}
	if back.Graph.Len() != g.Len() {
		t.Errorf("read back %d blocks, want %d", back.Graph.Len(), g.Len())
	}
}
