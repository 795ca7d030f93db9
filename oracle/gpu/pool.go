// pool.go: driver servers (server.go) lent to the gpu check one at a time.
// A Pool starts a server when every one it has is busy, so checks on
// several workers run side by side, each on a process of its own; a
// server that crashes, or gives no answer within the timeout and is
// killed, is dropped, and the next check gets a fresh one. What a driver
// does to one module therefore reaches no other check: its failure is that
// check's DriverError (status "error", never a finding), and cfgfuzz goes
// on.
//
// Every server is started in a process group of its own and, on Linux,
// dies with cfgfuzz (PR_SET_PDEATHSIG); Close, and CloseShared for the
// process's pools, end them when the command ends.

package gpu

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// closeWait is how long Close lets an idle server end on its own, once
// its input is closed, before it is killed.
const closeWait = 2 * time.Second

// ServerCommand is the command of a driver server: this program again,
// with ServerEnv set; its main must call ServeIfAsked first.
func ServerCommand() (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("gpu: finding this program to start a driver process: %w", err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), ServerEnv+"=1")
	return cmd, nil
}

// Pool lends driver servers of one device kind and timeout.
type Pool struct {
	opt   Options
	start func() (*exec.Cmd, error)

	mu     sync.Mutex
	idle   []*Remote
	live   map[*Remote]bool
	failed error // the device does not open here: every Get answers it
	closed bool
}

// NewPool returns a pool of servers of opt's device, started by start
// (nil: ServerCommand). No server starts before the first Get.
func NewPool(opt Options, start func() (*exec.Cmd, error)) *Pool {
	if start == nil {
		start = ServerCommand
	}
	return &Pool{opt: opt, start: start, live: map[*Remote]bool{}}
}

// Get lends an idle server, or starts one. A device that does not open
// fails this Get and every later one the same way, without a process.
func (p *Pool) Get() (*Remote, error) {
	p.mu.Lock()
	if p.failed != nil || p.closed {
		err := p.failed
		p.mu.Unlock()
		if err == nil {
			err = errors.New("gpu: the driver pool is closed")
		}
		return nil, err
	}
	if n := len(p.idle); n > 0 {
		r := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return r, nil
	}
	p.mu.Unlock()
	r, opened, err := p.spawn()
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		if opened != nil {
			p.failed = opened
		}
		return nil, err
	}
	if p.closed {
		r.stop()
		return nil, errors.New("gpu: the driver pool is closed")
	}
	p.live[r] = true
	return r, nil
}

// Put gives r back: kept for the next Get, or ended when it broke.
func (p *Pool) Put(r *Remote) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r.broken || p.closed {
		delete(p.live, r)
		r.stop()
		return
	}
	p.idle = append(p.idle, r)
}

// Close ends every server of the pool, lent or idle; later Gets fail.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	live := p.live
	p.live, p.idle = map[*Remote]bool{}, nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	for r := range live {
		wg.Add(1)
		go func() { defer wg.Done(); r.stop() }()
	}
	wg.Wait()
}

// spawn starts a server and opens its device. opened is the device's own
// failure (no such device, a build without Vulkan), which holds for every
// server; err is any failure, that one included.
func (p *Pool) spawn() (r *Remote, opened, err error) {
	cmd, err := p.start()
	if err != nil {
		return nil, nil, err
	}
	r, err = startRemote(cmd, p.opt.timeout())
	if err != nil {
		return nil, nil, err
	}
	// The server's own fence timeout is a backstop only: the pool's timeout
	// is kept here, by the clock of the whole job.
	sopt := p.opt
	sopt.Timeout = 2 * p.opt.timeout()
	var info serverInfo
	if err := r.call(serverHello{Options: sopt}, &info); err != nil {
		r.stop()
		return nil, nil, err
	}
	if err := info.Err.err(); err != nil {
		r.stop()
		return nil, err, err
	}
	r.info = info.Info
	return r, nil, nil
}

// Remote is one driver server, an oracle.Executor whose jobs run in the
// server's process, each bounded by the pool's timeout. One caller at a
// time: a Pool lends it to one check.
type Remote struct {
	cmd     *exec.Cmd
	in      *os.File // the server's standard input, our end
	out     *os.File // its standard output, our end
	enc     *gob.Encoder
	bw      *bufio.Writer
	dec     *gob.Decoder
	stderr  *tailBuffer
	info    DeviceInfo
	limit   time.Duration
	broken  bool
	stopped sync.Once
}

