// structured_depth_test.go: R16 in the self-check, end to end.
// MaxNestingDepth is the rules check's limit; an else-if chain whose arms
// share one join nests a selection per arm, so a chain of more arms than
// the limit falls back to the dispatch loop, whose module passes the rules
// and runs as the graph does, and a shorter one stays structured.
package structurizer_test

import (
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestMaxNestingDepthIsTheRulesCheck(t *testing.T) {
	if structurizer.MaxNestingDepth != oracle.MaxNestingDepth {
		t.Errorf("structurizer.MaxNestingDepth %d, the rules check's %d", structurizer.MaxNestingDepth, oracle.MaxNestingDepth)
	}
}

// elseIfChain is blocks c_0..c_{n-1} (ids 0..n-1), each "if a_i else
// c_{i+1}", the last one's else the join; a_i (ids n..2n-1) branch to the
// join 2n, which returns.
func elseIfChain(n int) *cfg.Graph {
	g := &cfg.Graph{Succs: make([][]int, 2*n+1)}
	for i := range n {
		next := i + 1
		if next == n {
			next = 2 * n
		}
		g.Succs[i] = []int{n + i, next}
		g.Succs[n+i] = []int{2 * n}
	}
	g.Succs[2*n] = nil
	return g
}

func TestDeepElseIfChain(t *testing.T) {
	o, err := oracle.New(oracle.Options{Checks: []string{"rules", "exec"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		arms     int
		fallback bool
	}{{600, false}, {1500, true}} {
		g := elseIfChain(tc.arms)
		res, err := structurizer.Structurize(g, structurizer.Options{})
		if err != nil {
			t.Fatalf("%d arms: %v", tc.arms, err)
		}
		fell := res.Stats.Fallbacks > 0
		if fell != tc.fallback {
			t.Errorf("%d arms: fallbacks %d (%v), want a fallback: %v", tc.arms, res.Stats.Fallbacks, res.Stats.PassesUsed, tc.fallback)
		}
		if fell && !strings.HasPrefix(res.Stats.PassesUsed[0], "fallback: selfcheck: R16: ") {
			t.Errorf("%d arms: fallback %q, want one for R16", tc.arms, res.Stats.PassesUsed[0])
		}
		if err := structurizer.SelfCheck(res.Func); err != nil {
			t.Errorf("%d arms: the output fails the self-check: %v", tc.arms, err)
		}
		mod, err := emit.Bytes(res.Func, emit.Options{})
		if err != nil {
			t.Fatalf("%d arms: emit: %v", tc.arms, err)
		}
		if v := oracle.Failed(o.Check(&oracle.Subject{Graph: g, Module: mod})); v != nil {
			t.Errorf("%d arms: %s: %s", tc.arms, v.Signature, v.Detail)
		}
	}
}
