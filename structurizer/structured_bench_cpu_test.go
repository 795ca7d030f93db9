// structured_bench_cpu_test.go: the process's CPU time for the scale
// benchmarks, steadier than wall time on a shared machine (other
// processes' load does not count; the collector's threads do).
//go:build unix

package structurizer

import (
	"syscall"
	"time"
)

// cpuTime is the user and system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
