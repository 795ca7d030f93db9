// structured_debug_test.go: a tool, skipped unless DEBUG_GRAPH is set:
// structurizes the graph, structurizes the result's own CFG (as the meta
// oracle's idempotence check does, with the emitter's prologue block) and
// prints both functions, with why the nested pass declined each graph.
package structurizer

import (
	"fmt"
	"os"
	"testing"

	"cfgfuzz/structurizer/cfg"
)

// outputGraph is f's branch graph as the module lays it out: a prologue
// block (0) branching to f's entry, then f's blocks, a switch's targets in
// the order the emitter lists them.
func outputGraph(f *Func) *cfg.Graph {
	g := cfg.New(len(f.Blocks) + 1)
	g.Succs[0] = []int{1}
	for i, b := range f.Blocks {
		to := b.Term.To
		if isSwitch(&f.Blocks[i]) { // the emitter lists the default, then the cases in order
			order := b.Term.Order
			if order == nil {
				order = caseOrder(to)
			}
			to = []int{to[0]}
			for _, k := range order {
				to = append(to, b.Term.To[k])
			}
		}
		for _, t := range to {
			g.Succs[i+1] = append(g.Succs[i+1], t+1)
		}
	}
	return g
}

func dumpFunc(f *Func) string {
	s := ""
	for i, b := range f.Blocks {
		s += fmt.Sprintf("  %d: %s orig=%d name=%s merge=%v term=%v %v vals=%v stores=%v\n", i, b.Kind, b.Orig, b.Name, b.Merge, b.Term.Kind, b.Term.To, b.Term.Values, b.Stores)
	}
	return s
}

func TestDebugIdempotence(t *testing.T) {
	src := os.Getenv("DEBUG_GRAPH")
	if src == "" {
		t.Skip("DEBUG_GRAPH not set")
	}
	g, err := cfg.ParseCompact(src, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Structurize(g, Options{Strategy: "structured"})
	if err != nil {
		t.Fatal(err)
	}
	_, why := nested(g)
	t.Logf("nested: %q\nfirst %+v\n%s", why, res.Stats, dumpFunc(res.Func))
	h, _ := outputGraph(res.Func).DropUnreachable()
	_, why = nested(h)
	t.Logf("nested on the output graph: %q", why)
	res2, err := Structurize(h, Options{Strategy: "structured"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("output graph %v\nsecond %+v\n%s", h, res2.Stats, dumpFunc(res2.Func))
}
