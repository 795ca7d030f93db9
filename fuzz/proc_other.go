//go:build !unix

// proc_other.go: without process groups a timeout kills the child only.

package fuzz

import (
	"os"
	"os/exec"
)

func setProcessGroup(cmd *exec.Cmd) {}

// killGroup kills pid.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
