// growth.go: the `growth` check (ARCHITECTURE.md, structurizer guarantee 4): the
// output stays within stated factors of the input, and the structurizer
// within a time limit per graph. Sizes are measured, not taken from the
// structurizer's own report:
//
//   - blocks in: the graph's blocks, dead ones (no path from the entry
//     reaches them) included: a structurizer may leave them out of its
//     module or keep them, code and filler, and the limits hold either
//     way; blocks out: the labels of the module's entry-point function;
//   - words in: the blocks' weights plus PerBlockWords for each block
//     (what any encoding of a block costs: label, append call, decision
//     read, terminator) plus PerCaseWords for each successor of a switch
//     block (3 or more successors: the case list, a
//     literal and a label per case in any OpSwitch, and the case's value
//     where a layout chooses by it); words out: the whole module's word
//     count less its debug information (OpSource and the rest of the
//     specification's debug instructions: names, strings, lines, which
//     a compiler adds as it likes and no execution reads) and
//     ModuleOverhead (header, types, helpers);
//   - with the register-file workload (WalkOptions.Registers), words in
//     also count its code (registerWords);
//   - words copied: the weights of the blocks that report an original id
//     already reported by another block (filler.go), the module's clones.
//
// Limits: blocks out <= BlockFactor x blocks in + BlockSlack + PerCaseBlocks
// x the successors of the switch blocks (a layout may give each case a
// block of its own: a forwarder, a store, a copy of a return; a jump table
// of 300 cases is 300 edges of input, however few its blocks), words out <=
// WordFactor x words in; words copied <= CloneBudget; the heaviest block
// copied <= the weight the structurizer declares (Info.CloneMaxWords, none
// when 0); time <= TimeLimit + TimePerBlock x blocks in (from
// Subject.Info.Duration): a fixed limit would hold a structurizer of large
// functions (1,685 blocks, say) to the time of a small one.
// The defaults (8x + 24 blocks and 1 a case, 4x words, 1 s + 1 ms a block) pass the
// dispatch loop and the structured strategy on random graphs of up to 20
// blocks (worst seen: 9 blocks in, 86 out) and on this tree's 100,000-block
// graphs (about 2 s), and catch growth by an order of magnitude.

package oracle

