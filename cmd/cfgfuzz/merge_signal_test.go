// merge_signal_test.go: a merge stopped by SIGTERM while it minimizes
// (a Kubernetes eviction) says so with the command that runs it again,
// exits 143 and leaves the state as it was; that same command, run again,
// replaces the unfinished merge and commits the night.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// slowMerge makes the shards of a night, with a structurizer whose answers
// wait for the seconds the file delay holds, and the merge's arguments
// that commit them into the state st, out m.
func slowMerge(t *testing.T) (bin, delay, st, m string, args []string) {
	bin = cfgfuzzBinary(t)
	dir := t.TempDir()
	delay = filepath.Join(dir, "delay")
	os.WriteFile(delay, []byte("0\n"), 0o644)
	server := slowServer(t, dir, bin, `"$(cat `+delay+`)"`, "--inject swap-arms")
	st = filepath.Join(dir, "st")
	var shards []string
	for i := range 2 {
		d := filepath.Join(dir, "s"+string(rune('0'+i)))
		args := []string{"run", "--structurizer", server, "--seed", "3", "--graphs", "8", "--shard", string(rune('0'+i)) + "/2",
			"--state", st, "--night", "2026-03-01", "--progress", "none", "--out", d}
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil && !strings.Contains(err.Error(), "exit status 1") { // the shards of one build, the merge's
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		shards = append(shards, d)
	}
	m = filepath.Join(dir, "m")
	args = append([]string{"merge", "--progress", "none", "--minimize-steps", "30", "--state", st, "--out", m}, shards...)
	return bin, delay, st, m, args
}

func TestMergeStoppedRunsAgain(t *testing.T) {
	bin, delay, st, m, args := slowMerge(t)
	again := "cfgfuzz " + shellWords(args)
	os.WriteFile(delay, []byte("0.3\n"), 0o644)
	cmd := exec.Command(bin, args...)
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, serr := os.Stat(filepath.Join(m, unfinishedFile)); serr == nil { // the minimization starts
			time.Sleep(500 * time.Millisecond)
			cmd.Process.Signal(syscall.SIGTERM)
			err = <-done
			break
		}
		select {
		case err = <-done:
			t.Fatalf("the merge ended before it wrote into %s: %v\n%s", m, err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("%s never appeared\n%s", unfinishedFile, out.String())
		}
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	t.Logf("merge: exit %d\n%s", code, out.String())
	if code != 143 || !strings.Contains(out.String(), "cfgfuzz merge: SIGTERM: stopped; "+st+" is left as it was") || !strings.Contains(out.String(), again) {
		t.Errorf("merge stopped: exit %d; want 143 and a line saying it stopped, the state left as it was and %q", code, again)
	}
	if _, err := os.Stat(filepath.Join(st, fuzz.StateFindingsFile)); err == nil {
		t.Error("the stopped merge wrote the state")
	}
	if _, err := os.Stat(filepath.Join(m, unfinishedFile)); err != nil {
		t.Errorf("the stopped merge left no %s: %v", unfinishedFile, err)
	}
	os.WriteFile(delay, []byte("0\n"), 0o644)
	cmd = exec.Command(bin, args...)
	outb, err := cmd.CombinedOutput()
	code = cmd.ProcessState.ExitCode()
	t.Logf("merge again: exit %d, %v\n%s", code, err, outb)
	if code != exitOK && code != exitFail {
		t.Fatalf("the merge run again: exit %d, want the night's verdict", code)
	}
	if _, err := os.Stat(filepath.Join(st, fuzz.StateFindingsFile)); err != nil {
		t.Errorf("the merge run again did not commit the night: %v", err)
	}
	if _, err := os.Stat(filepath.Join(m, unfinishedFile)); err == nil {
		t.Errorf("the merge run again left %s", unfinishedFile)
	}
}

// TestMergeStartedIgnoringSIGINTStops: a merge started ignoring SIGINT (a
// shell script's background job, `cfgfuzz merge ... &`) stops on one as
// run does, exit 130, the state left as it was, where it would otherwise
// minimize and commit the night.
func TestMergeStartedIgnoringSIGINTStops(t *testing.T) {
	skipIfStartedIgnoring(t, syscall.SIGTERM) // the test's way out of a merge that ignores SIGINT
	bin, delay, st, m, args := slowMerge(t)
	os.WriteFile(delay, []byte("0.3\n"), 0o644)
	cmd := exec.Command("sh", append([]string{"-c", `trap '' INT; exec "$0" "$@"`, bin}, args...)...)
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, filepath.Join(m, unfinishedFile)) // the minimization starts
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Signal(syscall.SIGTERM)
		<-done
		t.Fatalf("the merge started ignoring SIGINT did not stop on one within 30s\n%s", out.String())
	}
	code := cmd.ProcessState.ExitCode()
	t.Logf("merge: exit %d\n%s", code, out.String())
	if code != 130 || !strings.Contains(out.String(), "cfgfuzz merge: SIGINT: stopped; "+st+" is left as it was") {
		t.Errorf("merge started ignoring SIGINT, then sent one: exit %d; want 130 and a line saying it stopped with the state left as it was", code)
	}
	if _, err := os.Stat(filepath.Join(st, fuzz.StateFindingsFile)); err == nil {
		t.Error("the stopped merge wrote the state")
	}
}
