// leak.go judges whether a server's answer to a graph left processes
// running (PROTOCOL.md, "Descendants"). A server's processes (its
// descendants, and the orphans of its descendants that cfgfuzz adopted:
// serverProcs, descend_linux.go) are read once it has written its first
// line, the hello's answer as a rule: they are its baseline, the helpers
// it keeps from its start-up. After every answer to a graph they are read
// again, unless none can be new (below); one that is not in the baseline
// (the same pid and start time) and still runs leakGrace later was left
// running by that request (an orphan inside execve, whose environment
// does not read yet, is waited for: leakUnsure). The answer is then a
// protocol violation, a crash whose signature is LeakSignature, and the
// server is ended with every process it has, so a leaking structurizer
// holds at most one request's processes per worker at any time, its
// baseline aside.
//
// A leak is a finding, not a harness warning: it is the structurizer's
// answer to one graph, as deterministic as the structurizer, so it is
// judged per graph (the same record whatever the worker that ran it),
// minimized to the smallest graph that leaks, replayed by `cfgfuzz check`,
// kept and classed by the state across nights, and it fails the run that
// first meets it (exit status 1) where a warning would scroll by in a
// nightly's log until the machine runs out of processes.
//
// A server's first request is the hello whenever one is sent; a restarted
// server that no hello probes (handshake.go, noProbe) has its baseline
// read after its first graph's answer instead, and that graph is not
// judged. A process started after the answer was written is charged to
// the next graph's answer, and one that exits on its own within
// leakGrace to none. Outside Linux nothing is read (descend_other.go)
// and no answer is judged.
//
// Reading a server's processes costs a directory and a file for each of
// its threads, and a file of cfgfuzz's (serverProcs); on most answers no
// process was created since the last reading that found none new, and
// none can be new. So a reading that found none new and none unsure (the
// baseline's too) is remembered by a mark (pidMark) read just before it,
// and an answer whose mark is that one is judged without reading, as
// leaving nothing. The mark is the PID last allocated in cfgfuzz's PID
// namespace, /proc/loadavg's last field (fs/proc/loadavg.c prints
// idr_get_cursor(&task_active_pid_ns(current)->idr) - 1), and the
// children list of cfgfuzz's main thread, where its orphans are handed.
// It relies on the kernel's giving every new process and thread a PID
// from that cyclic allocator, which moves the cursor, in its own PID
// namespace and in each one above it (alloc_pid, kernel/pid.c): a
// descendant in a nested namespace moves it too. A PID chosen by number
// (clone3's set_tid, a write to ns_last_pid: checkpoint/restore, under
// CAP_CHECKPOINT_RESTORE) need not move it; and the cursor comes back to
// the same value only after a whole round of the PID space between two
// answers, about pid_max allocations (/proc/sys/kernel/pid_max: 32768 by
// default below 32 CPUs, 4194304 where systemd raises it). The children
// list sees an orphan handed to cfgfuzz by an exit during the reading,
// which that reading may have missed. An orphan handed during the reading
// to a reaper in the server's tree that was read already (another thread
// of the process that exited, a subreaper the server runs) is not: a
// reading that found a process or thread it listed ended is read again
// (read), and is not remembered when the second one finds one too (a
// zombie the server does not reap has its every answer read). Without /proc/loadavg or children
// lists every answer is read, and so is every answer of a server whose
// PID does not lie after the last PID read just before its start and no
// further than the first one read after (followed): a /proc/loadavg that
// is not the kernel's cursor (gVisor's, LXCFS's) would hide a leak.

package fuzz

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// ruleLeak is the protocol rule a request that leaves processes running
// breaks.
const ruleLeak = "left processes running after its answer"

// LeakSignature is the signature of a graph whose answer left processes
// running.
var LeakSignature = harnessSignature(OutCrash, "protocol: "+ruleLeak)

// leakSettle is how often the processes new after an answer are read
// again while they are given time to end on their own.
const leakSettle = 25 * time.Millisecond

// leakGrace is how long processes new after an answer are given to end on
// their own before they count as left running: a helper the server
// started for the request and is reaping, a child that wrote the answer
// and is exiting, which on a loaded machine (a CI runner, a nightly
// sharing its cores) may wait its turn for hundreds of milliseconds. Only
// an answer that left new processes waits; a real leak costs this once
// per graph, and its server is ended.
const leakGrace = 500 * time.Millisecond

// leakUnsure bounds how long a judgement waits, leakSettle after
// leakSettle, for a child of this process whose environment does not read
// yet (an orphan inside execve, on a loaded machine) to be told apart.
const leakUnsure = time.Second

// read reads the server's processes, unsure as serverProcs, and the mark
// read just before (marked whether it was, and can be remembered). A
// reading during which a process it listed ended (serverProcsRead) may
// lack that process's children, handed to a reaper read already: it is
// read again, once, and a second such reading is not remembered.
func (s *server) read() (now map[int]uint64, unsure bool, m pidMark, marked bool) {
	for range 2 {
		var moved bool
		m, marked = s.readMark()
		now, unsure, moved = serverProcsRead(s.pid, serverEnv+"="+s.token)
		if !moved {
			return now, unsure, m, marked
		}
	}
	return now, unsure, pidMark{}, false
}

