// structured_check_kept.go: construct facts kept true across the rewrites
// of the arms group (the lift, arm-merge and arm-break passes), so that
// its rounds after the first read them instead of computing them again: a
// rewrite drops a selection's declaration (lift), or moves a selection's
// merge to its arm and the constructs of that arm's chain out to the
// construct around it (arm-merge, arm-break), and the facts follow. What
// they keep: the declarers of each block, the constructs with their kind,
// header, merge, continue target and parent (a dropped one marked), the
// branch predecessors with their number, and which switches one case alone leaves for their
// merge (oneCaseMerges, read while the dominator tree is current). What
// they do not: the dominator tree and each block's innermost construct,
// set to nil at the first rewrite. sameAs compares them with facts
// computed afresh (the pass table does so under Options.CheckPasses).

package structurizer

import (
	"fmt"
	"maps"
	"slices"
)

// keptFacts is what constructFacts holds for being kept: its zero value
// has no construct dropped and nothing cached.
type keptFacts struct {
	dropped  []bool // constructs whose header declares nothing any more; nil: none
	closed   []bool // closedSwitches' answer, nil until asked
	headerOf []int  // header -> its construct (not a continue construct), nil until asked
	predN    []int  // the number of branch edges into each block, nil until asked
}

// closedSwitches marks the switch constructs whose merge one case alone
// reaches (oneCaseMerges), computed on first use, while dom is current.
// The rewrites keep the answer: an edge moved onto a switch's merge comes
// from a block the same case dominates as the block it went to.
func (fs *constructFacts) closedSwitches(f *Func) []bool {
	if fs.kept.closed == nil {
		fs.kept.closed = make([]bool, len(fs.cs))
		for c := range fs.cs {
			fs.kept.closed[c] = fs.cs[c].kind == cSwitch && oneCaseMerges(f, fs.cs[c], fs.dom, fs.preds)
		}
	}
	return fs.kept.closed
}

// isDropped reports whether construct c's header declares nothing any more.
func (fs *constructFacts) isDropped(c int) bool {
	return fs.kept.dropped != nil && fs.kept.dropped[c]
}

// rewritten marks the facts as kept: dom and inner are no longer true.
func (fs *constructFacts) rewritten() {
	fs.dom, fs.inner = nil, nil
}

// dropConstruct records that selection c's header declares nothing any
// more (the lift pass): its merge is named by nothing. The constructs in
// it are moved by the caller (setParent).
func (fs *constructFacts) dropConstruct(c int) {
	fs.rewritten()
	if fs.kept.dropped == nil {
		fs.kept.dropped = make([]bool, len(fs.cs))
	}
	fs.kept.dropped[c] = true
	fs.mergeOf[fs.cs[c].merge] = -1
}

// setParent makes p the construct around c.
func (fs *constructFacts) setParent(c, p int) {
	fs.rewritten()
	fs.cs[c].parent = p
}

// mergedAtArm records that selection x merges at t in place of e, and
// that the constructs headed by heads (those of t's chain) now lie
// directly in the construct around x's. The caller keeps mergeOf and the
// predecessors.
func (fs *constructFacts) mergedAtArm(x, t int, heads []int) {
	fs.rewritten()
	if fs.kept.headerOf == nil {
		fs.kept.headerOf = make([]int, len(fs.mergeOf))
		for b := range fs.kept.headerOf {
			fs.kept.headerOf[b] = -1
		}
		for c, k := range fs.cs {
			if k.kind != cContinue {
				fs.kept.headerOf[k.header] = c
			}
		}
	}
	cx := fs.kept.headerOf[x]
	fs.cs[cx].merge = t
	for _, h := range heads {
		fs.cs[fs.kept.headerOf[h]].parent = fs.cs[cx].parent
	}
}

// movePreds records that every edge into e now goes to m.
func (fs *constructFacts) movePreds(e, m int) {
	fs.rewritten()
	fs.preds[m] = append(fs.preds[m], fs.preds[e]...)
	fs.preds[e] = nil
	if fs.kept.predN != nil {
		fs.kept.predN[m] += fs.kept.predN[e]
		fs.kept.predN[e] = 0
	}
}

// predCounts is the number of branch edges into each block (predCounts
// of f, as the predecessor lists hold one entry per edge), made on first
// use and kept by movePreds.
func (fs *constructFacts) predCounts() []int {
	if fs.kept.predN == nil {
		fs.kept.predN = make([]int, len(fs.preds))
		for b, ps := range fs.preds {
			fs.kept.predN[b] = len(ps)
		}
	}
	return fs.kept.predN
}

// sameAs reports where the kept facts differ from fresh ones, computed
// for the same function: the declarers, the live constructs (by header
// and kind: kind, merge, continue target, the parent's header) and the
// predecessors (as sets of edges); nil when they agree.
func (fs *constructFacts) sameAs(fresh *constructFacts) error {
	if !slices.Equal(fs.mergeOf, fresh.mergeOf) || !slices.Equal(fs.contOf, fresh.contOf) {
		return fmt.Errorf("kept facts: the declarers differ from fresh ones")
	}
	if a, b := constructSummary(fs), constructSummary(fresh); !maps.Equal(a, b) {
		return fmt.Errorf("kept facts: constructs %v, fresh %v", a, b)
	}
	for b := range fresh.preds {
		a, c := slices.Sorted(slices.Values(fs.preds[b])), slices.Sorted(slices.Values(fresh.preds[b]))
		if !slices.Equal(a, c) {
			return fmt.Errorf("kept facts: block %d's predecessors %v, fresh %v", b, a, c)
		}
	}
	return nil
}

// constructKey names a construct by its header and whether it is a
// continue construct.
type constructKey struct {
	header int
	cont   bool
}

// constructSummary lists fs's live constructs by key: kind, merge,
// continue target and the parent's key.
func constructSummary(fs *constructFacts) map[constructKey]string {
	key := func(c int) constructKey { return constructKey{fs.cs[c].header, fs.cs[c].kind == cContinue} }
	m := map[constructKey]string{}
	for c, k := range fs.cs {
		if fs.isDropped(c) {
			continue
		}
		parent := "none"
		if k.parent >= 0 {
			parent = fmt.Sprint(key(k.parent))
		}
		m[key(c)] = fmt.Sprintf("kind %d merge %d cont %d in %s", k.kind, k.merge, k.cont, parent)
	}
	return m
}
