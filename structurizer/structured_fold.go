// structured_fold.go: the fold pass of the structured strategy. The
// selections and loops passes put every store that belongs to an edge (a
// skip past a join, a loop exit to a routed destination) into a block of its
// own, because SPIR-V has no stores on edges. This pass removes those blocks
// where the function can carry the stores elsewhere without changing a run:
//
//   - a store that writes the value its variable holds on every run that
//     reaches it is dropped (a loop merge routes value v to the parent's
//     exit block, which stores v again); a store block left empty is a
//     forwarder for the thread pass;
//   - a store block entered by one edge, from a block that branches, takes
//     its stores into that block, whose branch then goes on past it;
//   - a store block entered by one edge, from a conditional whose other
//     label is the store block's target and which heads nothing (or only
//     the store block, merging at that target), becomes a per-choice
//     store of it, and the conditional a branch to the target: no label
//     is left to tell apart (R15), and the emptied merge is a forwarder;
//   - a store block that is the selection merge of the original
//     conditional or switch before it, and is entered by that one edge
//     alone, gives its stores to the header as per-choice stores (as
//     below) and stays its merge, empty: the header runs on every run that
//     reaches the merge and the merge reads no variable, so every other
//     block sees the values it saw. The thread pass then sends the
//     switch's cases that go through other empty forwarders to the same
//     block to that merge;
//   - a store block entered by one edge, from an original conditional or
//     switch, becomes a per-choice store of it (Store.PerChoice): the
//     stored value on the choice that led to the store block, and on the
//     others the value the variable already holds there, which must be one
//     known value. A switch's case then goes straight on only to the
//     switch's own merge (R11); to any other block it goes through the
//     emptied store block, a forwarder that the thread pass shares among
//     the switch's cases to that block.
//
// The values a variable may hold come from a constant propagation over the
// function's blocks (Kildall's dataflow framework, POPL 1973), whose lattice
// is a set of at most maxKnown values or "any", and in which a test or route
// refines its variable on each edge it takes (the value tested on the equal
// edge, the others on the default). The propagation runs once: each fold
// keeps every variable's value at every remaining block as it was, so its
// facts stay true as the pass goes.
//
// A merge's stores move into its header and no edge moves. Any other store
// block's stores move only where the thread pass would bypass an empty
// forwarder: it heads nothing and is no merge or continue target (so it
// lies in the same constructs as the block before it, and the edge leaves
// the same ones), its target is no loop header, and a conditional's two
// labels stay distinct (R15).

package structurizer

import "slices"

// maxKnown is how many values a variable's set holds before it is "any":
// three keep a set in 16 bytes (a fourth cost half the pass's time at
// 100,000 blocks and saved one block of 21,046 synthetic ones on random
// graphs of 1,000 and 10,000 blocks).
const maxKnown = 3

// known is a set of values a variable may hold at a point: n values, or any
// value when n < 0. n == 0 is the empty set: no run reaches the point.
type known struct {
	n int8
	v [maxKnown]uint32
}

var anyValue = known{n: -1}

func one(v uint32) known { return known{n: 1, v: [maxKnown]uint32{v}} }

func (k known) has(v uint32) bool {
	return k.n < 0 || slices.Contains(k.v[:k.n], v)
}

// single returns the set's one value.
func (k known) single() (uint32, bool) { return k.v[0], k.n == 1 }

// union returns k and o together, any past maxKnown values.
func (k known) union(o known) known {
	if k.n < 0 || o.n < 0 {
		return anyValue
	}
	for _, v := range o.v[:o.n] {
		if slices.Contains(k.v[:k.n], v) {
			continue
		}
		if int(k.n) == maxKnown {
			return anyValue
		}
		k.v[k.n] = v
		k.n++
	}
	return k
}

// without returns k less the values vs (any stays any).
func (k known) without(vs []uint32) known {
	if k.n < 0 {
		return k
	}
	var r known
	for _, v := range k.v[:k.n] {
		if !slices.Contains(vs, v) {
			r.v[r.n] = v
			r.n++
		}
	}
	return r
}

// only returns k less every value but v.
func (k known) only(v uint32) known {
	if k.has(v) {
		return one(v)
	}
	return known{}
}

// varValues are the values each variable may hold on entry to each block:
// at[b*nv+x] for block b and variable x.
type varValues struct {
	nv int
	at []known
}

func (vv *varValues) entry(b int) []known { return vv.at[b*vv.nv : (b+1)*vv.nv] }

// afterStores applies block blk's stores to the state s (in place) for the
// choice c (-1: the block reads no decision, or every choice at once).
func afterStores(blk *Block, s []known, c int) {
	for _, st := range blk.Stores {
		applyStore(st, s, c)
	}
}

