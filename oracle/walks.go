// walks.go: the walks the execution checks replay. A walk runs the original
// graph from block 0 on a decision sequence; the oracle records the trace
// of blocks and the decisions consumed, then demands the module do exactly
// the same. Walks are chosen greedily to cover every edge of the reachable
// graph (a shortest path to an uncovered edge, the edge, then uncovered
// edges first), then to give every deciding block its boundary decisions
// (BoundaryDecisions: the words a lowering that tests the decision's low
// bits, its sign or a switch's bound wrongly takes the wrong way), plus
// seeded random walks with out-of-range decisions. A
// random walk whose decisions equal an earlier walk's is dropped: the module
// gets the same input, so it would only repeat a run. One Walks call keeps
// its walks' traces and decisions in one arena (walkArena) and the decisions
// seen in a hashed set (decisionSet); walks_test.go holds it to the plain
// selection it replaced.

package oracle

import (
	encbin "encoding/binary"
	"math/rand/v2"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Walk is one run of the original graph.
type Walk struct {
	Decisions []uint32
	Trace     []int // blocks entered, in order
	Consumed  int   // decisions read
	Returned  bool  // false: cut at the step cap
	// Registers is the register file's size (WalkOptions.Registers), and
	// Checksum, for a returned walk, the file's expected checksum
	// (registers.go).
	Registers int
	Checksum  uint32
}

// RunWalk runs g on the decisions (0 once they run out) for at most
// maxSteps blocks.
func RunWalk(g *cfg.Graph, decisions []uint32, maxSteps int) Walk {
	var a walkArena
	return a.run(g, decisions, maxSteps)
}

// WalkOptions configures walk selection. The zero value covers every edge
// and adds 16 random walks (fewer where some repeat an earlier walk), with
// a step cap of max(64, 4 x blocks) and a cap on all walks' steps together
// of max(2^23, 64 x blocks).
type WalkOptions struct {
	Random   int    // random walks drawn on top of the covering ones; 0: 16, <0: none; at most MaxRandomWalks
	MaxSteps int    // step cap per walk; 0: max(64, 4 x blocks)
	Seed     uint64 // seeds the random walks
	MaxWalks int    // cap on covering walks; 0: 4 x blocks + 16, and a walk for each case of a switch past its second (a jump table's every case taken)
	// MaxTotalSteps caps the blocks all walks visit together; 0:
	// max(2^23, 64 x blocks). Without it a graph whose edges each need a
	// walk across it (a nest of thousands of loops: every latch is as deep
	// as its loop) gives walks quadratic in its size, in memory and in
	// the executor's time. No graph of up to 500 blocks whose switches
	// have a few cases can reach the default: at most 8 x blocks + 48
	// walks (covering, boundary and random) of at most 4 x blocks steps
	// each, and a walk more for each case of a switch past its second.
	MaxTotalSteps int
	// Registers is the size of the modules' register file (the workload
	// of convention 1.1); 0: none. With it every returned walk carries the
	// file's expected checksum.
	Registers int
}

// MaxRandomWalks is the most random walks one Walks call draws
// (WalkOptions.Random is capped there, and every command's --walks and a
// regression file's '# walks:' refuse more): each draw is tried even when
// it repeats an earlier walk, so a graph of few walks would spend a count
// of billions drawing.
const MaxRandomWalks = 1 << 16

// Walks returns covering walks, then boundary walks, followed by the
// random ones that repeat no earlier walk's decisions.
func Walks(g *cfg.Graph, opt WalkOptions) []Walk {
	walks, _ := walksOf(g, opt)
	return walks
}

// walksOf is Walks, and whether the step budget (MaxTotalSteps) stopped
// the covering or boundary walks with edges or decisions left to give.
func walksOf(g *cfg.Graph, opt WalkOptions) ([]Walk, bool) {
	return walksIn(&walkArena{}, g, opt)
}

// walksIn is walksOf with the walks' traces and decisions in a's memory,
// which it empties first: the walks are valid until a's next use (the
// execution check keeps one arena per oracle, oracle.go).
func walksIn(a *walkArena, g *cfg.Graph, opt WalkOptions) ([]Walk, bool) {
	n := g.Len()
	if opt.MaxSteps <= 0 {
		opt.MaxSteps = max(64, 4*n)
	}
	if opt.Random == 0 {
		opt.Random = 16
	}
	opt.Random = min(opt.Random, MaxRandomWalks)
	if opt.MaxWalks <= 0 {
		opt.MaxWalks = 4*n + 16 + extraCases(g)
	}
	if opt.MaxTotalSteps <= 0 {
		opt.MaxTotalSteps = max(1<<23, 64*n)
	}
	a.reset(opt.MaxTotalSteps)
	walks := a.coveringWalks(g, opt.MaxSteps, opt.MaxWalks)
	walks = a.boundaryWalks(g, walks, opt.MaxSteps, opt.MaxWalks)
	endEarly(walks)
	seen := decisionSet{first: make(map[uint64][]uint32, len(walks)+max(0, opt.Random))}
	for _, w := range walks {
		seen.add(w.Decisions)
	}
	r := rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	for range max(0, opt.Random) {
		if a.spent() {
			break
		}
		t0, d0 := len(a.trace), len(a.dec)
		w := a.randomWalk(g, opt.MaxSteps, r)
		if seen.add(w.Decisions) {
			walks = append(walks, w)
		} else { // nothing holds its parts: the next walk reuses them
			a.trace, a.dec = a.trace[:t0], a.dec[:d0]
		}
	}
	if opt.Registers > 0 {
		setChecksums(walks, opt.Registers)
	}
	return walks, a.cut
}

// endEarly drops each walk's trailing zero decisions but its first: a
// walk reads 0 once its decisions run out, so its trace stays the same,
// and the module runs past the end of its decisions, where the convention
// has a read yield 0 and still count (emit/CONVENTION.md). A walk given
// every decision it reads never gets there. One decision stays, so the
// batch's decision stride keeps a word after each walk's count.
func endEarly(walks []Walk) {
	for i := range walks {
		d := walks[i].Decisions
		k := len(d)
		for k > 1 && d[k-1] == 0 {
			k--
		}
		walks[i].Decisions = d[:k:k]
	}
}

// extraCases is the successors of g's switch blocks past the second of
// each: a walk crosses a switch once on most graphs, so covering every
// case of a jump table of 300 cases takes about 300 walks, whatever few
// blocks the graph has.
func extraCases(g *cfg.Graph) int {
	n := 0
	for _, s := range g.Succs {
		n += max(0, len(s)-2)
	}
	return n
}

// walkArena holds the traces and decisions of one Walks call: each walk's
// are consecutive parts of it, capped at their length, so appending to one
// copies it and leaves the others be.
type walkArena struct {
	trace []int
	dec   []uint32
	path  pathScratch
	// budget caps len(trace), the steps of every walk kept; cut is set
	// when it stopped the covering or boundary walks with work left.
	budget int
	cut    bool
}

// reset empties a for the walks of another graph under budget, keeping
// its memory.
func (a *walkArena) reset(budget int) {
	if a.dec == nil { // a walk of no decisions has empty ones, not nil, on any arena
		a.dec = make([]uint32, 0, 64)
	}
	a.trace, a.dec = a.trace[:0], a.dec[:0]
	a.budget, a.cut = budget, false
}

// spent reports whether the walks kept have used up the step budget.
func (a *walkArena) spent() bool { return a.budget > 0 && len(a.trace) >= a.budget }

// part is s from index from on, capped; nil when empty.
func part[T any](s []T, from int) []T {
	if from == len(s) {
		return nil
	}
	return s[from:len(s):len(s)]
}

// run is RunWalk with the trace in the arena.
func (a *walkArena) run(g *cfg.Graph, decisions []uint32, maxSteps int) Walk {
	t0 := len(a.trace)
	var w Walk
	b := 0
	for range maxSteps {
		a.trace = append(a.trace, b)
		var d uint32
		if g.Decides(b) {
			if w.Consumed < len(decisions) {
				d = decisions[w.Consumed]
			}
			w.Consumed++
		}
		if b = g.Next(b, d); b < 0 {
			w.Returned = true
			break
		}
	}
	w.Trace, w.Decisions = part(a.trace, t0), decisions
	return w
}

// randomWalk runs g for at most maxSteps blocks on decisions drawn as it
// consumes them: one in 8 any word (out of range for most switches: the
// default), else 0 to 3.
func (a *walkArena) randomWalk(g *cfg.Graph, maxSteps int, r *rand.Rand) Walk {
	t0, d0 := len(a.trace), len(a.dec)
	var w Walk
	b := 0
	for range maxSteps {
		a.trace = append(a.trace, b)
		var d uint32
		if g.Decides(b) {
			switch r.IntN(8) {
			case 0:
				d = r.Uint32()
			default:
				d = uint32(r.IntN(4))
			}
			a.dec = append(a.dec, d)
			w.Consumed++
		}
		if b = g.Next(b, d); b < 0 {
			w.Returned = true
			break
		}
	}
	w.Trace, w.Decisions = part(a.trace, t0), part(a.dec, d0)
	return w
}

// decisionSet is a set of decision sequences: for each hash, the first
// sequence added with it; a different sequence with a hash already taken
// goes to spill, by its decisionKey.
type decisionSet struct {
	first map[uint64][]uint32
	spill map[string]bool
	hash  func([]uint32) uint64 // nil: hashDecisions (tests collide them)
}

// add adds dec and says whether it was new. The set keeps dec.
func (s *decisionSet) add(dec []uint32) bool {
	var h uint64
	if s.hash != nil {
		h = s.hash(dec)
	} else {
		h = hashDecisions(dec)
	}
	if s.first == nil {
		s.first = map[uint64][]uint32{}
	}
	f, taken := s.first[h]
	switch {
	case !taken:
		s.first[h] = dec
		return true
	case slices.Equal(f, dec):
		return false
	}
	k := decisionKey(dec)
	if s.spill[k] {
		return false
	}
	if s.spill == nil {
		s.spill = map[string]bool{}
	}
	s.spill[k] = true
	return true
}

// hashDecisions is a 64-bit FNV-1a hash of the decision words.
func hashDecisions(dec []uint32) uint64 {
	h := uint64(14695981039346656037)
	for _, d := range dec {
		h = (h ^ uint64(d)) * 1099511628211
	}
	return h
}

// decisionKey is a decision sequence as a map key.
func decisionKey(dec []uint32) string {
	b := make([]byte, 4*len(dec))
	for i, d := range dec {
		encbin.LittleEndian.PutUint32(b[4*i:], d)
	}
	return string(b)
}

// coveringWalks builds walks until every edge out of a reachable block is
// taken by some walk (or maxWalks is reached).
func (a *walkArena) coveringWalks(g *cfg.Graph, maxSteps, maxWalks int) []Walk {
	n := g.Len()
	covered := make([][]bool, n)
	left, edges := 0, 0
	reach := g.Reachable()
	for b, s := range g.Succs {
		edges += len(s)
		if reach[b] {
			left += len(s)
		}
	}
	all := make([]bool, edges) // every block's flags, one after another
	for b, s := range g.Succs {
		covered[b], all = all[:len(s):len(s)], all[len(s):]
	}
	toExit := distToExit(g)
	walks := make([]Walk, 0, min(left, maxWalks))
	from := 0
	for left > 0 && len(walks) < maxWalks {
		if a.spent() {
			a.cut = true
			break
		}
		src, idx := firstUncoveredFrom(covered, reach, &from)
		d0 := len(a.dec)
		var ok bool
		if a.dec, ok = a.path.appendPathTo(a.dec, g, src); !ok {
			break
		}
		if g.Decides(src) {
			a.dec = append(a.dec, cfg.DecisionFor(len(g.Succs[src]), idx))
		}
		// Continue from the edge's target: uncovered edges first, else
		// towards an exit.
		b := g.Succs[src][idx]
		for steps := len(a.dec) - d0; steps < maxSteps && len(g.Succs[b]) > 0; steps++ {
			i := pickEdge(g, b, covered[b], toExit)
			if g.Decides(b) {
				a.dec = append(a.dec, cfg.DecisionFor(len(g.Succs[b]), i))
			}
			if !covered[b][i] {
				covered[b][i] = true
				left--
			}
			b = g.Succs[b][i]
		}
		w := a.run(g, a.dec[d0:len(a.dec):len(a.dec)], maxSteps)
		markWalk(g, w, covered, &left)
		if !covered[src][idx] { // cut before reaching it: never retry it
			covered[src][idx] = true
			left--
		}
		walks = append(walks, w)
	}
	if len(walks) == 0 {
		return nil // as a plain append would leave it
	}
	return walks
}

func firstUncovered(g *cfg.Graph, covered [][]bool, reach []bool) (int, int) {
	from := 0
	return firstUncoveredFrom(covered, reach, &from)
}

// firstUncoveredFrom is firstUncovered searching from block *from on and
// moving *from past the blocks it finds all covered: flags are only ever
// set, so the next search need not look at them again, and a walk set's
// searches together read each block once.
func firstUncoveredFrom(covered [][]bool, reach []bool, from *int) (int, int) {
	for ; *from < len(covered); *from++ {
		b := *from
		if !reach[b] {
			continue
		}
		for i, ok := range covered[b] {
			if !ok {
				return b, i
			}
		}
	}
	return -1, -1
}

// pathScratch is pathTo's breadth-first search state, kept between walks.
type pathScratch struct {
	from, via, queue []int
	rev              []uint32
}

// appendPathTo appends to dec the decisions of a shortest path from the
// entry to target; false when target is unreachable (dec unchanged).
func (s *pathScratch) appendPathTo(dec []uint32, g *cfg.Graph, target int) ([]uint32, bool) {
	n := g.Len()
	s.from, s.via = slices.Grow(s.from[:0], n)[:n], slices.Grow(s.via[:0], n)[:n]
	from, via := s.from, s.via
	for i := range from {
		from[i] = -1
	}
	from[0] = 0
	queue := append(s.queue[:0], 0)
	for head := 0; head < len(queue) && from[target] < 0; head++ {
		b := queue[head]
		for i, t := range g.Succs[b] {
			if from[t] < 0 {
				from[t], via[t] = b, i
				queue = append(queue, t)
			}
		}
	}
	s.queue = queue
	if from[target] < 0 {
		return dec, false
	}
	rev := s.rev[:0]
	for b := target; b != 0; b = from[b] {
		p := from[b]
		if g.Decides(p) {
			rev = append(rev, cfg.DecisionFor(len(g.Succs[p]), via[b]))
		}
		if p == 0 {
			break
		}
	}
	s.rev = rev
	for i := len(rev) - 1; i >= 0; i-- {
		dec = append(dec, rev[i])
	}
	return dec, true
}

// markWalk marks the edges a walk took.
func markWalk(g *cfg.Graph, w Walk, covered [][]bool, left *int) {
	k := 0
	for i := 0; i+1 < len(w.Trace); i++ {
		b := w.Trace[i]
		var d uint32
		if g.Decides(b) {
			if k < len(w.Decisions) {
				d = w.Decisions[k]
			}
			k++
		}
		c := cfg.Choice(len(g.Succs[b]), d)
		if !covered[b][c] {
			covered[b][c] = true
			*left--
		}
	}
}

// pickEdge prefers an uncovered edge, then the edge closest to an exit.
func pickEdge(g *cfg.Graph, b int, covered []bool, toExit []int) int {
	for i, c := range covered {
		if !c {
			return i
		}
	}
	best := 0
	for i, t := range g.Succs[b] {
		if toExit[t] >= 0 && (toExit[g.Succs[b][best]] < 0 || toExit[t] < toExit[g.Succs[b][best]]) {
			best = i
		}
	}
	return best
}

// distToExit is the number of edges from each block to a returning block
// (-1 when none is reachable), by reverse breadth-first search.
func distToExit(g *cfg.Graph) []int {
	n := g.Len()
	d := make([]int, n)
	preds := g.Preds()
	var queue []int
	for b := range n {
		d[b] = -1
		if len(g.Succs[b]) == 0 {
			d[b] = 0
			queue = append(queue, b)
		}
	}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		for _, p := range preds[b] {
			if d[p] < 0 {
				d[p] = d[b] + 1
				queue = append(queue, p)
			}
		}
	}
	return d
}

