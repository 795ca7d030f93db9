// pdom_sample_test.go: the pdom check on large graphs: linear in the
// blocks (many returning or unreachable blocks, a wide switch), and the
// sampled brute force passes on correct trees and catches a relation that
// differs from the tree.
package oracle

import (
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestPdomLargeGraphsAreFast: 100,000 blocks, most of them unreachable and
// returning (the virtual exit's 99,999 edges), and a block switching to
// 60,000 distinct blocks.
func TestPdomLargeGraphsAreFast(t *testing.T) {
	const n = 100_000
	wide := make([]int, 60_000)
	for i := range wide {
		wide[i] = 2 + i
	}
	for _, g := range []*cfg.Graph{
		cfg.FromSuccs(append([][]int{{n - 1}}, make([][]int, n-1)...)),
		cfg.FromSuccs(append([][]int{{1}, wide}, make([][]int, n-2)...)),
	} {
		start := time.Now()
		v := (&Oracle{}).checkPdom(&Subject{Graph: g})
		took := time.Since(start)
		if v.Status != Pass {
			t.Fatalf("%+v", v)
		}
		t.Logf("%d blocks: %v (%s)", g.Len(), took, v.Detail)
		if took > 5*time.Second {
			t.Fatalf("pdom took %v on %d blocks", took, g.Len())
		}
	}
}

func TestPdomSampledPassesAboveTheLimit(t *testing.T) {
	r := seededRand(t, 71)
	for i := range 30 {
		g := randomGraph(r, PdomBruteForceLimit+1+r.IntN(400))
		o := &Oracle{opt: Options{Seed: uint64(i)}}
		v := o.checkPdom(&Subject{Graph: g})
		if v.Status != Pass || v.Detail == "" {
			t.Fatalf("graph %d: %+v", i, v)
		}
	}
}

// TestPdomSampledCatchesAWrongRelation: a definition that differs from the
// tree in one sampled row fails, by each of the three comparisons.
func TestPdomSampledCatchesAWrongRelation(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {3}, {3}, {4}, {}})
	dom := cfg.Dominators(g)
	reach := cfg.RefReachable(g)
	right := func(a int) []bool { return cfg.RefDominatesRow(g, reach, a) }
	if _, bad := sampledRelation(dom, right, []int{0, 1, 2, 3, 4}, SigIDomRef, "dominates"); bad {
		t.Fatal("the definition's own rows fail")
	}
	for _, c := range []struct {
		name   string
		a      int
		change func(row []bool)
	}{
		{"3 not dominating 4", 3, func(row []bool) { row[4] = false }},
		{"1 dominating 3", 1, func(row []bool) { row[3] = true }},
	} {
		wrong := func(a int) []bool {
			row := right(a)
			if a == c.a {
				c.change(row)
			}
			return row
		}
		if v, bad := sampledRelation(dom, wrong, []int{c.a}, SigIDomRef, "dominates"); !bad || v.Signature != "pdom:"+SigIDomRef {
			t.Errorf("%s: not caught: %+v", c.name, v)
		}
	}
	// The immediate dominator's own row: 0 no longer dominating 3.
	wrongIDom := func(a int) []bool {
		row := right(a)
		if a == 0 {
			row[3] = false
		}
		return row
	}
	if _, bad := sampledRelation(dom, wrongIDom, []int{3}, SigIDomRef, "dominates"); !bad {
		t.Error("an immediate dominator that does not dominate by the definition is not caught")
	}
}
