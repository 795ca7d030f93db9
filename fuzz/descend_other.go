//go:build !linux

// descend_other.go: outside Linux there is no portable way to adopt
// detached descendants, so a server is killed with its process group
// (internal/procgroup) or alone outside Unix, and a descendant that left the
// group (setsid) or outlived its parent is not found.

package fuzz

import "os"

// SweepOrphans finds nothing outside Linux.
func SweepOrphans() []Orphan { return nil }

func becomeSubreaper() {}

// reapGroup has nothing to reap outside Linux: orphans go to init.
func reapGroup(pgid int) {}

func descendantsOf(root int) map[int]uint64 { return nil }

func sweepDescendants(env envEntry, known map[int]uint64, groups []int) {}

// envEntry is an environment entry sought in a process (descend_linux.go).
type envEntry struct {
	kv     string
	prefix bool
}

func serverProcs(root int, env string) (map[int]uint64, bool) { return nil, false }

func serverProcsRead(root int, env string) (map[int]uint64, bool, bool) { return nil, false, false }

func commandLine(pid int) string { return "" }

// markFiles read nothing outside Linux, where no answer is judged.
type markFiles struct{}

func (f *markFiles) lastPID() (int, bool)    { return 0, false }
func (f *markFiles) adopted() (string, bool) { return "", false }
func (f *markFiles) close()                  {}

// pipeHolders finds nothing outside Linux (holders_linux.go): ok is false.
func pipeHolders(files ...*os.File) (found map[int]uint64, out bool, ok bool) {
	return nil, false, false
}
