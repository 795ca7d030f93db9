// stateuse_foreign_test.go: the mark of a night on another host whose
// heartbeat stopped (a night killed with SIGKILL there) does not count;
// MarkNight, which cannot tell that its process is gone, leaves it in the
// state directory for a day after its last heartbeat and removes it then
// (STATE.md says so).
package fuzz

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// writeMark writes a night mark holding line at path, last written age ago.
func writeMark(t *testing.T, path, line string, age time.Duration) {
	t.Helper()
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	touchMark(t, path, age)
}

// touchMark sets the mark at path's times to age ago.
func touchMark(t *testing.T, path string, age time.Duration) {
	t.Helper()
	at := time.Now().Add(-age)
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

func TestMarkNightKeepsAStaleForeignMarkADay(t *testing.T) {
	st := &State{Dir: t.TempDir()}
	o := thisOwner()
	o.host, o.boot, o.pidns, o.beat = "other-host", "00000000-0000-0000-0000-000000000000", "1", true
	path := filepath.Join(st.Dir, nightMarkPrefix+"4242-other-host-1"+nightMarkSuffix)
	writeMark(t, path, o.line(), time.Hour)
	others, release := st.MarkNight()
	release()
	if len(others) != 0 {
		t.Errorf("a mark whose heartbeat stopped an hour ago counts: %q", others)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the mark of another host's night an hour after its heartbeat: %v; STATE.md says it stays for a day", err)
	}
	touchMark(t, path, foreignMarkExpiry+time.Minute)
	_, release = st.MarkNight()
	release()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the mark of another host's night a day after its heartbeat: %v, want it removed", err)
	}
	writeMark(t, path, o.line(), 0)
	if others, release := st.MarkNight(); len(others) != 1 {
		t.Errorf("a mark of another host refreshed now does not count: %q", others)
		release()
	} else {
		release()
	}
}

// TestMarkNightExpiresAnOldFormatForeignMark: a mark without a heartbeat
// (a bare "PID HOST" line) of another host counts while it is younger
// than a day, as its owner cannot be checked, and is removed once its
// file is a day old, as a foreign mark whose heartbeat stopped is.
func TestMarkNightExpiresAnOldFormatForeignMark(t *testing.T) {
	st := &State{Dir: t.TempDir()}
	path := filepath.Join(st.Dir, nightMarkPrefix+"4242-other-host-1"+nightMarkSuffix)
	writeMark(t, path, "4242 other-host\n", time.Hour)
	others, release := st.MarkNight()
	release()
	if len(others) != 1 {
		t.Errorf("an old-format mark of another host an hour old: others %q, want it counted", others)
	}
	touchMark(t, path, foreignMarkExpiry+time.Minute)
	others, release = st.MarkNight()
	release()
	if len(others) != 0 {
		t.Errorf("an old-format mark of another host a day old counts: %q", others)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("an old-format mark of another host a day old: %v, want it removed", err)
	}
}
