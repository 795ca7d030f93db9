// exec_slices_test.go: a module that computes its trace capacity wrongly
// writes past its slice on a walk that fills it, and the execution check
// reports exec:trace-overflow (exec_slices.go).
package oracle

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// capacityPlusOverhead turns the module's stride-minus-overhead
// subtraction into an addition (reports whether it found one).
func capacityPlusOverhead(m *spirv.Module) bool {
	five := map[uint32]bool{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 && in.Operands[2] == spirv.TraceOverhead {
			five[in.Operands[1]] = true
		}
	}
	for i, in := range m.Insts {
		if in.Op == spirv.OpISub && len(in.Operands) == 4 && five[in.Operands[3]] {
			m.Insts[i].Op = spirv.OpIAdd
			return true
		}
	}
	return false
}

func TestExecTraceOverflow(t *testing.T) {
	// 0 -> 1, 1 -> 1 or 2, 2 -> 1: no walk returns, each is cut at the
	// step cap, and the batch's capacity is shorter than the walks.
	g := cfg.New(3)
	g.Succs[0] = []int{1}
	g.Succs[1] = []int{1, 2}
	g.Succs[2] = []int{1}
	m := dispatchModule(t, g)
	if v := execVerdict(g, m.Bytes()); v.Signature != "" || v.Harness != nil {
		t.Fatalf("the correct module: %s %s %v", v.Signature, v.Detail, v.Harness)
	}
	bad := clone(m)
	if !capacityPlusOverhead(bad) {
		t.Fatal("no stride - overhead subtraction in the module")
	}
	v := execVerdict(g, bad.Bytes())
	if v.Signature != SigOverflow {
		t.Fatalf("capacity stride+overhead: signature %q (%s), want %q", v.Signature, v.Detail, SigOverflow)
	}
	t.Log(v.Detail)
}

// reachIntoWalk0 inserts, after the first access chain into the trace
// buffer (in append, which every walk runs), a pointer to word slot of the
// buffer, walk 0's slot, and a load of it (store false) or a store of 1
// to it; false when the module has no such chain.
func reachIntoWalk0(m *spirv.Module, slot uint32, store bool) bool {
	var trace uint32
	for _, in := range m.Insts {
		if in.Op == spirv.OpDecorate && len(in.Operands) == 3 && in.Operands[1] == spirv.DecorationBinding && in.Operands[2] == spirv.BindingTrace {
			trace = in.Operands[0]
		}
	}
	consts := map[uint32]uint32{} // value -> id
	var uintType uint32
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 {
			if _, ok := consts[in.Operands[2]]; !ok {
				consts[in.Operands[2]], uintType = in.Operands[1], in.Operands[0]
			}
		}
	}
	word, one, ok1 := consts[slot], consts[1], consts[1] != 0
	for i, in := range m.Insts {
		if trace == 0 || !ok1 || word == 0 || in.Op != spirv.OpAccessChain || in.Operands[2] != trace {
			continue
		}
		ptr, loaded := m.Bound, m.Bound+1
		m.Bound += 2
		added := []spirv.Instruction{{Op: spirv.OpAccessChain, Operands: []uint32{in.Operands[0], ptr, trace, in.Operands[3], word}}}
		if store {
			added = append(added, spirv.Instruction{Op: spirv.OpStore, Operands: []uint32{ptr, one}})
		} else {
			added = append(added, spirv.Instruction{Op: spirv.OpLoad, Operands: []uint32{uintType, loaded, ptr}})
		}
		m.Insts = slices.Insert(m.Insts, i+1, added...)
		return true
	}
	return false
}

