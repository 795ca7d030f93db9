// state_damage_test.go: a state directory survives what happens to it
// between nights (state_test.go has the interrupted night): a night whose
// state directory another campaign committed to meanwhile does not
// overwrite that campaign's update, a commit that cannot be written
// leaves the directory as it was read, a directory that cannot be written
// or whose lock another live process holds is refused before the night
// runs, and an empty findings.json is an error, not an empty store.
package fuzz

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStateChangedMeanwhileNotOverwritten: two nights read the same state
// directory; the first commits its update, and the second, finishing
// later, does not overwrite it. It still returns its report, whole (no
// resume to offer: a resume would find the state changed too), which says
// in report.json and report.md that its update was not committed and
// where it is.
func TestStateChangedMeanwhileNotOverwritten(t *testing.T) {
	state := t.TempDir()
	a, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	ca := testConfig(t, 40)
	ca.Seed, ca.State, ca.Night, ca.Inject = 1, a, "2026-03-01", []string{"swap-arms"}
	mustRun(t, ca)
	committed, err := os.ReadFile(filepath.Join(state, StateFindingsFile))
	if err != nil {
		t.Fatal(err)
	}
	cb := testConfig(t, 40)
	cb.Seed, cb.State, cb.Night = 2, b, "2026-03-01"
	cb.Current = panicsOnFour()
	cb.ResumeCommand = "cfgfuzz run --resume " + cb.Dir
	rep := mustRun(t, cb).Report
	want := NotCommittedNote(state, filepath.Join(cb.Dir, StateUpdateDir), "2026-03-01", "2026-03-01")
	if !strings.HasPrefix(want, "another run of this night, 2026-03-01 (another merge of its shards, or the night run again), committed to "+state+" after this one read it") ||
		!strings.HasSuffix(want, "the state records that run of the night, and a later night knows the signatures it recorded (all of this one's, when it ran the same graphs: a merge of the same shards)") {
		t.Errorf("the same night committed meanwhile: %q", want)
	}
	if rep.Incomplete != nil || rep.State.NotCommitted != want {
		t.Errorf("second night on a state another night committed to: incomplete %+v, not committed %q; want a whole report saying %q", rep.Incomplete, rep.State.NotCommitted, want)
	}
	md, _ := os.ReadFile(filepath.Join(cb.Dir, "report.md"))
	if onDisk := readReport(t, cb.Dir); !strings.Contains(string(md), "Not committed: "+want) || onDisk.State == nil || onDisk.State.NotCommitted != want {
		t.Errorf("the reports on disk do not say the update was not committed:\n%s", md)
	}
	now, err := os.ReadFile(filepath.Join(state, StateFindingsFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(now) != string(committed) {
		t.Errorf("the second night overwrote the first night's state")
	}
	if _, err := os.Stat(filepath.Join(cb.Dir, StateUpdateDir, StateFindingsFile)); err != nil {
		t.Errorf("the second night's update is not in OUT/state: %v", err)
	}
	// A later night that read the state before another night committed
	// there: the state moved on to that night, which recorded its own
	// signatures only.
	d, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	cc := testConfig(t, 40)
	cc.Seed, cc.State, cc.Night, cc.Inject = 3, d, "2026-03-02", []string{"swap-arms"}
	mustRun(t, cc)
	cd := testConfig(t, 40)
	cd.Seed, cd.State, cd.Night = 4, d, "2026-03-03"
	rep = mustRun(t, cd).Report
	want = "another night, 2026-03-02, committed to " + state + " after this one read it, so this night's update was not committed (it is in " + filepath.Join(cd.Dir, StateUpdateDir) +
		", unused): the state moved on without it, and a later night checks this night's graphs again and finds its new signatures new, but those night 2026-03-02 recorded"
	if rep.State.NotCommitted != want {
		t.Errorf("another night committed meanwhile: not committed %q, want %q", rep.State.NotCommitted, want)
	}
}

// TestFailedCommitLeavesTheState: a night whose commit cannot write
// seen.bloom into the state directory (a full disk or a quota: the filter
// is the larger file, written second) ends incomplete, naming the file
// and OUT/state, writes its reports again so, and leaves findings.json as
// it was read, so that the night's resume, once the file can be written,
// commits the update the night made and writes the reports whole.
func TestFailedCommitLeavesTheState(t *testing.T) {
	swap := func(c *Config) { c.Inject = []string{"swap-arms"} }
	state := t.TempDir()
	night(t, state, "2026-03-01", 1, 40, swap)
	before, err := os.ReadFile(filepath.Join(state, StateFindingsFile))
	if err != nil {
		t.Fatal(err)
	}
	block := filepath.Join(state, StateSeenFile+".tmp")
	if err := os.MkdirAll(filepath.Join(block, "x"), 0o755); err != nil { // the filter's temporary file cannot be written
		t.Fatal(err)
	}
	c := testConfig(t, 80)
	if c.State, err = LoadState(state); err != nil {
		t.Fatal(err)
	}
	c.Seed, c.Night, c.Inject = 2, "2026-03-02", []string{"swap-arms"}
	c.ResumeCommand = "cfgfuzz run --resume " + c.Dir + " --state " + state
	o := mustRun(t, c)
	if in := o.Report.Incomplete; in == nil || !strings.Contains(in.Reason, block) || !strings.Contains(in.Reason, filepath.Join(c.Dir, StateUpdateDir)) || in.Resume != c.ResumeCommand {
		t.Fatalf("a night whose commit cannot write %s: incomplete %+v, want it naming the file, OUT/state and the resume", block, o.Report.Incomplete)
	}
	if after, _ := os.ReadFile(filepath.Join(state, StateFindingsFile)); !bytes.Equal(before, after) {
		t.Errorf("the failed commit changed %s", StateFindingsFile)
	}
	// The reports, written before the commit, are written again: they
	// say the night is incomplete and how to resume it.
	if rep := readReport(t, c.Dir); rep.Incomplete == nil || !strings.Contains(rep.Incomplete.Reason, "state update was not saved") || rep.Incomplete.Resume != c.ResumeCommand {
		t.Errorf("report.json after the failed commit: incomplete %+v, want the unsaved update and the resume", rep.Incomplete)
	}
	if md, _ := os.ReadFile(filepath.Join(c.Dir, "report.md")); strings.Contains(string(md), "the night passes") || !strings.Contains(string(md), "state update was not saved") {
		t.Errorf("report.md after the failed commit does not say the update was not saved:\n%s", md)
	}
	if _, err := os.Stat(filepath.Join(state, StateFindingsFile+".tmp")); !os.IsNotExist(err) {
		t.Errorf("the failed commit left %s.tmp: %v", StateFindingsFile, err)
	}
	if err := os.RemoveAll(block); err != nil {
		t.Fatal(err)
	}
	saved, err := LoadSettings(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.State, err = LoadState(state); err != nil {
		t.Fatal(err)
	}
	c.Settings, c.Resume = saved, true
	if rep := mustRun(t, c).Report; rep.Incomplete != nil {
		t.Errorf("the resume's report is incomplete: %+v", rep.Incomplete)
	}
	for _, f := range []string{StateFindingsFile, StateSeenFile} {
		want, _ := os.ReadFile(filepath.Join(c.Dir, StateUpdateDir, f))
		got, _ := os.ReadFile(filepath.Join(state, f))
		if len(want) == 0 || !bytes.Equal(got, want) {
			t.Errorf("the resume did not commit the night's %s", f)
		}
	}
}

// TestUnwritableStateRefusedFirst: a night that would commit into a state
// directory no file can be made in (here one replaced by a file after it
// was read; a read-only mount fails the same way) is refused before it runs, naming
// the directory, rather than at its end; a shard, which only reads the
// directory, runs.
func TestUnwritableStateRefusedFirst(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	st, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state, nil, 0o644); err != nil { // LoadState made no directory
		t.Fatal(err)
	}
	c := testConfig(t, 40)
	c.State, c.Night = st, "2026-03-01"
	_, err = Run(c)
	if err == nil || !strings.Contains(err.Error(), "state "+state+" cannot be written") {
		t.Errorf("a night on a state directory that cannot be written: %v, want an error naming it", err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, ResultsFile)); !os.IsNotExist(err) {
		t.Errorf("the refused night ran: %s is there (%v)", ResultsFile, err)
	}
	sh := testConfig(t, 40)
	sh.State, sh.Night, sh.Shard = st, "2026-03-01", Shard{I: 0, N: 2}
	mustRun(t, sh)
}

// TestEmptyStoreFileRefused: a findings.json of no bytes (a write torn by
// a crash or a full disk) is an error naming the file, not a store
// without signatures whose update would then forget them all.
func TestEmptyStoreFileRefused(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, StateFindingsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadState(state)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(state, StateFindingsFile)) || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty findings.json: %v, want an error naming the file and saying it is empty", err)
	}
}

