package fuzz

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

// TestLeakCheckReadsOnlyAfterAChange: after an answer whose last PID and
// this process's children list are those read before the last reading
// of the server's processes that found none new, the server's processes
// are not read; after one whose last PID changed, or cannot be read, or
// after an orphan was handed to this process or ended, they are, and a reading
// that finds none new is remembered. The server is a pid no process has,
// so every reading finds none; the fake last PID counts the marks read:
// one for the check, one more before each reading.
func TestLeakCheckReadsOnlyAfterAChange(t *testing.T) {
	var calls, last int
	readable := true
	pid := os.Getpid() + 1<<22
	s := &server{pid: pid, token: "none", baselined: true, preStart: pid - 1, preStartOK: true,
		lastPID: func() (int, bool) { calls++; return last, readable }}
	defer s.marks.close()
	p := &Process{srv: s}
	judge := func(step string, pid int, ok, read bool) {
		t.Helper()
		calls, last, readable = 0, pid, ok
		if a := p.leaked(); a != nil {
			t.Fatalf("%s: judged a leak: %s", step, a.Reason)
		}
		if want := map[bool]int{false: 1, true: 2}[read]; calls != want {
			t.Errorf("%s: %d marks read, want %d (read the processes: %v)", step, calls, want, read)
		}
	}
	judge("first answer", pid, true, true)
	judge("no PID allocated", pid, true, false)
	judge("no PID allocated, again", pid, true, false)
	judge("a PID allocated", pid+1, true, true)
	judge("none since", pid+1, true, false)
	judge("last PID unreadable", 0, false, true)
	judge("last PID unreadable, again", 0, false, true)
	judge("readable again, none allocated", pid+1, true, false)

	end := adoptOrphan(t)
	judge("an orphan adopted", pid+1, true, true)
	judge("none since", pid+1, true, false)
	end()
	judge("the orphan ended", pid+1, true, true)
	judge("none since", pid+1, true, false)
}

// adoptOrphan makes this process a subreaper, as a campaign does, and
// has it adopt an orphan, a sleep started in the background by a shell
// that exited, which runs sleep when it returns; end kills and reaps the
// orphan (once; the test's cleanup calls it too).
func adoptOrphan(t *testing.T) (end func()) {
	t.Helper()
	becomeSubreaper()
	out, err := exec.Command("sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!").Output()
	pid, _ := strconv.Atoi(string(bytes.TrimSpace(out)))
	if err != nil || pid <= 0 {
		t.Fatalf("sh: %v, output %q", err, out)
	}
	var once sync.Once
	end = func() {
		once.Do(func() {
			syscall.Kill(pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, 0, nil)
		})
	}
	t.Cleanup(end)
	execed(t, pid, "sleep")
	return end
}

// execed waits until process pid runs command with its environment
// readable: past its execve, so a reading is sure of it.
func execed(t *testing.T, pid int, command string) {
	t.Helper()
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		comm, _ := os.ReadFile(dir + "comm")
		env, _ := os.ReadFile(dir + "environ")
		if string(bytes.TrimSpace(comm)) == command && len(env) > 0 {
			return
		}
	}
	t.Fatalf("process %d does not run %s", pid, command)
}

// TestLeakCaughtAfterCleanAnswers: a server that leaks (a child, the
// orphan of a child) on its 21st graph, after 20 it left nothing on, is
// judged to have leaked on that graph, whatever the readings its clean
// answers were spared. It logs how many were spared: with no process
// created on the machine between two answers, all but the first.
func TestLeakCaughtAfterCleanAnswers(t *testing.T) {
	bin := redteamServer(t)
	for _, mode := range []string{"leak", "leak-orphan"} {
		t.Run(mode, func(t *testing.T) {
			mark := markProcesses(t)
			p := &Process{Argv: []string{bin, mode}}
			defer p.Close()
			var calls, spared int
			for i := range 20 {
				calls = 0
				if a, _ := structurizeWithin(t, p, chainGraph(t, 2), 5*time.Second, 10*time.Second); a.Outcome != proto.OK {
					t.Fatalf("graph %d of 2 blocks: answer %s %q, want ok", i, a.Outcome, clip(a.Reason))
				}
				if i == 0 {
					s := p.srv
					s.lastPID = func() (int, bool) { calls++; return s.marks.lastPID() }
				} else if calls == 1 {
					spared++
				}
			}
			t.Logf("%d of 19 clean answers judged without reading the server's processes", spared)
			leaksOnSmallGraph(t, p, mark, "1 process: "+bin+" linger")
		})
	}
}

