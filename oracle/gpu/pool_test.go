// pool_test.go: driver servers as the gpu check meets them. Fake servers
// (this test binary with fakeServerEnv set: one that crashes, one that
// hangs, one whose device does not open, one that answers) hold the pool
// to its promises where no driver could be made to misbehave on cue; on a
// real device the servers' observations are the in-process Executor's.

package gpu

import (
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// fakeServerEnv makes this test binary a fake driver server of the mode
// it names (fakeServe).
const fakeServerEnv = "CFGFUZZ_GPU_FAKE_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeServerEnv); mode != "" {
		fakeServe(mode)
		os.Exit(0)
	}
	ServeIfAsked() // the real servers of TestPoolMatchesTheDriver
	code := m.Run()
	CloseShared()
	os.Exit(code)
}

// fakeServe answers the hello, then every job, as mode says: "crash"
// dies of SIGSEGV at its first job, "hang" never answers it, "nodevice"
// answers the hello with no device, "slowhello" opens its device in 300 ms
// and answers, "timeout" answers every job with a
// fence timeout, "answer" answers each job with one
// empty observation per walk (and a timed job fakeTiming).
func fakeServe(mode string) {
	dec, enc := gob.NewDecoder(os.Stdin), gob.NewEncoder(os.Stdout)
	var h serverHello
	if dec.Decode(&h) != nil {
		os.Exit(2)
	}
	if mode == "slowhello" {
		fmt.Fprintln(os.Stderr, "INFO: the loader says a great deal first")
		time.Sleep(300 * time.Millisecond)
	}
	if mode == "nodevice" {
		enc.Encode(serverInfo{Err: toWire(&DriverError{Result: codeNoDevice, Device: "gpu"})})
		return
	}
	enc.Encode(serverInfo{Info: DeviceInfo{Name: "fake " + mode, Type: "cpu"}})
	for {
		var j serverJob
		if dec.Decode(&j) != nil {
			return
		}
		switch mode {
		case "crash":
			fmt.Fprintln(os.Stderr, "INFO: Vulkan Loader chatter\nINFO: more chatter\nfatal: the driver dereferenced nothing")
			syscall.Kill(os.Getpid(), syscall.SIGSEGV) // the Go runtime's fatal error, as a crash in cgo code gives

			time.Sleep(time.Minute)
		case "hang":
			time.Sleep(time.Hour)
		case "timeout":
			enc.Encode(serverAnswer{Err: toWire(&DriverError{Op: "vkWaitForFences", Result: 2})})
			continue
		}
		a := serverAnswer{Observed: make([]spirv.Observed, j.Walks)}
		if j.Time != nil {
			a.Timing = fakeTiming(*j.Time)
		}
		enc.Encode(a)
	}
}

// fakeTiming is what a fake server measures for a timed job: times that
// tell its options came through.
func fakeTiming(opt TimeOptions) Timing {
	return Timing{Pipeline: time.Duration(opt.Warmup), Run: time.Duration(opt.Repeats)}
}

// fakePool is a pool of fake servers of mode, counting the servers it
// starts.
func fakePool(t *testing.T, mode string) (*Pool, *atomic.Int32) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var started atomic.Int32
	p := NewPool(Options{}, func() (*exec.Cmd, error) {
		started.Add(1)
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), fakeServerEnv+"="+mode)
		return cmd, nil
	})
	t.Cleanup(p.Close)
	return p, &started
}

// gone reports whether no process pid exists (it was reaped).
func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

func someJob() ([]byte, *spirv.Batch) {
	return []byte{3, 2, 0x23, 7}, spirv.NewBatch([][]uint32{{0}, {1}}, 8)
}

// TestPoolCrashFailsOneCheck: a server that dies on a job fails that job
// with a DriverError saying how it ended and what it wrote, is reaped, and
// the next Get starts another.
func TestPoolCrashFailsOneCheck(t *testing.T) {
	p, started := fakePool(t, "crash")
	r, err := p.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	m, b := someJob()
	_, err = r.Execute(m, b, 2)
	if !IsDriverError(err) {
		t.Fatalf("a crash: %v, want a DriverError", err)
	}
	for _, want := range []string{"died running the module", "SIGSEGV", "the driver dereferenced nothing", "fake crash"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the crash's error %q does not say %q", err, want)
		}
	}
	replaced(t, p, r, started, "a crash")
}

// replaced gives back r, which a job broke (after), and holds the pool to
// ending it and lending a second server, newly started, for the next Get.
func replaced(t *testing.T, p *Pool, r *Remote, started *atomic.Int32, after string) {
	t.Helper()
	p.Put(r)
	if !gone(r.cmd.Process.Pid) {
		t.Errorf("after %s the server %d was not ended and reaped", after, r.cmd.Process.Pid)
	}
	r2, err := p.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r2 == r || started.Load() != 2 {
		t.Errorf("after %s Get gave the same server (%v) or started %d servers, want a second", after, r2 == r, started.Load())
	}
	p.Put(r2)
}

