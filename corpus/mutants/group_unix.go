//go:build unix

// group_unix.go: a campaign runs in a process group of its own, so the
// limit kills the cfgfuzz process and every structurizer it started.

package main

import (
	"os/exec"
	"syscall"
)

// killGroupOnCancel puts cmd in a new process group and makes its
// context's cancellation kill the whole group.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
