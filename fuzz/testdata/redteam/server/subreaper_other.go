//go:build !linux

package main

// becomeSubreaper does nothing outside Linux.
func becomeSubreaper() {}
