// structured_nested_switchcases.go: which case of a switch a block lies in,
// for the nested pass's switch regions: the blocks of a switch's construct
// must each lie in a case (R6's case constructs), under a target of the
// switch in the walk's tree. The answers for one switch are memoized along
// the way up the tree (caseMemo), so the blocks of the regions one choice
// measures are each walked up once.

package structurizer

import (
	"fmt"
	"slices"
)

// caseMemo keeps, for the blocks a choice asked inCase about, their
// ancestor in the walk's tree whose parent is the choice's header (-1:
// none), and the header's targets (target[t] holds the stamp: a switch
// can have hundreds). An entry holds for the choice whose stamp it
// carries: the tree changes only between choices (adopt).
type caseMemo struct {
	stamp   []int32
	child   []int32
	target  []int32
	last    int32 // the last stamp handed out
	targets int32 // the stamp the targets in target carry
	path    []int // scratch: the blocks walked up
}

// switchCases are the cases of switch x, with targets targets, in the
// walk's tree (parent: nestTree.parent) as one merge choice asks about
// them: the run's case memo and this choice's stamp in it (0 until the
// first question).
type switchCases struct {
	x         int
	targets   []int
	parent    []int
	memo      *caseMemo
	stamp     int32
	checkFast bool // check every answer against caseChildWalk
}

// inCase reports whether block b lies, in the walk's tree, under a
// target of x. The way up from b is kept for the choice (caseChild), so
// the blocks of the regions one choice measures are each walked up once.
func (cs *switchCases) inCase(b int) bool {
	c := cs.caseChild(b)
	in := c >= 0 && cs.memo.target[c] == cs.stamp
	if cs.checkFast {
		walked := cs.caseChildWalk(b)
		if walkedIn := walked >= 0 && slices.Contains(cs.targets, walked); walked != c || walkedIn != in {
			panic(fmt.Sprintf("bug: case of %d under %d: %d (a target: %v) kept, %d (%v) walked", b, cs.x, c, in, walked, walkedIn))
		}
	}
	return in
}

// caseChild is b's ancestor in the walk's tree whose parent is x, or -1;
// every block walked up on the way gets the same answer.
func (cs *switchCases) caseChild(b int) int {
	cm := cs.memo
	if cs.stamp == 0 {
		if n := len(cs.parent); len(cm.stamp) != n {
			cm.stamp, cm.child, cm.target = make([]int32, n), make([]int32, n), make([]int32, n)
		}
		cm.last++
		cs.stamp = cm.last
	}
	if cm.targets != cs.stamp { // this choice's first question, or another choice asked since
		for _, t := range cs.targets {
			cm.target[t] = cs.stamp
		}
		cm.targets = cs.stamp
	}
	path, c, ans := cm.path[:0], b, -1
	for {
		if cm.stamp[c] == cs.stamp {
			ans = int(cm.child[c])
			break
		}
		path = append(path, c)
		p := cs.parent[c]
		if p == cs.x {
			ans = c
			break
		}
		if p < 0 {
			break
		}
		c = p
	}
	for _, v := range path {
		cm.stamp[v], cm.child[v] = cs.stamp, int32(ans)
	}
	cm.path = path
	return ans
}

// caseChildWalk is caseChild by a walk up the tree (the reference
// checkFast holds it to).
func (cs *switchCases) caseChildWalk(b int) int {
	c := b
	for cs.parent[c] != cs.x {
		if c = cs.parent[c]; c < 0 {
			return -1
		}
	}
	return c
}
