// rules_graph_test.go: newFuncEdges (lists cut from one array, labels by
// table or map) against the obvious construction (a label map, lists
// appended edge by edge) on every function of emitted and mutated modules,
// with labels as emitted and renumbered sparsely (the map's case); and
// buildDomTree (one allocation) against its first version on random graphs.
package oracle

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// newFuncEdgesRef is newFuncEdges the obvious way.
func newFuncEdgesRef(f *ruleFunc) (*funcGraph, error) {
	n := len(f.blocks)
	g := &funcGraph{f: f, succ: make([][]int, n), pred: make([][]int, n),
		ssucc: make([][]int, n), spred: make([][]int, n), merge: make([]int, n), cont: make([]int, n)}
	index := make(map[uint32]int, n)
	for i, b := range f.blocks {
		index[b.label] = i
	}
	resolve := func(b int, id uint32, what string) (int, error) {
		t, ok := index[id]
		if !ok {
			return -1, &MalformedError{Msg: "block %" + itoa(f.blocks[b].label) + ": " + what + " %" + itoa(id) + " labels no block of the function"}
		}
		return t, nil
	}
	var err error
	for i := range f.blocks {
		b := &f.blocks[i]
		g.merge[i], g.cont[i] = -1, -1
		if b.mergeOp != 0 {
			if g.merge[i], err = resolve(i, b.merge, "merge block"); err != nil {
				return nil, err
			}
			g.ssucc[i] = append(g.ssucc[i], g.merge[i])
		}
		if b.mergeOp == spirv.OpLoopMerge {
			if g.cont[i], err = resolve(i, b.cont, "continue target"); err != nil {
				return nil, err
			}
			g.ssucc[i] = append(g.ssucc[i], g.cont[i])
		}
		for _, id := range b.targets {
			t, err := resolve(i, id, "branch target")
			if err != nil {
				return nil, err
			}
			g.succ[i] = append(g.succ[i], t)
			g.ssucc[i] = append(g.ssucc[i], t)
		}
	}
	for u := range n {
		for _, v := range g.succ[u] {
			g.pred[v] = append(g.pred[v], u)
		}
		for _, v := range g.ssucc[u] {
			g.spred[v] = append(g.spred[v], u)
		}
	}
	return g, nil
}

func TestFuncEdgesAgainstReference(t *testing.T) {
	r := seededRand(t, 67)
	funcs := 0
	for i := range 300 {
		_, m := emittedModule(t, r, i, 12)
		if m == nil {
			continue
		}
		if i%2 == 1 {
			mutate(r, m, mutationKinds[r.IntN(len(mutationKinds))])
		}
		if i%3 == 2 {
			sparseLabels(r, m)
		}
		rm, err := parseRuleModule(m)
		if err != nil {
			continue
		}
		for fi := range rm.funcs {
			got, gerr := newFuncEdges(&rm.funcs[fi])
			want, werr := newFuncEdgesRef(&rm.funcs[fi])
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
				t.Fatalf("module %d function %d: %+v %v\nreference %+v %v", i, fi, got, gerr, want, werr)
			}
			funcs++
		}
	}
	t.Logf("%d functions compared", funcs)
}

// sparseLabels renumbers every label of m (and the operands naming it)
// far apart, so a function's labels span much more than its blocks.
func sparseLabels(r *rand.Rand, m *spirv.Module) {
	re := map[uint32]uint32{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpLabel {
			re[in.Operands[0]] = m.Bound + uint32(len(re))*1000 + uint32(r.IntN(1000))
		}
	}
	for i := range m.Insts {
		ops := append([]uint32(nil), m.Insts[i].Operands...)
		for k, x := range ops {
			if y, ok := re[x]; ok && (m.Insts[i].Op == spirv.OpLabel || isLabelOperand(m.Insts[i].Op, k)) {
				ops[k] = y
			}
		}
		m.Insts[i].Operands = ops
	}
	m.Bound += uint32(len(re))*1000 + 1000
}

// isLabelOperand says whether operand k of op names a block.
func isLabelOperand(op spirv.Op, k int) bool {
	switch op {
	case spirv.OpBranch, spirv.OpSelectionMerge:
		return k == 0
	case spirv.OpLoopMerge:
		return k <= 1
	case spirv.OpBranchConditional:
		return k == 1 || k == 2
	case spirv.OpSwitch:
		return k >= 1 && k%2 == 1
	}
	return false
}

// buildDomTreeRef is buildDomTree with its arrays allocated one by one, as
// first written: the reference for the shared-allocation version.
func buildDomTreeRef(n, root int, succ, pred func(int) []int) *domTree {
	num := make([]int, n)
	for i := range num {
		num[i] = -1
	}
	seen := make([]bool, n)
	var order []int
	type frame struct{ b, i int }
	stack := []frame{{root, 0}}
	seen[root] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		s := succ(top.b)
		if top.i < len(s) {
			t := s[top.i]
			top.i++
			if !seen[t] {
				seen[t] = true
				stack = append(stack, frame{t, 0})
			}
			continue
		}
		num[top.b] = len(order)
		order = append(order, top.b)
		stack = stack[:len(stack)-1]
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[root] = root
	intersect := func(a, b int) int {
		for a != b {
			for num[a] < num[b] {
				a = idom[a]
			}
			for num[b] < num[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			b := order[i]
			if b == root {
				continue
			}
			nd := -1
			for _, p := range pred(b) {
				if num[p] < 0 || idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != idom[b] {
				idom[b], changed = nd, true
			}
		}
	}
	idom[root] = -1
	t := &domTree{idom: idom, pre: make([]int, n), post: make([]int, n)}
	first, next, cursor := make([]int, n), make([]int, n), make([]int, n)
	for i := range first {
		first[i], next[i], t.pre[i] = -1, -1, -1
	}
	for b := n - 1; b >= 0; b-- {
		if d := t.idom[b]; d >= 0 {
			next[b], first[d] = first[d], b
		}
	}
	clock := 0
	tstack := []int{root}
	t.pre[root] = clock
	copy(cursor, first)
	for len(tstack) > 0 {
		b := tstack[len(tstack)-1]
		if c := cursor[b]; c >= 0 {
			cursor[b] = next[c]
			clock++
			t.pre[c] = clock
			tstack = append(tstack, c)
			continue
		}
		clock++
		t.post[b] = clock
		tstack = tstack[:len(tstack)-1]
	}
	return t
}

func TestDomTreeAgainstReference(t *testing.T) {
	r := seededRand(t, 71)
	for i := range 500 {
		g := randomGraph(r, 1+r.IntN(40))
		n := g.Len()
		preds := g.Preds()
		succ := func(b int) []int { return g.Succs[b] }
		pred := func(b int) []int { return preds[b] }
		root := r.IntN(n)
		got, want := buildDomTree(n, root, g.Succs, preds), buildDomTreeRef(n, root, succ, pred)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d %v root %d: %+v\nreference %+v", i, g.Succs, root, got, want)
		}
		got, want = buildDomTree(n, root, preds, g.Succs), buildDomTreeRef(n, root, pred, succ)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d %v root %d reversed: %+v\nreference %+v", i, g.Succs, root, got, want)
		}
	}
}
