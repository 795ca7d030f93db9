// regress_second_signal_test.go: a second stop signal ends a regress at
// once, and its line says what it leaves as the disk and the output
// show it: while the cases run, how many files were replayed (their
// lines printed) and that neither the summary nor the JUnit file is
// there; while the JUnit file is written, that the summary is printed and
// the JUnit file is not written. A FIFO in place of the JUnit file holds
// regress at its write: opening one for writing waits for a reader,
// which never comes.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer a process writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestRegressSecondSignalSaysWhatItLeaves(t *testing.T) {
	bin := cfgfuzzBinary(t)
	const files = 6
	for _, tc := range []struct {
		name string
		fifo bool // the JUnit file is a FIFO: regress is held at its write
		// want: the words of the second signal's line, with {N} the
		// number of case lines printed and {J} the JUnit file
		want string
	}{
		{"while the cases run", false, "({N} of 6 files replayed, their cases' lines printed, the others not; no summary is printed, the JUnit file {J} is not written)"},
		{"while the JUnit file is written", true, "(the summary is printed, the JUnit file {J} is not written)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			server := slowServer(t, dir, bin, "1", "")
			regs := filepath.Join(dir, "regs")
			os.Mkdir(regs, 0o755)
			for i := range files {
				body := fmt.Sprintf("# signature: exec:trace-mismatch\n# expect: pass\n{{1, 2}, {3}, {3}, {%d}, {}}\n", 4+i%2)
				if err := os.WriteFile(filepath.Join(regs, fmt.Sprintf("r%d.cfg", i)), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			junit := filepath.Join(dir, "j.xml")
			if tc.fifo {
				if err := syscall.Mkfifo(junit, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(bin, "regress", regs, "--structurizer", server, "--checks", "exec", "--junit", junit)
			var errs lockedBuffer
			cmd.Stderr = &errs
			pipe, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			rd := bufio.NewReader(pipe)
			first, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("no first line: %v; stderr:\n%s", err, errs.String())
			}
			time.Sleep(300 * time.Millisecond) // the second case is in flight, for a second
			cmd.Process.Signal(syscall.SIGINT)
			if tc.fifo {
				// The case in flight finishes, the summary is printed,
				// then the JUnit file's write waits at the FIFO.
				for deadline := time.Now().Add(30 * time.Second); !strings.Contains(errs.String(), "cfgfuzz regress: "+regs+": interrupted"); time.Sleep(10 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("no summary in 30 s; stderr:\n%s", errs.String())
					}
				}
				time.Sleep(200 * time.Millisecond)
			} else {
				time.Sleep(100 * time.Millisecond)
			}
			cmd.Process.Signal(syscall.SIGINT)
			rest, _ := io.ReadAll(rd)
			code := exitWithin(t, cmd, 20*time.Second, func() string { return "the second signal; stderr:\n" + errs.String() })
			out := first + string(rest)
			t.Logf("exit %d\n%s%s", code, out, errs.String())
			if code != 130 {
				t.Errorf("exit %d, want 130", code)
			}
			again := ""
			for _, l := range strings.Split(errs.String(), "\n") {
				if strings.Contains(l, "SIGINT again") {
					again = l
				}
			}
			want := strings.NewReplacer("{N}", fmt.Sprint(strings.Count(out, "\n")), "{J}", junit).Replace(tc.want)
			if !strings.HasSuffix(again, want) {
				t.Errorf("the second signal's line %q, want it to end %q", again, want)
			}
			if summary := strings.Contains(errs.String(), "cfgfuzz regress: "+regs+":"); summary != tc.fifo {
				t.Errorf("a summary printed: %v, want %v", summary, tc.fifo)
			}
			// Not written: no file (the FIFO as it was) and no temporary.
			if st, err := os.Stat(junit); tc.fifo && (err != nil || st.Mode()&os.ModeNamedPipe == 0) || !tc.fifo && err == nil {
				t.Errorf("the JUnit file: %v, %v", st, err)
			}
			if _, err := os.Stat(junit + ".tmp"); err == nil {
				t.Errorf("%s.tmp left behind", junit)
			}
			if left := processesRunning(bin); len(left) > 0 {
				t.Errorf("processes of %s left: %v", bin, left)
			}
		})
	}
}
