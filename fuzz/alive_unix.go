//go:build unix

// alive_unix.go tells whether a process of this host is alive (signal 0),
// for stale locks and stale baseline worktrees. A zombie (exited, not yet
// reaped: a campaign killed with SIGKILL in a container whose init does
// not reap) is not alive.

package fuzz

import (
	"bytes"
	"errors"
	"os"
	"strconv"
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
