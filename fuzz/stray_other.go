//go:build !linux

package fuzz

// killStrays kills nothing outside Linux: no orphan is adopted there
// (stray_linux.go).
func killStrays() []Orphan { return nil }

// labelStrays has no stray to name outside Linux.
func labelStrays(by, graph string) {}
