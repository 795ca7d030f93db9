// rules_check.go: construct membership (D5) and the rules over constructs
// and edges: R3 and R5 (back edges, continue constructs), R6 (allowed
// exits), R8 (nested merges), R9 (continue target predecessors), R10
// (entry through the header), R11 (switches), R12 (structured
// conditionals, as the specification states it) and R16 (nesting depth).

package oracle

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// contains reports whether construct k holds block b.
func (c *ruleChecker) contains(ki int, b int) bool {
	k := &c.cons[ki]
	d := c.g.dom
	if b < 0 || !c.reachable(b) || !d.dominates(k.head, b) {
		return false
	}
	switch k.kind {
	case kContinue:
		return k.latch < 0 || c.g.pdom.dominates(k.latch, b)
	case kLoop:
		if b == k.head {
			return true
		}
		if ct := c.g.cont[k.owner]; ct >= 0 && ct != k.owner && d.dominates(ct, b) {
			return false
		}
	}
	return !d.dominates(k.merge, b)
}

// allowedExit reports whether an edge leaving construct ki for block v is
// one of R6's structured exits.
func (c *ruleChecker) allowedExit(ki, v int) bool {
	k := &c.cons[ki]
	g := c.g
	switch k.kind {
	case kLoop:
		return v == k.merge || v == g.cont[k.owner]
	case kContinue:
		return v == k.owner || v == k.merge
	case kCase:
		if v == k.merge {
			return true
		}
		for _, t := range g.succ[k.owner] {
			if t == v {
				return true
			}
		}
		sw, _ := c.headerConstruct(k.owner)
		return c.allowedExit(sw, v)
	}
	if v == k.merge {
		return true
	}
	ok, seenSwitch := false, false
	c.enclosing(ki, func(ei int) bool {
		e := &c.cons[ei]
		switch e.kind {
		case kLoop, kContinue:
			ok = v == e.merge || v == g.cont[e.owner]
			return false
		case kSwitch, kCase:
			if k.kind == kSwitch {
				return true
			}
			if !seenSwitch && v == e.merge {
				ok = true
				return false
			}
			seenSwitch = true
		}
		return true
	})
	return ok
}

// checkBackEdges: R3 (back edges target loop headers, one back-edge block
// per loop) and R5b/R5c (the continue construct's shape).
func (c *ruleChecker) checkBackEdges() {
	g := c.g
	for h, ls := range g.latches {
		if len(ls) > 0 && g.f.blocks[h].mergeOp != spirv.OpLoopMerge {
			c.report("R3", "back edge to a block that is not a loop header", ls[0], h)
		}
	}
	for h := range g.f.blocks {
		if g.f.blocks[h].mergeOp != spirv.OpLoopMerge || !c.reachable(h) {
			continue
		}
		ls := g.latches[h]
		if len(ls) != 1 {
			c.report("R3", fmt.Sprintf("loop header has %d back-edge blocks, not exactly one", len(ls)), append([]int{h}, ls...)...)
			continue
		}
		ct, latch := g.cont[h], ls[0]
		if ct < 0 || !c.reachable(ct) {
			continue
		}
		if !g.dom.dominates(ct, latch) {
			c.report("R5", "(b) continue target does not structurally dominate the back-edge block", ct, latch)
		} else if !g.pdom.dominates(latch, ct) {
			c.report("R5", "(c) back-edge block does not structurally post-dominate the continue target (R7: a return in the continue construct)", latch, ct)
		}
	}
}

// checkLoops: R9, every structurally reachable predecessor of a continue
// target that is not a back-edge block lies in the loop construct.
func (c *ruleChecker) checkLoops() {
	g := c.g
	for h := range g.f.blocks {
		ct := g.cont[h]
		if ct < 0 || ct == h || !c.reachable(h) {
			continue
		}
		loop, ok := c.headerConstruct(h)
		if !ok {
			continue
		}
		for _, p := range g.pred[ct] {
			if (!c.reachable(p) && c.opt.Compat == "") || g.isBackEdge(p, ct) || c.contains(loop, p) {
				continue
			}
			if latches := g.latches[h]; len(latches) > 0 && latches[0] == p {
				continue
			}
			c.report("R9", "a predecessor of the continue target lies outside the loop construct", h, ct, p)
			break
		}
	}
}