// TestPoolDropsAServerWhoseDriverFailed: a server that answers a job
// with a driver error (a fence timeout: the dispatch may still run in it)
// is not lent again.
func TestPoolDropsAServerWhoseDriverFailed(t *testing.T) {
	p, started := fakePool(t, "timeout")
	r, err := p.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	m, b := someJob()
	if _, err := r.Execute(m, b, 2); !IsDriverError(err) || !strings.Contains(err.Error(), "VK_TIMEOUT") {
		t.Fatalf("a fence timeout: %v", err)
	}
	replaced(t, p, r, started, "a driver error")
}

// TestPoolKillsAServerPastItsTimeout: a server that gives no answer
// within the pool's timeout is killed and reaped, and its job fails with
// a DriverError naming the timeout.
func TestPoolKillsAServerPastItsTimeout(t *testing.T) {
	const limit = 400 * time.Millisecond
	p, _ := fakePool(t, "hang")
	r, err := p.Get(limit)
	if err != nil {
		t.Fatal(err)
	}
	m, b := someJob()
	start := time.Now()
	_, err = r.Execute(m, b, 2)
	took := time.Since(start)
	if !IsDriverError(err) || !strings.Contains(err.Error(), "no answer from the driver process running the module within "+limit.String()) {
		t.Errorf("a hang: %v, want a DriverError naming the timeout", err)
	}
	if took < limit || took > limit+5*time.Second {
		t.Errorf("the hung job ended after %v, want about %v", took, limit)
	}
	if !gone(r.cmd.Process.Pid) {
		t.Errorf("the hung server %d still exists", r.cmd.Process.Pid)
	}
	if _, err := r.Execute(m, b, 2); !IsDriverError(err) {
		t.Errorf("a killed server took another job: %v", err)
	}
	p.Put(r)
}

// TestPoolRemembersADeviceThatDoesNotOpen: a device the server cannot
// open fails every Get the same way, from one server started.
func TestPoolRemembersADeviceThatDoesNotOpen(t *testing.T) {
	p, started := fakePool(t, "nodevice")
	_, err1 := p.Get(time.Minute)
	_, err2 := p.Get(time.Minute)
	if !IsDriverError(err1) || err2 == nil || err1.Error() != err2.Error() {
		t.Errorf("Gets of a device that does not open: %v, then %v; want the same DriverError twice", err1, err2)
	}
	if !strings.Contains(fmt.Sprint(err1), "no Vulkan device") {
		t.Errorf("the error %v does not say the device is missing", err1)
	}
	if n := started.Load(); n != 1 {
		t.Errorf("%d servers started, want 1", n)
	}
}

// TestPoolLendsAServerToOneCallerAtATime: two Gets get two servers; a
// server given back is lent again rather than a third started; Close ends
// them all, lent or idle.
func TestPoolLendsAServerToOneCallerAtATime(t *testing.T) {
	p, started := fakePool(t, "answer")
	a, err := p.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatal("two callers were lent the same server")
	}
	m, batch := someJob()
	if obs, err := a.Execute(m, batch, 2); err != nil || len(obs) != 2 {
		t.Errorf("a job on a fake server: %d observations, %v", len(obs), err)
	}
	p.Put(a)
	if c, err := p.Get(time.Minute); err != nil || c != a {
		t.Errorf("after a Put, Get gave %p (%v), want the idle server %p", c, err, a)
	}
	if n := started.Load(); n != 2 {
		t.Errorf("%d servers started, want 2", n)
	}
	p.Close()
	for _, r := range []*Remote{a, b} {
		if !gone(r.cmd.Process.Pid) {
			t.Errorf("server %d outlived Close", r.cmd.Process.Pid)
		}
	}
	if _, err := p.Get(time.Minute); err == nil {
		t.Error("Get on a closed pool lent a server")
	}
}