// TestExecForeignTraceSlice: a module whose walks read a word of walk 0's
// trace slice, leaving what they record as it was, is exec:trace-foreign
// (run one after another, the walks read there what walk 0 left; a driver
// runs them at once), and one whose walks store to it what walk 0 leaves
// there anyway (its returned slot, 1) is exec:trace-overflow: the first
// walk after walk 0 is named, whatever the order of the walks makes the
// word hold. Either module passed exec had the interpreter judged it by the
// slices it changed.
func TestExecForeignTraceSlice(t *testing.T) {
	g := cfg.New(4) // a diamond: every walk returns
	g.Succs[0] = []int{1, 2}
	g.Succs[1] = []int{3}
	g.Succs[2] = []int{3}
	m := dispatchModule(t, g)
	if v := execVerdict(g, m.Bytes()); v.Signature != "" || v.Harness != nil {
		t.Fatalf("the correct module: %s %s %v", v.Signature, v.Detail, v.Harness)
	}
	for _, tc := range []struct {
		slot  uint32
		store bool
		want  string
	}{
		{spirv.TraceConsumed, false, SigForeign},
		{spirv.TraceReturned, true, SigOverflow},
	} {
		bad := clone(m)
		if !reachIntoWalk0(bad, tc.slot, tc.store) {
			t.Fatal("no access chain into the trace buffer in the module")
		}
		for _, it := range []Interpreter{{}, {generic: true}} {
			v := CompareWalks(it, bad.Bytes(), Walks(g, WalkOptions{Seed: 7}))
			if v.Signature != tc.want || v.Walk != 1 || v.Harness != nil {
				t.Errorf("walks reaching walk 0's slot %d (store %v), generic path %v: signature %q walk %d (%s) harness %v; want %q on walk 1", tc.slot, tc.store, it.generic, v.Signature, v.Walk, v.Detail, v.Harness, tc.want)
			}
			if want := "slot " + strconv.Itoa(int(tc.slot)) + " of walk 0's slice"; !strings.Contains(v.Detail, want) {
				t.Errorf("detail %q does not say %q", v.Detail, want)
			}
		}
	}
}

// storeIntoDecisions inserts, after the last load through an access
// chain into the decisions buffer by a computed index (the decision word
// itself: the strides are read by constant indices), a store of 0 to word
// 3 of the buffer, walk 0's first decision; false when the module has no
// such load.
func storeIntoDecisions(m *spirv.Module) bool {
	var decisions uint32
	for _, in := range m.Insts {
		if in.Op == spirv.OpDecorate && len(in.Operands) == 3 && in.Operands[1] == spirv.DecorationBinding && in.Operands[2] == spirv.BindingDecisions {
			decisions = in.Operands[0]
		}
	}
	consts := map[uint32]uint32{} // value -> id
	constant := map[uint32]bool{} // ids of constants
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 {
			constant[in.Operands[1]] = true
			if _, ok := consts[in.Operands[2]]; !ok {
				consts[in.Operands[2]] = in.Operands[1]
			}
		}
	}
	zero, three := consts[0], consts[3]
	chains := map[uint32]spirv.Instruction{} // pointer id -> its chain into the decisions buffer
	last, lastChain := -1, spirv.Instruction{}
	for i, in := range m.Insts {
		if in.Op == spirv.OpAccessChain && decisions != 0 && in.Operands[2] == decisions && !constant[in.Operands[len(in.Operands)-1]] {
			chains[in.Operands[1]] = in
		}
		if in.Op == spirv.OpLoad {
			if chain, ok := chains[in.Operands[2]]; ok {
				last, lastChain = i, chain
			}
		}
	}
	if last < 0 || zero == 0 || three == 0 {
		return false
	}
	ptr := m.Bound
	m.Bound++
	m.Insts = slices.Insert(m.Insts, last+1,
		spirv.Instruction{Op: spirv.OpAccessChain, Operands: []uint32{lastChain.Operands[0], ptr, decisions, lastChain.Operands[3], three}},
		spirv.Instruction{Op: spirv.OpStore, Operands: []uint32{ptr, zero}})
	return true
}

// TestExecDecisionsStore: a module whose walks store 0 over walk 0's
// first decision after reading their own is exec:decisions-store on the
// first walk, on both of the interpreter's paths. Run one after another,
// walk 0 has read its decision before any store, so the walks' traces
// match: only a driver, running them at once, would let walk 0 read the 0.
func TestExecDecisionsStore(t *testing.T) {
	g := cfg.New(4) // a diamond: every walk returns
	g.Succs[0] = []int{1, 2}
	g.Succs[1] = []int{3}
	g.Succs[2] = []int{3}
	m := dispatchModule(t, g)
	bad := clone(m)
	if !storeIntoDecisions(bad) {
		t.Fatal("no load through an access chain into the decisions buffer in the module")
	}
	for _, it := range []Interpreter{{}, {generic: true}} {
		v := CompareWalks(it, bad.Bytes(), Walks(g, WalkOptions{Seed: 7}))
		if v.Signature != SigDecisionsStore || v.Walk != 0 || v.Harness != nil {
			t.Errorf("walks storing over walk 0's first decision, generic path %v: signature %q walk %d (%s) harness %v; want %q on walk 0", it.generic, v.Signature, v.Walk, v.Detail, v.Harness, SigDecisionsStore)
		}
		if !strings.Contains(v.Detail, "word 3 of the decisions buffer") {
			t.Errorf("detail %q does not name the word stored", v.Detail)
		}
	}
}