// checkEdges: R6 (each branch edge leaving a construct is an allowed exit)
// and R10 (selection, switch and loop constructs are entered through their
// header only).
func (c *ruleChecker) checkEdges() {
	g := c.g
	for u := range g.f.blocks {
		if !c.reachable(u) {
			continue
		}
		for i, v := range g.succ[u] {
			if i > 0 && g.succ[u][i-1] == v {
				continue
			}
			c.checkExit(u, v)
			c.checkEntry(u, v)
		}
	}
}

func (c *ruleChecker) checkExit(u, v int) {
	c.containers(u, func(ki int) bool {
		if c.contains(ki, v) || c.allowedExit(ki, v) {
			return true
		}
		k := &c.cons[ki]
		c.report("R6", fmt.Sprintf("branch leaves the %s construct headed here by a path that is not a structured exit", kindNames[k.kind]), k.head, u, v)
		return false
	})
}

func (c *ruleChecker) checkEntry(u, v int) {
	c.containers(v, func(ki int) bool {
		k := &c.cons[ki]
		if k.kind == kContinue || k.kind == kCase || v == k.head || c.contains(ki, u) {
			return true
		}
		c.report("R10", fmt.Sprintf("branch enters the %s construct headed here other than through its header", kindNames[k.kind]), k.head, u, v)
		return false
	})
}

// checkNesting: R8 (a construct holding a header holds its merge) and R16
// (nesting depth).
func (c *ruleChecker) checkNesting() {
	for ki := range c.cons {
		k := &c.cons[ki]
		if k.kind == kContinue || k.kind == kCase {
			continue
		}
		depth := 1
		reported := false
		c.enclosing(ki, func(ei int) bool {
			e := &c.cons[ei]
			if e.owner == k.owner {
				return true // a single-block loop's own continue construct
			}
			if e.kind != kContinue && e.kind != kCase {
				depth++
			}
			if !reported && !c.contains(ei, k.merge) {
				c.report("R8", fmt.Sprintf("the %s construct holds this header but not its merge block", kindNames[e.kind]), e.head, k.head, k.merge)
				reported = true
			}
			return true
		})
		if depth > MaxNestingDepth {
			c.report("R16", fmt.Sprintf("construct nesting depth %d exceeds %d", depth, MaxNestingDepth), k.head)
			return
		}
	}
}

// checkSwitches: R11 and the first half of R12 (OpSwitch needs
// OpSelectionMerge).
func (c *ruleChecker) checkSwitches() {
	g := c.g
	for h, blk := range g.f.blocks {
		if blk.term != spirv.OpSwitch || !c.reachable(h) {
			continue
		}
		if blk.mergeOp != spirv.OpSelectionMerge {
			c.report("R12", "OpSwitch without OpSelectionMerge", h)
			continue
		}
		c.checkSwitch(h)
	}
}

// checkSwitch applies R11 to the switch header h: the header dominates
// every target but the merge; each case falls through to at most one case
// and from at most one, and into the next target in the list.
func (c *ruleChecker) checkSwitch(h int) {
	g := c.g
	targets := g.succ[h]
	m := g.merge[h]
	fall := map[int]int{} // case target -> the case target it falls into, -1 none
	fallIn := map[int]int{}
	isTarget := make(map[int]bool, len(targets))
	for _, x := range targets {
		isTarget[x] = true
	}
	for _, t := range targets {
		if t == m {
			continue
		}
		if _, done := fall[t]; done {
			continue
		}
		if c.reachable(t) && !g.dom.dominates(h, t) {
			c.report("R11", "switch header does not structurally dominate a case target", h, t)
			return
		}
		ft, multi := c.caseFallThrough(h, t, isTarget)
		if multi >= 0 {
			c.report("R11", "case falls through to more than one other case", h, t, ft, multi)
			return
		}
		fall[t] = ft
		if ft >= 0 {
			fallIn[ft]++
			if fallIn[ft] > 1 {
				c.report("R11", "several cases fall through to one case", h, ft)
				return
			}
		}
	}
	c.checkFallThroughOrder(h, fall)
}