// TestStateInUseRefusedFirst: a night that would commit into a state
// directory whose lock another live process holds (a merge committing on
// another pod, its heartbeat fresh; a process of this host) is refused
// before any graph runs, naming that process, rather than after the
// whole night; a shard, which only reads the directory, runs, and so
// does a night whose lock is stale.
func TestStateInUseRefusedFirst(t *testing.T) {
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	host, _ := os.Hostname()
	for _, c := range []struct{ lock, want string }{
		{"7 merge-pod-xyz heartbeat=5s\n", "in use by process 7 on merge-pod-xyz"},
		{fmt.Sprintf("%d %s\n", other.Process.Pid, host), fmt.Sprintf("in use by process %d on %s", other.Process.Pid, host)},
	} {
		state := t.TempDir()
		st, err := LoadState(state)
		if err != nil {
			t.Fatal(err)
		}
		writeLock(t, state, c.lock, 0)
		n := testConfig(t, 40)
		n.State, n.Night = st, "2026-03-01"
		_, err = Run(n)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Join(state, LockFile)) {
			t.Errorf("a night on a state directory locked by %q: %v, want it refused naming %q", c.lock, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(n.Dir, ResultsFile)); !os.IsNotExist(err) {
			t.Errorf("the refused night ran: %s is there (%v)", ResultsFile, err)
		}
		sh := testConfig(t, 40)
		sh.State, sh.Night, sh.Shard = st, "2026-03-01", Shard{I: 0, N: 2}
		mustRun(t, sh)
	}
	state := t.TempDir()
	st, err := LoadState(state)
	if err != nil {
		t.Fatal(err)
	}
	writeLock(t, state, "7 merge-pod-xyz heartbeat=5s\n", time.Hour) // its merge is long gone
	n := testConfig(t, 40)
	n.State, n.Night = st, "2026-03-01"
	lockTimings(t, 20*time.Millisecond, time.Minute)
	mustRun(t, n)
	if _, err := os.Stat(filepath.Join(state, StateFindingsFile)); err != nil {
		t.Errorf("the night did not commit over a stale lock: %v", err)
	}
}
