package fuzz

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestProcessReapsOrphansExitingDuringTheSweep: a server's orphaned child
// that is on its way out when the sweep reads its environment (gone from
// /proc before the process is a zombie) is reaped once it is one, so a
// campaign whose wrapper keeps crashing (a script that runs the real
// structurizer as its child, which exits at the end of its input) does not
// fill the process table with zombies. The hook makes that moment happen
// on the first read: it kills the child, waits until it is a zombie and
// reads as the kernel does for an exiting process.
func TestProcessReapsOrphansExitingDuringTheSweep(t *testing.T) {
	mark := markProcesses(t)
	var once sync.Once
	real := readEnviron
	readEnviron = func(pid int) ([]byte, error) {
		b, err := real(pid)
		comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if err != nil || !bytes.Contains(b, []byte(mark)) || strings.TrimSpace(string(comm)) != "tail" {
			return b, err
		}
		hit := false
		once.Do(func() {
			hit = true
			syscall.Kill(pid, syscall.SIGKILL)
			for st, ok := readProcStat(pid); ok && st.state != 'Z'; st, ok = readProcStat(pid) {
				time.Sleep(time.Millisecond)
			}
		})
		if hit {
			return nil, syscall.ESRCH
		}
		return b, err
	}
	defer func() { readEnviron = real }()
	// The subshell orphans tail while the server runs: it is the test
	// process's child, not known under the server, when the server ends.
	p := &Process{Argv: []string{"sh", "-c", "(tail -f /dev/null </dev/null >/dev/null 2>&1 &); exec sleep 0.3"}}
	a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
	p.Close()
	if a.Outcome != OutCrash {
		t.Fatalf("answer %s %q, want a crash", a.Outcome, clip(a.Reason))
	}
	// Every child of this process is gone once the servers are (a crashed
	// server is started again for the request, so there are two groups).
	var left []int
	for _, ps := range scanProcs() {
		if ps.ppid == os.Getpid() {
			left = append(left, ps.pid)
			syscall.Kill(ps.pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			syscall.Wait4(ps.pid, &ws, 0, nil)
		}
	}
	if len(left) > 0 {
		t.Fatalf("children left after the servers ended (zombies or alive): %v", left)
	}
}

// TestServerProcsMatchesTheScan holds serverProcs (the children lists) to
// serverProcsScan (every process read) on a real tree: a shell in a
// process group of its own with a child, a subshell and its child, and
// an orphan in another session that this process adopts once its parent
// exits, found by the token in its environment.
func TestServerProcsMatchesTheScan(t *testing.T) {
	if !childrenLists() {
		t.Skip("this kernel has no /proc/PID/task/TID/children")
	}
	becomeSubreaper()
	env := serverEnv + "=" + newServerToken()
	cmd := exec.Command("sh", "-c", `sleep 30 & (sleep 31 & wait) & (setsid sleep 32 &); echo up; wait`)
	cmd.Env = append(os.Environ(), env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	root := cmd.Process.Pid
	t.Cleanup(func() {
		sweepDescendants(envEntry{kv: env}, descendantsOf(root), []int{root})
		syscall.Kill(-root, syscall.SIGKILL)
		cmd.Wait()
	})
	if _, err := out.Read(make([]byte, 3)); err != nil {
		t.Fatal(err)
	}
	var fast, scan map[int]uint64
	for range 100 { // until the tree settles: the shells fork as we read
		fast, _ = serverProcs(root, env)
		scan, _ = serverProcsScan(root, env)
		if len(fast) >= 4 && maps.Equal(fast, scan) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !maps.Equal(fast, scan) {
		t.Fatalf("serverProcs %v, the scan %v", fast, scan)
	}
	adopted := 0
	for pid := range fast {
		if st, ok := readProcStat(pid); ok && st.ppid == os.Getpid() && pid != root {
			adopted++
		}
	}
	if len(fast) < 4 || adopted != 1 {
		t.Fatalf("found %d processes (%v), %d adopted; want the shell, its children and the adopted orphan (4 or more)", len(fast), fast, adopted)
	}
}

// TestSweepOrphansNamesWhatItKills: a process whose server token names a
// cfgfuzz that no longer runs is killed and returned with its command
// line and that pid; one whose token names this process is left alone.
// Every cfgfuzz run sweeps the same way, and the package tests of
// cmd/cfgfuzz run it beside this one: an orphan killed by another sweep
// before ours makes the attempt void, and the test starts another.
func TestSweepOrphansNamesWhatItKills(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := gone.Process.Pid
	start := func(owner int) *exec.Cmd {
		c := exec.Command("sleep", "60")
		c.Env = append(os.Environ(), fmt.Sprintf("%s=%d.1", serverEnv, owner))
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		waitExec(t, c.Process.Pid, "sleep 60")
		return c
	}
	ours := start(os.Getpid())
	for attempt := 1; ; attempt++ {
		orphan := start(dead)
		var found *Orphan
		for _, o := range SweepOrphans() {
			if o.PID == ours.Process.Pid {
				t.Errorf("killed %+v, a process of this cfgfuzz's servers", o)
			}
			if o.PID == orphan.Process.Pid {
				found = &o
			}
		}
		if found == nil && attempt < 5 {
			if st, ok := readProcStat(orphan.Process.Pid); ok && st.state == 'Z' {
				t.Logf("attempt %d: the orphan %d was killed by another sweep first", attempt, orphan.Process.Pid)
				continue
			}
		}
		if found == nil || found.Owner != dead || found.Command != "sleep 60" {
			t.Fatalf("the orphan %d: got %+v, want it killed with its command and owner %d", orphan.Process.Pid, found, dead)
		}
		if err := orphan.Wait(); err == nil {
			t.Errorf("the orphan exited cleanly, want it killed")
		}
		line := OrphansLine([]Orphan{*found})
		if want := fmt.Sprintf("killed 1 process left behind by the servers of a cfgfuzz that is no longer running (pid %d): %d (sleep 60)", dead, found.PID); line != want {
			t.Errorf("line %q, want %q", line, want)
		}
		return
	}
}

// waitExec waits until pid runs the command line want: a child read
// between its fork and its exec still shows this process's command and
// environment.
func waitExec(t *testing.T, pid int, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for commandLine(pid) != want {
		if time.Now().After(deadline) {
			t.Fatalf("process %d runs %q after 10 s, want %q", pid, commandLine(pid), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
