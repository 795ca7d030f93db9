// modulecfg.go: the entry point's control-flow graph read back from a
// module (for meta's idempotence and renumbering checks), and a canonical
// colouring of it that is invariant under renaming of blocks (for
// comparing two modules up to isomorphism).
//
// Each block of the entry-point function is a node, in binary order, the
// first block node 0; successors are the terminator's targets in operand
// order (OpSwitch: default, then the cases). The original id a block
// reports is the constant argument of its first call to a one-argument
// function (the module convention's append call); -1 for synthetic blocks.
//
// The canonical form is a Weisfeiler-Lehman colour refinement: a block's
// first colour is its reported id, its terminator, merge instruction and
// opcode sequence (so stores of a dispatch arm count, not only its edges);
// each round adds the colours of its merge, continue and branch targets.
// Isomorphic modules get equal colour multisets; a differing multiset is a
// proof that they are not isomorphic.

package oracle

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// moduleCFG is the entry point's graph with each block's reported id.
type moduleCFG struct {
	graph    *cfg.Graph
	reported []int // original id a block appends, -1 for none
	merges   [][2]int
	// shapes hash each block's terminator, merge instruction and opcode
	// sequence (FNV-1a, as the colours; no strings: the renumbering check
	// reads two modules per graph), the sequence read through shapeOp.
	shapes []uint64
	// conditional marks the blocks that end in OpBranchConditional, whose
	// two targets the canonical form takes in either order.
	conditional []bool
	// switches marks the blocks that end in OpSwitch, whose successors
	// are the default and the (literal, label) pairs written
	// (withLeftOutCases).
	switches []bool
}

// shapeOps is shapeOp's table for opcodes below 256: 0 drops the opcode,
// else the opcode the shape hashes.
var shapeOps = func() (t [256]spirv.Op) {
	for op := range t {
		t[op] = spirv.Op(op)
	}
	t[spirv.OpLogicalNot] = 0
	for _, op := range []spirv.Op{spirv.OpIEqual, spirv.OpINotEqual, spirv.OpUGreaterThan, spirv.OpSGreaterThan,
		spirv.OpUGreaterThanEqual, spirv.OpSGreaterThanEqual, spirv.OpULessThan, spirv.OpSLessThan,
		spirv.OpULessThanEqual, spirv.OpSLessThanEqual, spirv.OpLogicalEqual, spirv.OpLogicalNotEqual} {
		t[op] = spirv.OpIEqual
	}
	return t
}()

// shapeOp is what a block's shape hashes of an instruction op: nothing
// for OpLogicalNot, one opcode for every comparison, op itself else. Which
// way a conditional branch tests (c to A else B, or not c to B else A, or
// a comparison or its negation) is a layout choice, as is the order of a
// switch's cases: a structurizer that puts the fall-through of a
// conditional on the lower original id, as a decompiler on the lower
// address, is renumbering-invariant all the same.
func shapeOp(op spirv.Op) (spirv.Op, bool) {
	if op < 256 {
		s := shapeOps[op]
		return s, s != 0 || op == spirv.OpNop
	}
	return op, true
}

// readModuleCFG builds the entry point's graph from module bytes: by a
// scan of the words (modulecfg_scan.go) where the module allows, else
// through the decoder.
func readModuleCFG(module []byte) (*moduleCFG, error) {
	if mc, ok := scanModuleCFG(module); ok {
		return mc, nil
	}
	return decodeModuleCFG(module)
}

// decodeModuleCFG is readModuleCFG through the decoder and the rules'
// parse: the reference the scan is tested against.
func decodeModuleCFG(module []byte) (*moduleCFG, error) {
	m, err := spirv.Decode(module)
	if err != nil {
		return nil, err
	}
	return moduleCFGOf(m)
}

// moduleCFGOf is readModuleCFG on a decoded module.
func moduleCFGOf(m *spirv.Module) (*moduleCFG, error) {
	p := parseModule(m)
	if p.err != nil {
		return nil, p.err
	}
	return moduleCFGParsed(m, p)
}

// moduleCFGParsed is moduleCFGOf on m parsed (whose entry point's edges
// it builds, or reuses when built).
func moduleCFGParsed(m *spirv.Module, p *parsedModule) (*moduleCFG, error) {
	rm := p.rm
	entry := uint32(0)
	for _, in := range m.Insts {
		if in.Op == spirv.OpEntryPoint && len(in.Operands) >= 2 {
			entry = in.Operands[1]
			break
		}
	}
	fi := slices.IndexFunc(rm.funcs, func(f ruleFunc) bool { return f.id == entry })
	if fi < 0 || len(rm.funcs[fi].blocks) == 0 {
		return nil, fmt.Errorf("module has no entry-point function with a body")
	}
	fg, err := p.edges(fi)
	if err != nil {
		return nil, err
	}
	mc := &moduleCFG{graph: cfg.FromSuccs(fg.succ)}
	var opcodes []uint64
	var counts []int
	mc.reported, opcodes, counts = reportedIDs(m, &rm.funcs[fi], fg)
	mc.merges = make([][2]int, len(rm.funcs[fi].blocks))
	mc.shapes = make([]uint64, len(rm.funcs[fi].blocks))
	mc.conditional = make([]bool, len(rm.funcs[fi].blocks))
	mc.switches = make([]bool, len(rm.funcs[fi].blocks))
	for b, blk := range rm.funcs[fi].blocks {
		mc.merges[b] = [2]int{fg.merge[b], fg.cont[b]}
		mc.conditional[b] = blk.term == spirv.OpBranchConditional
		mc.switches[b] = blk.term == spirv.OpSwitch
		h := fnvWord(fnvWord(fnvOffset, uint64(blk.term)), uint64(blk.mergeOp))
		mc.shapes[b] = fnvWord(fnvWord(h, uint64(counts[b])), opcodes[b])
	}
	return mc, nil
}