func startRemote(cmd *exec.Cmd, limit time.Duration) (*Remote, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	r := &Remote{cmd: cmd, in: inW, out: outR, limit: limit, stderr: &tailBuffer{max: 4096}}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, r.stderr
	ownGroup(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("gpu: starting a driver process: %w", err)
	}
	r.bw = bufio.NewWriter(inW)
	r.enc = gob.NewEncoder(r.bw)
	r.dec = gob.NewDecoder(bufio.NewReader(outR))
	return r, nil
}

// Name is "vulkan:" followed by the device name, as the Executor's.
func (r *Remote) Name() string { return "vulkan:" + r.info.Name }

// Info describes the server's device.
func (r *Remote) Info() DeviceInfo { return r.info }

// Execute runs the job in the server. A server that dies on it, or gives
// no answer within the limit (and is killed), fails it with a DriverError.
// Such a server is not used again, nor one whose driver failed the job: a
// dispatch the driver gave up on may still be running in it.
func (r *Remote) Execute(module []byte, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	if r.broken {
		return nil, r.failure("the driver process is gone")
	}
	var a serverAnswer
	if err := r.call(serverJob{Module: module, Batch: *batch, Walks: walks}, &a); err != nil {
		return nil, err
	}
	err := a.Err.err()
	if err != nil {
		r.broken = true
	}
	return a.Observed, err
}

// call sends msg and reads the answer into reply within the limit.
func (r *Remote) call(msg, reply any) error {
	done := make(chan error, 1)
	go func() {
		err := r.enc.Encode(msg)
		if err == nil {
			err = r.bw.Flush()
		}
		if err == nil {
			err = r.dec.Decode(reply)
		}
		done <- err
	}()
	t := time.NewTimer(r.limit)
	defer t.Stop()
	select {
	case err := <-done:
		if err == nil {
			return nil
		}
		r.broken = true
		return r.failure("the driver process died running the module: " + r.exitText())
	case <-t.C:
		r.broken = true
		r.end(0)
		<-done
		return r.failure(fmt.Sprintf("no answer from the driver process within %v: it was killed", r.limit))
	}
}

// exitText says how the server ended, with the first lines it wrote to
// standard error (a Go runtime's fatal signal, a driver's assertion).
func (r *Remote) exitText() string {
	r.end(0)
	s := "it ended"
	if st := r.cmd.ProcessState; st != nil {
		s = st.String()
	}
	if lines := r.stderr.firstLines(2); lines != "" {
		s += " (" + lines + ")"
	}
	return s
}

func (r *Remote) failure(what string) error {
	return &DriverError{Op: what, Result: codeProcess, Device: r.info.Name}
}

// stop ends the server: its input closed, closeWait to end on its own,
// then its process group killed.
func (r *Remote) stop() { r.end(closeWait) }

// end closes the server's input and kills its process group once grace
// has passed (at once for 0), unless it ended by then; it is reaped
// either way. Only the first call does anything.
func (r *Remote) end(grace time.Duration) {
	r.stopped.Do(func() {
		r.in.Close()
		exited := make(chan struct{})
		go func() { r.cmd.Wait(); close(exited) }()
		if grace == 0 {
			killGroup(r.cmd.Process.Pid)
		}
		select {
		case <-exited:
		case <-time.After(grace):
			killGroup(r.cmd.Process.Pid)
			<-exited
		}
		r.out.Close()
	})
}

// tailBuffer keeps the first max bytes written to it: a server's fatal
// error leads its standard error.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - t.buf.Len(); room > 0 {
		t.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// firstLines is the first n non-empty lines, joined by "; ".
func (t *tailBuffer) firstLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, l := range strings.Split(t.buf.String(), "\n") {
		if l = strings.TrimSpace(l); l != "" && len(out) < n {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}

var (
	sharedMu    sync.Mutex
	sharedPools = map[Options]*Pool{}
)

// SharedPool is the process's pool for opt, created on first use, started
// by ServerCommand.
func SharedPool(opt Options) *Pool {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	p := sharedPools[opt]
	if p == nil {
		p = NewPool(opt, nil)
		sharedPools[opt] = p
	}
	return p
}

// CloseShared ends every server of the process's pools.
func CloseShared() {
	sharedMu.Lock()
	pools := sharedPools
	sharedPools = map[Options]*Pool{}
	sharedMu.Unlock()
	for _, p := range pools {
		p.Close()
	}
}
