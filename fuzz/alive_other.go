//go:build !unix

// alive_other.go: without a portable liveness test every process is taken
// to be alive, so a worktree is never taken over as stale, nor a lock of
// this host but one naming this process that it did not take (lock.go).

package fuzz

func processAlive(pid int) bool { return true }

func processStart(pid int) (uint64, bool) { return 0, false }

func systemIDs() (boot, pidns string) { return "", "" }
