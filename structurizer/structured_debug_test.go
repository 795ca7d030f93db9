// structured_debug_test.go: a tool, skipped unless DEBUG_GRAPH is set:
// structurizes the graph, structurizes the result's own CFG (as the meta
// oracle's idempotence check does, with the emitter's prologue block) and
// prints both functions, with why the nested pass declined each graph.
package structurizer

import (
	"fmt"
	"os"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// outputGraph is f's branch graph as the module lays it out (moduleGraph).
func outputGraph(f *Func) *cfg.Graph { return moduleGraph(f) }

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
	_, old := outputGraph(res.Func).DropUnreachable()
	truth := truthDecls(res.Func, old)
	got, why := nestedDecls(h, preferSmallest)
	t.Logf("first run: %s", why)
	for b := range h.Len() {
		if truth[b] != got[b] {
			t.Logf("  block %d: truth %q nested %q", b, truth[b], got[b])
		}
	}
}

// TestDebugHunt, skipped unless DEBUG_HUNT is set to "KIND COUNT SEED
// MIN-MAX" (e.g. "reducible 20000 1 14-24"): generates the graphs as
// `cfgfuzz gen` does and prints each whose output graph structurizes to
// more blocks (the meta oracle's idempotence, without the module), with why
// the nested pass declined the output graph. Much faster than cfgfuzz check.
func TestDebugHunt(t *testing.T) {
	spec := os.Getenv("DEBUG_HUNT")
	if spec == "" {
		t.Skip("DEBUG_HUNT not set")
	}
	var kind string
	var count, lo, hi int
	var seed uint64
	if _, err := fmt.Sscanf(spec, "%s %d %d %d-%d", &kind, &count, &seed, &lo, &hi); err != nil {
		t.Fatalf("DEBUG_HUNT=%q: %v", spec, err)
	}
	c := gen.Config{Kind: gen.Kind(kind), MinBlocks: lo, MaxBlocks: hi}
	failed, declined := 0, 0
	for i := range count {
		it, err := gen.Generate(c, gen.SeedFor(c.Kind, seed, i))
		if err != nil {
			t.Fatal(err)
		}
		res, h, again, grows := structurizeTwice(t, it.Graph)
		f, why := nested(h)
		if f == nil {
			declined++
		}
		if grows {
			failed++
			fmt.Printf("GREW %d->%d %v\n  why: %s\n", res.Stats.BlocksOut, again.Stats.BlocksOut, it.Graph, why)
			if os.Getenv("DEBUG_DECLS") != "" {
				h0 := outputGraph(res.Func)
				_, old := h0.DropUnreachable()
				truth := truthDecls(res.Func, old)
				fmt.Printf("  output graph %v\n", h)
				for p := range mergePolicies {
					got, why := nestedDecls(h, p)
					fmt.Printf("  %s: %s\n", policyNames[p], why)
					for b := range h.Len() {
						if truth[b] != got[b] {
							fmt.Printf("    block %d: truth %q nested %q\n", b, truth[b], got[b])
						}
					}
				}
			}
		}
	}
	fmt.Printf("%d graphs: %d grew, nested declined %d output graphs\n", count, failed, declined)
}

// truthDecls maps the declarations of f onto its output graph with the
// prologue and unreachable blocks dropped (old: DropUnreachable's map):
// header -> "loop M C" or "sel M", in the output graph's ids (-1: dropped).
func truthDecls(f *Func, old []int) map[int]string {
	newID := map[int]int{}
	for n, o := range old {
		newID[o] = n
	}
	id := func(b int) int {
		if n, ok := newID[b+1]; ok {
			return n
		}
		return -1
	}
	m := map[int]string{}
	for b, blk := range f.Blocks {
		switch blk.Merge.Kind {
		case LoopMerge:
			m[id(b)] = fmt.Sprintf("loop %d %d", id(blk.Merge.Merge), id(blk.Merge.Continue))
		case SelectionMerge:
			m[id(b)] = fmt.Sprintf("sel %d", id(blk.Merge.Merge))
		}
	}
	return m
}

// nestedDecls runs the pass once under policy and lists its declarations.
func nestedDecls(g *cfg.Graph, policy mergePolicy) (map[int]string, string) {
	nt := newNester(g)
	nt.policy, nt.force = policy, map[int]int{}
	_, why := nt.run()
	m := map[int]string{}
	for b := range nt.n {
		switch d := nt.decl[b]; d.Kind {
		case LoopMerge:
			m[b] = fmt.Sprintf("loop %d %d", d.Merge, d.Continue)
		case SelectionMerge:
			m[b] = fmt.Sprintf("sel %d", d.Merge)
		}
	}
	return m, why
}
