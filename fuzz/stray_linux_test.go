//go:build linux

package fuzz

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestStrayIsToldApartAndKilled: a process a server's descendant leaves
// running outside its session with an empty environment (setsid env -i)
// is adopted by cfgfuzz, reads as no server's without a wait (not as a
// process inside execve, which a judgement waits up to a second for), and
// killStrays kills it, naming its command line.
func TestStrayIsToldApartAndKilled(t *testing.T) {
	becomeSubreaper()
	if out, err := exec.Command("sh", "-c", "(setsid env -i sleep 600 </dev/null >/dev/null 2>&1 &)").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var pid int
	for deadline := time.Now().Add(5 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, p := range scanProcs() {
			if p.ppid == os.Getpid() && p.state == 'S' && commandLine(p.pid) == "sleep 600" {
				pid = p.pid
			}
		}
	}
	if pid == 0 {
		t.Fatal("the stray was not adopted by this process")
	}
	t.Cleanup(func() {
		killStrays()
		if syscall.Kill(pid, syscall.SIGKILL) == nil { // the stray, when the test failed before killing it
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, 0, nil)
		}
	})
	found, unsure := serverProcs(os.Getpid()+1<<22, serverEnv+"=none")
	if unsure || len(found) != 0 {
		t.Errorf("serverProcs with the stray adopted: %v, unsure %v; want none and sure", found, unsure)
	}
	killed := killStrays()
	if len(killed) != 1 || killed[0].PID != pid || killed[0].Command != "sleep 600" {
		t.Fatalf("killStrays: %+v, want the stray %d (sleep 600)", killed, pid)
	}
	if st, ok := readProcStat(pid); ok && st.ppid == os.Getpid() {
		t.Errorf("the stray %d is still a child of this process (state %c)", pid, st.state)
	}
}
