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
		stopBuilds(builds, "run", syscall.SIGINT, again, &log)
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
