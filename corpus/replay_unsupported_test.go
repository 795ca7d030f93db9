// replay_unsupported_test.go: a regression file's graph that the
// structurizer under test declares it does not serve (a protocol v2
// max_blocks, switches or irreducible promise) was not judged: its clean
// case fails, as check counts the graph (UNSUPPORTED, exit 1), never passes.
package corpus

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestReplayUnsupportedIsNoPass(t *testing.T) {
	g, err := cfg.ParseCompact("{{1}, {2}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	declines := func(*cfg.Graph) Structurized {
		return Structurized{Unsupported: true, Detail: "unsupported: more than N blocks (2)"}
	}
	runner := func(*Regression, string, []string) (*Runner, error) {
		return NewRunner(RunnerOptions{Structurize: declines})
	}
	for _, expect := range []string{ExpectPass, ExpectFail} {
		r := &Regression{Name: "chain", Path: "chain.cfg", Graph: g, Header: Header{Expect: expect}}
		if expect == ExpectFail {
			r.Header.Signature = "rules:R2"
		}
		cases := Replay([]*Regression{r}, ReplayOptions{Runner: runner})
		if len(cases) != 1 {
			t.Fatalf("expect %q: %d cases, want 1: %+v", expect, len(cases), cases)
		}
		c := cases[0]
		if c.Status != CaseFail || c.Got != SigUnsupported || !strings.Contains(c.Detail, "more than N blocks") {
			t.Errorf("expect %q: a graph the structurizer does not serve gives %s (got %q, detail %q), want %s (got %q, the reason as detail)",
				expect, c.Status, c.Got, c.Detail, CaseFail, SigUnsupported)
		}
	}
}
