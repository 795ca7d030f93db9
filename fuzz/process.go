// process.go defines Process, a Side that runs a structurizer as a child
// process speaking protocol v1 or v2 (PROTOCOL.md) on its standard input and
// output. The child is started lazily and killed, with its process group
// and every descendant found (descend_linux.go), when it misbehaves: no
// answer within the per-graph limit (counted from the moment the request is
// sent, whatever the child does: not reading, not writing, closing its
// output; the first request a child gets has its start-up allowance on top,
// PROTOCOL.md "Failure behaviour"), an answer longer than the answer limit,
// or any other protocol violation. A child that exits while a process it
// left holds its pipes open is judged by its end a second later, not by
// the limit (cutHeld, heldOpen). It is started again for the next graph:
// a hang, a flood or a crash costs one graph, never the campaign.

package fuzz

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/internal/procgroup"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// DefaultMaxAnswer is the default bound on one answer line, 32 MiB. It
// holds the largest legitimate answers of the graphs cfgfuzz generates: 55
// KB for a campaign's graphs (at most 9 blocks of at most 1,000 words), and
// for a 65,536-block graph (the generators' largest) 21 MB as a module and
// 27 MB as a func at weight 0, 30 MB as a func at 1,000 words a block. A
// module grows with the weight (4 bytes a word, base64 4/3: about 5.3 bytes
// a word): 32 MiB holds modules of about 6 million words; raise it with
// --max-answer for more. Each worker may hold one answer this long.
const DefaultMaxAnswer = 32 << 20

// Grace periods of a server's end.
const (
	exitGrace  = time.Second     // after its output ended, for it to exit
	closeGrace = 2 * time.Second // after its input closed, for it to exit
	// inputGrace: after exitGrace, for a server still running once its
	// output ended to exit on its input's close (death).
	inputGrace = 250 * time.Millisecond
	errGrace   = time.Second // after it exited, for its standard error to end
)

// DefaultStartTimeout is the default start-up allowance of a structurizer
// process (--start-timeout): the time its first request may take beyond
// the per-graph limit, for a server that loads a large binary, starts an
// interpreter or compiles itself before it reads its input.
const DefaultStartTimeout = 30 * time.Second

// ProcessOptions tune a Process. The zero value is the defaults.
type ProcessOptions struct {
	// MaxAnswer bounds one answer line in bytes; 0 means DefaultMaxAnswer.
	MaxAnswer int
	// StartTimeout is the start-up allowance: the first request a newly
	// started server gets (the hello, or a graph after a restart) may
	// take this much longer than its limit. 0 means DefaultStartTimeout.
	StartTimeout time.Duration
}

// ProcessFactory runs argv (program and arguments) in dir ("" the current
// directory) as a protocol v1 server, one per worker, with the default
// options. describe names the structurizer as the user gave it (its spec,
// Spec.String), in the errors of its processes too (Process.Name): argv
// may be a shell running the user's command.
func ProcessFactory(describe string, argv []string, dir string) SideFactory {
	return ProcessFactoryWith(describe, argv, dir, ProcessOptions{})
}

// ProcessFactoryWith is ProcessFactory with options.
func ProcessFactoryWith(describe string, argv []string, dir string, opt ProcessOptions) SideFactory {
	return SideFactory{Describe: describe, New: func() (Side, error) {
		if len(argv) == 0 {
			return nil, fmt.Errorf("empty structurizer command")
		}
		if _, err := exec.LookPath(argv[0]); err != nil {
			return nil, err
		}
		return &Process{Argv: argv, Dir: dir, Options: opt, Name: describe}, nil
	}}
}

// Process is a structurizer child process. The zero value with Argv set is
// ready; Starts counts the processes started (1 + restarts).
type Process struct {
	Argv    []string
	Dir     string
	Options ProcessOptions
	Starts  int
	// Name is what the errors of its start call the server: the
	// structurizer's spec as the user gave it (cmd:CMD, not the shell
	// that runs CMD); "" is Argv[0].
	Name string

	srv    *server // the running child; nil: none
	nextID int64
	hello  handshakeState
	// lastExit and lastTail: the exit status (-1 killed by a signal or
	// unknown) and the last line of standard error of the last child that
	// died. preflight reads them.
	lastExit int
	lastTail string
	// pending is the id of a request the running child was sent and whose
	// answer is yet to be read (the preflight's hello, pendingHello; or
	// the v1 request of a hello answered late, v1Probe, until
	// settleProbe reads it); 0 none. An
	// exchange of a request with that id only reads its answer (the
	// handshake for empty options, of the preflight's hello); any other
	// exchange skips the child's first line when it carries that id.
	pending      int64
	pendingHello bool
	// startSeen is the longest any child took, from its start, to answer
	// or end on its first request: what a restart not probed by a hello
	// is allowed (allowance).
	startSeen time.Duration
	// graph names the graph the next requests judge ("graph 17";
	// noteGraph), for the strays noted beside their answers; "" none.
	graph string
	// stop, once its stop is closed, ends a request to a server that has
	// not spoken yet, and with spoken to any server (hearStop,
	// stopwatch.go); the zero value never does.
	stop stopEar
}