// applyStore applies one store to the state s for the choice c (-1: every
// choice at once).
func applyStore(st Store, s []known, c int) {
	switch {
	case st.PerChoice == nil:
		s[st.Var] = one(st.Value)
	case c >= 0:
		s[st.Var] = one(st.PerChoice[c])
	default:
		var u known
		for _, v := range st.PerChoice {
			u = u.union(one(v))
		}
		s[st.Var] = u
	}
}

// refine narrows state s to what holds on edge i of block blk's terminator.
// It returns false when no run takes the edge.
func refine(blk *Block, i int, s []known) bool {
	t := &blk.Term
	var k known
	switch {
	case t.Kind == Test && i == 0:
		k = s[t.Var].only(t.Values[0])
	case t.Kind == Test:
		k = s[t.Var].without(t.Values)
	case t.Kind == Route && i == 0:
		k = s[t.Var].without(t.Values)
	case t.Kind == Route:
		k = s[t.Var].only(t.Values[i-1])
	default:
		return true
	}
	s[t.Var] = k
	return k.n != 0
}

// propagate computes the values of f's variables on entry to each block: a
// worklist to the fixpoint from the entry, each variable at its Init. Each
// block's sets only grow, at most maxKnown+1 times a variable, so the
// worklist ends.
func propagate(f *Func) *varValues {
	nv := len(f.Vars)
	vv := &varValues{nv: nv, at: make([]known, len(f.Blocks)*nv)}
	if nv == 0 {
		return vv
	}
	for x, v := range f.Vars {
		vv.at[x] = one(v.Init)
	}
	work := []int{0}
	queued := make([]bool, len(f.Blocks))
	queued[0] = true
	s, base := make([]known, nv), make([]known, nv)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		queued[b] = false
		blk := &f.Blocks[b]
		perEdge := blk.Term.Kind == Choose
		if !perEdge {
			copy(base, vv.entry(b))
			afterStores(blk, base, -1)
		}
		for i, t := range blk.Term.To {
			if perEdge {
				copy(s, vv.entry(b))
				afterStores(blk, s, i)
			} else {
				copy(s, base)
			}
			if !refine(blk, i, s) {
				continue
			}
			in := vv.entry(t)
			grew := false
			for x := range s {
				if u := in[x].union(s[x]); u != in[x] {
					in[x], grew = u, true
				}
			}
			if grew && !queued[t] {
				queued[t] = true
				work = append(work, t)
			}
		}
	}
	return vv
}

// fold runs the pass. Pre: f passes Validate. Post: f passes Validate and
// every run of it appends the same blocks as before; it changed something
// when it returns true. Progress: one propagation, then one walk over the
// blocks; a fold moves one store block's stores one block up, so a chain of
// store blocks folds in one walk when its head comes first, and what is left
// waits for the thread pass.
func fold(f *Func) bool {
	n := len(f.Blocks)
	declared := make([]bool, n)
	perBlock := make([]int, 2*n)
	edges := perBlock[:n:n]   // entering edges
	from := perBlock[n:]      // the block of the last entering edge
	for b := range f.Blocks { // one sweep of the blocks for all three
		declare(declared, &f.Blocks[b].Merge)
		for _, t := range f.Blocks[b].Term.To {
			edges[t]++
			from[t] = b
		}
	}
	vv := propagate(f)
	room := make([]known, vv.nv)
	changed := false
	for s := range f.Blocks {
		blk := &f.Blocks[s]
		if !storeBlock(blk, s) || edges[s] == 0 {
			continue
		}
		if declared[s] {
			if edges[s] == 1 && storesIntoHeader(f, vv, from[s], s) {
				changed = true
			}
			continue
		}
		if dropHeld(blk, vv.entry(s), room) {
			changed = true
		}
		if len(blk.Stores) == 0 || edges[s] != 1 {
			continue
		}
		p, t := from[s], blk.Term.To[0]
		if moved, past := moveInto(f, vv, edges, p, s); moved {
			if past && from[t] == s {
				from[t] = p
			}
			changed = true
		}
	}
	return changed
}

// storesIntoHeader moves the stores of store block s, the selection merge
// of block p and entered from p alone, into p as per-choice stores when p
// is an original conditional or switch and the values its other choices
// leave are known (perChoice); s stays p's merge. It reports whether the
// stores moved.
//
// Pre: s is declared by p alone and p's one edge to s is s's only
// entering edge. Post: s holds no store; p's runs store on the choice
// that leads to s what s stored, and on the others what the variable held
// already, so every block but s is entered with the values it was.
func storesIntoHeader(f *Func, vv *varValues, p, s int) bool {
	pb, sb := &f.Blocks[p], &f.Blocks[s]
	if len(sb.Stores) == 0 || pb.Term.Kind != Choose || pb.Merge.Kind != SelectionMerge || pb.Merge.Merge != s {
		return false
	}
	stores, ok := perChoice(pb, vv.entry(p), slices.Index(pb.Term.To, s), sb.Stores)
	if !ok {
		return false
	}
	pb.Stores, sb.Stores = stores, nil
	return true
}