// BoundaryDecisions are the decisions, besides the ones DecisionFor gives,
// that every reachable block of out-degree outDegree is driven with by
// Walks' boundary walks: for a conditional 1<<31 (taken, as any non-zero
// word: a test of fewer than 32 low bits, or a signed test > 0, falls
// through instead), for a switch outDegree (the default: a bound check
// off by one takes a case) and 1<<31 | 1 (the default: a switch on fewer
// than 32 low bits takes case 1, a signed bound check reads a negative
// index). Nil for a block that decides nothing.
func BoundaryDecisions(outDegree int) []uint32 {
	switch {
	case outDegree == 2:
		return []uint32{1 << 31}
	case outDegree >= 3:
		return []uint32{uint32(outDegree), 1<<31 | 1}
	}
	return nil
}

// boundaryWalks appends to walks, up to maxWalks more, walks that drive
// every reachable deciding block with each of its BoundaryDecisions that
// no walk gave it yet: a shortest path to the first such block, the
// decision, then the next such decision wherever one is left, else the
// edge closest to an exit.
func (a *walkArena) boundaryWalks(g *cfg.Graph, walks []Walk, maxSteps, maxWalks int) []Walk {
	n := g.Len()
	reach := g.Reachable()
	left := 0
	done := make([][]bool, n)
	for b, s := range g.Succs {
		if k := len(BoundaryDecisions(len(s))); k > 0 && reach[b] {
			done[b] = make([]bool, k)
			left += k
		}
	}
	if left == 0 {
		return walks
	}
	for _, w := range walks {
		markBoundary(g, w, done, &left)
	}
	toExit := distToExit(g)
	from := 0
	for added := 0; left > 0 && added < maxWalks; added++ {
		if a.spent() {
			a.cut = true
			break
		}
		src, idx := firstUncoveredFrom(done, reach, &from)
		if src < 0 {
			break
		}
		d0 := len(a.dec)
		var ok bool
		if a.dec, ok = a.path.appendPathTo(a.dec, g, src); !ok {
			break
		}
		d := BoundaryDecisions(len(g.Succs[src]))[idx]
		a.dec = append(a.dec, d)
		done[src][idx] = true // given now, or never if the walk is cut before
		left--
		b := g.Next(src, d)
		for steps := len(a.dec) - d0; steps < maxSteps && b >= 0 && len(g.Succs[b]) > 0; steps++ {
			var d uint32
			if i := slices.Index(done[b], false); i >= 0 {
				d = BoundaryDecisions(len(g.Succs[b]))[i]
				done[b][i] = true
				left--
			} else if g.Decides(b) {
				d = cfg.DecisionFor(len(g.Succs[b]), pickEdge(g, b, nil, toExit))
			}
			if g.Decides(b) {
				a.dec = append(a.dec, d)
			}
			b = g.Next(b, d)
		}
		w := a.run(g, a.dec[d0:len(a.dec):len(a.dec)], maxSteps)
		markBoundary(g, w, done, &left)
		walks = append(walks, w)
	}
	return walks
}

// markBoundary marks the boundary decisions a walk gave its blocks.
func markBoundary(g *cfg.Graph, w Walk, done [][]bool, left *int) {
	k := 0
	for _, b := range w.Trace {
		if !g.Decides(b) {
			continue
		}
		var d uint32
		if k < len(w.Decisions) {
			d = w.Decisions[k]
		}
		k++
		if i := slices.Index(BoundaryDecisions(len(g.Succs[b])), d); i >= 0 && !done[b][i] {
			done[b][i] = true
			*left--
		}
	}
}