// noteGraph names the graph the next requests judge (graphNoter).
func (p *Process) noteGraph(graph string) { p.graph = graph }

// server is one started child.
type server struct {
	cmd       *exec.Cmd
	pid       int
	token     string   // its serverEnv value
	stdin     *os.File // this side's end of its standard input
	stdout    *os.File // this side's end of its standard output
	stderrR   *os.File // this side's end of its standard error
	out       *bufio.Reader
	stderr    *stderrLog
	errDone   chan struct{} // closed when its standard error ended
	exited    chan struct{} // closed when it was reaped; waitErr is set then
	waitErr   error
	deadlines bool // the pipes take deadlines (else a watchdog kills at the limit)
	spoke     bool // it wrote a line: it has started
	began     time.Time
	// mu guards armed and graceOver, and the pipes' deadlines while an
	// exchange waits on them (arm, cutHeld).
	mu    sync.Mutex
	armed bool // an exchange waits on its pipes
	// answered names the graph whose request the last line read answered
	// (Process.graph); "" none named, or another request (a hello).
	answered string
	// answeredID is the id of the graph's request the last line read
	// answered; 0 another request.
	answeredID int64
	// armedAt and armedUntil are the waiting exchange's start and
	// deadline.
	armedAt, armedUntil time.Time
	// graceOver: it exited exitGrace ago. Its pipes, if still open, are
	// held by a process it left: waits on them end at once.
	graceOver bool
	disarm    func() // arm's stop where the pipes take deadlines
	// holders are the processes found holding its pipes after it exited
	// (heldOpen): end kills and reaps them with its descendants.
	holders map[int]uint64
	// baseline is the processes it has (serverProcs) once it has
	// started, read when baselined is set (leak.go).
	baseline  map[int]uint64
	baselined bool
	// lastPID reads the PID last allocated in this process's PID
	// namespace (nil: marks.lastPID); marks are the files its marks are
	// read from. clean is the mark of the last reading of its processes
	// that found none new (leak.go, quiet), cleaned whether there is one.
	lastPID func() (int, bool)
	marks   markFiles
	clean   pidMark
	cleaned bool
	// preStart is the last PID read just before it was started
	// (preStartOK whether it could be); follows says whether the last
	// PID its marks read follows the PIDs allocated (leak.go, follows),
	// told once its first mark is read (told).
	preStart      int
	preStartOK    bool
	follows, told bool
	// startUpBaseline: the baseline was read before it was sent a graph
	// (after the hello's answer), so it holds only its start-up's.
	startUpBaseline bool
	// sentGraph: it was sent a graph; firstGraph is the time
	// (clockTicksAfter) of the first, 0 not known.
	sentGraph  bool
	firstGraph uint64
	// startedAt is its start time (startTicks), 0 not known.
	startedAt uint64
}

// hadAtStartUp says whether the process pid of start time start was the
// server's before it was sent a graph: started no earlier than the server
// (a server started again after another's end may note a process the
// other left), and at an earlier clock tick than the first graph was
// sent, or in a baseline read before it. One started in the tick the
// first graph was sent in may have started before it or after: it is not
// counted the start-up's (strayPlace says the order is not known).
func (s *server) hadAtStartUp(pid int, start uint64) bool {
	if !s.startedAfter(start) {
		return false
	}
	if s.firstGraph != 0 && start < s.firstGraph {
		return true
	}
	b, ok := s.baseline[pid]
	return s.startUpBaseline && ok && b == start
}

// strayPlace places a stray of process pid, start time start, noted by a
// reading of the server's processes while it answered a graph whose
// request was sent in a clock tick from lo to hi (sentTicks; lo 0 not
// known): the start-up's (hadAtStartUp), else when it started against
// that request. Only a start in a later tick than hi is after the
// request, and only one earlier than lo before it; one in between is
// either.
func (s *server) strayPlace(pid int, start, lo, hi uint64) (startUp bool, started StrayStart) {
	switch {
	case s.hadAtStartUp(pid, start):
		return true, StrayStartUnknown
	case lo == 0:
		return false, StrayStartUnknown
	case start > hi:
		return false, StrayStartedAfter
	case start >= lo:
		return false, StrayStartedSameTick
	}
	return false, StrayStartedBefore
}

// sentTicks are the clock ticks (clockTicksAfter) a request sent at
// sentAt may have been sent in, read now from the time since boot and the
// time since sentAt: one tick when the time since is a whole number of
// ticks, else two. Reading the clock only when a stray asks spares each
// request two /proc reads. lo is 0 when the time since boot is not known.
func (s *server) sentTicks(sentAt time.Time) (lo, hi uint64) {
	now := clockTicksAfter(s.pid)
	since := time.Since(sentAt)
	q, r := uint64(since/clockTick), since%clockTick
	switch {
	case now == 0 || q+1 >= now:
		return 0, 0
	case r == 0:
		return now - q, now - q
	}
	return now - q - 1, now - q
}