// storeBlock: block blk (number s) is synthetic, heads nothing, and
// branches on to another block.
func storeBlock(blk *Block, s int) bool {
	return blk.Kind == Synthetic && blk.Merge.Kind == NoMerge && blk.Term.Kind == Branch && blk.Term.To[0] != s
}

// dropHeld removes the stores of blk that write what their variable holds
// already on every run (in: the values on entry; s: room for a state). It
// reports whether it removed one.
func dropHeld(blk *Block, in, s []known) bool {
	copy(s, in)
	var kept []Store // a new list, made on the first drop: the block's may be its working node's
	for k, st := range blk.Stores {
		held := false
		if st.PerChoice == nil {
			v, ok := s[st.Var].single()
			held = ok && v == st.Value
		}
		if held && kept == nil {
			kept = append(make([]Store, 0, len(blk.Stores)-1), blk.Stores[:k]...)
		}
		if !held && kept != nil {
			kept = append(kept, st)
		}
		applyStore(st, s, -1)
	}
	if kept == nil {
		return false
	}
	blk.Stores = kept
	return true
}

// moveInto folds store block s, entered by its one edge from block p, into
// p when the rules allow (the package's header): p takes s's stores, and
// branches past s, to s's target, unless p is a switch and the target is
// not its merge (R11): the case then goes through s, now an empty
// forwarder the thread pass can share. moved reports whether the stores
// moved, past whether the edge now goes past s.
func moveInto(f *Func, vv *varValues, edges []int, p, s int) (moved, past bool) {
	pb, sb := &f.Blocks[p], &f.Blocks[s]
	t := sb.Term.To[0]
	if f.Blocks[t].Merge.Kind == LoopMerge {
		return false, false
	}
	i := 0
	switch {
	case pb.Term.Kind == Branch:
		pb.Stores = append(slices.Clip(pb.Stores), sb.Stores...)
	case pb.Term.Kind == Choose && meets(f, edges, p, s):
		stores, ok := perChoice(pb, vv.entry(p), slices.Index(pb.Term.To, s), sb.Stores)
		if !ok {
			return false, false
		}
		pb.Stores, sb.Stores = stores, nil
		pb.Term = Term{Kind: Branch, To: []int{t}}
		pb.Merge = Merge{}
		return true, true
	case pb.Term.Kind == Choose:
		i = slices.Index(pb.Term.To, s)
		past = retargetable(pb, i, t)
		if !past && !isSwitch(pb) {
			return false, false
		}
		stores, ok := perChoice(pb, vv.entry(p), i, sb.Stores)
		if !ok {
			return false, false
		}
		pb.Stores = stores
		sb.Stores = nil
		if past {
			pb.Term.To[i] = t
		}
		return true, past
	default:
		return false, false
	}
	pb.Term.To[i] = t
	sb.Stores = nil
	return true, true
}

// meets: block p is a conditional whose labels are store block s and s's
// target t, and which heads nothing or only the construct {p, s} (its merge
// is t, entered by those two edges alone: edges counts each block's entering
// edges). p can then store by choice and branch to t: every run goes on to
// t as before, and t, no longer a merge, is a forwarder or join like any.
func meets(f *Func, edges []int, p, s int) bool {
	pb := &f.Blocks[p]
	t := f.Blocks[s].Term.To[0]
	if pb.Arity != 2 || !slices.Contains(pb.Term.To, t) {
		return false
	}
	switch pb.Merge.Kind {
	case NoMerge:
		return true
	case SelectionMerge:
		return pb.Merge.Merge == t && edges[t] == 2
	}
	return false
}

// perChoice returns the stores of choosing block pb (entry values in) with
// the stores ss of its choice i's store block folded in: each variable ss
// writes gets one per-choice store, ss's value on choice i and on the others
// the value pb leaves it with, which must be known. ok is false when it is
// not.
func perChoice(pb *Block, in []known, i int, ss []Store) (stores []Store, ok bool) {
	var written []int
	for _, st := range ss {
		if !slices.Contains(written, st.Var) {
			written = append(written, st.Var)
		}
	}
	for _, st := range pb.Stores {
		if !slices.Contains(written, st.Var) {
			stores = append(stores, st)
		}
	}
	s := make([]known, len(in))
	for _, x := range written {
		pc := make([]uint32, pb.Arity)
		for c := range pb.Arity {
			copy(s, in)
			afterStores(pb, s, c)
			if c == i {
				afterStores(&Block{Stores: ss}, s, -1)
			}
			v, held := s[x].single()
			if !held {
				return nil, false
			}
			pc[c] = v
		}
		stores = append(stores, Store{Var: x, PerChoice: pc})
	}
	return stores, true
}