// pidMark is what a reading of a server's processes is remembered by
// when it found none new: the PID last allocated in this process's PID
// namespace, and the children list of this process's main thread (its
// adopted orphans), read just before it.
type pidMark struct {
	last     int
	children string
}

// readMark reads the mark a reading of the server's processes would be
// remembered by, through lastPID (nil: its markFiles); ok is false when
// it cannot be read.
func (s *server) readMark() (m pidMark, ok bool) {
	read := s.lastPID
	if read == nil {
		read = s.marks.lastPID
	}
	if m.last, ok = read(); !ok || !s.followed(m.last) {
		return pidMark{}, false
	}
	m.children, ok = s.marks.adopted()
	return m, ok
}

// followed says whether the last PID read follows the PIDs allocated,
// told from the first one read (last): the server's PID must lie after
// the last PID read just before it was started, and no further than
// last. A last PID that stands (gVisor prints 0 for good) or lags (LXCFS
// with its load average on prints the largest PID of the container's
// cgroup, read every 5 seconds) is not: every answer of the server is
// read. A cursor that went round between the two readings makes a server
// read every answer too.
func (s *server) followed(last int) bool {
	if !s.told {
		s.told = true
		s.follows = s.preStartOK && s.preStart < s.pid && s.pid <= last
	}
	return s.follows
}

// newProcs is what of the server's processes its baseline lacks; unsure
// as serverProcs. A reading that finds none, and is sure, is remembered
// (quiet).
func (s *server) newProcs() (map[int]uint64, bool) {
	now, unsure, m, marked := s.read()
	for pid, start := range now {
		if b, ok := s.baseline[pid]; ok && b == start {
			delete(now, pid)
		}
	}
	s.noteClean(m, marked && len(now) == 0 && !unsure)
	return now, unsure
}

// takeBaseline reads the server's baseline unless it has one; a sure
// reading is remembered as one that found none new (quiet).
func (s *server) takeBaseline() {
	if !s.baselined {
		var unsure, marked bool
		var m pidMark
		s.baseline, unsure, m, marked = s.read()
		s.baselined = true
		s.noteClean(m, marked && !unsure)
	}
}

// noteClean remembers m as the mark of a reading that found no new
// process, when clean.
func (s *server) noteClean(m pidMark, clean bool) {
	if clean {
		s.clean, s.cleaned = m, true
	}
}

// quiet says whether the mark read now is that of the last reading that
// found no new process: no process was created in this PID namespace
// since, and no orphan was handed to this process or ended, so none of
// the server's can be new. A mark that cannot be read is not.
func (s *server) quiet() bool {
	m, ok := s.readMark()
	return ok && s.cleaned && m == s.clean
}

// leaked judges the running server after its answer to a graph: nil
// when it left no process running, else the violation (which ends the
// server and its processes). A server without a baseline gets one; one
// whose processes cannot have changed since a reading found none new
// (quiet) is not read.
func (p *Process) leaked() *Answer {
	s := p.srv
	if !s.baselined {
		s.takeBaseline()
		return nil
	}
	if s.quiet() {
		return nil
	}
	left, unsure := s.newProcs()
	if len(left) == 0 && !unsure {
		return nil
	}
	for wait := time.Duration(0); ; wait += leakSettle {
		time.Sleep(leakSettle)
		left, unsure = s.newProcs()
		if settled(len(left), unsure, wait) {
			break
		}
	}
	if len(left) == 0 {
		return nil
	}
	a := p.violation(violation{rule: ruleLeak, detail: describeProcs(left)})
	return &a
}

// settled says whether a leak judgement that has waited wait (and
// leakSettle more) for the new processes, left of them and unsure as
// serverProcs says, is done: none is left and none unsure; or some are
// left past leakGrace and none unsure; or leakUnsure has passed.
func settled(left int, unsure bool, wait time.Duration) bool {
	switch {
	case wait >= max(leakGrace, leakUnsure):
		return true
	case unsure:
		return false
	}
	return left == 0 || wait >= leakGrace
}

// shortCommand is a command line as the messages naming processes show
// it: its first 60 bytes, and "..." when it is longer.
func shortCommand(c string) string {
	if len(c) > 60 {
		return strings.ToValidUTF8(c[:60], "") + "..."
	}
	return c
}

// describeProcs says how many processes there are and what they run:
// "1 process: sleep 1000", "3 processes: sh -c x (2), sleep 1000".
func describeProcs(procs map[int]uint64) string {
	count := map[string]int{}
	for pid := range procs {
		count[shortCommand(commandLine(pid))]++
	}
	var cmds []string
	for c, n := range count {
		if n > 1 {
			c += fmt.Sprintf(" (%d)", n)
		}
		cmds = append(cmds, c)
	}
	slices.Sort(cmds)
	if len(cmds) > 3 {
		cmds = append(cmds[:3], "...")
	}
	n := "1 process"
	if len(procs) != 1 {
		n = fmt.Sprintf("%d processes", len(procs))
	}
	return n + ": " + strings.Join(cmds, ", ")
}
