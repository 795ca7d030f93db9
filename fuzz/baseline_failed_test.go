package fuzz

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A build that fails on a revision of a real repository (a git worktree
// checked out, the build command run there) is recorded: building the
// same revision with the same commands again reports the same failure,
// output and all, without running the build; another revision, another
// build command, or the record deleted builds again.
func TestFailedBuildIsRemembered(t *testing.T) {
	repo, commits := tableRepo(t, 1, 0, 1) // both commits broken
	cache := t.TempDir()
	runs := filepath.Join(t.TempDir(), "runs")
	p := Project{Build: "echo run >> " + ShellQuote(runs) + "; if test -e BROKEN; then echo 'main.c:3: error: broken in {worktree}'; exit 7; fi", Serve: "cat"}
	builds := func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "run\n")
	}
	build := func(p Project, commit string) (*BuildError, string) {
		t.Helper()
		var log bytes.Buffer
		_, err := BuildProject(p, Revision{Commit: commit}, BuildOptions{Repo: repo, CacheDir: cache, Log: &log})
		var be *BuildError
		if !errors.As(err, &be) {
			t.Fatalf("building %s: %v, want a BuildError\n%s", commit[:12], err, log.String())
		}
		return be, log.String()
	}

	first, _ := build(p, commits[0])
	if builds() != 1 {
		t.Fatalf("%d builds, want 1", builds())
	}
	again, log := build(p, commits[0])
	if builds() != 1 {
		t.Errorf("the failed build ran again: %d builds", builds())
	}
	if !strings.Contains(log, "failed before") {
		t.Errorf("the log does not say the build failed before:\n%s", log)
	}
	if again.Error() != first.Error() || again.Reason() != first.Reason() ||
		strings.Join(again.OutputTail(5), "\n") != strings.Join(first.OutputTail(5), "\n") {
		t.Errorf("the remembered failure differs:\n%s\n%q %q\n---\n%s\n%q %q", first.Error(), first.Reason(), first.OutputTail(5), again.Error(), again.Reason(), again.OutputTail(5))
	}
	if !strings.Contains(again.Error(), "exit status 7") || !strings.Contains(again.Error(), "error: broken in {worktree}") {
		t.Errorf("the remembered failure lacks its error or output: %s", again.Error())
	}

	build(p, commits[1]) // another revision builds
	if builds() != 2 {
		t.Errorf("another revision did not build: %d builds, want 2", builds())
	}
	changed := p
	changed.Build += " # changed"
	build(changed, commits[0]) // another build command is tried
	if builds() != 3 {
		t.Errorf("a changed build command did not build: %d builds, want 3", builds())
	}
	entry, err := buildEntry(p, Revision{Commit: commits[0]}, BuildOptions{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-FailedFor - time.Minute)
	if err := os.Chtimes(entry+FailedSuffix, old, old); err != nil {
		t.Fatal(err)
	}
	build(p, commits[0]) // the record past FailedFor, it builds again (and fails again)
	if builds() != 4 {
		t.Errorf("the record past FailedFor, the build did not run: %d builds, want 4", builds())
	}
	ahead := time.Now().Add(2 * FailedFor)
	if err := os.Chtimes(entry+FailedSuffix, ahead, ahead); err != nil {
		t.Fatal(err)
	}
	build(p, commits[0]) // a record dated ahead of the clock stands for nothing
	if builds() != 5 {
		t.Errorf("a record dated ahead of the clock kept the build from running: %d builds, want 5", builds())
	}
	if err := os.Remove(entry + FailedSuffix); err != nil {
		t.Fatal(err)
	}
	build(p, commits[0]) // the record deleted, it builds again
	if builds() != 6 {
		t.Errorf("the record deleted, the build did not run: %d builds, want 6", builds())
	}
	ents, _ := os.ReadDir(filepath.Dir(entry))
	var names []string
	for _, e := range ents {
		if e.Name() != ProjectInfoFile { // what the folder is
			names = append(names, e.Name())
		}
	}
	if len(names) != 2 {
		t.Errorf("the project's cache holds %v, want the two records", names)
	}
}

// A stopped build is not recorded as failed: it builds again.
func TestStoppedBuildIsNotRemembered(t *testing.T) {
	repo, commits := tableRepo(t, 0)
	cache := t.TempDir()
	p := Project{Build: "sleep 30", Serve: "cat"}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	if _, err := BuildProject(p, Revision{Commit: commits[0]}, BuildOptions{Repo: repo, CacheDir: cache, Context: ctx}); err == nil {
		t.Fatal("a stopped build succeeded")
	}
	entry, _ := buildEntry(p, Revision{Commit: commits[0]}, BuildOptions{CacheDir: cache})
	if _, err := os.Stat(entry + FailedSuffix); err == nil {
		t.Errorf("a stopped build was recorded as failed")
	}
}
