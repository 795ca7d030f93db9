// buildstop_test.go: a BuildStop stops the builds whose options carry it,
// and no other: two builds of one commit run at once, each carrying a
// BuildStop of its own; stopping the first ends it with the stop's cause
// and nothing of it left in its cache, while the second goes on and
// builds; a build that carries a stopped BuildStop does not start; a nil
// BuildStop stops nothing and counts nothing.
package fuzz

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// builtOrErr is what BuildProject returned.
type builtOrErr struct {
	b   Built
	err error
}

func TestBuildStopStopsTheBuildsThatCarryIt(t *testing.T) {
	repo, commit := oneCommitRepo(t, "repo")
	marks := t.TempDir()
	goOn := filepath.Join(marks, "go-on")
	// Each build says it started, then waits for goOn (the first is
	// stopped before it comes).
	p := Project{Build: "touch " + ShellQuote(marks) + "/started-$$; while [ ! -e " + ShellQuote(goOn) + " ]; do sleep 0.05; done", Serve: "cat"}
	first, second := NewBuildStop(), NewBuildStop()
	cacheFirst, cacheSecond := t.TempDir(), t.TempDir() // one cache each: a cache entry is built by one build at a time
	build := func(stop *BuildStop, cache string) <-chan builtOrErr {
		ch := make(chan builtOrErr, 1)
		go func() {
			b, err := BuildProject(p, Revision{Commit: commit}, BuildOptions{Repo: repo, CacheDir: cache, Stop: stop})
			ch <- builtOrErr{b, err}
		}()
		return ch
	}
	defer os.WriteFile(goOn, nil, 0o644) // whatever fails below, no build waits on
	firstDone, secondDone := build(first, cacheFirst), build(second, cacheSecond)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if started, _ := filepath.Glob(filepath.Join(marks, "started-*")); len(started) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the two builds never both started")
		}
	}
	if !first.Building() || !second.Building() {
		t.Fatalf("building: first %v, second %v; want both", first.Building(), second.Building())
	}
	cause := errors.New("the test stops it")
	first.Stop(cause)
	if !first.Wait(15 * time.Second) {
		t.Fatal("the stopped build is still in progress 15s after its stop")
	}
	select {
	case r := <-firstDone:
		if !errors.Is(r.err, cause) {
			t.Errorf("the stopped build returned %v, want its stop's cause", r.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stopped build did not return")
	}
	if left, _ := filepath.Glob(filepath.Join(cacheFirst, "builds", "*", "*")); len(left) != 1 || filepath.Base(left[0]) != ProjectInfoFile {
		t.Errorf("the stopped build left %v in its cache, want its project's %s alone", left, ProjectInfoFile)
	}
	select {
	case r := <-secondDone:
		t.Fatalf("the build carrying another BuildStop ended with the first's stop: %v", r.err)
	case <-time.After(300 * time.Millisecond):
	}
	if !second.Building() {
		t.Error("the build carrying another BuildStop is not counted in progress")
	}
	if err := os.WriteFile(goOn, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-secondDone:
		if r.err != nil {
			t.Errorf("the build carrying another BuildStop failed: %v", r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the build carrying another BuildStop did not finish")
	}
	if second.Building() {
		t.Error("a finished build is still counted in progress")
	}
	// A build that carries a stopped BuildStop does not start: its
	// checkout fails with the stop's cause.
	if _, err := BuildProject(p, Revision{Commit: commit}, BuildOptions{Repo: repo, CacheDir: t.TempDir(), Stop: first}); err == nil || !strings.Contains(err.Error(), cause.Error()) {
		t.Errorf("a build carrying a stopped BuildStop returned %v, want its stop's cause", err)
	}
}

func TestNilBuildStopStopsNothing(t *testing.T) {
	var s *BuildStop
	s.Stop(errors.New("nothing to stop"))
	if s.Building() {
		t.Error("a nil BuildStop counts a build in progress")
	}
	if !s.Wait(0) {
		t.Error("a nil BuildStop's Wait says a build is in progress")
	}
}

// TestZeroBuildStopStops: a BuildStop's zero value is one not stopped,
// and stopping it cancels the builds that carry it with its cause, as
// NewBuildStop's does.
func TestZeroBuildStopStops(t *testing.T) {
	var s BuildStop
	ctx, release := buildContext(BuildOptions{Stop: &s})
	defer release()
	if ctx.Err() != nil || s.Building() || !s.Wait(0) {
		t.Fatal("a zero BuildStop is stopped or counts a build")
	}
	cause := errors.New("signal")
	s.Stop(cause)
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
	}
	if context.Cause(ctx) != cause {
		t.Errorf("a build carrying a stopped zero BuildStop: cause %v, want %v", context.Cause(ctx), cause)
	}
}
