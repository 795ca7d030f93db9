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
// process's pools, end them when the command ends. A job's time is kept by
// the client, whose limit each Get sets: the server's own fence timeout
// (serverBackstop) only ends a dispatch that outlives its client.

package gpu

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/internal/procgroup"
)

const (
	// closeWait is how long an idle server given back for good may take
	// to end on its own, once its input is closed, before it is killed.
	closeWait = 2 * time.Second
	// helloLimit is the least time a server is given to open its device,
	// whatever the limit of the job it is started for.
	helloLimit = time.Minute
	// serverBackstop is the servers' own fence timeout.
	serverBackstop = time.Hour
)

// ServerCommand is the command of a driver server: this program again,
// with ServerEnv set; its main must call ServeIfAsked first. On Linux it is
// started from /proc/self/exe, the very file this process runs, whatever
// has since been built, moved or removed at its path.
func ServerCommand() (*exec.Cmd, error) {
	self := "/proc/self/exe"
	if _, err := os.Stat(self); err != nil {
		if self, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("gpu: finding this program to start a driver process: %w", err)
		}
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), ServerEnv+"=1")
	return cmd, nil
}

// Pool lends driver servers of one device kind (Options.Device and
// KeepShaderCache; each Get gives the job limit).
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
// opt.Timeout is the servers' fence timeout, each dispatch's (0:
// serverBackstop, for checks, whose job limit each Get gives).
func NewPool(opt Options, start func() (*exec.Cmd, error)) *Pool {
	if start == nil {
		start = ServerCommand
	}
	if opt.Timeout <= 0 {
		opt.Timeout = serverBackstop
	}
	return &Pool{opt: opt, start: start, live: map[*Remote]bool{}}
}

// Get lends an idle server, or starts one, whose jobs each get limit (0:
// DefaultTimeout) before the server is killed. An idle server that died
// meanwhile is dropped, not lent. A device that does not open fails this
// Get and every later one the same way, without a process.
func (p *Pool) Get(limit time.Duration) (*Remote, error) {
	if limit <= 0 {
		limit = DefaultTimeout
	}
	if r, err := p.idleServer(); r != nil || err != nil {
		if r != nil {
			r.limit = limit
		}
		return r, err
	}
	r, opened, err := p.spawn(limit)
	p.mu.Lock()
	if opened != nil {
		p.failed = opened
	}
	closed := p.closed
	if err == nil && !closed {
		p.live[r] = true
		r.limit = limit
	}
	p.mu.Unlock()
	switch {
	case err != nil:
		return nil, err
	case closed:
		r.stop()
		return nil, errors.New("gpu: the driver pool is closed")
	}
	return r, nil
}

// idleServer takes an idle server still running, or says why none can
// be lent; nil and nil: start one.
func (p *Pool) idleServer() (*Remote, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.failed != nil:
		return nil, p.failed
	case p.closed:
		return nil, errors.New("gpu: the driver pool is closed")
	}
	for len(p.idle) > 0 {
		r := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		select {
		case <-r.exited: // it died idle (killed, out of memory)
			delete(p.live, r)
			go r.end(0)
		default:
			return r, nil
		}
	}
	return nil, nil
}

// Put gives r back: kept for the next Get, or ended when it broke.
func (p *Pool) Put(r *Remote) {
	p.mu.Lock()
	keep := !r.broken && !p.closed
	if keep {
		p.idle = append(p.idle, r)
	} else {
		delete(p.live, r)
	}
	p.mu.Unlock()
	if !keep {
		r.stop() // outside the lock: it may wait closeWait
	}
}

// Close ends every server of the pool: an idle one given closeWait to end
// on its input's end, a lent one (a job its check gave up on) killed at
// once. Later Gets fail.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	live, idle := p.live, map[*Remote]bool{}
	for _, r := range p.idle {
		idle[r] = true
	}
	p.live, p.idle = map[*Remote]bool{}, nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	for r := range live {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if idle[r] {
				r.stop()
			} else {
				r.end(0)
			}
		}()
	}
	wg.Wait()
}

