//go:build !unix

package gpu

import (
	"os"
	"os/exec"
)

// ownGroup leaves the server in cfgfuzz's group outside Unix.
func ownGroup(*exec.Cmd) {}

// killGroup kills the server alone outside Unix.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
