// faults_test.go runs the built cfgfuzz binary against faults of the user
// and the machine: output that cannot be written (/dev/full, a file size
// limit standing in for a full disk) exits 2 and leaves no temporary
// files.
package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// exitCode runs cmd and returns its exit status and combined output.
func exitCode(t *testing.T, cmd *exec.Cmd) (int, string) {
	t.Helper()
	var out bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	cmd.Stderr = &out
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	return 0, out.String()
}

func TestCheckTextToFullDeviceExits2(t *testing.T) {
	bin := cfgfuzzBinary(t)
	for _, mode := range [][]string{{"check"}, {"check", "--json"}} {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip(err)
		}
		cmd := exec.Command(bin, mode...)
		cmd.Stdin = strings.NewReader("{{1}, {2, 3}, {1}, {4}, {}}\n")
		cmd.Stdout = full
		code, out := exitCode(t, cmd)
		full.Close()
		if code != exitUsage || !strings.Contains(out, "no space") {
			t.Errorf("%v > /dev/full: exit %d, want 2 naming the error\n%s", mode, code, out)
		}
	}
}

func TestOutputWriteErrorAnyCommand(t *testing.T) {
	var stderr bytes.Buffer
	code := run([]string{"gen", "--count", "3"}, strings.NewReader(""), failingWriter{}, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "writing standard output") {
		t.Errorf("gen to a failing writer: exit %d, stderr %q", code, stderr.String())
	}
	for _, args := range [][]string{{"--help"}, {"help"}} {
		stderr.Reset()
		if code := run(args, strings.NewReader(""), failingWriter{}, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "writing standard output") {
			t.Errorf("cfgfuzz %s to a failing writer: exit %d, stderr %q", args[0], code, stderr.String())
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestMergeFullDiskLeavesNoTemporaries limits the file size (ulimit -f)
// so the merged report cannot be written: exit 2, no report.*.tmp left,
// and the same merge run again without the limit goes through.
func TestMergeFullDiskLeavesNoTemporaries(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := t.TempDir()
	shard := filepath.Join(dir, "shard")
	if code, out := exitCode(t, exec.Command(bin, "run", "--graphs", "20", "--inject", "swap-arms", "--progress", "none", "--minimize=false", "--out", shard)); code != exitFail {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	merged := filepath.Join(dir, "merged")
	code, out := exitCode(t, exec.Command("sh", "-c", `ulimit -f 1 && exec "$0" merge --out "$1" "$2"`, bin, merged, shard))
	if code != exitUsage {
		t.Errorf("merge under ulimit -f 1: exit %d, want 2\n%s", code, out)
	}
	left, _ := filepath.Glob(filepath.Join(merged, "*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// The merge run again, once there is room, is no replacement of an
	// earlier merge: the failed one left nothing of its own.
	if code, out := exitCode(t, exec.Command(bin, "merge", "--out", merged, shard)); code != exitFail {
		t.Errorf("the merge again: exit %d, want 1 (the planted fault's findings)\n%s", code, out)
	}
}

// TestResumeDoesNotRecountFindings runs a campaign with a planted fault
// (findings minimized into DIR/findings), then resumes it twice, as after
// a kill during minimization: every resume minimizes the same findings
// again, and the store's counts must not grow.
func TestResumeDoesNotRecountFindings(t *testing.T) {
	bin := cfgfuzzBinary(t)
	dir := filepath.Join(t.TempDir(), "c")
	counts := func() map[string]string {
		m := map[string]string{}
		sigs, _ := filepath.Glob(filepath.Join(dir, "findings", "*", "count.txt"))
		for _, c := range sigs {
			b, _ := os.ReadFile(c)
			m[filepath.Base(filepath.Dir(c))] = string(b)
		}
		return m
	}
	if code, out := exitCode(t, exec.Command(bin, "run", "--graphs", "50", "--inject", "swap-arms", "--progress", "none", "--out", dir)); code != exitFail {
		t.Fatalf("run: exit %d, want 1\n%s", code, out)
	}
	first := counts()
	if len(first) == 0 {
		t.Fatal("no finding stored")
	}
	for range 2 {
		if code, out := exitCode(t, exec.Command(bin, "run", "--resume", dir, "--progress", "none")); code != exitFail {
			t.Fatalf("resume: exit %d\n%s", code, out)
		}
	}
	if again := counts(); len(again) != len(first) {
		t.Errorf("signatures %v, then %v", first, again)
	} else {
		for k, v := range first {
			if again[k] != v {
				t.Errorf("findings/%s/count.txt: %q after the run, %q after two resumes", k, v, again[k])
			}
		}
	}
}
