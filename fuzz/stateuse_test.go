// stateuse_test.go: a night's mark in its state directory (stateuse.go)
// names a live process that commits there to a night that starts beside
// it, is removed when its owner is found gone, and goes with its release.
package fuzz

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestMarkNightSeesTheLiveAndDropsTheDead(t *testing.T) {
	st := &State{Dir: t.TempDir()}
	nights := st.Dir
	live, dead := thisOwner(), thisOwner()
	live.pid, live.start = os.Getppid(), 0 // the parent (go test) is alive
	dead.pid, dead.start = deadPid(t), 0
	livePath := filepath.Join(nights, nightMarkPrefix+strconv.Itoa(live.pid)+"-h-1764979200000000000"+nightMarkSuffix)
	deadPath := filepath.Join(nights, nightMarkPrefix+strconv.Itoa(dead.pid)+"-h-1"+nightMarkSuffix)
	os.WriteFile(livePath, []byte(live.line()), 0o644)
	os.WriteFile(deadPath, []byte(dead.line()), 0o644)
	others, release := st.MarkNight()
	want := "process " + strconv.Itoa(live.pid) + " on " + live.host + " (since 2025-12-06T00:00:00Z)"
	if len(others) != 1 || others[0] != want {
		t.Errorf("others %q, want only %q", others, want)
	}
	if note := StateUseNote(st.Dir, others); !strings.Contains(note, want) || !strings.Contains(note, "stop one of them now") {
		t.Errorf("note %q does not name %q and say to stop one", note, want)
	}
	if _, err := os.Stat(deadPath); err == nil {
		t.Errorf("the mark of a process gone is still there")
	}
	ents, _ := os.ReadDir(nights)
	if len(ents) != 2 { // the live one's and this process's
		t.Errorf("marks %v, want the live one's and this process's", ents)
	}
	release()
	if ents, _ := os.ReadDir(nights); len(ents) != 1 {
		t.Errorf("after release the marks are %v, want the live one's only", ents)
	}
}
