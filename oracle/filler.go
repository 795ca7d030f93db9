// filler.go: the `filler` check and the copy count that growth's clone
// budget reads. Both are judged from the module and the graph alone, for
// any structurizer's module (emit/CONVENTION.md, "Blocks"):
//
//   - a block reports the original id it appends: the constant argument of
//     its first call to a one-argument function (as modulecfg.go reads it),
//     or the append helper inlined: a store of an integer constant (or an
//     OpCopyObject of one) into the trace buffer at an index the block
//     computes from a value it loaded from that buffer (the count), the
//     store before such a call or the call before such a store;
//   - a module whose blocks report no id for some block of the graph
//     reachable from its entry (every such id is appended somewhere, or
//     exec fails) appends in a way this reading does not follow (through
//     another helper, or a computed id): filler and growth's clone budget
//     are then not judged, and say so (unreadAppends);
//   - a block's filler is every store to a Private variable in it together
//     with the instructions of the block its stored value is computed from:
//     integer arithmetic and loads of Private variables (the convention's
//     "one load, ops, one store" on the sink);
//   - a block that reports id b must carry at least FillerWords(weight(b))
//     words of filler (signature filler:short);
//   - the copies of b are the blocks reporting b past the first; the words
//     copied are the sum over copies of weight(b), which growth holds to the
//     clone budget (growth.go).

package oracle

