// modulecfg_scan_test.go: the word scan behind readModuleCFG against the
// decoding path (decodeModuleCFG) on emitted modules of every strategy and
// on damaged copies: the scan reads a module only when the decoding path
// reads it too, and then gives exactly its module CFG; it reads every
// emitted module.
package oracle

import (
	byteorder "encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

func TestScanModuleCFGAgainstDecode(t *testing.T) {
	r := seededRand(t, 47)
	scanned, total := 0, 0
	check := func(what string, mod []byte) {
		t.Helper()
		total++
		got, ok := scanModuleCFG(mod)
		want, err := decodeModuleCFG(mod)
		if !ok {
			return
		}
		scanned++
		if err != nil {
			t.Fatalf("%s: the scan read a module the decoding path refuses (%v)", what, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: scan %+v\ndecode %+v", what, got, want)
		}
	}
	clean := 0
	for i := range 400 {
		g, m := emittedModule(t, r, i, 12)
		if m == nil {
			continue
		}
		mod := m.Bytes()
		check(fmt.Sprintf("module %d of %v", i, g), mod)
		if _, ok := scanModuleCFG(mod); !ok {
			t.Fatalf("module %d of %v: the scan gives up on an emitted module", i, g)
		}
		clean++
		for k := range damageKinds {
			what := fmt.Sprintf("module %d of %v, damage %d", i, g, k)
			check(what, damageModule(r, m, k))
		}
	}
	t.Logf("%d emitted modules, %d modules in all, %d read by the scan", clean, total, scanned)
	if clean < 250 {
		t.Fatalf("only %d emitted modules", clean)
	}
}

// damageKinds is the number of kinds damageModule knows.
const damageKinds = 14

// damageModule returns a damaged copy of m's bytes: kind 0 a structural
// mutation (mutationKinds), 1 a word overwritten, 2 one instruction's
// opcode replaced by one the scan treats specially, 3 bytes cut off, 4 an
// instruction's word count changed, 5 two mutations and a word; the rest
// aim at what the scan gives up on (damageLayout).
func damageModule(r *rand.Rand, m *spirv.Module, kind int) []byte {
	if kind >= 6 {
		return damageLayout(r, m, kind)
	}
	cp, err := spirv.Decode(m.Bytes()) // operands of its own
	if err != nil {
		panic(err)
	}
	switch kind {
	case 0, 5:
		for range 1 + kind/5 {
			mutate(r, cp, mutationKinds[r.IntN(len(mutationKinds))])
		}
	case 2:
		ops := []spirv.Op{spirv.OpLabel, spirv.OpFunction, spirv.OpFunctionEnd, spirv.OpConstant, spirv.OpTypeInt,
			spirv.OpEntryPoint, spirv.OpSelectionMerge, spirv.OpLoopMerge, spirv.OpBranch, spirv.OpBranchConditional,
			spirv.OpSwitch, spirv.OpReturn, spirv.OpFunctionCall, spirv.OpFunctionParameter, spirv.OpNop}
		i := r.IntN(len(cp.Insts))
		cp.Insts[i].Op = ops[r.IntN(len(ops))]
	}
	mod := cp.Bytes()
	switch kind {
	case 1, 5:
		w := 1 + r.IntN(len(mod)/4-1)
		x := r.Uint32() >> uint(r.IntN(32))
		if r.IntN(2) == 0 { // a small id or count: more often a plausible module
			x = uint32(r.IntN(int(m.Bound) + 8))
		}
		byteorder.LittleEndian.PutUint32(mod[4*w:], x)
	case 3:
		mod = mod[:len(mod)-1-r.IntN(min(len(mod), 40))]
	case 4:
		var heads []int
		for w := 5; w < len(mod)/4; w += int(byteorder.LittleEndian.Uint32(mod[4*w:]) >> 16) {
			heads = append(heads, w)
		}
		w := heads[r.IntN(len(heads))]
		head := byteorder.LittleEndian.Uint32(mod[4*w:])
		count := max(0, int(head>>16)+r.IntN(5)-2)
		byteorder.LittleEndian.PutUint32(mod[4*w:], uint32(count)<<16|head&0xffff)
	}
	return mod
}

// damageLayout: kind 6 an OpConstant redefining a constant after the
// functions, 7 a label of the entry point repeated, 8 the entry point
// moved before the helpers, 9 instructions after the last function, 10 a
// 64-bit integer type, 11 an OpSwitch or branch short of an operand, 12 a
// terminator of the entry point replaced by OpNop, 13 a function given the
// entry point's id.
func damageLayout(r *rand.Rand, m *spirv.Module, kind int) []byte {
	cp, err := spirv.Decode(m.Bytes())
	if err != nil {
		panic(err)
	}
	ins := cp.Insts
	find := func(ok func(spirv.Instruction) bool) []int {
		var at []int
		for i, in := range ins {
			if ok(in) {
				at = append(at, i)
			}
		}
		return at
	}
	pick := func(at []int) int { return at[r.IntN(len(at))] }
	funcs := find(func(in spirv.Instruction) bool { return in.Op == spirv.OpFunction })
	main := funcs[len(funcs)-1] // the emitter's entry point comes last
	inMain := func(op spirv.Op) []int {
		var at []int
		for i := main; i < len(ins); i++ {
			if ins[i].Op == op {
				at = append(at, i)
			}
		}
		return at
	}
	switch kind {
	case 6:
		c := ins[pick(find(func(in spirv.Instruction) bool { return in.Op == spirv.OpConstant }))]
		ins = append(ins, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{c.Operands[0], c.Operands[1], c.Operands[2] + 1 + uint32(r.IntN(3))}})
	case 7:
		labels := inMain(spirv.OpLabel)
		a, b := pick(labels), pick(labels)
		ins[a].Operands = []uint32{ins[b].Operands[0]}
	case 8:
		body := slices.Clone(ins[main:])
		ins = slices.Insert(slices.Clone(ins[:main]), funcs[0], body...)
	case 9:
		labels := inMain(spirv.OpLabel)
		calls := inMain(spirv.OpFunctionCall)
		for range 1 + r.IntN(3) {
			switch r.IntN(4) {
			case 0:
				ins = append(ins, spirv.Instruction{Op: spirv.OpNop})
			case 1:
				ins = append(ins, spirv.Instruction{Op: spirv.OpLabel, Operands: ins[pick(labels)].Operands})
			case 2:
				if len(calls) > 0 {
					ins = append(ins, ins[pick(calls)])
				}
			default:
				ins = append(ins, spirv.Instruction{Op: spirv.OpName, Operands: spirv.String("x")})
			}
		}
	case 10:
		ints := find(func(in spirv.Instruction) bool { return in.Op == spirv.OpTypeInt })
		i := pick(ints)
		ins[i].Operands = []uint32{ins[i].Operands[0], 64, ins[i].Operands[2]}
	case 11:
		terms := inMain([]spirv.Op{spirv.OpSwitch, spirv.OpBranchConditional, spirv.OpBranch}[r.IntN(3)])
		if len(terms) > 0 {
			i := pick(terms)
			ins[i].Operands = slices.Clone(ins[i].Operands[:len(ins[i].Operands)-1])
		}
	case 12:
		terms := slices.Concat(inMain(spirv.OpBranch), inMain(spirv.OpBranchConditional), inMain(spirv.OpReturn))
		ins[pick(terms)] = spirv.Instruction{Op: spirv.OpNop}
	case 13:
		f := pick(funcs)
		ins[f].Operands = slices.Clone(ins[f].Operands)
		ins[f].Operands[1] = ins[main].Operands[1]
	}
	cp.Insts = ins
	return cp.Bytes()
}

// TestScanScratchGenerationWraps: when the scratch's generation wraps, the
// tables are cleared, so no entry of an old scan reads as one of the new.
func TestScanScratchGenerationWraps(t *testing.T) {
	r := seededRand(t, 59)
	var mod []byte
	for i := 0; mod == nil; i++ {
		if _, m := emittedModule(t, r, i, 8); m != nil {
			mod = m.Bytes()
		}
	}
	want, err := decodeModuleCFG(mod)
	if err != nil {
		t.Fatal(err)
	}
	sc := new(scanScratch)
	if _, ok := scanModuleCFGWith(mod, sc); !ok || sc.gen != 1 { // entries of gen 1
		t.Fatalf("first scan: %v, gen %d", ok, sc.gen)
	}
	sc.gen = 1<<32 - 1 // the next reset wraps to gen 1 again
	for range 3 {
		got, ok := scanModuleCFGWith(mod, sc)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("after the generation wrapped: %v %+v, want %+v", ok, got, want)
		}
	}
}