import (
	byteorder "encoding/binary"
	"fmt"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// GrowthOptions sets the growth limits; zero fields take the defaults
// below.
type GrowthOptions struct {
	BlockFactor    float64       // default 8
	BlockSlack     int           // default 24
	PerCaseBlocks  int           // default 1, for each successor of a reachable switch block; negative: none
	WordFactor     float64       // default 4
	PerBlockWords  int           // default 40
	PerCaseWords   int           // default 4
	ModuleOverhead int           // default 600
	TimeLimit      time.Duration // default DefaultGrowthTime (--growth-time)
	TimePerBlock   time.Duration // default 1 ms, added per input block; negative: none
	// CloneBudget is the most words a module may copy: 0 means
	// DefaultCloneBudget, negative means none (every copy of a block of
	// positive weight fails).
	CloneBudget int
}

// DefaultGrowthTime is the fixed part of the growth check's time limit
// (GrowthOptions.TimeLimit), which the judging commands' --growth-time
// sets.
const DefaultGrowthTime = time.Second

// DefaultCloneBudget is the clone budget of structurizer.Options' default
// (64 words), which the growth check holds every structurizer to, external
// ones included.
const DefaultCloneBudget = 64

func (g GrowthOptions) withDefaults() GrowthOptions {
	if g.BlockFactor == 0 {
		g.BlockFactor = 8
	}
	if g.BlockSlack == 0 {
		g.BlockSlack = 24
	}
	if g.PerCaseBlocks == 0 {
		g.PerCaseBlocks = 1
	}
	if g.WordFactor == 0 {
		g.WordFactor = 4
	}
	if g.PerBlockWords == 0 {
		g.PerBlockWords = 40
	}
	if g.PerCaseWords == 0 {
		g.PerCaseWords = 4
	}
	if g.CloneBudget == 0 {
		g.CloneBudget = DefaultCloneBudget
	}
	if g.ModuleOverhead == 0 {
		g.ModuleOverhead = 600
	}
	if g.TimeLimit == 0 {
		g.TimeLimit = DefaultGrowthTime
	}
	if g.TimePerBlock == 0 {
		g.TimePerBlock = time.Millisecond
	}
	return g
}

// timeFor is the time limit of a graph of blocks blocks.
func (g GrowthOptions) timeFor(blocks int) time.Duration {
	return g.TimeLimit + time.Duration(blocks)*max(g.TimePerBlock, 0)
}

// registerWords is what the register-file workload of n registers
// (emit/CONVENTION.md) adds to words in: each block's step with a running
// checksum (five loads, nine ops, three stores: 72 words), the file's
// declaration and setting (13 words a register), and 16 words at each
// exit to store the checksum.
func registerWords(n, blocks, exits int) int {
	if n <= 0 {
		return 0
	}
	return 72*blocks + 13*n + 16*max(1, exits)
}

// PartClones is Verdict.Unchecked of a growth verdict that judged sizes
// and time but not the clone budget (the module's appends not read).
const PartClones = "clones"

// Signatures of the growth check (after "growth:").
const (
	SigGrowthBlocks = "blocks"
	SigGrowthWords  = "words"
	SigGrowthTime   = "time"
	SigGrowthClones = "clones"
	SigCloneWeight  = "clone-weight"
)

// sizeNote ends the detail of a size limit passed.
const sizeNote = "; the module's size, not its correctness: --checks -growth turns the check off"

func (o *Oracle) checkGrowth(s *Subject) Verdict {
	if s.Graph == nil {
		return Verdict{Status: Skip, Detail: "no graph"}
	}
	lim := o.opt.Growth.withDefaults()
	blocksIn, weights, cases, exits := s.Graph.Len(), 0, 0, 0
	for b, succs := range s.Graph.Succs { // dead blocks too: a module may keep them
		weights += s.Graph.Weight(b)
		if n := len(succs); n >= 3 {
			cases += n
		} else if n == 0 {
			exits++
		}
	}
	blocksOut, err := s.entryBlocks()
	if err != nil {
		return Verdict{Status: Skip, Detail: "module unreadable: " + err.Error()}
	}
	fills, err := s.fills()
	if err != nil {
		return Verdict{Status: Skip, Detail: "module unreadable: " + err.Error()}
	}
	unread, first := unreadAppends(s.Graph, fills)
	if unread == 0 {
		s.Copied, s.CopiedKnown = copiesOf(s.Graph, fills), true
	}
	wordsIn := weights + lim.PerBlockWords*blocksIn + lim.PerCaseWords*cases + registerWords(o.opt.Walks.Registers, blocksIn, exits)
	words := len(s.Module)/4 - debugWords(s.Module)
	s.size, s.sizeKnown = moduleSize{blocks: blocksOut, words: words}, true
	wordsOut := max(0, words-lim.ModuleOverhead)
	maxB := int(lim.BlockFactor*float64(blocksIn)) + lim.BlockSlack + max(0, lim.PerCaseBlocks)*cases
	if blocksOut > maxB {
		return Verdict{Status: Fail, Signature: "growth:" + SigGrowthBlocks, Detail: fmt.Sprintf("%d blocks in, %d out (limit %d)%s", blocksIn, blocksOut, maxB, sizeNote)}
	}
	if maxW := int(lim.WordFactor * float64(wordsIn)); wordsOut > maxW {
		return Verdict{Status: Fail, Signature: "growth:" + SigGrowthWords, Detail: fmt.Sprintf("%d words in, %d out past the overhead and debug information (limit %d)%s", wordsIn, wordsOut, maxW, sizeNote)}
	}
	if budget := max(0, lim.CloneBudget); s.CopiedKnown && s.Copied.Words > budget {
		return Verdict{Status: Fail, Signature: "growth:" + SigGrowthClones, Detail: fmt.Sprintf("%d copies of original blocks carry %d words (clone budget %d, the module convention's for every structurizer)%s", s.Copied.Blocks, s.Copied.Words, budget, sizeNote)}
	}
	if most := s.Info.CloneMaxWords; most > 0 && s.CopiedKnown && s.Copied.Heaviest > most {
		return Verdict{Status: Fail, Signature: "growth:" + SigCloneWeight, Detail: fmt.Sprintf("a copy of block %d carries %d words (the structurizer declares copies of at most %d)", s.Copied.HeaviestID, s.Copied.Heaviest, most)}
	}
	if most := lim.timeFor(blocksIn); s.Info.Duration > most {
		return Verdict{Status: Fail, Signature: "growth:" + SigGrowthTime, Detail: fmt.Sprintf("structurizing took %v (limit %v: %v and %v a block for %d blocks); the structurizer's time, not this module's correctness: --growth-time raises the %v, --checks -growth turns the check off", s.Info.Duration, most, lim.TimeLimit, lim.TimePerBlock, blocksIn, lim.TimeLimit)}
	}
	// The measures of the limits, named as such: they are not the
	// structurizer's own stats (blocks out, words) that reports show.
	v := Verdict{Status: Pass, Detail: fmt.Sprintf("blocks %d, entry-point blocks %d (limit %d); word budget %d, module words past the overhead and debug information %d (limit %d); copied words %d; %v",
		blocksIn, blocksOut, maxB, wordsIn, wordsOut, int(lim.WordFactor*float64(wordsIn)), s.Copied.Words, s.Info.Duration)}
	if unread > 0 {
		v.Unchecked = PartClones
		v.Detail = fmt.Sprintf("blocks %d, entry-point blocks %d (limit %d); word budget %d, module words past the overhead and debug information %d (limit %d); %v; %s",
			blocksIn, blocksOut, maxB, wordsIn, wordsOut, int(lim.WordFactor*float64(wordsIn)), s.Info.Duration,
			unreadDetail("the clone budget", unread, first, blocksIn))
	}
	return v
}

// isDebugOp reports the specification's debug instructions (2.4, logical
// layout section 7, and OpLine, OpNoLine anywhere): they name and locate
// code and change no execution.
func isDebugOp(op spirv.Op) bool {
	switch op {
	case spirv.OpSource, spirv.OpSourceContinued, spirv.OpSourceExtension, spirv.OpString,
		spirv.OpName, spirv.OpMemberName, spirv.OpLine, spirv.OpNoLine, spirv.OpModuleProcessed:
		return true
	}
	return false
}

// debugWords counts the words of a module's debug instructions by a scan
// of its words; 0 for a module the scan cannot split into instructions
// (growth then counts every word, as it measures a module nothing reads).
func debugWords(module []byte) int {
	if len(module)%4 != 0 || len(module) < 20 || byteorder.LittleEndian.Uint32(module) != spirv.Magic {
		return 0
	}
	n := 0
	for at := 20; at < len(module); {
		head := byteorder.LittleEndian.Uint32(module[at : at+4])
		count, op := int(head>>16), spirv.Op(head&0xffff)
		if count == 0 || at+4*count > len(module) {
			return 0
		}
		if isDebugOp(op) {
			n += count
		}
		at += 4 * count
	}
	return n
}

// entryBlocks counts the labels of the entry point's function: a scan of
// the words (meta counts the blocks of two more modules per graph); for a
// module the scan cannot read it decodes, which names what is wrong.
func entryBlocks(module []byte) (int, error) {
	if n, ok := scanEntryBlocks(module); ok {
		return n, nil
	}
	return decodeEntryBlocks(module)
}

// entryBlocks is entryBlocks of the subject's module, counted once per
// Check for growth and meta: from the decoded module the checks share
// (whose error it returns), or by the scan where nothing decoded it yet.
func (s *Subject) entryBlocks() (int, error) {
	if !s.entryDone {
		s.entryCount, s.entryErr = s.countEntryBlocks()
		s.entryDone = true
	}
	return s.entryCount, s.entryErr
}

// Size is the subject's module as the growth check measures it: the
// labels of its entry point's function, and its words less its debug
// information (debugWords; the module overhead not taken off). Reports
// compare two structurizers' outputs by it, whatever each declares. After
// a Check in which growth measured the module, it is that measure.
func (s *Subject) Size() (blocks, words int, err error) {
	if s.sizeKnown {
		return s.size.blocks, s.size.words, nil
	}
	blocks, err = s.entryBlocks()
	if err != nil {
		return 0, 0, err
	}
	return blocks, len(s.Module)/4 - debugWords(s.Module), nil
}

func (s *Subject) countEntryBlocks() (int, error) {
	if !s.decodeDone {
		if n, ok := scanEntryBlocks(s.Module); ok {
			return n, nil
		}
	}
	m, err := s.decoded()
	if err != nil {
		return 0, err
	}
	return entryBlocksOf(m), nil
}

// scanEntryBlocks is entryBlocks on a well-formed little-endian module
// without decoding it: one pass over the words when the entry point comes
// before the functions (as the emitter lays modules out), counting OpLabel
// inside its OpFunction, else a second pass once the first found the
// entry point. ok is false when the words do not split into instructions.
func scanEntryBlocks(module []byte) (n int, ok bool) {
	if len(module)%4 != 0 || len(module) < 20 || byteorder.LittleEndian.Uint32(module) != spirv.Magic {
		return 0, false
	}
	entry, found, late := uint32(0), false, false
	for pass := 0; pass < 2; pass++ {
		in := false
		for at := 20; at < len(module); { // at: an instruction's first byte
			head := byteorder.LittleEndian.Uint32(module[at : at+4])
			count, op := int(head>>16), spirv.Op(head&0xffff)
			next := at + 4*count
			if count == 0 || next > len(module) {
				return 0, false
			}
			switch op {
			case spirv.OpEntryPoint:
				if count >= 3 && !found {
					entry, found = byteorder.LittleEndian.Uint32(module[at+8:]), true
				}
			case spirv.OpFunction:
				// Before the entry point is found only the second pass may
				// count (with entry 0 where the module has none, as
				// decodeEntryBlocks does).
				late = late || !found
				in = (found || pass == 1) && count >= 3 && byteorder.LittleEndian.Uint32(module[at+8:]) == entry
			case spirv.OpLabel:
				if in {
					n++
				}
			}
			at = next
		}
		if !late || pass == 1 {
			return n, true
		}
		n, late = 0, false // count again, the entry point known from the start
	}
	return n, true
}

// decodeEntryBlocks is entryBlocks through the decoder: the reference the
// scan is tested against.
func decodeEntryBlocks(module []byte) (int, error) {
	m, err := spirv.Decode(module)
	if err != nil {
		return 0, err
	}
	return entryBlocksOfRef(m), nil
}

// entryBlocksOf counts the labels of a decoded module's entry point: in
// one pass where the entry point precedes the functions, as scanEntryBlocks.
func entryBlocksOf(m *spirv.Module) int {
	entry, found, late := uint32(0), false, false
	for pass := 0; ; pass++ {
		n, in := 0, false
		for i := range m.Insts {
			ins := &m.Insts[i]
			switch ins.Op {
			case spirv.OpEntryPoint:
				if len(ins.Operands) >= 2 && !found {
					entry, found = ins.Operands[1], true
				}
			case spirv.OpFunction:
				late = late || !found
				in = (found || pass == 1) && len(ins.Operands) >= 2 && ins.Operands[1] == entry
			case spirv.OpLabel:
				if in {
					n++
				}
			}
		}
		if !late || pass == 1 {
			return n
		}
		late = false
	}
}

// entryBlocksOfRef is entryBlocksOf in two passes, the entry point first:
// the reference the one-pass count is tested against.
func entryBlocksOfRef(m *spirv.Module) int {
	entry := uint32(0)
	for _, in := range m.Insts {
		if in.Op == spirv.OpEntryPoint && len(in.Operands) >= 2 {
			entry = in.Operands[1]
			break
		}
	}
	n, in := 0, false
	for _, ins := range m.Insts {
		switch ins.Op {
		case spirv.OpFunction:
			in = len(ins.Operands) >= 2 && ins.Operands[1] == entry
		case spirv.OpLabel:
			if in {
				n++
			}
		}
	}
	return n
}
