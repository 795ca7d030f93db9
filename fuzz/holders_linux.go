//go:build linux

// holders_linux.go finds the processes that hold a server's pipes open
// once the server has exited (PROTOCOL.md, "Failure behaviour"): a
// detached child or a double fork's grandchild that inherited its
// standard output keeps the pipe open, so cfgfuzz's read of an answer
// sees neither the answer nor the end of the output. Every process's
// descriptors are read from /proc (/proc/PID/fd, links such as
// "pipe:[INODE]"), whatever its session, group or environment, so a
// holder that carries no mark of the server (setsid env -i) is found too.
// It runs only for a server that exited with its pipes held, never on an
// answer's path.

package fuzz

import (
	"os"
	"strconv"
	"syscall"
)

// pipeHolders returns the live processes other than this one that hold
// one of files (this side's ends of a server's pipes) open, by pid with
// their start times, and which of files each of them holds: out says a
// process holds files[0]. ok is true: the holders can be found here.
func pipeHolders(files ...*os.File) (found map[int]uint64, out bool, ok bool) {
	links := map[string]int{} // "pipe:[INODE]" -> index in files
	for i, f := range files {
		// Stat, not Fd: Fd would set the pipe blocking, and its
		// deadlines would stop working.
		if fi, err := f.Stat(); err == nil {
			if st, isUnix := fi.Sys().(*syscall.Stat_t); isUnix {
				links["pipe:["+strconv.FormatUint(st.Ino, 10)+"]"] = i
			}
		}
	}
	found = map[int]uint64{}
	self := os.Getpid()
	for _, p := range scanProcs() {
		if p.pid == self || p.state == 'Z' {
			continue
		}
		held, first := holds(p.pid, links)
		if held {
			found[p.pid] = p.start
			out = out || first
		}
	}
	return found, out, true
}

// holds says whether pid has a descriptor open on one of links, and
// whether on the first of them (index 0).
func holds(pid int, links map[string]int) (held, first bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false, false
	}
	for _, e := range ents {
		target, err := os.Readlink(dir + e.Name())
		if err != nil {
			continue
		}
		if i, ok := links[target]; ok {
			held = true
			first = first || i == 0
		}
	}
	return held, first
}
