// second_signal_files_test.go: a second stop signal that reaches a
// campaign while it writes its files ends it at once and leaves its
// directory clean: no temporary file (NAME.tmp) and no lock of its own,
// the reports either the old ones (none, for a new campaign) or the new
// ones whole, and the line it prints says which; the pictures directory
// (a campaign with findings) goes with reports that are not written, and
// stays, every picture whole, with reports that are. A FIFO where the
// campaign writes a temporary file holds it at that point: opening one
// for writing waits for a reader, which never comes.
package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The cases run side by side, and beside other tests (parallelTests),
// each on a binary of its own, whose processes are the case's alone.
func TestSecondSignalLeavesNoDebris(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		fifo string   // the temporary file, relative to the campaign directory, the campaign is held at
		wait string   // the file whose appearance says the campaign got there
		args []string // run's extra arguments
		// written: whether the reports are there after the second signal
		written bool
	}{
		// The reports' temporary files are written before any is renamed
		// into place: held at the second, none is there.
		{"while the reports are written", "report.md.tmp", "report.json.tmp", nil, false},
		// A night writes its state update after the reports.
		{"after the reports are written", "state/findings.json.tmp", "report.json", []string{"--state", "STATE", "--night", "2026-03-01"}, true},
		// With findings, their pictures are written before the reports.
		{"findings, while the reports are written", "report.md.tmp", "report.json.tmp", []string{"--inject", "swap-arms"}, false},
		{"findings, after the reports are written", "state/findings.json.tmp", "report.json", []string{"--inject", "swap-arms", "--state", "STATE", "--night", "2026-03-01"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bin := ownCfgfuzzBinary(t)
			dir := filepath.Join(t.TempDir(), "c")
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, tc.fifo)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(dir, tc.fifo), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"run", "--graphs", "3000", "--workers", "1", "--progress", "none", "--minimize=false", "--out", dir}
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "STATE", filepath.Join(t.TempDir(), "state")))
			}
			cmd := exec.Command(bin, args...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			waitForFile(t, filepath.Join(dir, "lock"))
			time.Sleep(300 * time.Millisecond)
			cmd.Process.Signal(syscall.SIGINT)
			waitForFile(t, filepath.Join(dir, tc.wait))
			time.Sleep(200 * time.Millisecond) // on to the FIFO
			_, err := os.Stat(filepath.Join(dir, "pictures"))
			picturesBefore := err == nil
			cmd.Process.Signal(syscall.SIGINT)
			start := time.Now()
			code := exitWithin(t, cmd, 20*time.Second, func() string { return "the second signal\n" + out.String() })
			t.Logf("exit %d %v after the second signal\n%s", code, time.Since(start), out.String())
			if code != 130 {
				t.Errorf("exit %d, want 130", code)
			}
			filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(d.Name(), ".tmp") {
					t.Errorf("%s left behind", path)
				}
				return nil
			})
			if _, err := os.Stat(filepath.Join(dir, "lock")); err == nil {
				t.Errorf("the lock is left behind")
			}
			var there []string
			for _, f := range []string{"report.json", "report.md", "report.html"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
					there = append(there, f)
				}
			}
			if tc.written && len(there) != 3 || !tc.written && len(there) != 0 {
				t.Errorf("reports there: %v, want all three: %v", there, tc.written)
			}
			pics, _ := filepath.Glob(filepath.Join(dir, "pictures", "*"))
			if len(there) == 3 {
				rep := readReportJSON(t, dir)
				if rep.Incomplete == nil {
					t.Errorf("the report written does not say the campaign is incomplete")
				}
				if len(rep.Findings) > 0 && len(pics) == 0 {
					t.Errorf("the report has %d findings and no pictures", len(rep.Findings))
				}
			} else if _, err := os.Stat(filepath.Join(dir, "pictures")); err == nil {
				t.Errorf("no report written, and the pictures directory is left, with %d files", len(pics))
			}
			if slices.Contains(tc.args, "swap-arms") && !picturesBefore {
				t.Errorf("no pictures directory when the second signal was sent")
			}
			again := ""
			for _, l := range strings.Split(out.String(), "\n") {
				if strings.Contains(l, "SIGINT again") {
					again = l
				}
			}
			if says := strings.Contains(again, "the report is already written"); says != (len(there) == 3) || !says && !strings.Contains(again, "the report is not written") {
				t.Errorf("the second signal's line %q, with the reports %v on disk", again, there)
			}
			if left := processesRunning(bin); len(left) > 0 {
				t.Errorf("processes of %s left: %v", bin, left)
			}
		})
	}
}

// exitWithin waits for cmd, started and signalled, to exit within d and
// returns its exit status; past d it kills cmd (and its process group,
// where it leads one) and fails the test, saying what the command was
// still doing after (after()'s text).
func exitWithin(t *testing.T, cmd *exec.Cmd, d time.Duration, after func() string) int {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-time.After(d):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Process.Kill()
		<-exited
		t.Fatalf("still running %v after %s", d, after())
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return 0
}