// placeAgainst is labelStrays' place for the strays noted while the
// server answered a request sent at sentAt (its first graph's when
// first, whose tick firstGraph holds): the request's ticks are read
// once, at the first stray.
func (s *server) placeAgainst(sentAt time.Time, first bool) func(pid int, start uint64) (bool, StrayStart) {
	read := false
	var lo, hi uint64
	return func(pid int, start uint64) (bool, StrayStart) {
		if !read {
			read = true
			if lo, hi = s.firstGraph, s.firstGraph; !first {
				lo, hi = s.sentTicks(sentAt)
			}
		}
		return s.strayPlace(pid, start, lo, hi)
	}
}

// clockTick is the length of a tick of process start times (/proc/PID/stat).
const clockTick = 10 * time.Millisecond

// startedAfter says whether a process of start time start started no
// earlier than the server, as far as is known.
func (s *server) startedAfter(start uint64) bool {
	return start >= s.startedAt
}

func (p *Process) start() error {
	becomeSubreaper()
	end, err := beginStart()
	if err != nil {
		return err
	}
	defer end()
	var files [6]*os.File // stdin r/w, stdout r/w, stderr r/w
	for i := 0; i < 6; i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(files[:i]...)
			return err
		}
		files[i], files[i+1] = r, w
	}
	s := &server{token: newServerToken(), stdin: files[1], stdout: files[2], stderrR: files[4],
		stderr: &stderrLog{}, errDone: make(chan struct{}), exited: make(chan struct{}), began: time.Now()}
	cmd := exec.Command(p.Argv[0], p.Argv[1:]...)
	cmd.Dir = p.Dir
	cmd.Env = append(os.Environ(), serverEnv+"="+s.token)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[3], files[5]
	procgroup.Own(cmd)
	s.preStart, s.preStartOK = s.marks.lastPID()
	err = cmd.Start()
	closeAll(files[0], files[3], files[5]) // the child's ends
	if err != nil {
		closeAll(s.stdin, s.stdout, s.stderrR)
		s.marks.close()
		return err
	}
	s.cmd, s.pid = cmd, cmd.Process.Pid
	s.out = bufio.NewReaderSize(s.stdout, 1<<16)
	s.deadlines = s.stdin.SetWriteDeadline(time.Time{}) == nil && s.stdout.SetReadDeadline(time.Time{}) == nil
	s.disarm = func() {
		s.mu.Lock()
		s.armed = false
		s.mu.Unlock()
	}
	registerServer(s.pid, s.token)
	s.startedAt = startTicks(s.pid)
	go func() {
		io.Copy(s.stderr, s.stderrR)
		close(s.errDone)
	}()
	go func() {
		s.waitErr = cmd.Wait()
		unregisterServer(s.pid)
		close(s.exited)
		if s.deadlines {
			time.AfterFunc(exitGrace, s.cutHeld)
		}
	}()
	p.srv = s
	p.Starts++
	return nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

// Structurize sends one request and waits for its answer, at most limit
// from now. A new server is first asked for its protocol v2 promises
// (handshake.go, a request of its own with its own limit); one that does
// not speak v2 is served v1.
func (p *Process) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) Answer {
	if p.srv == nil {
		if err := p.start(); err != nil {
			return p.notStarted(err)
		}
	}
	if err := p.handshake(opt, limit); err != nil {
		return p.notStarted(err)
	}
	if err := p.probeStart(opt, limit); err != nil {
		return p.notStarted(err)
	}
	if why := unsupported(g, p.declared(opt)); why != "" {
		return Answer{Outcome: OutUnsupported, Reason: "unsupported: " + why, Declared: p.declared(opt)}
	}
	by := serverEnv + "=" + p.srv.token
	if p.srv.spoke && !p.srv.baselined {
		p.srv.takeBaseline() // the processes its start-up left: not this graph's
		p.srv.startUpBaseline = true
		labelStrays(by, "", func(_ int, start uint64) (bool, StrayStart) { return p.srv.startedAfter(start), StrayStartUnknown }) // noted before any graph
	}
	sentAt, first := time.Now(), !p.srv.sentGraph
	if first {
		p.srv.sentGraph, p.srv.firstGraph = true, clockTicksAfter(p.srv.pid)
	}
	if p.graph != "" {
		// the strays the readings of this request's server note are named by the graph, with when they started against its request
		srv := p.srv
		defer labelStrays(by, p.graph, srv.placeAgainst(sentAt, first))
	}
	prevID, prevGraph := p.srv.answeredID, p.srv.answered // a second answer to it is no answer to this one
	p.nextID++
	req := proto.Request{V: p.version(), ID: p.nextID, Graph: cfg.FormatCompact(g), Weights: g.WeightList(), Options: opt}
	line, fail := p.exchange(req, limit, p.allowance())
	if fail != nil {
		return *fail
	}
	p.srv.answered, p.srv.answeredID = p.graph, req.ID
	a := p.answer(line, req.ID, g.Len())
	if a.Signed == "protocol: "+ruleID && prevID != 0 && answerID(line) == prevID {
		when := "read as this request's answer: the previous request's id, an answer to it again"
		if prevGraph != "" {
			when += " (" + prevGraph + ")"
		}
		a = Answer{Outcome: OutCrash, Reason: "protocol: " + unaskedLine(line, when).String(), Signed: "protocol: " + ruleUnasked}
	}
	if p.srv != nil { // the answer kept the protocol
		if leak := p.leaked(); leak != nil {
			a = *leak
		}
	}
	if p.srv != nil {
		if extra, _ := p.srv.unasked(); extra != nil { // an end is the next request's to find
			a = p.violation(unaskedLine(extra, "after its answer to this request"))
		}
	}
	a.Declared = p.declared(opt)
	return a
}

