//go:build !unix

// group_other.go: without process groups, the limit kills the cfgfuzz
// process alone (exec.CommandContext's default).

package main

import "os/exec"

// killGroupOnCancel leaves cmd as exec.CommandContext made it.
func killGroupOnCancel(cmd *exec.Cmd) {}
