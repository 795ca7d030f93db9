//go:build !unix

// cputime_other_test.go: no CPU clock here; benchmarks report wall rates
// only.
package gen

func processCPU() (float64, bool) { return 0, false }