// notStarted is the answer of a graph whose server could not be started
// or did not start: a harness error, not a finding of the graph.
// A stop heard while the server was starting (errStopped) is no error:
// the answer is stopped's.
func (p *Process) notStarted(err error) Answer {
	if errors.Is(err, errStopped) {
		return stoppedAnswer()
	}
	return Answer{Outcome: proto.Error, Reason: "start " + p.name() + ": " + err.Error(), NotStarted: true}
}

// name is what errors call the server: Name, else Argv[0].
func (p *Process) name() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Argv[0]
}

// startTimeout is the start-up allowance.
func (p *Process) startTimeout() time.Duration {
	if p.Options.StartTimeout > 0 {
		return p.Options.StartTimeout
	}
	return DefaultStartTimeout
}

// allowance is the start-up allowance of the running server's next
// request: the whole of it until the server has written a line, then 0.
// A restart that no hello probes (noProbe: its first request is a graph)
// gets twice the longest start seen and a second, when one was seen, so
// that a structurizer hanging on graph after graph is not given the
// whole allowance on each.
func (p *Process) allowance() time.Duration {
	switch {
	case p.srv.spoke:
		return 0
	case p.hello.noProbe && p.startSeen > 0:
		return min(p.startTimeout(), 2*p.startSeen+time.Second)
	}
	return p.startTimeout()
}

// exchange sends one request line and reads its answer line within limit
// and allowance from now: the line, or the answer that ended the server
// (timeout, death, an answer too long). A server's first request that it
// answers or ends on tells how long it takes to start (startSeen).
func (p *Process) exchange(req proto.Request, limit, allowance time.Duration) ([]byte, *Answer) {
	began, first := p.srv.began, !p.srv.spoke
	line, fail := p.exchangeLine(req, limit, allowance)
	if first && (fail == nil || fail.Outcome != OutTimeout && !fail.Stopped) {
		p.startSeen = max(p.startSeen, time.Since(began))
	}
	return line, fail
}

// exchangeLine is exchange's request and answer. While the server has
// not spoken, or at any time where the stop cuts a server that has
// (p.stop), a stop ends it and the wait: the answer is stopped's.
func (p *Process) exchangeLine(req proto.Request, limit, allowance time.Duration) ([]byte, *Answer) {
	starting := allowance > 0
	deadline := time.Now().Add(limit + allowance)
	b, _ := json.Marshal(req)
	p.srv.stderr.newRequest()
	stop := p.srv.arm(deadline)
	defer stop()
	watch := p.srv.watchStop(p.stop)
	defer watch.end()
	if req.ID == p.pending { // sent already (the preflight's hello): its answer is this one's
		p.pending, p.pendingHello = 0, false
	} else if extra := p.unaskedBefore(deadline); extra != nil {
		return nil, extra
	} else if _, err := p.srv.stdin.Write(append(b, '\n')); err != nil {
		if watch.end() {
			return nil, ptr(p.stopped())
		}
		return nil, ptr(p.writeFailed(err, limit, starting, deadline))
	}
	var blank blankLines
	for {
		line, err := readAnswerLine(p.srv.out, p.maxAnswer())
		switch {
		case (err != nil || !isBlank(line)) && watch.end(): // the stop came first: the server is killed, whatever it wrote
			return nil, ptr(p.stopped())
		case errors.Is(err, errAnswerTooLong):
			runtime.GC() // the discarded line is garbage now: do not let floods pile up
			return nil, ptr(p.violation(tooLong(p.maxAnswer())))
		case err != nil && pastDeadline(err, deadline) && p.srv.hasExited():
			return nil, ptr(p.heldOpen(deadline, line))
		case err != nil && pastDeadline(err, deadline):
			return nil, ptr(withDetail(p.timedOut(limit, starting, line), blank.String()))
		case err != nil:
			return nil, ptr(p.died(deadline, line))
		}
		if isBlank(line) { // blank lines between answers are allowed
			blank.lines, blank.bytes = blank.lines+1, blank.bytes+len(line)
			continue
		}
		p.srv.spoke, p.srv.answered, p.srv.answeredID = true, "", 0
		if id := p.pending; id != 0 {
			p.pending, p.pendingHello = 0, false
			if answerID(line) == id { // the answer of a request sent before this one
				continue
			}
		}
		return line, nil
	}
}

