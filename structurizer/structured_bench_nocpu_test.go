// structured_bench_nocpu_test.go: no process CPU time off unix (the scale
// benchmarks then report wall time only).
//go:build !unix

package structurizer

import "time"

func cpuTime() time.Duration { return 0 }