// reportedIDs finds each block's append call (see the file comment) and
// hashes each block's opcode sequence (its shape, which renumbering must
// keep; every instruction after the label up to the terminator, through
// shapeOp), with the sequence's length.
func reportedIDs(m *spirv.Module, f *ruleFunc, fg *funcGraph) (ids []int, opcodes []uint64, counts []int) {
	consts := map[uint32]uint32{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 {
			consts[in.Operands[1]] = in.Operands[2]
		}
	}
	label := map[uint32]int{}
	for i, b := range f.blocks {
		label[b.label] = i
	}
	out := make([]int, len(f.blocks))
	opcodes, counts = make([]uint64, len(f.blocks)), make([]int, len(f.blocks))
	for i := range out {
		out[i], opcodes[i] = -1, fnvOffset
	}
	cur := -1
	inEntry := false
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpFunction:
			inEntry = len(in.Operands) >= 2 && in.Operands[1] == f.id
		case spirv.OpLabel:
			cur = -1
			if i, ok := label[in.Operands[0]]; ok && inEntry {
				cur = i
			}
		case spirv.OpFunctionCall:
			if cur >= 0 && out[cur] < 0 && len(in.Operands) == 4 {
				if v, ok := consts[in.Operands[3]]; ok {
					out[cur] = int(v)
				}
			}
		}
		if cur >= 0 && in.Op != spirv.OpLabel {
			if op, ok := shapeOp(in.Op); ok {
				opcodes[cur] = fnvOp(opcodes[cur], op)
				counts[cur]++
			}
			if spirv.IsTerminator(in.Op) {
				// A block ends at its terminator: what follows (the
				// function's end, the next function's start) is no
				// block's, so the last block in the binary has the
				// shape it has anywhere else.
				cur = -1
			}
		}
	}
	return out, opcodes, counts
}

// canonicalColours returns the sorted colour multiset after rounds of
// refinement; rename maps reported ids first (nil: identity). A block's
// first colour hashes its reported id and its shape; each round hashes a
// block's colour, its merge and continue targets' colours and its
// successors' colours (switch cases sorted, a conditional's two targets in
// colour order: both are layout choices, see shapeOp), FNV-1a over the
// words with separators and counts, so two different sequences never
// share an encoding.
func (mc *moduleCFG) canonicalColours(rename func(int) int, rounds int) []uint64 {
	n := mc.graph.Len()
	buf := make([]uint64, 2*n)
	col, next := buf[:n:n], buf[n:]
	for b := range n {
		id := mc.reported[b]
		if id >= 0 && rename != nil {
			id = rename(id)
		}
		col[b] = fnvWord(fnvWord(fnvOffset, uint64(int64(id))), mc.shapes[b])
	}
	var succ []uint64
	for range rounds {
		for b := range n {
			h := fnvWord(fnvOffset, col[b])
			for _, x := range mc.merges[b] {
				if x >= 0 {
					h = fnvWord(fnvSmall(h, 1), col[x])
				} else {
					h = fnvSmall(h, 0)
				}
			}
			ts := mc.graph.Succs[b]
			h = fnvSmall(h, uint64(len(ts)))
			if len(ts) == 2 && mc.conditional[b] {
				x, y := col[ts[0]], col[ts[1]]
				next[b] = fnvWord(fnvWord(h, min(x, y)), max(x, y))
				continue
			}
			if len(ts) <= 2 {
				for _, t := range ts {
					h = fnvWord(h, col[t])
				}
				next[b] = h
				continue
			}
			succ = succ[:0]
			for _, t := range ts {
				succ = append(succ, col[t])
			}
			slices.Sort(succ[1:])
			for _, c := range succ {
				h = fnvWord(h, c)
			}
			next[b] = h
		}
		col, next = next, col
	}
	slices.Sort(col) // col is this call's own
	return col
}

// FNV-1a, 64 bits (hash/fnv's constants), over words and strings without
// the interface and allocations of hash.Hash64: the refinement runs on
// every graph of a campaign.
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

// fnvWord hashes x's eight bytes, little-endian
// (TestFNVAgainstLibrary holds it to hash/fnv).
func fnvWord(h, x uint64) uint64 {
	const p = fnvPrime
	for range 2 { // four bytes a turn: unrolled yet small enough to inline
		h = (h ^ x&0xff) * p
		h = (h ^ x>>8&0xff) * p
		h = (h ^ x>>16&0xff) * p
		h = (h ^ x>>24&0xff) * p
		x >>= 32
	}
	return h
}

// fnvPrime8 is fnvPrime to the 8th power, mod 2^64 (TestFNVSmall checks).
const fnvPrime8 uint64 = 2232315406967589409

// fnvSmall is fnvWord for x below 256 in one step: its seven zero bytes
// only multiply by the prime, so the word hashes to (h ^ x) * fnvPrime^8
// (TestFNVSmall holds it to fnvWord); larger x take fnvWord.
func fnvSmall(h, x uint64) uint64 {
	if x < 256 {
		return (h ^ x) * fnvPrime8
	}
	return fnvWord(h, x)
}

// fnvOp hashes an opcode's two bytes, little-endian.
func fnvOp(h uint64, op spirv.Op) uint64 {
	h ^= uint64(op & 0xff)
	h *= fnvPrime
	h ^= uint64(op >> 8)
	h *= fnvPrime
	return h
}