// unaskedBefore is the violation of a server that has written, since its
// last answer was read, a line that no request asked for (a second answer
// to its last request, an answer to one not yet sent), found before the
// next request is sent, so that the line is never read as that request's
// answer; nil when it wrote none, or when a line is awaited (p.pending).
// What a server writes before it first speaks is its first request's to
// judge (a banner is an answer that is not JSON). A server whose output
// has ended by then (it exited after its answer) is judged as one that
// ends on a request (died), the reason saying it ended ahead of this one.
func (p *Process) unaskedBefore(deadline time.Time) *Answer {
	if p.pending != 0 || !p.srv.spoke {
		return nil
	}
	extra, ended := p.srv.unasked()
	after := "after its answer to the previous one"
	if p.srv.answered != "" {
		after += " (" + p.srv.answered + ")"
	}
	switch {
	case ended:
		return ptr(withDetail(p.died(deadline, nil), "its output ended before this request was sent, "+after))
	case extra == nil:
		return nil
	}
	return ptr(p.violation(unaskedLine(extra, "written before this request was sent, "+after)))
}

// unasked is the start of what the server has written and this side has
// not read, read without waiting: the line it began after the last line
// read, white space skipped (blank lines between answers are allowed);
// nil when it wrote nothing else, or where its output has no deadlines
// or cannot be polled (readable); ended when its output has ended
// instead.
func (s *server) unasked() (line []byte, ended bool) {
	for range maxBlankReads { // a server that writes white space without end is the next exchange's
		if s.out.Buffered() == 0 {
			if !s.deadlines || !readable(s.stdout) {
				return nil, false
			}
			s.mu.Lock()
			s.stdout.SetReadDeadline(time.Now().Add(time.Second)) // bytes wait: the read does not
			_, err := s.out.Peek(1)
			s.stdout.SetReadDeadline(s.readDeadline())
			s.mu.Unlock()
			if err != nil { // nothing written, or its end
				return nil, errors.Is(err, io.EOF)
			}
		}
		b, _ := s.out.Peek(s.out.Buffered())
		i := bytes.IndexFunc(b, func(r rune) bool { return !unicode.IsSpace(r) })
		if i < 0 {
			s.out.Discard(len(b))
			continue
		}
		line = b[i:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		return bytes.Clone(line), false
	}
	return nil, false
}

// maxBlankReads bounds the reads of white space that unasked skips.
const maxBlankReads = 16

// blankLines counts the lines holding only white space that a server
// wrote while an answer was waited for: skipped, as PROTOCOL.md allows,
// but a timeout says how many came, so that a server that writes nothing
// else reads apart from a silent one.
type blankLines struct{ lines, bytes int }

// String is the detail a timeout's reason adds; "" for none.
func (b blankLines) String() string {
	if b.lines == 0 {
		return ""
	}
	return fmt.Sprintf("it wrote %d lines of white space alone (%d bytes), which are no answer", b.lines, b.bytes)
}

// writeFailed is the answer of a request whose line could not be
// written (err): the limit expired (a server that does not read its
// input), or the server exited and a process it left holds its input
// (heldOpen), or its input is closed: it is gone or going. A line it
// wrote before it went still counts as written (it had started), and
// what it wrote of a line it did not end is quoted; a process it left
// that holds its output makes that read wait for cutHeld, and the answer
// is heldOpen's.
func (p *Process) writeFailed(err error, limit time.Duration, starting bool, deadline time.Time) Answer {
	switch {
	case pastDeadline(err, deadline) && p.srv.hasExited():
		return p.heldOpen(deadline, nil)
	case pastDeadline(err, deadline):
		return p.timedOut(limit, starting, nil)
	}
	select {
	case <-p.srv.exited:
	case <-time.After(min(exitGrace, max(0, time.Until(deadline)))):
		return p.inputClosed()
	}
	line, err := readAnswerLine(p.srv.out, p.maxAnswer())
	switch {
	case err == nil && !isBlank(line):
		p.srv.spoke = true
	case err != nil && pastDeadline(err, deadline):
		return p.heldOpen(deadline, line)
	case err != nil && !errors.Is(err, errAnswerTooLong):
		return p.died(deadline, line)
	}
	return p.died(deadline, nil)
}

// inputClosed ends a server that closed its input (a request's write
// found no reader) and is still running: it will read no request.
func (p *Process) inputClosed() Answer {
	tail := p.srv.stderr.String()
	p.end(true, 0)
	return Answer{Outcome: OutCrash, Reason: "closed its input without exiting", Stderr: tail}
}

func ptr(a Answer) *Answer { return &a }

// answerID is the id an answer line carries; 0 when it is no JSON object
// with one.
func answerID(line []byte) int64 {
	var r struct {
		ID int64 `json:"id"`
	}
	if json.Unmarshal(line, &r) != nil {
		return 0
	}
	return r.ID
}

func (p *Process) maxAnswer() int {
	if p.Options.MaxAnswer > 0 {
		return p.Options.MaxAnswer
	}
	return DefaultMaxAnswer
}

// arm makes the server's pipes fail at deadline: their own deadlines where
// the system has them, else a watchdog that kills the server and closes
// the pipes. Where they have deadlines, they fail too once the server has
// exited, exitGrace after the later of its exit and the exchange's start
// (cutHeld): what holds them open then is a process it left, not the
// server, and an exchange it answers within exitGrace still counts. The
// returned function disarms it.
func (s *server) arm(deadline time.Time) (stop func()) {
	if s.deadlines {
		s.mu.Lock()
		defer s.mu.Unlock()
		now := time.Now()
		if s.graceOver {
			deadline = earliest(deadline, now.Add(exitGrace))
		}
		s.armed, s.armedAt, s.armedUntil = true, now, deadline
		s.stdin.SetWriteDeadline(deadline)
		s.stdout.SetReadDeadline(deadline)
		return s.disarm
	}
	t := time.AfterFunc(time.Until(deadline), func() {
		procgroup.Kill(s.pid)
		s.stdin.Close()
		s.stdout.Close()
	})
	return func() { t.Stop() }
}

// cutHeld runs exitGrace after the server exited: an exchange waiting on
// its pipes then fails exitGrace after it began (at once if it began that
// long ago), and so does any later one (arm), rather than at its limit. A
// pipe the server's exit did not close is held by a process it left (a
// detached child, a double fork's grandchild, an adapter a wrapper started
// in the background), which may hold it for as long as it runs: the
// exchange's error path says so (heldOpen).
func (s *server) cutHeld() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.graceOver = true
	if s.armed {
		d := earliest(s.armedUntil, s.armedAt.Add(exitGrace))
		s.stdin.SetWriteDeadline(d)
		s.stdout.SetReadDeadline(d)
	}
}

