//go:build unix

// alive_unix.go tells whether a process of this host is alive (signal 0),
// for stale locks and stale baseline worktrees. A zombie (exited, not yet
// reaped: a campaign killed with SIGKILL in a container whose init does
// not reap) is not alive. Where /proc has them, it reads a process's
// start time and the kernel's boot id and this process's pid namespace,
// which a lock records (lock.go).

package fuzz

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	return !zombie(pid)
}

// zombie reports whether /proc says pid has exited and waits to be
// reaped; false where there is no /proc.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'Z'
}

// processStart is pid's start time in clock ticks after boot, the 22nd
// field of /proc/PID/stat; false where it cannot be read (no such
// process, no /proc).
func processStart(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// pid (comm) state ...: comm may hold spaces and parentheses, and
	// the fields after it start at the 3rd.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 22-2 {
		return 0, false
	}
	t, err := strconv.ParseUint(f[22-3], 10, 64)
	return t, err == nil
}

// systemIDs are the kernel's boot id (one per boot of a machine, shared
// by its containers) and this process's pid namespace (the inode of
// /proc/self/ns/pid); "" where they cannot be read, and pidns "" where
// /proc is another pid namespace's (its pids are not this process's).
func systemIDs() (boot, pidns string) {
	if b, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil {
		boot = strings.TrimSpace(string(b))
	}
	if self, err := os.Readlink("/proc/self"); err != nil || self != strconv.Itoa(os.Getpid()) {
		return boot, ""
	}
	if l, err := os.Readlink("/proc/self/ns/pid"); err == nil { // pid:[4026531836]
		if i, j := strings.IndexByte(l, '['), strings.IndexByte(l, ']'); i >= 0 && j > i+1 {
			pidns = l[i+1 : j]
		}
	}
	if strings.ContainsAny(boot, " \t\n=") {
		boot = ""
	}
	return boot, pidns
}
