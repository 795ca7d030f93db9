// rules.go: the project's own checker of SPIR-V structured control flow
// (the `rules` check and `cfgfuzz lint`). It implements rules R1-R17 of
// RULES.md (R17 only in the functions an entry point declared
// MaximallyReconvergesKHR reaches) over structural dominance
// (dominance over branch, merge and continue edges), for every function of
// any module, and follows the specification where SPIRV-Tools approximates
// (R12). Each violation names its rule, its function and its blocks.
//
// Constructs (D5) are never materialized as block sets: membership is two
// or three O(1) dominance queries, and the constructs that may hold a block
// are listed once per block down the dominator tree (rules_containers.go),
// so the cost is near-linear in blocks and edges times the nesting depth.

package oracle

import (
	"fmt"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// BlockRef names a block: its label id and OpName ("" when unnamed).
type BlockRef struct {
	ID   uint32 `json:"id"`
	Name string `json:"name,omitempty"`
}

func (b BlockRef) String() string {
	if b.Name != "" {
		return "%" + b.Name
	}
	return "%" + itoa(b.ID)
}

// Violation is one broken rule.
type Violation struct {
	Rule   string     `json:"rule"` // "R1".."R17"
	Func   BlockRef   `json:"func"` // the function (its id and name)
	Blocks []BlockRef `json:"blocks"`
	Msg    string     `json:"msg"`
}

func (v Violation) String() string {
	if v.Func.ID == 0 && len(v.Blocks) == 0 {
		return v.Rule + ": " + v.Msg // a rule of the whole module (bound)
	}
	refs := make([]string, len(v.Blocks))
	for i, b := range v.Blocks {
		refs[i] = b.String()
	}
	return fmt.Sprintf("%s in %s [%s]: %s", v.Rule, v.Func, strings.Join(refs, " "), v.Msg)
}

// MaxNestingDepth is R16's limit (the validator's default).
const MaxNestingDepth = 1023

// RulesOptions configures the checker. The zero value follows the
// specification.
type RulesOptions struct {
	// Compat names a validator whose readings to follow where they differ
	// from the specification: CompatSPIRVTools2023 applies R9 to
	// structurally unreachable predecessors of a continue target too (as
	// SPIRV-Tools did before v2024.4). "" follows the specification.
	Compat string
}

// CompatSPIRVTools2023 is the Compat value for SPIRV-Tools v2023.1
// (Debian bookworm's spirv-val).
const CompatSPIRVTools2023 = "spirv-tools-2023.1"

// CheckRules parses module bytes and applies R1-R16 to every function, and
// R17 to the functions a MaximallyReconvergesKHR entry point reaches,
// following the specification. The error is for input that is not a
// module or whose bodies cannot be split into blocks (*spirv.DecodeError,
// *MalformedError).
func CheckRules(module []byte) ([]Violation, error) {
	return CheckRulesWith(module, RulesOptions{})
}

// CheckRulesWith is CheckRules with options.
func CheckRulesWith(module []byte, opt RulesOptions) ([]Violation, error) {
	m, err := spirv.Decode(module)
	if err != nil {
		return nil, err
	}
	return CheckRulesModule(m, opt)
}

// CheckRulesModule is CheckRulesWith on a decoded module.
func CheckRulesModule(m *spirv.Module, opt RulesOptions) ([]Violation, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	p := parseModule(m)
	if p.err != nil {
		return nil, p.err
	}
	return checkRulesParsed(p, opt)
}

// checkRulesParsed is CheckRulesModule on a parsed module (whose graphs it
// builds, or reuses when built).
func checkRulesParsed(p *parsedModule, opt RulesOptions) ([]Violation, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	out := boundViolations(p.rm.src, p.rm)
	reconvergent := p.rm.reconvergent()
	for i := range p.rm.funcs {
		if len(p.rm.funcs[i].blocks) == 0 {
			continue // a declaration
		}
		g, err := p.graph(i)
		if err != nil {
			return nil, err
		}
		c := newRuleChecker(p.rm, g)
		c.opt = opt
		c.maximal = reconvergent[p.rm.funcs[i].id]
		c.run()
		out = append(out, c.out...)
	}
	return out, nil
}

// check rejects an unknown Compat.
func (opt RulesOptions) check() error {
	if opt.Compat != "" && opt.Compat != CompatSPIRVTools2023 {
		return fmt.Errorf("rules: unknown compat %q (have %q)", opt.Compat, CompatSPIRVTools2023)
	}
	return nil
}

// constructKind is a kind of construct (D5).
type constructKind uint8

const (
	kSelection constructKind = iota
	kSwitch
	kLoop
	kContinue
	kCase
)

var kindNames = [...]string{"selection", "switch", "loop", "continue", "case"}

// construct is one construct. head is its first block; owner the header
// that declared it (the loop for a continue construct, the switch for a
// case construct).
type construct struct {
	kind  constructKind
	head  int
	owner int
	merge int // the owner's merge block
	latch int // continue: the back-edge block, -1 when there is none
}

// ruleChecker applies the rules to one function.
type ruleChecker struct {
	opt RulesOptions
	m   *ruleModule
	// maximal: the function is in the static call tree of an entry point
	// declared MaximallyReconvergesKHR (R17 applies).
	maximal bool
	// scratch for walks over one case construct
	seen    []bool
	touched []int
	stack   []int
	g       *funcGraph
	cons    []construct
	at      [][]int  // constructs headed by each block, outer first
	lists   conLists // the constructs that may hold each block (rules_containers.go)
	hdr     []int    // header -> its selection/switch/loop construct, -1 none
	out     []Violation
}

func newRuleChecker(m *ruleModule, g *funcGraph) *ruleChecker {
	return &ruleChecker{m: m, g: g}
}

func (c *ruleChecker) ref(b int) BlockRef {
	if b < 0 || b >= len(c.g.f.blocks) {
		return BlockRef{}
	}
	id := c.g.f.blocks[b].label
	return BlockRef{ID: id, Name: c.m.nameOf(id)}
}

func (c *ruleChecker) report(rule string, msg string, blocks ...int) {
	refs := make([]BlockRef, len(blocks))
	for i, b := range blocks {
		refs[i] = c.ref(b)
	}
	fid := c.g.f.id
	c.out = append(c.out, Violation{Rule: rule, Func: BlockRef{ID: fid, Name: c.m.nameOf(fid)}, Blocks: refs, Msg: msg})
}

// headerConstruct is the selection, switch or loop construct that h heads,
// and whether there is one (construct 0 when there is none).
func (c *ruleChecker) headerConstruct(h int) (int, bool) {
	if k := c.hdr[h]; k >= 0 {
		return k, true
	}
	return 0, false
}

// reachable reports structural reachability from the entry.
func (c *ruleChecker) reachable(b int) bool { return c.g.dom.reached(b) }

func (c *ruleChecker) run() {
	c.checkLayout()
	c.checkDeclarations()
	c.buildConstructs()
	c.checkBackEdges()
	c.checkLoops()
	c.checkEdges()
	c.checkNesting()
	c.checkSwitches()
	c.checkConditionals()
	if c.maximal {
		c.checkReconvergence()
	}
}

// checkLayout: R13 (merge instruction placement), R14 (dominators first,
// entry not a target), R15 (distinct conditional labels from SPIR-V 1.6).
func (c *ruleChecker) checkLayout() {
	g := c.g
	for b, blk := range g.f.blocks {
		if blk.mergeOp != 0 {
			switch {
			case blk.mergeAt != 1 || blk.extraMerges > 0:
				c.report("R13", blk.mergeOp.String()+" is not the second-to-last instruction of its block", b)
			case blk.mergeOp == spirv.OpLoopMerge && blk.term != spirv.OpBranch && blk.term != spirv.OpBranchConditional:
				c.report("R13", "OpLoopMerge is followed by "+blk.term.String()+", not OpBranch or OpBranchConditional", b)
			case blk.mergeOp == spirv.OpSelectionMerge && blk.term != spirv.OpBranchConditional && blk.term != spirv.OpSwitch:
				c.report("R13", "OpSelectionMerge is followed by "+blk.term.String()+", not OpBranchConditional or OpSwitch", b)
			}
		}
		for _, t := range g.succ[b] {
			if t == 0 {
				c.report("R14", "the entry block is a branch target", 0, b)
				break
			}
		}
		if d := g.ord.idom[b]; d > b {
			c.report("R14", "block appears in the binary before its dominator", b, d)
		}
		if c.m.version >= 0x00010600 && blk.term == spirv.OpBranchConditional && len(g.succ[b]) == 2 && g.succ[b][0] == g.succ[b][1] {
			c.report("R15", "OpBranchConditional names the same label twice (SPIR-V 1.6)", b, g.succ[b][0])
		}
	}
}

// checkDeclarations: R1 (distinct merges), R2 (header strictly dominates
// its merge), R4 (continue differs from merge), R5a.
func (c *ruleChecker) checkDeclarations() {
	g := c.g
	declared := make([]int, len(g.f.blocks)) // merge block -> its first header, -1 none
	for i := range declared {
		declared[i] = -1
	}
	for h := range g.f.blocks {
		m := g.merge[h]
		if m < 0 {
			continue
		}
		if other := declared[m]; other >= 0 {
			c.report("R1", "two headers declare the same merge block", other, h, m)
		} else {
			declared[m] = h
		}
		ct := g.cont[h]
		if ct >= 0 && ct == m {
			c.report("R4", "continue target and merge block are the same block", h, m)
		}
		switch {
		case m == h:
			c.report("R2", "header declares itself as its merge block", h)
		case c.reachable(h) && !g.dom.dominates(h, m):
			c.report("R2", "header does not strictly structurally dominate its merge block", h, m)
		}
		if ct >= 0 && c.reachable(h) && !g.dom.dominates(h, ct) {
			c.report("R5", "(a) loop header does not structurally dominate its continue target", h, ct)
		}
	}
}

// buildConstructs lists the constructs of structurally reachable headers
// and links each construct head to the nearest head above it in the
// dominator tree.
func (c *ruleChecker) buildConstructs() {
	g := c.g
	n := len(g.f.blocks)
	c.at = make([][]int, n)
	c.hdr = make([]int, n)
	for i := range c.hdr {
		c.hdr[i] = -1
	}
	isCase := make([]bool, n) // a case target already has its construct
	add := func(k construct) {
		c.cons = append(c.cons, k)
		c.at[k.head] = append(c.at[k.head], len(c.cons)-1)
		switch k.kind {
		case kSelection, kSwitch, kLoop:
			c.hdr[k.owner] = len(c.cons) - 1
		}
	}
	for h := range n {
		m := g.merge[h]
		if m < 0 || !c.reachable(h) {
			continue
		}
		blk := &g.f.blocks[h]
		switch {
		case blk.mergeOp == spirv.OpLoopMerge:
			latch := -1
			if l := g.latches[h]; len(l) > 0 {
				latch = l[0]
			}
			if ct := g.cont[h]; ct >= 0 && c.reachable(ct) {
				add(construct{kind: kContinue, head: ct, owner: h, merge: m, latch: latch})
			}
		case blk.term == spirv.OpSwitch:
			for _, t := range g.succ[h] {
				if t != m && !isCase[t] && g.dom.dominates(h, t) && t != h {
					isCase[t] = true
					add(construct{kind: kCase, head: t, owner: h, merge: m, latch: -1})
				}
			}
		}
	}
	// Header constructs last at their head: inside a case or continue
	// construct that starts at the same block.
	for h := range n {
		m := g.merge[h]
		if m < 0 || !c.reachable(h) {
			continue
		}
		kind := kSelection
		switch {
		case g.f.blocks[h].mergeOp == spirv.OpLoopMerge:
			kind = kLoop
		case g.f.blocks[h].term == spirv.OpSwitch:
			kind = kSwitch
		}
		add(construct{kind: kind, head: h, owner: h, merge: m, latch: -1})
	}
	c.listContainers()
}
