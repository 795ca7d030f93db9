//go:build unix

// proc_unix.go puts a structurizer child in its own process group so a
// timeout kills everything it started (a shell wrapper and its program),
// and on Linux has it killed when cfgfuzz dies (dieWithParent).

package fuzz

import (
	"os/exec"
	"syscall"
)

func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// killGroup kills the process group led by pid, and pid itself.
func killGroup(pid int) {
	syscall.Kill(-pid, syscall.SIGKILL)
	syscall.Kill(pid, syscall.SIGKILL)
}
