//go:build unix

// alive_unix.go tells whether a process of this host is alive (signal 0),
// for stale locks and stale baseline worktrees.
package fuzz

import (
	"errors"
	"syscall"
)

func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
