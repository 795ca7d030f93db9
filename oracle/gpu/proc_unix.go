//go:build unix

// proc_unix.go puts a driver server in a process group of its own, so
// killing it ends whatever it started, and on Linux has it killed when
// cfgfuzz dies (diesWithParent).

package gpu

import (
	"os/exec"
	"syscall"
)

func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	diesWithParent(cmd.SysProcAttr)
}

// killGroup kills the process group led by pid, and pid itself.
func killGroup(pid int) {
	syscall.Kill(-pid, syscall.SIGKILL)
	syscall.Kill(pid, syscall.SIGKILL)
}
