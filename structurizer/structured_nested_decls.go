// structured_nested_decls.go: the nested pass's declarations, per block of
// the graph and per fresh merge: which header declares it as its merge or
// continue target (one header at most, rule R1 and R4's uniqueness), each
// header's declaration, and the fresh unreachable merges a run adds; and
// the Func a run builds from them, the graph's blocks as they are with
// their declarations.

package structurizer

import "github.com/cfgfuzz/cfgfuzz/structurizer/cfg"

// nestDecls is a run's declarations over a graph of n blocks; fresh merges
// get ids from n up.
type nestDecls struct {
	n       int
	decl    []Merge // per block (fresh ones included)
	mergeOf []int   // header declaring b as merge, -1
	// contOf is the loop header declaring b as continue target, -1; -1
	// too for a one-block loop's header, its own continue target, which
	// the walk takes as a loop header and a selection may merge at.
	contOf []int
	fresh  int // fresh unreachable merges
}

// freshRoom is how many fresh merges a run's tables have room for.
const freshRoom = 4

// newFresh adds a fresh unreachable merge block.
func (d *nestDecls) newFresh() int {
	id := d.n + d.fresh
	d.fresh++
	d.decl = append(d.decl, Merge{})
	d.mergeOf = append(d.mergeOf, -1)
	d.contOf = append(d.contOf, -1)
	return id
}

// declare records header h's declaration.
func (d *nestDecls) declare(h int, m Merge) bool {
	if d.mergeOf[m.Merge] >= 0 || d.contOf[m.Merge] >= 0 {
		return false
	}
	if m.Kind == LoopMerge && m.Continue != h {
		if d.contOf[m.Continue] >= 0 || d.mergeOf[m.Continue] >= 0 {
			return false
		}
		d.contOf[m.Continue] = h
	}
	d.mergeOf[m.Merge] = h
	d.decl[h] = m
	return true
}

// build makes the Func of g under the declarations: a synthetic entry,
// then block b of g as block b+1 (from orig up a forwarder, withForwarder),
// then the fresh merges.
func (d *nestDecls) build(g *cfg.Graph, orig int) *Func {
	f := &Func{Blocks: make([]Block, 1+d.n+d.fresh)}
	f.Blocks[0] = Block{Name: "entry", Kind: Synthetic, Orig: -1, Term: Term{Kind: Branch, To: []int{1}}}
	edges := 0
	for b := range d.n {
		edges += len(g.Succs[b])
	}
	all := make([]int, edges) // every block's targets, each capped at its length
	for b := range d.n {
		blk := Block{Name: g.Name(b), Kind: Original, Orig: b, Weight: g.Weight(b)}
		if b >= orig {
			blk = Block{Name: "fwd", Kind: Synthetic, Orig: -1}
		}
		s := g.Succs[b]
		to := all[:len(s):len(s)]
		all = all[len(s):]
		for i, t := range s {
			to[i] = t + 1
		}
		switch len(s) {
		case 0:
			blk.Term = Term{Kind: Return}
		case 1:
			blk.Term = Term{Kind: Branch, To: to}
		default:
			blk.Arity = len(s)
			blk.Term = Term{Kind: Choose, To: to}
		}
		if dm := d.decl[b]; dm.Kind != NoMerge {
			blk.Merge = Merge{Kind: dm.Kind, Merge: dm.Merge + 1}
			if dm.Kind == LoopMerge {
				blk.Merge.Continue = dm.Continue + 1
			}
		}
		f.Blocks[b+1] = blk
	}
	for i := range d.fresh {
		f.Blocks[1+d.n+i] = Block{Name: "merge", Kind: Synthetic, Orig: -1, Term: Term{Kind: Unreachable}}
	}
	return f
}
