// pdom_sample.go: the pdom check's brute force on graphs of more than
// PdomBruteForceLimit blocks, where the full relations (O(n·(n+e))) cost
// too much: PdomSampleBlocks blocks drawn from the oracle's seed, among the
// blocks the relation is about (reachable from the entry for dominators,
// reaching a return for post-dominators; the others are outside both
// trees, which the gonum comparison checks), each checked against the
// definition in O(n+e):
//
//   - row a of the relation: a (post-)dominates b, for every block b, by
//     the definition and by the tree's Dominates query;
//   - a's immediate (post-)dominator d by the definition: d (post-)
//     dominates a (its own row);
//   - for every b that a strictly (post-)dominates, a (post-)dominates b's
//     immediate (post-)dominator too (strict dominators form a chain).
//
// What the sample misses: a wrong query answer or immediate dominator at a
// block outside the sample, unless it shows in a sampled row. gonum's
// Lengauer-Tarjan (pdom.go) still checks every immediate dominator.

package oracle

import (
	"fmt"
	"math/rand/v2"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// PdomSampleBlocks is how many blocks the brute force checks on a graph of
// more than PdomBruteForceLimit blocks (about 1 ms per 10,000 blocks a
// sampled block and relation).
const PdomSampleBlocks = 32

// relationRow is one row of a brute-force relation.
type relationRow func(a int) []bool

// checkPdomSampled is the brute force on a sample of blocks.
func (o *Oracle) checkPdomSampled(g *cfg.Graph, dom, pdom *cfg.DomTree) (Verdict, bool) {
	r := rand.New(rand.NewPCG(o.opt.Seed, uint64(g.Len())))
	reach := cfg.RefReachable(g)
	domRow := func(a int) []bool { return cfg.RefDominatesRow(g, reach, a) }
	if v, bad := sampledRelation(dom, domRow, sampleBlocks(r, reach, PdomSampleBlocks), SigIDomRef, "dominates"); bad {
		return v, true
	}
	preds := g.Preds()
	live := cfg.RefExitReaching(g, preds)
	pdomRow := func(a int) []bool { return cfg.RefPostDominatesRow(g, live, preds, a) }
	return sampledRelation(pdom, pdomRow, sampleBlocks(r, live, PdomSampleBlocks), SigIPDomRef, "post-dominates")
}

// sampleBlocks draws up to k distinct blocks among those marked in.
func sampleBlocks(r *rand.Rand, in []bool, k int) []int {
	var pool []int
	for b, ok := range in {
		if ok {
			pool = append(pool, b)
		}
	}
	if len(pool) <= k {
		return pool
	}
	for i := range k {
		j := i + r.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	return pool[:k]
}

// sampledRelation checks the tree against the definition at each sampled
// block (see the file comment).
func sampledRelation(t *cfg.DomTree, row relationRow, sample []int, sig, what string) (Verdict, bool) {
	fail := func(format string, args ...any) (Verdict, bool) {
		return Verdict{Status: Fail, Signature: "pdom:" + sig, Detail: fmt.Sprintf(format, args...) + " (sampled brute force)"}, true
	}
	for _, a := range sample {
		rel := row(a)
		for b, want := range rel {
			if t.Dominates(a, b) != want {
				return fail("%d %s %d: tree says %v, the definition %v", a, what, b, !want, want)
			}
			if want && b != a {
				if d := t.IDom[b]; d >= 0 && !rel[d] {
					return fail("%d strictly %s %d but not its immediate one %d", a, what, b, d)
				}
			}
		}
		if d := t.IDom[a]; d >= 0 && !row(d)[a] {
			return fail("the tree's immediate one of %d is %d, which does not %s it by the definition", a, d, what)
		}
	}
	return Verdict{}, false
}