import (
	"fmt"
	"slices"
	"sync"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// SigFillerShort: a block carries less filler than its original's weight
// promises (after "filler:").
const SigFillerShort = "short"

// FillerWords is the least filler a block of weight w must carry: none for
// w <= 0; else a load, at least one five-word instruction and a store (12
// words), and w words less the 4 that five-word instructions cannot hit
// exactly.
func FillerWords(w int) int {
	if w <= 0 {
		return 0
	}
	return max(12, w-4)
}

// blockFill is one entry-point block's reported id (-1: none) and filler
// words.
type blockFill struct {
	reported int
	label    uint32
	words    int
	sinks    []uint32 // the Private variables stored after the report call
}

// isFillArithmetic reports whether op is integer arithmetic a filler
// chain may use.
func isFillArithmetic(op spirv.Op) bool {
	switch op {
	case spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpUDiv, spirv.OpUMod,
		spirv.OpSNegate, spirv.OpSDiv, spirv.OpSRem, spirv.OpSMod,
		spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic,
		spirv.OpShiftLeftLogical, spirv.OpBitwiseOr, spirv.OpBitwiseXor, spirv.OpBitwiseAnd, spirv.OpNot:
		return true
	}
	return false
}

// blockFills reads every block of m's entry point, in binary order.
func blockFills(m *spirv.Module) []blockFill {
	tabs := fillTablesPool.Get().(*fillTables)
	defer fillTablesPool.Put(tabs)
	ids := newFillIDs(m, tabs)
	entry := uint32(0)
	for _, in := range m.Insts {
		if in.Op == spirv.OpEntryPoint && len(in.Operands) >= 2 && entry == 0 {
			entry = in.Operands[1]
		}
	}
	var out []blockFill
	sc := fillScratch{fillTables: tabs}
	sc.def.reset(m.Bound)
	sc.tracePtr.reset(m.Bound)
	sc.counted.reset(m.Bound)
	sc.copies.reset(m.Bound)
	inEntry, start := false, -1
	for i, in := range m.Insts {
		switch in.Op {
		case spirv.OpFunction:
			inEntry, start = len(in.Operands) >= 2 && in.Operands[1] == entry, -1
		case spirv.OpFunctionEnd:
			inEntry, start = false, -1
		case spirv.OpLabel:
			if inEntry && len(in.Operands) == 1 {
				start = i
			}
		}
		if start >= 0 && spirv.IsTerminator(in.Op) {
			out = append(out, fillOfBlock(m.Insts[start:i+1], ids, &sc))
			start = -1
		}
	}
	return out
}

// fillTables are the id tables one module's reading uses (fillIDs' and
// fillScratch's), kept between modules (fillTablesPool): emptying them
// costs nothing, filling them no allocation once they are sized.
type fillTables struct {
	consts, private, trace         idTable
	def, tracePtr, counted, copies idTable
	seen                           []bool
	stack                          []uint32
}

// fillTablesPool keeps fillTables between readings; each reading takes
// its own (the oracle's workers run concurrently).
var fillTablesPool = sync.Pool{New: func() any { return new(fillTables) }}

// fillIDs is what blockFills reads of a module's globals, by id: the value
// of each integer constant (consts), the Private variables (private) and
// the variables decorated Binding BindingTrace (trace), each a set id.
type fillIDs struct {
	consts, private, trace *idTable
}

// newFillIDs reads m's constants and Private variables into tabs'
// tables.
func newFillIDs(m *spirv.Module, tabs *fillTables) *fillIDs {
	ids := &fillIDs{consts: &tabs.consts, private: &tabs.private, trace: &tabs.trace}
	ids.consts.reset(m.Bound)
	ids.private.reset(m.Bound)
	ids.trace.reset(m.Bound)
	for _, in := range m.Insts {
		switch {
		case in.Op == spirv.OpDecorate && len(in.Operands) >= 3 && in.Operands[1] == spirv.DecorationBinding && in.Operands[2] == spirv.BindingTrace:
			ids.trace.set(in.Operands[0], 1)
		case in.Op == spirv.OpConstant && len(in.Operands) == 3:
			ids.consts.set(in.Operands[1], in.Operands[2])
		case in.Op == spirv.OpVariable && len(in.Operands) >= 3 && in.Operands[2] == spirv.StoragePrivate:
			ids.private.set(in.Operands[1], 1)
		}
	}
	return ids
}

// fillScratch is fillOfBlock's working memory, kept from block to block:
// its tables (emptied at each block) and the sinks of every block.
type fillScratch struct {
	// def: result id -> index in the block, for filler sources;
	// tracePtr: the block's pointers into the trace buffer, 1 when their
	// index derives from a value loaded from it, else 0; counted: the ids
	// that derive from such a value (inlinedAppend); copies: OpCopyObject
	// result -> its operand, ncopies of them. They live in *fillTables.
	*fillTables
	ncopies int
	sinks   []uint32 // every block's sinks, in order: each block's list is a capped part
}

// fillOfBlock measures one block (its label first, its terminator last).
func fillOfBlock(blk []spirv.Instruction, ids *fillIDs, sc *fillScratch) blockFill {
	f := blockFill{reported: -1, label: blk[0].Operands[0]}
	def := &sc.def
	def.clear()
	sc.tracePtr.clear()
	sc.counted.clear()
	sc.copies.clear()
	sc.ncopies = 0
	reportedAt := -1
	for i, in := range blk {
		if f.reported < 0 {
			if v, ok := sc.appended(in, ids); ok {
				f.reported, reportedAt = int(v), i
			}
		}
		switch {
		case isFillArithmetic(in.Op) && len(in.Operands) >= 3,
			in.Op == spirv.OpLoad && len(in.Operands) >= 3 && ids.private.has(in.Operands[2]):
			def.set(in.Operands[1], uint32(i))
		}
	}
	if cap(sc.seen) < len(blk) {
		sc.seen = make([]bool, len(blk))
	}
	seen := sc.seen[:len(blk)]
	clear(seen)
	// cone adds the words of the instructions value id is computed from
	// (a walk with an explicit stack: a filler chain may be long).
	cone := func(id uint32) {
		sc.stack = append(sc.stack[:0], id)
		for len(sc.stack) > 0 {
			id := sc.stack[len(sc.stack)-1]
			sc.stack = sc.stack[:len(sc.stack)-1]
			i, ok := def.get(id)
			if !ok || seen[i] {
				continue
			}
			seen[i] = true
			f.words += blk[i].Words()
			if blk[i].Op != spirv.OpLoad {
				sc.stack = append(sc.stack, blk[i].Operands[2:]...)
			}
		}
	}
	start := len(sc.sinks)
	for i, in := range blk {
		if in.Op == spirv.OpStore && len(in.Operands) >= 2 && ids.private.has(in.Operands[0]) {
			f.words += in.Words()
			cone(in.Operands[1])
			if reportedAt >= 0 && i > reportedAt && !slices.Contains(sc.sinks[start:], in.Operands[0]) {
				sc.sinks = append(sc.sinks, in.Operands[0])
			}
		}
	}
	if end := len(sc.sinks); end > start {
		f.sinks = sc.sinks[start:end:end] // capped: later blocks' sinks follow in the array
	}
	return f
}

// appended reads one instruction of a block, in order: the id it appends,
// ok false when it appends none. A call to a one-argument function with a
// constant argument appends it; so does the append helper inlined, a
// store of a constant into the trace buffer at an index derived from a
// value loaded from it (the count), which no other store of the
// convention is: returned and the sink go to fixed slots, the count's
// value is no constant.
func (sc *fillScratch) appended(in spirv.Instruction, ids *fillIDs) (uint32, bool) {
	ops := in.Operands
	switch in.Op {
	case spirv.OpFunctionCall:
		if len(ops) == 4 {
			return ids.consts.get(ops[3])
		}
	case spirv.OpAccessChain:
		if len(ops) >= 3 {
			if ids.trace.has(ops[2]) || sc.countedPtr(ops[2]) {
				counted := sc.countedPtr(ops[2])
				for _, x := range ops[3:] {
					counted = counted || sc.counted.has(x)
				}
				sc.tracePtr.set(ops[1], b2u(counted))
			}
		}
		return 0, false
	case spirv.OpLoad:
		if len(ops) >= 3 && sc.tracePtr.has(ops[2]) {
			sc.counted.set(ops[1], 1)
		}
		return 0, false
	case spirv.OpCopyObject:
		if len(ops) >= 3 && !sc.copies.set(ops[1], ops[2]) {
			sc.ncopies++
		}
	case spirv.OpStore:
		if len(ops) >= 2 && sc.countedPtr(ops[0]) {
			v := ops[1]
			for range sc.ncopies + 1 {
				c, ok := sc.copies.get(v)
				if !ok {
					break
				}
				v = c
			}
			return ids.consts.get(v)
		}
		return 0, false
	}
	if len(ops) >= 3 && !spirv.IsTerminator(in.Op) {
		for _, x := range ops[2:] {
			if sc.counted.has(x) {
				sc.counted.set(ops[1], 1)
				break
			}
		}
	}
	return 0, false
}

// countedPtr says whether id is a pointer into the trace buffer whose
// index derives from a value loaded from it.
func (sc *fillScratch) countedPtr(id uint32) bool {
	v, _ := sc.tracePtr.get(id)
	return v == 1
}

// fills is blockFills of the subject's module, read once per Check.
func (s *Subject) fills() ([]blockFill, error) {
	if !s.fillDone {
		m, err := s.decoded()
		if err == nil {
			s.fillList = blockFills(m)
		}
		s.fillErr, s.fillDone = err, true
	}
	return s.fillList, s.fillErr
}

// Copies is what a module copied of its graph's blocks: the blocks
// reporting an original id past the first that reports it, and the words
// they copy (the original's weight, per copy).
type Copies struct {
	Blocks, Words int
	Heaviest      int // the weight of the heaviest block copied
	HeaviestID    int // its original id (-1 no copy)
}

// copiesOf counts the copies of g's blocks among fills.
func copiesOf(g *cfg.Graph, fills []blockFill) Copies {
	seen := make([]bool, g.Len())
	c := Copies{HeaviestID: -1}
	for _, f := range fills {
		if f.reported < 0 || f.reported >= g.Len() {
			continue
		}
		if seen[f.reported] {
			w := max(0, g.Weight(f.reported))
			c.Blocks++
			c.Words += w
			if c.HeaviestID < 0 || w > c.Heaviest {
				c.Heaviest, c.HeaviestID = w, f.reported
			}
		}
		seen[f.reported] = true
	}
	return c
}

// unreadAppends counts the blocks of g reachable from its entry whose id
// no block of fills reports, and names the first; a module that runs like
// g appends each of them somewhere, in a way blockFills does not read.
func unreadAppends(g *cfg.Graph, fills []blockFill) (n, first int) {
	read := make([]bool, g.Len())
	for _, f := range fills {
		if f.reported >= 0 && f.reported < g.Len() {
			read[f.reported] = true
		}
	}
	first = -1
	for b, ok := range g.Reachable() {
		if ok && !read[b] {
			if n == 0 {
				first = b
			}
			n++
		}
	}
	return n, first
}

// unreadDetail says why a check, or its part what ("" the whole), was not
// judged: n reachable blocks' appends not read, the first b first.
func unreadDetail(what string, n, first, reachable int) string {
	if what != "" {
		what += " "
	}
	return fmt.Sprintf("%snot judged: no block of the entry point reports the id of %d of the graph's %d reachable blocks (the first b%d): it appends them in a way the checks do not read (a call with a computed id, through another function), emit/CONVENTION.md", what, n, reachable, first)
}

// reachableCount is the number of g's blocks reachable from its entry.
func reachableCount(g *cfg.Graph) int {
	n := 0
	for _, ok := range g.Reachable() {
		if ok {
			n++
		}
	}
	return n
}

// checkFiller holds every block that reports an original id to the filler
// its weight promises.
func (o *Oracle) checkFiller(s *Subject) Verdict {
	if s.Graph == nil {
		return Verdict{Status: Skip, Detail: "no graph"}
	}
	fills, err := s.fills()
	if err != nil {
		return Verdict{Status: Skip, Detail: "module unreadable: " + err.Error()}
	}
	if n, first := unreadAppends(s.Graph, fills); n > 0 {
		return Verdict{Status: Skip, Detail: unreadDetail("", n, first, reachableCount(s.Graph))}
	}
	blocks := 0
	for _, f := range fills {
		if f.reported < 0 || f.reported >= s.Graph.Len() {
			continue
		}
		blocks++
		w := s.Graph.Weight(f.reported)
		if need := FillerWords(w); f.words < need {
			return Verdict{Status: Fail, Signature: "filler:" + SigFillerShort,
				Detail: fmt.Sprintf("block %%%d (b%d, weight %d) carries %d words of filler, at least %d promised", f.label, f.reported, w, f.words, need)}
		}
	}
	return Verdict{Status: Pass, Detail: fmt.Sprintf("%d labelled blocks", blocks)}
}
