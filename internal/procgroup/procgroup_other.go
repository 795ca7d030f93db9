//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

// Own leaves cmd in its parent's group: there are no process groups here.
func Own(*exec.Cmd) {}

// Kill kills pid alone.
func Kill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
