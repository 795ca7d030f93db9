// validation_interleaved_test.go measures whether SPIRV-Tools' validator
// costs more per module inside a campaign than back to back: on the
// throughput measure's modules (throughput_test.go), one goroutine locked
// to its thread validates every module in a row, then validates each
// again right after that module's graph was structurized, emitted and
// judged by the campaign's other checks on the module (pdom, rules, exec,
// filler), as a worker goes from one graph's checks to the next
// validation. Only the validations are timed, in the thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID), which other processes' load does not add to;
// each figure is the least over benchRounds rounds.
//
//	go test ./cmd/cfgfuzz -run '^$' -bench ValidationInterleaved -benchtime 1x
//
//go:build linux

package main

import (
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func BenchmarkValidationInterleaved(b *testing.B) {
	subjects, _ := benchSubjects(b)
	v, err := oracle.NewLibValidator("")
	if err != nil {
		b.Skip(err) // no cgo: the executable's time is not this thread's
	}
	others, err := oracle.New(oracle.Options{Checks: []string{"pdom", "rules", "exec", "filler"}})
	if err != nil {
		b.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for range b.N {
		alone, after := time.Duration(1<<62), time.Duration(1<<62)
		for range benchRounds {
			alone = min(alone, validateInARow(b, v, subjects))
			after = min(after, validateAfterChecks(b, v, others, subjects))
		}
		n := float64(len(subjects))
		b.ReportMetric(float64(alone.Microseconds())/n, "alone-us/module")
		b.ReportMetric(float64(after.Microseconds())/n, "after-checks-us/module")
		b.ReportMetric(100*float64(after)/float64(alone), "after-checks-%")
	}
}

// validateInARow validates every subject's module back to back and
// returns the thread CPU time the validations took.
func validateInARow(b *testing.B, v oracle.Validator, subjects []benchSubject) time.Duration {
	start := threadCPU()
	for _, s := range subjects {
		validateOK(b, v, s.module)
	}
	return threadCPU() - start
}

// validateAfterChecks structurizes, emits and judges each subject with
// others before validating its module, and returns the thread CPU time
// the validations alone took.
func validateAfterChecks(b *testing.B, v oracle.Validator, others *oracle.Oracle, subjects []benchSubject) time.Duration {
	var total time.Duration
	for _, s := range subjects {
		res, err := structurizer.Structurize(s.graph, structurizer.Options{Strategy: s.strategy})
		if err != nil {
			b.Fatal(err)
		}
		m, err := emit.Bytes(res.Func, emit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		others.Check(&oracle.Subject{Graph: s.graph, Module: m})
		start := threadCPU()
		validateOK(b, v, s.module)
		total += threadCPU() - start
	}
	return total
}

func validateOK(b *testing.B, v oracle.Validator, module []byte) {
	if ok, msg, err := v.Validate(module); !ok || err != nil {
		b.Fatalf("validation: %s %v", msg, err)
	}
}

// threadCPU is the calling thread's CPU time (the caller stays on its
// thread: runtime.LockOSThread).
func threadCPU() time.Duration {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		panic(e)
	}
	return time.Duration(ts.Nano())
}
