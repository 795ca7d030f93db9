// stopbuilds_test.go: stopBuilds, which a stop signal runs to stop a
// command's builds and wait for their cleanup, ends its wait on a further
// signal and says a build may be left.
package main

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stuckBuilds is a build whose cleanup never ends.
type stuckBuilds struct{ stopped error }

func (b *stuckBuilds) Stop(cause error) { b.stopped = cause }
func (b *stuckBuilds) Building() bool   { return true }
func (b *stuckBuilds) Wait(d time.Duration) bool {
	time.Sleep(d)
	return false
}

func TestStopBuildsEndsItsWaitOnAnotherSignal(t *testing.T) {
	builds := &stuckBuilds{}
	again := make(chan os.Signal, 1)
	var log bytes.Buffer
	done := make(chan struct{})
	start := time.Now()
	go func() {
		stopBuilds(builds, "run", syscall.SIGINT, again, &log, buildStopWait)
		close(done)
	}()
	time.Sleep(50 * time.Millisecond)
	again <- syscall.SIGINT
	select {
	case <-done:
	case <-time.After(buildStopWait / 2):
		t.Fatalf("stopBuilds still waits %v after another signal", time.Since(start))
	}
	if builds.stopped == nil {
		t.Error("the builds were not stopped")
	}
	if want := "a build did not finish stopping"; !strings.Contains(log.String(), want) {
		t.Errorf("stopBuilds ended its wait saying %q, want %q", log.String(), want)
	}
}

// TestStopWaitIsBounded: main's wait for a stop handler whose cleanup
// never ends returns at its bound, false; a handler that ran returns true
// at once.
func TestStopWaitIsBounded(t *testing.T) {
	stuck := &stopEnd{sig: syscall.SIGINT, cleaned: make(chan struct{})}
	start := time.Now()
	if stuck.wait(50 * time.Millisecond) {
		t.Error("a cleanup that never ran counted as run")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the bounded wait took %v", took)
	}
	ran := &stopEnd{sig: syscall.SIGINT, cleaned: make(chan struct{})}
	close(ran.cleaned)
	if !ran.wait(time.Hour) {
		t.Error("a cleanup that ran counted as stuck")
	}
	if !(*stopEnd)(nil).wait(time.Hour) {
		t.Error("no handler: the wait said stuck")
	}
}

// slowBuilds is a build whose cleanup takes the whole wait allowed it.
type slowBuilds struct{ stuckBuilds }

// TestMainWaitsForTheStopHandlersCleanup: a command that returns while
// the stop handler waits for a build's cleanup and then ends the servers
// (which takes its own time) is held until the handler's cleanup ran,
// however long the two take together; the handler then exits with the
// signal's status.
func TestMainWaitsForTheStopHandlersCleanup(t *testing.T) {
	var log bytes.Buffer
	cleaned := make(chan struct{})
	status := make(chan int, 1)
	h := stopEnder{name: "bisect", builds: &slowBuilds{}, log: &log, wait: 100 * time.Millisecond, freeze: func() {},
		end:  func() { time.Sleep(1200 * time.Millisecond); close(cleaned) },
		exit: func(code int) { status <- code }}
	e := &stopEnd{sig: syscall.SIGTERM, cleaned: make(chan struct{})}
	go h.stop(e, nil)
	if !e.wait(stopCleanupBound) { // main, the command having returned at once
		t.Fatal("the wait ended at its bound")
	}
	select {
	case <-cleaned:
	default:
		t.Fatal("the wait ended before the handler's cleanup ran")
	}
	if code := <-status; code != 143 {
		t.Errorf("the handler exits %d, want 143", code)
	}
	if !strings.Contains(log.String(), "SIGTERM: stopping (") || !strings.Contains(log.String(), "a build did not finish stopping") {
		t.Errorf("the handler said %q", log.String())
	}
}
