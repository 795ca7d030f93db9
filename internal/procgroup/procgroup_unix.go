//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
)

// Own puts cmd, not yet started, in a process group of its own, killed
// with its parent where the system can (diesWithParent).
func Own(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	diesWithParent(cmd.SysProcAttr)
}

// Kill kills the process group led by pid, and pid itself.
func Kill(pid int) {
	syscall.Kill(-pid, syscall.SIGKILL)
	syscall.Kill(pid, syscall.SIGKILL)
}