// caseFallThrough finds the case target that case t branches to, -1 for
// none; multi is a second such target (-1 when there is at most one).
func (c *ruleChecker) caseFallThrough(h, t int, isTarget map[int]bool) (ft, multi int) {
	ft, multi = -1, -1
	case_ := -1
	for _, ci := range c.at[t] {
		if c.cons[ci].kind == kCase && c.cons[ci].owner == h {
			case_ = ci
		}
	}
	if case_ < 0 {
		return
	}
	// Walk the case construct: it is the part of the dominator subtree of t
	// not dominated by the merge; look at every edge leaving it.
	seen := c.visited()
	seen[t] = true
	c.touched = append(c.touched, t)
	stack := append(c.stack[:0], t)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range c.g.succ[b] {
			if c.contains(case_, v) {
				if !seen[v] {
					c.touched = append(c.touched, v)
					seen[v] = true
					stack = append(stack, v)
				}
				continue
			}
			if v == t || !isTarget[v] || v == c.g.merge[h] {
				continue
			}
			switch {
			case ft < 0:
				ft = v
			case ft != v:
				return ft, v
			}
		}
	}
	c.stack = stack
	return ft, -1
}

// visited returns the checker's scratch marks, all false.
func (c *ruleChecker) visited() []bool {
	if c.seen == nil {
		c.seen = make([]bool, len(c.g.f.blocks))
	}
	for _, b := range c.touched {
		c.seen[b] = false
	}
	c.touched = c.touched[:0]
	return c.seen
}

// checkFallThroughOrder: if case T1 falls into T2, T1's last entry in the
// target list is immediately followed by T2 (SPIRV-Tools' reading, which
// exempts a fall-through into Default when Default is not also a case).
func (c *ruleChecker) checkFallThroughOrder(h int, fall map[int]int) {
	targets := c.g.succ[h]
	def := targets[0]
	defAgain := false
	for _, t := range targets[1:] {
		if t == def {
			defAgain = true
		}
	}
	defFall := -1
	for i := 0; i < len(targets); i++ {
		t := targets[i]
		ft, ok := fall[t]
		if !ok {
			continue
		}
		if ft == def && !defAgain {
			ft = defFall
		}
		if ft < 0 {
			continue
		}
		if i == 0 {
			defFall = ft
			continue
		}
		j := i
		for j+1 < len(targets) && targets[j+1] == t {
			j++
		}
		if j+1 >= len(targets) || targets[j+1] != ft {
			c.report("R11", "case falls through to a case that does not follow it in the target list", h, t, ft)
			return
		}
	}
}

// checkConditionals: the second half of R12, as the specification states
// it: OpBranchConditional with two different targets needs
// OpSelectionMerge unless one target is a declared merge block or continue
// target; OpLoopMerge does not count as the merge.
func (c *ruleChecker) checkConditionals() {
	g := c.g
	declared := map[int]bool{}
	for h := range g.f.blocks {
		if g.merge[h] >= 0 {
			declared[g.merge[h]] = true
		}
		if g.cont[h] >= 0 {
			declared[g.cont[h]] = true
		}
	}
	for b, blk := range g.f.blocks {
		if blk.term != spirv.OpBranchConditional || !c.reachable(b) || blk.mergeOp == spirv.OpSelectionMerge {
			continue
		}
		s := g.succ[b]
		if s[0] == s[1] || declared[s[0]] || declared[s[1]] {
			continue
		}
		if blk.mergeOp == spirv.OpLoopMerge {
			c.report("R12", "loop header's OpBranchConditional has no arm to a merge block or continue target: OpLoopMerge is not the selection merge it needs (the specification and SPIRV-Tools from v2023.2; earlier spirv-val accepts it)", b, s[0], s[1])
			continue
		}
		c.report("R12", "OpBranchConditional without OpSelectionMerge, and neither target is a declared merge block or continue target (the specification; spirv-val also accepts a target it has already seen as a branch target, RULES.md R12)", b, s[0], s[1])
	}
}
