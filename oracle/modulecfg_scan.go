// modulecfg_scan.go: the entry point's module CFG (modulecfg.go) read by one
// scan of a module's words, without decoding it into instructions or
// splitting every function into blocks: meta reads two modules per graph.
// The scan covers well-formed little-endian modules laid out as the
// emitter lays them out (the entry point and every OpConstant before the
// first function, no 64-bit integer type, unique labels and function ids);
// on anything else it gives up and the caller takes the decoding path
// (decodeModuleCFG), which is the reference the scan is tested against
// and which names what is wrong with a malformed module.

package oracle

import (
	byteorder "encoding/binary"
	"sync"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// scanBoundLimit is the largest id bound the scan indexes by id; a module
// claiming more takes the decoding path.
const scanBoundLimit = 1 << 20

// scanBlock is one block of the entry point as the scan reads it.
type scanBlock struct {
	label, merge, cont uint32
	mergeOp, term      spirv.Op
	targets            [2]int // the block's branch targets in scanScratch.targets
}

// scanScratch is the scan's storage, reused across scans.
type scanScratch struct {
	// OpConstant value and entry block index by id, each entry the scan's
	// gen in the high word (an entry of an older scan is no entry), so a
	// scan clears nothing.
	consts, labels []uint64
	gen            uint32
	blocks         []scanBlock
	targets        []uint32
}

var scanPool = sync.Pool{New: func() any { return new(scanScratch) }}

// scanModuleCFG is readModuleCFG on module by a scan of its words; ok is
// false where the scan gives up (see the file comment).
func scanModuleCFG(module []byte) (mc *moduleCFG, ok bool) {
	if len(module)%4 != 0 || len(module) < 20 || byteorder.LittleEndian.Uint32(module) != spirv.Magic {
		return nil, false
	}
	bound := byteorder.LittleEndian.Uint32(module[12:])
	if bound > scanBoundLimit {
		return nil, false
	}
	sc := scanPool.Get().(*scanScratch)
	defer scanPool.Put(sc)
	return scanModuleCFGWith(module, sc)
}

// scanModuleCFGWith is scanModuleCFG on sc's storage, the header checked.
func scanModuleCFGWith(module []byte, sc *scanScratch) (mc *moduleCFG, ok bool) {
	bound := byteorder.LittleEndian.Uint32(module[12:])
	sc.reset(int(bound))
	s := moduleScan{sc: sc, module: module, bound: bound, cur: -1}
	if !s.run() {
		return nil, false
	}
	return s.build()
}

// reset sizes the id tables for bound, empties them (a new gen) and the
// lists.
func (sc *scanScratch) reset(bound int) {
	if sc.gen++; sc.gen == 0 { // wrapped: entries of gen 1 may remain
		clear(sc.consts[:cap(sc.consts)])
		clear(sc.labels[:cap(sc.labels)])
		sc.gen = 1
	}
	if cap(sc.consts) < bound {
		sc.consts, sc.labels = make([]uint64, bound), make([]uint64, bound)
	}
	sc.consts, sc.labels = sc.consts[:bound], sc.labels[:bound]
	sc.blocks, sc.targets = sc.blocks[:0], sc.targets[:0]
}

// entry is an id table's entry for v in this scan.
func (sc *scanScratch) entry(v uint32) uint64 { return uint64(sc.gen)<<32 | uint64(v) }

// lookup reads an id table's entry of this scan.
func (sc *scanScratch) lookup(e uint64) (uint32, bool) { return uint32(e), uint32(e>>32) == sc.gen }

// moduleScan is the state of one scan: parseRuleModule's (function, block,
// merge seen) and reportedIDs' (the block whose shape grows, the reported
// ids and shapes so far; the current block's in hash and count until the
// next label).
type moduleScan struct {
	sc     *scanScratch
	module []byte
	bound  uint32

	entry                   uint32
	haveEntry, seenFunction bool
	inFunction, inBlock     bool
	inEntry, entryFound     bool
	blockMerged             bool   // the open block has a merge instruction
	cur                     int    // entry block the instructions count for, -1
	hash                    uint64 // cur's opcode sequence so far (FNV-1a)
	count                   int    // cur's instructions so far
	reported                []int
	opcodes                 []uint64
	counts                  []int
}

func (s *moduleScan) word(i int) uint32 { return byteorder.LittleEndian.Uint32(s.module[4*i:]) }

// run scans every instruction; false: give up. The loop does what every
// instruction needs (its place in the current block's shape) and leaves
// the few that matter to the structure to instruction.
func (s *moduleScan) run() bool {
	module := s.module
	words := len(module) / 4
	// The current block's state in locals, s's copy brought up to date
	// around each call of instruction (which may start a block).
	cur, hash, count, inBlock := s.cur, s.hash, s.count, s.inBlock
	for i := 5; i < words; {
		head := byteorder.LittleEndian.Uint32(module[4*i : 4*i+4])
		n, op := int(head>>16), spirv.Op(head&0xffff)
		if n == 0 || n > words-i {
			return false
		}
		if cur >= 0 && op != spirv.OpLabel {
			if sop, ok := shapeOp(op); ok {
				hash, count = fnvOp(hash, sop), count+1
			}
			if op == spirv.OpFunctionCall && n == 5 {
				s.call(cur, i+4)
			}
		}
		if !inBlock || scanSpecial(op) {
			s.hash, s.count = hash, count
			if !s.instruction(op, i+1, n-1) {
				return false
			}
			cur, hash, count, inBlock = s.cur, s.hash, s.count, s.inBlock
		}
		i += n
	}
	s.hash, s.count = hash, count
	s.flush()
	return !s.inFunction && s.entryFound && len(s.sc.blocks) > 0
}

// instruction reads one instruction whose operands are the nops words from
// word at: outside a block, or one that scanSpecial names.
func (s *moduleScan) instruction(op spirv.Op, at, nops int) bool {
	switch {
	case op == spirv.OpTypeInt && nops >= 2 && s.word(at+1) == 64:
		return false // switch literals may be wide
	case op == spirv.OpEntryPoint && nops >= 2 && !s.haveEntry:
		s.entry, s.haveEntry = s.word(at+1), true
		return !s.seenFunction
	case op == spirv.OpConstant:
		if s.seenFunction {
			return false
		}
		if nops == 3 {
			id := s.word(at + 1)
			if id >= s.bound {
				return false
			}
			s.sc.consts[id] = s.sc.entry(s.word(at + 2))
		}
	case op == spirv.OpFunction:
		return s.function(at, nops)
	case op == spirv.OpFunctionEnd:
		if !s.inFunction || s.inBlock {
			return false
		}
		s.inFunction = false
	case !s.inFunction:
		return op != spirv.OpLabel
	case op == spirv.OpLabel:
		return s.label(at, nops)
	case !s.inBlock:
		return op == spirv.OpFunctionParameter || op == spirv.OpLine || op == spirv.OpNoLine
	case op == spirv.OpSelectionMerge || op == spirv.OpLoopMerge:
		return s.merge(op, at, nops)
	case spirv.IsTerminator(op):
		return s.terminator(op, at, nops)
	}
	return true
}

// scanSpecialOps marks the opcodes below 256 that instruction reads
// inside a block.
var scanSpecialOps = func() (t [256]bool) {
	for _, op := range []spirv.Op{spirv.OpTypeInt, spirv.OpEntryPoint, spirv.OpConstant, spirv.OpFunction,
		spirv.OpFunctionEnd, spirv.OpLabel, spirv.OpSelectionMerge, spirv.OpLoopMerge, spirv.OpBranch,
		spirv.OpBranchConditional, spirv.OpSwitch, spirv.OpReturn, spirv.OpReturnValue, spirv.OpKill,
		spirv.OpUnreachable} {
		t[op] = true
	}
	return t
}()

// scanSpecial reports whether instruction reads op inside a block: the
// opcodes of its switch that apply there (every terminator included).
func scanSpecial(op spirv.Op) bool {
	if op >= 256 {
		return spirv.IsTerminator(op)
	}
	return scanSpecialOps[op]
}

// call takes block cur's reported id from its first append call
// with a constant argument (the word at arg).
func (s *moduleScan) call(cur, arg int) {
	if s.reported[cur] >= 0 {
		return
	}
	if id := s.word(arg); id < s.bound {
		if v, ok := s.sc.lookup(s.sc.consts[id]); ok {
			s.reported[cur] = int(v)
		}
	}
}

// flush stores the current block's shape so far.
func (s *moduleScan) flush() {
	if s.cur >= 0 {
		s.opcodes[s.cur], s.counts[s.cur] = s.hash, s.count
	}
}

func (s *moduleScan) function(at, nops int) bool {
	if s.inFunction || nops < 2 || !s.haveEntry {
		return false
	}
	s.seenFunction, s.inFunction = true, true
	s.inEntry = s.word(at+1) == s.entry
	if s.inEntry {
		if s.entryFound {
			return false
		}
		s.entryFound = true
	}
	return true
}

func (s *moduleScan) label(at, nops int) bool {
	if s.inBlock || nops < 1 {
		return false
	}
	s.flush()
	s.inBlock, s.blockMerged, s.cur = true, false, -1
	if !s.inEntry {
		return true
	}
	id := s.word(at)
	if id >= s.bound {
		return false
	}
	if _, dup := s.sc.lookup(s.sc.labels[id]); dup {
		return false
	}
	s.cur, s.hash, s.count = len(s.sc.blocks), fnvOffset, 0
	s.sc.labels[id] = s.sc.entry(uint32(s.cur))
	s.sc.blocks = append(s.sc.blocks, scanBlock{label: id})
	s.reported = append(s.reported, -1)
	s.opcodes = append(s.opcodes, fnvOffset)
	s.counts = append(s.counts, 0)
	return true
}

func (s *moduleScan) merge(op spirv.Op, at, nops int) bool {
	if s.blockMerged {
		return true // a second merge instruction: R13's business
	}
	s.blockMerged = true
	if nops < 1 || (op == spirv.OpLoopMerge && nops < 2) {
		return false
	}
	if s.inEntry {
		b := &s.sc.blocks[len(s.sc.blocks)-1]
		b.mergeOp, b.merge = op, s.word(at)
		if op == spirv.OpLoopMerge {
			b.cont = s.word(at + 1)
		}
	}
	return true
}

func (s *moduleScan) terminator(op spirv.Op, at, nops int) bool {
	s.inBlock = false
	// The block's shape ends here (reportedIDs): what follows up to the
	// next label is no block's.
	s.flush()
	s.cur = -1
	first, n, step := 0, 0, 1
	switch op {
	case spirv.OpBranch:
		first, n = 0, 1
	case spirv.OpBranchConditional:
		first, n = 1, 2
	case spirv.OpSwitch:
		if nops < 2 || (nops-2)%2 != 0 {
			return false
		}
		first, n, step = 1, 1+(nops-2)/2, 2
	}
	if n > 0 && first+step*(n-1) >= nops { // a target past the operands
		return false
	}
	if !s.inEntry {
		return true
	}
	b := &s.sc.blocks[len(s.sc.blocks)-1]
	b.term = op
	b.targets[0] = len(s.sc.targets)
	for k := range n {
		s.sc.targets = append(s.sc.targets, s.word(at+first+step*k))
	}
	b.targets[1] = len(s.sc.targets)
	return true
}

// build resolves the entry point's labels into the module CFG; false when
// a merge, continue or branch target labels no block of it.
func (s *moduleScan) build() (*moduleCFG, bool) {
	blocks := s.sc.blocks
	n := len(blocks)
	index := func(id uint32) int {
		if id >= s.bound {
			return -1
		}
		b, ok := s.sc.lookup(s.sc.labels[id])
		if !ok {
			return -1
		}
		return int(b)
	}
	mc := &moduleCFG{graph: cfg.New(n), reported: s.reported, merges: make([][2]int, n), shapes: make([]uint64, n), conditional: make([]bool, n), switches: make([]bool, n)}
	edges := make([]int, len(s.sc.targets))
	for b := range blocks {
		blk := &blocks[b]
		mc.merges[b] = [2]int{-1, -1}
		if blk.mergeOp != 0 {
			if mc.merges[b][0] = index(blk.merge); mc.merges[b][0] < 0 {
				return nil, false
			}
		}
		if blk.mergeOp == spirv.OpLoopMerge {
			if mc.merges[b][1] = index(blk.cont); mc.merges[b][1] < 0 {
				return nil, false
			}
		}
		lo, hi := blk.targets[0], blk.targets[1]
		for k := lo; k < hi; k++ {
			if edges[k] = index(s.sc.targets[k]); edges[k] < 0 {
				return nil, false
			}
		}
		if hi > lo {
			mc.graph.Succs[b] = edges[lo:hi:hi]
		}
		mc.conditional[b] = blk.term == spirv.OpBranchConditional
		mc.switches[b] = blk.term == spirv.OpSwitch
		h := fnvWord(fnvWord(fnvOffset, uint64(blk.term)), uint64(blk.mergeOp))
		mc.shapes[b] = fnvWord(fnvWord(h, uint64(s.counts[b])), s.opcodes[b])
	}
	return mc, true
}
