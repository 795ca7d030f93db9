// state_empty_test.go: a --state that does not exist, or holds no
// findings.json (a first night, a CI cache that did not restore it), is
// read as an empty state, and the night says so on standard error, in its
// summary and in report.json (state.empty, state.dir_missing), for a shard
// and for the merge; a shard does not create the directory, the merge,
// which commits there, does; the next night, on the state it wrote, says
// nothing of it.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmptyStateIsSaid(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	st := filepath.Join(dir, "st")
	said := func(what, out string, absent bool) {
		t.Helper()
		start := "note: the state " + st + " holds no findings yet (no findings.json: a first night, or a cache that did not restore it): every signature is new tonight"
		summary := "\n  note: the state held no findings yet (no findings.json: "
		if absent {
			start = "note: the state " + st + " does not exist (a first night, a cache that did not restore it, or a mistyped --state): it holds no findings yet, so every signature is new tonight"
			summary = "\n  note: the state did not exist (a first night, a cache that did not restore it, or a mistyped --state): it held no findings yet"
		}
		if !strings.Contains(out, start) || !strings.Contains(out, summary) {
			t.Errorf("%s: want the note %q on reading the state and %q in the summary\n%s", what, start, summary, out)
		}
	}
	night := []string{"--seed", "4", "--inject", "swap-arms", "--state", st, "--night", "2026-03-01"}
	var shards []string
	for _, sh := range []string{"0/2", "1/2"} {
		out := filepath.Join(dir, "s"+sh[:1])
		code, log := exitCode(t, smallRun(bin, out, append(night, "--shard", sh)...))
		if code != exitFail {
			t.Fatalf("shard %s: exit %d, want %d (new signatures)\n%s", sh, code, exitFail, log)
		}
		said("shard "+sh, log, true)
		if s := readReportJSON(t, out).State; !s.Empty || !s.DirMissing {
			t.Errorf("shard %s: report.json state.empty %v, state.dir_missing %v; want both true", sh, s.Empty, s.DirMissing)
		}
		if _, err := os.Stat(st); err == nil {
			t.Fatalf("shard %s made the state directory, which a shard only reads", sh)
		}
		shards = append(shards, out)
	}
	m := filepath.Join(dir, "m")
	code, log := exitCode(t, exec.Command(bin, append([]string{"merge", "--progress", "none", "--minimize=false", "--state", st, "--out", m}, shards...)...))
	if code != exitFail {
		t.Fatalf("merge: exit %d, want %d\n%s", code, exitFail, log)
	}
	said("merge", log, true)
	if s := readReportJSON(t, m).State; !s.Empty || !s.DirMissing {
		t.Errorf("merge: report.json state.empty %v, state.dir_missing %v; want both true", s.Empty, s.DirMissing)
	}
	if !strings.Contains(readFile(t, filepath.Join(m, "report.md")), "The state did not exist (") {
		t.Error("merge: report.md does not say the state did not exist")
	}
	// The next night reads what the merge committed: nothing to say.
	next := filepath.Join(dir, "n")
	code, log = exitCode(t, smallRun(bin, next, "--seed", "5", "--inject", "swap-arms", "--state", st, "--night", "2026-03-02"))
	if code != exitOK && code != exitFail {
		t.Fatalf("next night: exit %d\n%s", code, log)
	}
	if strings.Contains(log, "no findings yet") || readReportJSON(t, next).State.Empty {
		t.Errorf("the night after the merge says its state is empty\n%s", log)
	}
	// A state restored without its findings (only the triage file
	// copied in, as a CI job does after its restore) is empty, not missing.
	bare := filepath.Join(dir, "bare")
	writeFile(t, filepath.Join(bare, "triage.txt"), "# nothing triaged\n")
	st = bare
	code, log = exitCode(t, smallRun(bin, filepath.Join(dir, "b"), "--seed", "4", "--inject", "swap-arms", "--state", bare, "--night", "2026-03-01"))
	if code != exitFail {
		t.Fatalf("night on a bare state: exit %d, want %d\n%s", code, exitFail, log)
	}
	said("a state of a triage file only", log, false)
	if s := readReportJSON(t, filepath.Join(dir, "b")).State; !s.Empty || s.DirMissing {
		t.Errorf("a state of a triage file only: report.json state.empty %v, state.dir_missing %v; want true, false", s.Empty, s.DirMissing)
	}
}