// spawn starts a server and opens its device. opened is the device's own
// failure (no such device, a build without Vulkan), which holds for every
// server; err is any failure, that one included.
func (p *Pool) spawn(limit time.Duration) (r *Remote, opened, err error) {
	cmd, err := p.start()
	if err != nil {
		return nil, nil, err
	}
	r, err = startRemote(cmd, max(limit, helloLimit))
	if err != nil {
		return nil, nil, err
	}
	var info serverInfo
	if err := r.call(serverHello{Options: p.opt}, &info, "opening the device"); err != nil {
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
	stderr  *stderrBuffer
	info    DeviceInfo
	limit   time.Duration // each job's (Pool.Get)
	broken  bool
	exited  chan struct{} // closed once the process ended and was reaped
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
	r := &Remote{cmd: cmd, in: inW, out: outR, limit: limit, stderr: &stderrBuffer{max: 4096}, exited: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, r.stderr
	procgroup.Own(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("gpu: starting a driver process: %w", err)
	}
	go func() { cmd.Wait(); close(r.exited) }()
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
	a, err := r.job(serverJob{Module: module, Batch: *batch, Walks: walks})
	return a.Observed, err
}

// Time is Executor.Time in the server: the module compiled cold, then
// dispatched opt.Warmup times untimed and opt.Repeats times timed, the
// whole bounded by the limit (a server past it is killed, its module
// failed with a DriverError, as Execute's). The CPU times are the
// server's.
func (r *Remote) Time(module []byte, batch *spirv.Batch, walks int, opt TimeOptions) (Timing, []spirv.Observed, error) {
	a, err := r.job(serverJob{Module: module, Batch: *batch, Walks: walks, Time: &opt})
	return a.Timing, a.Observed, err
}

// job runs j in the server. An error of the driver's breaks the server as
// its death does: a dispatch the driver gave up on may still run in it.
func (r *Remote) job(j serverJob) (serverAnswer, error) {
	var a serverAnswer
	if r.broken {
		return a, r.failure("the driver process is gone")
	}
	if err := r.call(j, &a, "running the module"); err != nil {
		return a, err
	}
	err := a.Err.err()
	if err != nil {
		r.broken = true
	}
	return a, err
}

// call sends msg and reads the answer into reply within the limit; doing
// says what the server was asked to do, for the error.
func (r *Remote) call(msg, reply any, doing string) error {
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
		return r.failure("the driver process died " + doing + ": " + r.exitText())
	case <-t.C:
		r.broken = true
		r.end(0)
		<-done
		return r.failure(fmt.Sprintf("no answer from the driver process %s within %v: it was killed", doing, r.limit))
	}
}

// exitText says how the server ended, with the lines of its standard
// error that say why (a Go runtime's fatal signal, a driver's assertion).
func (r *Remote) exitText() string {
	r.end(0)
	s := "it ended"
	if st := r.cmd.ProcessState; st != nil {
		s = st.String()
	}
	if lines := r.stderr.cause(2); lines != "" {
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
		if grace == 0 {
			procgroup.Kill(r.cmd.Process.Pid)
		}
		select {
		case <-r.exited:
		case <-time.After(grace):
			procgroup.Kill(r.cmd.Process.Pid)
			<-r.exited
		}
		r.out.Close()
	})
}

// stderrBuffer keeps the first and the last max bytes a server writes to
// standard error: a driver's or the loader's chatter may come before the
// cause, a Go runtime's goroutine dump after it.
type stderrBuffer struct {
	mu         sync.Mutex
	head, tail []byte
	max        int
}

func (b *stderrBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.max - len(b.head)
	b.head = append(b.head, p[:min(len(p), room)]...)
	if rest := p[min(len(p), room):]; len(rest) > 0 {
		b.tail = append(b.tail, rest...)
		if over := len(b.tail) - b.max; over > 0 {
			b.tail = append(b.tail[:0], b.tail[over:]...)
		}
	}
	return len(p), nil
}

// causeWords mark a line that says why a process ended.
var causeWords = []string{"SIG", "signal", "fatal", "panic", "assert", "Assert", "abort", "Abort", "error", "Error", "ERROR"}

// cause is up to n lines that say why the server ended, joined by "; ":
// the first lines holding a causeWords word, else its first lines.
func (b *stderrBuffer) cause(n int) string {
	b.mu.Lock()
	text := string(b.head) + "\n" + string(b.tail)
	b.mu.Unlock()
	var all, marked []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		all = append(all, l)
		for _, w := range causeWords {
			if strings.Contains(l, w) {
				marked = append(marked, l)
				break
			}
		}
	}
	if len(marked) == 0 {
		marked = all
	}
	return strings.Join(marked[:min(n, len(marked))], "; ")
}

var (
	sharedMu    sync.Mutex
	sharedPools = map[Options]*Pool{}
)

// SharedPool is the process's pool for opt's device (its Timeout not
// read), created on first use, started by ServerCommand.
func SharedPool(opt Options) *Pool {
	opt.Timeout = 0
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