// readDeadline is the deadline of the server's output as arm and cutHeld
// set it: the waiting exchange's, none while none waits. s.mu is held.
func (s *server) readDeadline() time.Time {
	switch {
	case !s.armed:
		return time.Time{}
	case s.graceOver:
		return earliest(s.armedUntil, s.armedAt.Add(exitGrace))
	}
	return s.armedUntil
}

// earliest is the earlier of a and b.
func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// hasExited says whether the server has exited (and was reaped).
func (s *server) hasExited() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// pastDeadline says whether an I/O error is the limit expiring.
func pastDeadline(err error, deadline time.Time) bool {
	return errors.Is(err, os.ErrDeadlineExceeded) || !time.Now().Before(deadline)
}

// answer turns a response line into an answer, or a protocol violation
// into a crash (PROTOCOL.md, "Failure behaviour").
func (p *Process) answer(line []byte, id int64, blocks int) Answer {
	resp, v := decodeResponse(line)
	if v.broken() {
		return p.violation(v)
	}
	if resp.ID != id {
		return p.violation(wrongID(resp.ID, id))
	}
	if v := checkResponse(&resp, blocks); v.broken() {
		return p.violation(v)
	}
	clipLabels(&resp)
	return Answer{Outcome: resp.Outcome, Reason: clipText(resp.Reason, maxReason, "reason"), Stats: resp.Stats, Module: resp.Module, Func: resp.Func}
}

// clipLabels cuts the labels of an answer, which no check reads but the
// records and reports of its graph hold (stats.strategy, the func's block
// and variable names), to maxLabel bytes each, and each entry of
// stats.passes_used, whose fallback report a record holds as a reason, to
// maxReason.
func clipLabels(resp *proto.Response) {
	if st := resp.Stats; st != nil {
		st.Strategy = clipText(st.Strategy, maxLabel, "strategy")
		for i := range st.PassesUsed {
			st.PassesUsed[i] = clipText(st.PassesUsed[i], maxReason, "passes_used entry")
		}
	}
	if f := resp.Func; f != nil {
		for i := range f.Blocks {
			f.Blocks[i].Name = clipText(f.Blocks[i].Name, maxLabel, "name")
		}
		for i := range f.Vars {
			f.Vars[i].Name = clipText(f.Vars[i].Name, maxLabel, "name")
		}
	}
}

// maxReason is the most of a refused or error answer's reason that
// cfgfuzz keeps: every record, report and findings-store entry of the
// graph holds it, so a reason of megabytes on every graph would fill the
// disk and the campaign's memory.
const maxReason = 4 << 10

// clipText is text from a server cut to n bytes, at a character's
// boundary, with a note of its length (what names it: "reason", "name");
// a shorter one as it is.
func clipText(s string, n int, what string) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (cut: a %s of %d bytes)", s[:cut], what, len(s))
}

// violation ends a server that broke the protocol: a crash finding, whose
// signature names the rule broken and whose reason adds the details.
func (p *Process) violation(v violation) Answer {
	p.end(true, 0)
	return Answer{Outcome: OutCrash, Reason: "protocol: " + v.String(), Signed: "protocol: " + v.rule}
}

