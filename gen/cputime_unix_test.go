//go:build unix

// cputime_unix_test.go: the process's CPU time, for benchmarks that must
// report a rate on a shared machine where wall time includes waiting.
package gen

import "syscall"

// processCPU returns the user and system CPU seconds used so far, and
// whether the platform could tell.
func processCPU() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return sec(ru.Utime) + sec(ru.Stime), true
}
