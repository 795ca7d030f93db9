// metahint_test.go: the summary's hint naming --checks -meta when meta's
// re-runs of a slow structurizer are most of the campaign's time.
package main

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// TestSummaryHintsAtMetaOnASlowStructurizer: a campaign whose
// structurizer's time is most of its workers' time, meta's re-runs most
// of that, gets a summary line naming --checks -meta and what it gives
// up; a campaign whose structurizer is a small part of its time gets none.
func TestSummaryHintsAtMetaOnASlowStructurizer(t *testing.T) {
	slow := fuzz.Throughput{Graphs: 20, Seconds: 14, Workers: 2, CurrentSeconds: 10, CurrentMetaSeconds: 15}
	rep := &fuzz.Report{Graphs: 20, Throughput: slow}
	sum := summaryLines(rep)
	if !strings.Contains(sum, "\nhint: meta's re-runs took 60% of the structurizer's time") || !strings.Contains(sum, "--checks -meta skips them and gives up the metamorphic checks") {
		t.Errorf("summary lacks the hint on meta's re-runs:\n%s", sum)
	}
	rep.Throughput.CurrentSeconds, rep.Throughput.CurrentMetaSeconds = 0.5, 0.9
	if sum := summaryLines(rep); strings.Contains(sum, "hint:") {
		t.Errorf("a fast structurizer's summary hints:\n%s", sum)
	}
}
