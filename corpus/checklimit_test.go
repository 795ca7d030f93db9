// checklimit_test.go: a Runner's CheckLimit gives a judgement past it no
// verdict (an error, not a finding), calls OnAbandon once, and answers
// every later Run with the same error, since the abandoned judgement
// still holds the structurizer seam.
package corpus

import (
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/oracletest"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestRunnerCheckLimit(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	abandoned := 0
	run, err := NewRunner(RunnerOptions{Checks: []string{"pdom"}, CheckLimit: 20 * time.Millisecond, OnAbandon: func() { abandoned++ },
		Structurize: func(g *cfg.Graph) Structurized {
			<-release
			return Structurized{Failure: SigRefused}
		}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfg.ParseCompact("{{1}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		o := run.Run(g)
		if o.Err == nil || !strings.Contains(o.Err.Error(), "no verdict within 20ms (--check-timeout)") || o.Failed() {
			t.Errorf("run %d: %+v; want no verdict, no finding", i, o)
		}
	}
	if abandoned != 1 {
		t.Errorf("OnAbandon called %d times, want 1", abandoned)
	}
}

// TestRunnerCheckLimitNamesTheCheckStillRunning: the error of a judgement
// whose checks ran past the limit names the check it left running; two
// graphs left in it have one signature.
func TestRunnerCheckLimitNamesTheCheckStillRunning(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var sigs []string
	for _, graph := range []string{"{{1}, {}}", "{{1, 2}, {3}, {3}, {}}"} {
		run, err := NewRunner(RunnerOptions{Checks: []string{"pdom", "exec"}, CheckLimit: 100 * time.Millisecond, Oracle: oracle.Options{Executor: oracletest.Held{Release: release}}})
		if err != nil {
			t.Fatal(err)
		}
		g, err := cfg.ParseCompact(graph, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		o := run.Run(g)
		want := "checks: no verdict within 100ms (--check-timeout): exec still running"
		if o.Err == nil || o.Err.Error() != want || o.Failed() {
			t.Fatalf("%s: %+v; want the error %q", graph, o, want)
		}
		sigs = append(sigs, oracle.HarnessSignature(oracle.HarnessError, o.Err.Error()))
	}
	if sigs[0] != sigs[1] || !strings.Contains(sigs[0], "exec still running") {
		t.Errorf("signatures %q, want one, naming exec", sigs)
	}
}
