//go:build !linux

// procstat_other_test.go: the process-table helpers the tests of
// process_faults_test.go share, where there is no /proc (those tests skip
// there, markProcesses says so).

package fuzz

type procStat struct {
	pid, ppid, pgrp int
	state           byte
}

func readProcStat(pid int) (procStat, bool) { return procStat{}, false }

func scanProcs() []procStat { return nil }
