//go:build !linux

package fuzz

// killStrays kills nothing outside Linux: no orphan is adopted there
// (stray_linux.go).
func killStrays() []Orphan { return nil }

// labelStrays has no stray to name outside Linux.
func labelStrays(by, graph string, place func(pid int, start uint64) (startUp bool, started StrayStart)) {
}

// clockTicksAfter is 0 outside Linux: no stray's start time is read
// there.
func clockTicksAfter(pid int) uint64 { return 0 }

// startTicks is 0 outside Linux: no start time is read there.
func startTicks(pid int) uint64 { return 0 }
