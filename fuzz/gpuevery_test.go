// gpuevery_test.go: Settings.GPUEvery runs the gpu check on exactly the
// graphs whose index is a multiple of it, on the current side. A stand-in
// gpu check that passes and counts its calls replaces the driver (the real
// one is registered by cmd/cfgfuzz and tested in oracle/gpu); it passes so
// that other tests of this binary that run every registered check still
// judge only the structurizer.
package fuzz

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/oracle"
)

var gpuStandInCalls atomic.Int64

// gpuStandInHold, when set, is a channel every call of the stand-in
// waits on before it passes: a gpu check that runs past the check limit.
var gpuStandInHold atomic.Pointer[chan struct{}]

// gpuStandInStarted, when set, is a channel every call of the stand-in
// sends to (without waiting) as it starts: a test that waits until the
// gpu check runs.
var gpuStandInStarted atomic.Pointer[chan struct{}]

func init() {
	oracle.RegisterCheck("gpu", "test stand-in: passes and counts its calls", oracle.OnModule, func(*oracle.Oracle, *oracle.Subject) oracle.Verdict {
		gpuStandInCalls.Add(1)
		if started := gpuStandInStarted.Load(); started != nil {
			select {
			case *started <- struct{}{}:
			default:
			}
		}
		if hold := gpuStandInHold.Load(); hold != nil {
			<-*hold
		}
		return oracle.Verdict{Status: oracle.Pass}
	}, nil)
}

func TestGPUEveryRunsTheDriverCheckOnEveryNthGraph(t *testing.T) {
	for _, tc := range []struct{ every, graphs, want int }{
		{4, 60, 15}, // indices 0, 4, ..., 56
		{7, 60, 9},  // 0, 7, ..., 56
		{0, 60, 0},
	} {
		c := testConfig(t, tc.graphs)
		c.GPUEvery = tc.every
		before := gpuStandInCalls.Load()
		o := mustRun(t, c)
		if got := gpuStandInCalls.Load() - before; got != int64(tc.want) {
			t.Errorf("GPUEvery %d over %d graphs: the gpu check ran %d times, want %d", tc.every, tc.graphs, got, tc.want)
		}
		// The report counts them, and says so when the check is on.
		if got := o.Report.GPUChecked; got != tc.want {
			t.Errorf("GPUEvery %d over %d graphs: the report's gpu_checked is %d, want %d", tc.every, tc.graphs, got, tc.want)
		}
		sentence := fmt.Sprintf("judged %d of the modules too: it samples the graphs whose index is a multiple of %d.", tc.want, tc.every)
		if md := Markdown(o.Report); strings.Contains(md, sentence) != (tc.every > 0) {
			t.Errorf("GPUEvery %d: report.md says %q: %v, want %v", tc.every, sentence, strings.Contains(md, sentence), tc.every > 0)
		}
	}
}
