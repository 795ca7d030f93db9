// checklimit_test.go: a Runner's CheckLimit gives a judgement past it no
// verdict (an error, not a finding), calls OnAbandon once, and answers
// every later Run with the same error, since the abandoned judgement
// still holds the structurizer seam.
package corpus

import (
	"strings"
	"testing"
	"time"

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
