//go:build unix

// readable_unix.go tells, without waiting, whether a pipe holds bytes to
// read (or its end): a server's output between its answers (unasked).

package fuzz

import (
	"os"

	"golang.org/x/sys/unix"
)

// readable says whether a read of f would not wait: it holds bytes, or
// its writers closed it.
func readable(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	ready := false
	rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		ready = err == nil && n > 0 && fds[0].Revents&(unix.POLLIN|unix.POLLHUP) != 0
	})
	return ready
}
