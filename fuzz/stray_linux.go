//go:build linux

// stray_linux.go: the adopted children of cfgfuzz that no server can be
// told to own. cfgfuzz is its descendants' subreaper (descend_linux.go),
// so an orphan of a server's descendant becomes its child; it is known as
// the server's by its process group or by the server's token in its
// environment. A descendant that left the server's session and was started
// with an empty environment (env -i, execve with no variables) keeps
// neither: it is a stray. Its environment reads empty for good, which is
// also how a process inside execve reads for a moment; a stray asleep (a
// process inside execve runs) is told apart at once, not waited for, so
// it does not add the wait to every answer. No graph can be charged with
// it; cfgfuzz remembers it with the graph whose answer the server that
// first noted it was being judged on (labelStrays) and when it started
// against that graph's request (StrayStart: after the request was sent,
// in the same clock tick, which leaves the order unknown, or before), or
// as its start-up's when that server had it before it was sent a graph,
// and StopServers kills the strays still running when cfgfuzz ends, so
// none outlives it, naming that graph and what is known of its start, or
// the start-up, beside each.

package fuzz

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// strayNote is a stray as noted: its start time, the server environment
// entry (serverEnv=TOKEN) of the reading that first noted it, and the
// graph that server was answering (labelStrays; "" not known) with when
// the stray started against that graph's request, or startUp when that
// server's start-up left it.
type strayNote struct {
	start     uint64
	by, graph string
	startUp   bool
	started   StrayStart
}

// strays are the strays noted, by pid (under straysMu).
var strays = map[int]strayNote{}

// stray says whether p, a child of this process whose environment could
// not be told apart, is a stray rather than a process inside execve or on
// its way out: read again, it is the same process, asleep or stopped
// (state S, T or t: a process inside execve runs, one exiting is not
// asleep), and its environment reads empty without an error. A stray is
// noted for StopServers, the first time with by, the environment entry of
// the server whose processes were being read.
func stray(p procStat, by string) bool {
	now, ok := readProcStat(p.pid)
	if !ok || now.start != p.start || now.state != 'S' && now.state != 'T' && now.state != 't' {
		return false
	}
	if b, err := readEnviron(p.pid); err != nil || len(b) > 0 {
		return false
	}
	straysMu.Lock()
	if n, ok := strays[p.pid]; !ok || n.start != p.start {
		strays[p.pid] = strayNote{start: p.start, by: by}
	}
	straysMu.Unlock()
	return true
}

// labelStrays names what the strays first noted by the readings of
// server environment entry by, and not named yet, were noted beside: the
// server's start-up for those place says it had before it was sent a
// graph (by their pid and start time), the graph that server was
// answering (graph, "graph 17") for the others, with when place says each
// started against that graph's request. With several workers, the server
// of another worker may have left them.
func labelStrays(by, graph string, place func(pid int, start uint64) (startUp bool, started StrayStart)) {
	straysMu.Lock()
	defer straysMu.Unlock()
	for pid, n := range strays {
		if n.by == by && n.graph == "" && !n.startUp {
			if up, started := place(pid, n.start); up {
				n.startUp = true
			} else {
				n.graph, n.started = graph, started
			}
			strays[pid] = n
		}
	}
}

// clockTicksAfter is the time since boot in the clock ticks of a
// process's start time (/proc/PID/stat; both read the boot-time clock,
// 100 ticks a second), rounded down: a process whose start time is less
// started before it was read. 0 when /proc/uptime does not read, or reads
// a time before process pid (a live one) started: a clock of its own (a
// container's uptime), not the start times'.
func clockTicksAfter(pid int) uint64 {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	up, _, _ := strings.Cut(string(b), " ")
	sec, frac, ok := strings.Cut(up, ".")
	s, err1 := strconv.ParseUint(sec, 10, 64)
	c, err2 := strconv.ParseUint(frac, 10, 64)
	if !ok || len(frac) != 2 || err1 != nil || err2 != nil {
		return 0
	}
	now := s*100 + c
	if st, ok := readProcStat(pid); !ok || now < st.start {
		return 0
	}
	return now
}

// startTicks is the start time of process pid (/proc/PID/stat), 0 when
// it does not read.
func startTicks(pid int) uint64 {
	st, _ := readProcStat(pid)
	return st.start
}

// killStrays kills and reaps the strays still running as children of
// this process (the same pid and start time), and returns them.
func killStrays() []Orphan {
	straysMu.Lock()
	defer straysMu.Unlock()
	self := os.Getpid()
	var killed []Orphan
	for pid, n := range strays {
		delete(strays, pid)
		st, ok := readProcStat(pid)
		if !ok || st.start != n.start || st.ppid != self || st.state == 'Z' {
			continue
		}
		command := commandLine(pid)
		if syscall.Kill(pid, syscall.SIGKILL) != nil {
			continue
		}
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
		killed = append(killed, Orphan{PID: pid, Owner: self, Command: command, Graph: n.graph, StartUp: n.startUp, Started: n.started})
	}
	return killed
}