// TestPoolMatchesTheDriver: a real server's observations are the
// in-process Executor's, walk for walk, on generated graphs.
func TestPoolMatchesTheDriver(t *testing.T) {
	ex, err := Open(Options{})
	if err != nil {
		t.Skipf("no Vulkan device: %v", err)
	}
	p := NewPool(Options{}, nil)
	t.Cleanup(p.Close)
	r, err := p.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Put(r)
	if r.Name() != ex.Name() || r.Info() != ex.Info() {
		t.Errorf("the server's device %+v, the process's %+v", r.Info(), ex.Info())
	}
	for seed := range uint64(8) {
		g := RandomGraph(seed, 4+int(seed%9))
		res, err := structurizer.Structurize(g, structurizer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := emit.Bytes(res.Func, emit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		walks := oracle.Walks(g, oracle.WalkOptions{Seed: seed})
		decisions := make([][]uint32, len(walks))
		for i, w := range walks {
			decisions[i] = w.Decisions
		}
		batch := spirv.NewBatch(decisions, 64)
		want, err1 := ex.Execute(m, batch, len(walks))
		got, err2 := r.Execute(m, batch, len(walks))
		if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("graph %d: the server observed %v (%v), the process %v (%v)", seed, got, err2, want, err1)
		}
		tm, timed, err3 := r.Time(m, batch, len(walks), TimeOptions{Warmup: -1, Repeats: 2})
		if err3 != nil || !reflect.DeepEqual(timed, want) || tm.Pipeline <= 0 || tm.Run <= 0 {
			t.Errorf("graph %d: the server's timed run observed %v (%v), timing %+v; the process %v", seed, timed, err3, tm, want)
		}
	}
}

// TestPoolDropsAServerThatDiedIdle: an idle server killed from outside (by
// the kernel's out-of-memory killer, say) is not lent: the next check gets
// a live one, and its job runs.
func TestPoolDropsAServerThatDiedIdle(t *testing.T) {
	p, started := fakePool(t, "answer")
	r, err := p.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	p.Put(r)
	syscall.Kill(r.cmd.Process.Pid, syscall.SIGKILL)
	<-r.exited
	r2, err := p.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Put(r2)
	if r2 == r || started.Load() != 2 {
		t.Fatalf("a server that died idle was lent again (%v), %d started", r2 == r, started.Load())
	}
	m, b := someJob()
	if _, err := r2.Execute(m, b, 2); err != nil {
		t.Errorf("the job after a server died idle: %v", err)
	}
}

// TestPoolGivesTheDeviceTimeToOpen: a job limit shorter than the device
// takes to open bounds the jobs, not the opening.
func TestPoolGivesTheDeviceTimeToOpen(t *testing.T) {
	p, _ := fakePool(t, "slowhello")
	r, err := p.Get(50 * time.Millisecond)
	if err != nil {
		t.Fatalf("a device that opens in 300 ms, a job limit of 50 ms: %v", err)
	}
	p.Put(r)
}

// TestPoolCloseKillsALentServer: Close does not wait on a server whose
// job its check gave up on.
func TestPoolCloseKillsALentServer(t *testing.T) {
	p, _ := fakePool(t, "hang")
	r, err := p.Get(time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	m, b := someJob()
	go r.Execute(m, b, 2)
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	p.Close()
	if took := time.Since(start); took >= closeWait {
		t.Errorf("Close took %v on a lent server, want it killed at once", took)
	}
	if !gone(r.cmd.Process.Pid) {
		t.Errorf("the lent server %d outlived Close", r.cmd.Process.Pid)
	}
}

// TestStderrCauseSkipsChatter: the lines that say why a server ended are
// found past a loader's chatter and before a goroutine dump, and past the
// buffer's head.
func TestStderrCauseSkipsChatter(t *testing.T) {
	b := &stderrBuffer{max: 64}
	fmt.Fprintln(b, "INFO: Vulkan Loader Version 1.3.239")
	fmt.Fprintln(b, strings.Repeat("INFO: Found manifest file\n", 20))
	fmt.Fprintln(b, "SIGSEGV: segmentation violation\nPC=0x7f m=3 sigcode=1 addr=0x8")
	if got, want := b.cause(2), "SIGSEGV: segmentation violation"; got != want {
		t.Errorf("cause %q, want %q", got, want)
	}
	quiet := &stderrBuffer{max: 64}
	fmt.Fprintln(quiet, "first\nsecond\nthird")
	if got := quiet.cause(2); got != "first; second" {
		t.Errorf("cause of words without a mark %q, want the first two lines", got)
	}
}

// TestServerCommandRunsThisFile: a server is this very program, whatever
// its path holds later (a rebuild mid-campaign).
func TestServerCommandRunsThisFile(t *testing.T) {
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		t.Skip("no /proc/self/exe here")
	}
	cmd, err := ServerCommand()
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Path != "/proc/self/exe" {
		t.Errorf("a server starts from %s, want /proc/self/exe", cmd.Path)
	}
}

// TestPoolTimesAJob: a timed job reaches the server with its options and
// comes back with the server's timing; a server that dies timing a module
// fails that module alone, as it fails a check.
func TestPoolTimesAJob(t *testing.T) {
	p, _ := fakePool(t, "answer")
	r, err := p.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	mod, batch := someJob()
	opt := TimeOptions{Warmup: 3, Repeats: 11}
	tm, obs, err := r.Time(mod, batch, 2, opt)
	if err != nil || len(obs) != 2 || tm != fakeTiming(opt) {
		t.Errorf("Time: %+v, %d observations, %v; want %+v and 2", tm, len(obs), err, fakeTiming(opt))
	}
	p.Put(r)

	crash, _ := fakePool(t, "crash")
	r, err = crash.Get(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = r.Time(mod, batch, 2, opt)
	if !IsDriverError(err) || !strings.Contains(err.Error(), "died running the module") {
		t.Errorf("a crash while timing: %v, want a DriverError saying the process died", err)
	}
	crash.Put(r)
}