// timedOut ends a server that did not answer in time: within limit, and
// the start-up allowance more when starting (its first request). partial
// is what it wrote of a line it did not end, quoted in the reason.
func (p *Process) timedOut(limit time.Duration, starting bool, partial []byte) Answer {
	p.end(true, 0)
	reason := fmt.Sprintf("no answer within %v", limit)
	if starting {
		reason = fmt.Sprintf("no answer within %v and the start-up allowance of %v (--start-timeout) after it started", limit, p.startTimeout())
	}
	return withUnended(Answer{Outcome: OutTimeout, Reason: reason}, partial)
}

// withUnended is a harness answer whose reason adds what the server wrote
// of a line it did not end (unended), its signature made of the reason
// without it.
func withUnended(a Answer, partial []byte) Answer {
	return withDetail(a, unended(partial))
}

// withDetail is a harness answer whose reason adds detail ("" none) after
// a semicolon, its signature made of the reason without it.
func withDetail(a Answer, detail string) Answer {
	if detail == "" {
		return a
	}
	if a.Signed == "" {
		a.Signed = a.Reason
	}
	a.Reason += "; " + detail
	return a
}

// heldOpen ends a server that exited while the pipe an exchange waited on
// stayed open (its wait failed at the limit or at cutHeld): a process it
// left holds it. Its end is the finding, worded as died words it (the
// same signature as the end of a server that leaves nothing), and the
// reason names the processes holding its output (or its input), which
// are killed and reaped with its descendants. partial is what it wrote of
// a line it did not end. Where the holders cannot be found (outside
// Linux) the reason says a process holds the pipe; where none is found
// (it exited since) the answer is died's.
func (p *Process) heldOpen(deadline time.Time, partial []byte) Answer {
	s := p.srv
	holders, out, ok := pipeHolders(s.stdout, s.stdin)
	pipe := "input"
	if out || !ok {
		pipe = "output"
	}
	var detail string
	switch {
	case !ok:
		detail = fmt.Sprintf("its %s stays open: a process it left holds it", pipe)
	case len(holders) > 0:
		detail = fmt.Sprintf("its %s stays open, held by a process it left: %s", pipe, describeProcs(holders))
	}
	s.holders = holders
	return withDetail(p.died(deadline, partial), detail)
}

// died ends a server whose output ended or whose input closed, and
// describes how it ended: a Go panic in its standard error makes a panic
// answer, anything else a crash. A server that is still running when its
// output has ended (exitGrace, or the deadline if sooner) closed its
// output without exiting: its input is then closed, and it is killed
// unless it exits within inputGrace (the reason then says so).
// partial is what it wrote of a line it did not end, quoted in the reason.
func (p *Process) died(deadline time.Time, partial []byte) Answer {
	return withUnended(p.death(deadline), partial)
}

// death is died's answer, what the server wrote of a line aside.
func (p *Process) death(deadline time.Time) Answer {
	s := p.srv
	// Its input stays open while it has the grace to exit: a server that
	// exits only once its input is closed (one that reads its requests
	// with its output sent elsewhere) closed its output without exiting.
	grace := min(exitGrace, max(0, time.Until(deadline)))
	openExit := true
	select {
	case <-s.exited:
	case <-time.After(grace):
		openExit = s.hasExited()
	}
	if !openExit {
		grace = min(inputGrace, max(0, time.Until(deadline)))
	}
	killed := p.end(false, grace)
	p.lastExit = -1
	if s.cmd.ProcessState != nil {
		p.lastExit = s.cmd.ProcessState.ExitCode()
	}
	// What the server wrote for this request words its death: the first
	// report (kept apart from the tail, which a deep backtrace overruns),
	// else a report or the line that reads as an error (deathLine) of
	// what the tail holds of it.
	tail, mine := s.stderr.String(), s.stderr.SinceRequest()
	p.lastTail = lastLine(mine)
	headline, panicked, found := crashReport(s.stderr.Report())
	if !found {
		headline, panicked, found = crashReport(mine)
	}
	if panicked {
		return Answer{Outcome: OutPanic, Reason: headline, Stderr: tail}
	}
	if !found {
		headline = deathLine(mine)
	}
	reason, detail := "exited", ""
	switch {
	case killed:
		reason = "closed its output without exiting"
	case !openExit:
		reason, detail = "closed its output without exiting", "it exited only once its input was closed"
		if s.waitErr != nil {
			detail += " (" + strings.TrimSuffix(s.waitErr.Error(), " (core dumped)") + ")"
		}
	case s.waitErr != nil:
		// Whether a killed server dumped core is the machine's setting
		// (ulimit -c), not the bug's: it stays out of the signature.
		reason = strings.TrimSuffix(s.waitErr.Error(), " (core dumped)")
	}
	if headline != "" {
		reason += ": " + headline
	}
	return withDetail(Answer{Outcome: OutCrash, Reason: reason, Stderr: tail}, detail)
}