// TestLeakCaughtWhenLastPIDStands: where /proc/loadavg's last PID does
// not follow the PIDs allocated (gVisor prints 0 for good; LXCFS's
// --enable-loadavg prints the largest PID of the container's cgroup,
// refreshed every 5 seconds), no reading is spared on it: a server that
// leaks after clean answers is judged to have leaked on that graph.
func TestLeakCaughtWhenLastPIDStands(t *testing.T) {
	bin := redteamServer(t)
	mark := markProcesses(t)
	p := &Process{Argv: []string{bin, "leak"}}
	defer p.Close()
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	p.srv.lastPID = func() (int, bool) { return 0, true } // gVisor's
	for i := range 3 {
		if a, _ := structurizeWithin(t, p, chainGraph(t, 2), 5*time.Second, 10*time.Second); a.Outcome != proto.OK {
			t.Fatalf("graph %d of 2 blocks: answer %s %q, want ok", i, a.Outcome, clip(a.Reason))
		}
	}
	leaksOnSmallGraph(t, p, mark, "")
}

// leaksOnSmallGraph structurizes the small graph (4 blocks) on p, whose
// answer must be judged a leak (its detail holding detail), then closes
// p: no process of those after mark is left.
func leaksOnSmallGraph(t *testing.T, p *Process, mark, detail string) {
	t.Helper()
	a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
	out, sig, got := classifyAnswer(a)
	if out != OutCrash || sig != LeakSignature || !strings.Contains(got, detail) {
		t.Fatalf("graph of 4 blocks: answer %s %q (signature %q), want a crash %q whose detail holds %q", a.Outcome, clip(a.Reason), sig, LeakSignature, detail)
	}
	p.Close()
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
}

// TestLeakCaughtWhenOrphanedMidReading: a server that is a child
// subreaper starts a child that starts a grandchild; the child ends while
// the server's processes are read, after the server's children list was
// read and before the child's, and the grandchild is handed to the server.
// The request left the grandchild running: its answer is judged a leak,
// though no PID was allocated since the reading and no orphan was handed
// to this process.
func TestLeakCaughtWhenOrphanedMidReading(t *testing.T) {
	bin := redteamServer(t)
	mark := markProcesses(t)
	p := &Process{Argv: []string{bin, "subreaper-leak"}}
	defer p.Close()
	if a, _ := structurizeWithin(t, p, chainGraph(t, 2), 5*time.Second, 10*time.Second); a.Outcome != proto.OK {
		t.Fatalf("graph of 2 blocks: answer %s %q, want ok", a.Outcome, clip(a.Reason))
	}
	end := adoptOrphan(t) // its environment is read after the server's children list
	var armed, fired bool
	real := readEnviron
	defer func() { readEnviron = real }()
	readEnviron = func(pid int) ([]byte, error) {
		if armed && !fired {
			fired = true
			orphanGrandchild(t, p.srv.pid)
		}
		return real(pid)
	}
	armed = true
	a, _ := structurizeWithin(t, p, smallGraph(t), 5*time.Second, 10*time.Second)
	if !fired {
		t.Fatal("the server's processes were not read")
	}
	if out, sig, _ := classifyAnswer(a); out != OutCrash || sig != LeakSignature {
		t.Errorf("graph of 4 blocks: answer %s %q (signature %q), want a crash %q", a.Outcome, clip(a.Reason), sig, LeakSignature)
	}
	p.Close()
	end()
	if left := leftAlive(t, mark); len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
}

// orphanGrandchild kills server's child that runs linger-parent-wait once
// its child runs, and waits until that grandchild is handed to server.
func orphanGrandchild(t *testing.T, server int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for ; time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		kids, _ := childrenOf(server)
		for _, child := range kids {
			if !strings.HasSuffix(commandLine(child), "linger-parent-wait") {
				continue
			}
			kids, _ := childrenOf(child)
			if len(kids) == 0 || !strings.HasSuffix(commandLine(kids[0]), " linger") {
				continue
			}
			syscall.Kill(child, syscall.SIGKILL)
			for ; time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				if st, ok := readProcStat(kids[0]); ok && st.ppid == server {
					return
				}
			}
		}
	}
	t.Fatal("no grandchild handed to the server")
}
