// structured_nested_closes.go: whether a merge candidate closes the region
// of a selection or switch header (headerRegion) in the nested pass. The
// region of header x for merge m is the blocks reachable from x without
// passing m or an exit the open constructs allow (rule R6); it closes when
// no edge returns to x and every block of it but x is entered only from it
// (rule R10), and, for a switch, when every block of it lies in a case
// (R6's case constructs: casesCover). A region is walked block by block
// (walkRegion), small ones always; a larger one is measured through the
// graph's region memo instead (regionOf and switchRegion,
// structured_nested_regions.go), nested regions once each.

package structurizer

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// headerRegion is the region of header x (a switch when isSwitch) under
// exits, the blocks its construct may leave for besides its merge
// (allowedExits), in graph g with predecessors preds: the walks' shared
// marks, whose queue a walk leaves the region's blocks in, header first;
// the graph's facts, which keep the region memo; and, for a switch, the
// case each block lies in (cases).
type headerRegion struct {
	g        *cfg.Graph
	facts    *graphFacts
	preds    [][]int
	x        int
	isSwitch bool
	exits    []int
	marks    *walkMarks
	cases    *switchCases // nil for a selection
	// checkFast makes every measured answer be checked against the walk
	// it stands for (nester.checkFast).
	checkFast bool
}

// headerRegion is the region of header x, a construct of kind k that may
// leave for exits, in this run.
func (nt *nester) headerRegion(x int, k cKind, exits []int) headerRegion {
	hr := headerRegion{g: nt.g, facts: nt.facts, preds: nt.preds, x: x, isSwitch: k == cSwitch, exits: exits,
		marks: &nt.walkMarks, checkFast: nt.checkFast}
	if hr.isSwitch {
		hr.cases = &switchCases{x: x, targets: nt.g.Succs[x], parent: nt.parent, memo: &nt.cases, checkFast: nt.checkFast}
	}
	return hr
}

// memo is the graph's region memo, made on first use.
func (hr *headerRegion) memo() *regionMemo { return hr.facts.regionMemo(hr.g) }

// closes is regionSize, and for a switch also that every block of the
// region lies in a case (R6's case constructs: dominated by a target); a
// switch's region is measured (switchRegion) where it can be.
func (hr *headerRegion) closes(m, limit int) int {
	if hr.isSwitch && m >= 0 {
		if size, small := hr.smallRegion(m, limit); small {
			if size < 0 || !hr.casesCover() {
				return -1
			}
			return size
		}
		if size, ok := hr.switchRegion(m, limit); ok {
			if hr.checkFast {
				walked := hr.walkRegion(m, limit)
				if walked >= 0 && !hr.casesCover() {
					walked = -1
				}
				if walked != size {
					panic(fmt.Sprintf("bug: switch region of %d merging at %d (exits %v): %d measured, %d walked", hr.x, m, hr.exits, size, walked))
				}
			}
			return size
		}
	}
	size := hr.regionSize(m, limit)
	if size >= 0 && hr.isSwitch && !hr.casesCover() {
		return -1
	}
	return size
}

// casesCover reports whether every block of the region regionSize just
// walked (the marks' queue, header x first) is dominated, in the walk's
// tree, by a target of x: the blocks of a switch's construct must each lie
// in a case.
func (hr *headerRegion) casesCover() bool {
	for _, b := range hr.marks.queue[1:] {
		if !hr.cases.inCase(b) {
			return false
		}
	}
	return true
}

// regionSize returns the size of x's region for merge m (-1: none, a
// fresh block), or -1 when the region does not close or grows past limit
// blocks. A selection's region is measured (regionOf: nested regions
// once each); a switch's, and the region without a merge, are walked
// (walkRegion, which leaves the region's blocks in the marks' queue for
// casesCover and the break search).
func (hr *headerRegion) regionSize(m, limit int) int {
	if !hr.isSwitch && m >= 0 {
		if size, small := hr.smallRegion(m, limit); small {
			return size
		}
		if size, ok := hr.regionOf(m, limit); ok {
			if hr.checkFast {
				if walked := hr.walkRegion(m, limit); walked != size {
					panic(fmt.Sprintf("bug: region of %d merging at %d (exits %v): %d measured, %d walked", hr.x, m, hr.exits, size, walked))
				}
			}
			return size
		}
	}
	return hr.walkRegion(m, limit)
}

// smallRegionBlocks is the largest region walked before it is measured: a walk
// that closes within it costs no allocation, and most regions are small.
const smallRegionBlocks = 64

// smallRegion walks x's region for merge m up to smallRegionBlocks
// blocks: small is true when the walk decides within them (size is then
// regionSize's answer, and the marks' queue holds the region's blocks
// when it closes). Under checkFast it checks that answer against the full
// walk and reports no answer, so that every region is measured and
// checked too.
func (hr *headerRegion) smallRegion(m, limit int) (size int, small bool) {
	size, cut := hr.walkRegionCut(m, min(limit, smallRegionBlocks))
	if hr.checkFast {
		if full := hr.walkRegion(m, limit); !cut && full != size {
			panic(fmt.Sprintf("bug: region of %d merging at %d: %d walked within %d blocks, %d walked", hr.x, m, size, smallRegionBlocks, full))
		}
		return 0, false
	}
	return size, !cut
}

// walkRegion is regionSize, walking the region block by block.
func (hr *headerRegion) walkRegion(m, limit int) int {
	size, _ := hr.walkRegionCut(m, limit)
	return size
}

// walkRegionCut is walkRegion, also saying whether the region was cut at
// limit (size is then -1 whatever a longer walk would find); any other
// -1 is the answer under every larger limit too.
func (hr *headerRegion) walkRegionCut(m, limit int) (size int, cut bool) {
	wm := hr.marks
	wm.stamp++
	st := wm.stamp
	stop := func(t int) bool { return t == m || slices.Contains(hr.exits, t) }
	wm.queue = append(wm.queue[:0], hr.x)
	wm.mark[hr.x] = st
	for i := 0; i < len(wm.queue); i++ {
		if len(wm.queue) > limit {
			return -1, true
		}
		for _, t := range hr.g.Succs[wm.queue[i]] {
			if t == hr.x {
				return -1, false // a cycle through the header: x is not a selection
			}
			if stop(t) || wm.mark[t] == st {
				continue
			}
			wm.mark[t] = st
			wm.queue = append(wm.queue, t)
		}
	}
	for _, b := range wm.queue[1:] {
		for _, p := range hr.preds[b] {
			if wm.mark[p] != st {
				return -1, false // entered past the header (R10)
			}
		}
	}
	return len(wm.queue), false
}