// end stops the server: with kill at once, else its input closed and
// grace to exit before it is killed. Its descendants are killed too, and
// its standard error is read to the end (errGrace at most). It says
// whether the server had to be killed.
func (p *Process) end(kill bool, grace time.Duration) (killed bool) {
	s := p.srv
	if s == nil {
		return false
	}
	p.srv, p.pending, p.pendingHello = nil, 0, false
	known := descendantsOf(s.pid) // before the server's end orphans them
	for pid, start := range s.holders {
		known[pid] = start
	}
	s.stdin.Close()
	if !kill {
		select {
		case <-s.exited:
		case <-time.After(grace):
			select {
			case <-s.exited: // it exited as the grace ran out
			default:
				kill = true
			}
		}
	}
	if kill {
		procgroup.Kill(s.pid)
	}
	<-s.exited
	sweepDescendants(envEntry{kv: serverEnv + "=" + s.token}, known, []int{s.pid})
	s.stdout.Close()
	select {
	case <-s.errDone:
	case <-time.After(errGrace): // held open by a descendant not found
	}
	s.stderrR.Close()
	s.marks.close()
	return kill
}

// Close ends the child: standard input closed, then killed if it lingers
// (closeGrace), and every descendant found killed.
func (p *Process) Close() error {
	p.end(false, closeGrace)
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// Orphan is a process SweepOrphans killed: its pid, the pid of the
// cfgfuzz no longer running whose server left it, and its command line.
type Orphan struct {
	PID, Owner int
	Command    string
	// Graph is, for a stray (KilledStrays), the graph the server whose
	// reading first noted it was answering ("graph 17"); "" not known.
	Graph string
	// StartUp: the stray was that server's before it was sent a graph
	// (its start-up or its hello left it); Graph is "".
	StartUp bool
	// Started is, with Graph, when the stray started against that graph's
	// request: a stray first noted beside a graph's answer is that
	// graph's only when it started after the request was sent.
	Started StrayStart
}

// StrayStart is when a stray started against the request of the graph
// it was first noted beside (Orphan.Started), as far as start times in
// clock ticks of 10 ms tell.
type StrayStart int

const (
	// StrayStartUnknown: the time the request was sent is not known
	// (clockTicksAfter: /proc/uptime did not read, or reads a clock of
	// its own, a container's).
	StrayStartUnknown StrayStart = iota
	// StrayStartedAfter: in a later clock tick than the request was sent.
	StrayStartedAfter
	// StrayStartedSameTick: in the tick the request was sent in, or
	// (the request's tick known only to two) the one next to it: before
	// it or after.
	StrayStartedSameTick
	// StrayStartedBefore: in an earlier tick than the request was sent:
	// left by an earlier graph's answer, or by the server apart from any
	// graph (never the start-up's, which hadAtStartUp tells).
	StrayStartedBefore
)

// OrphansLine says in one line which processes SweepOrphans killed: each
// pid and command line (cut at 60 bytes), and the cfgfuzz that left them.
func OrphansLine(killed []Orphan) string {
	owners := map[int]bool{}
	var ownerList []string
	for _, o := range killed {
		if !owners[o.Owner] {
			owners[o.Owner] = true
			ownerList = append(ownerList, strconv.Itoa(o.Owner))
		}
	}
	whose := "a cfgfuzz that is no longer running (pid " + strings.Join(ownerList, ", ") + ")"
	if len(ownerList) > 1 {
		whose = "cfgfuzz processes that are no longer running (pids " + strings.Join(ownerList, ", ") + ")"
	}
	return fmt.Sprintf("killed %s left behind by the servers of %s: %s", processCount(len(killed)), whose, processList(killed))
}

// StraysLine says in one line which strays StopServers killed
// (KilledStrays): processes no graph's judgement could charge.
func StraysLine(killed []Orphan) string {
	return fmt.Sprintf("killed %s that a structurizer server's descendants left running outside its session with an empty environment, which no graph's judgement could charge with them (fuzz/PROTOCOL.md, Descendants): %s",
		processCount(len(killed)), processList(killed))
}

// processCount is "1 process" or "N processes".
func processCount(n int) string {
	if n == 1 {
		return "1 process"
	}
	return strconv.Itoa(n) + " processes"
}

// processList is each process's pid and command line (shortCommand).
func processList(killed []Orphan) string {
	var parts []string
	for _, o := range killed {
		part := fmt.Sprintf("%d (%s)", o.PID, PrintableLine(shortCommand(o.Command)))
		switch {
		case o.StartUp:
			part += ", left at the server's start-up"
		case o.Graph != "":
			part += ", first noted after the answer to " + o.Graph
			switch o.Started {
			case StrayStartedAfter:
				part += ", started after its request was sent"
			case StrayStartedSameTick:
				part += ", started within a clock tick of its request (before or after it: not known)"
			case StrayStartedBefore:
				part += ", started before its request was sent (not that graph's)"
			}
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}
