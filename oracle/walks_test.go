// walks_test.go: Walks against walksReference, the plain selection it
// replaced (every walk's trace and decisions their own allocations, the
// decisions seen kept as string keys): the same walks, nil-ness of their
// slices included, on arbitrary graphs with every option; walks in one
// arena reused from graph to graph against walks in a fresh one; and the
// decision set against a map of keys when hashes collide.
package oracle

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestWalksAgainstReference(t *testing.T) {
	r := seededRand(t, 43)
	var arena walkArena // one for every graph, as the execution check's
	for i := range 600 {
		g := anyGraph(r, 1+r.IntN(12))
		opt := WalkOptions{Seed: r.Uint64()}
		switch i % 4 {
		case 1:
			opt.Random = -1
		case 2:
			opt.Random, opt.MaxSteps = 40, 1+r.IntN(12)
		case 3:
			opt.MaxWalks = 1 + r.IntN(3)
		}
		got, want := Walks(g, opt), walksReference(g, opt)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d %v, %+v:\n walks %+v\n reference %+v", i, g, opt, got, want)
		}
		if i%5 == 4 {
			opt.MaxTotalSteps = 1 + r.IntN(40) // the step budget cuts some
		}
		fresh, freshCut := walksOf(g, opt)
		if reused, cut := walksIn(&arena, g, opt); !reflect.DeepEqual(reused, fresh) || cut != freshCut {
			t.Fatalf("graph %d %v, %+v:\n walks in a reused arena %+v (cut %v)\n in a fresh one %+v (cut %v)", i, g, opt, reused, cut, fresh, freshCut)
		}
	}
}

// TestDecisionSetCollisions: with every sequence hashed alike, the set
// still tells sequences apart exactly as a map of their keys does.
func TestDecisionSetCollisions(t *testing.T) {
	r := seededRand(t, 47)
	s := decisionSet{hash: func([]uint32) uint64 { return 7 }}
	keys := map[string]bool{}
	for range 2000 {
		dec := make([]uint32, r.IntN(4))
		for i := range dec {
			dec[i] = uint32(r.IntN(3))
		}
		k := decisionKey(dec)
		if isNew := s.add(dec); isNew == keys[k] {
			t.Fatalf("%v: the set says new %v, the keys %v", dec, isNew, !keys[k])
		}
		keys[k] = true
	}
}

// walksReference is Walks without its arena and decision set: it returns covering walks followed by the random ones that repeat no
// earlier walk's decisions.
func walksReference(g *cfg.Graph, opt WalkOptions) []Walk {
	n := g.Len()
	if opt.MaxSteps <= 0 {
		opt.MaxSteps = max(64, 4*n)
	}
	if opt.Random == 0 {
		opt.Random = 16
	}
	if opt.MaxWalks <= 0 {
		opt.MaxWalks = 4*n + 16
	}
	walks := coveringWalksReference(g, opt.MaxSteps, opt.MaxWalks)
	walks = boundaryWalksReference(g, walks, opt.MaxSteps, opt.MaxWalks)
	for i := range walks { // each walk's trailing zeros dropped, its first decision kept
		d := walks[i].Decisions
		for len(d) > 1 && d[len(d)-1] == 0 {
			d = d[:len(d)-1]
		}
		walks[i].Decisions = d
	}
	seen := make(map[string]bool, len(walks)+max(0, opt.Random))
	for _, w := range walks {
		seen[decisionKey(w.Decisions)] = true
	}
	r := rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	for range max(0, opt.Random) {
		var dec []uint32 // drawn as the walk consumes them
		w := runWalk(g, opt.MaxSteps, func(int) uint32 {
			var d uint32
			switch r.IntN(8) {
			case 0:
				d = r.Uint32() // out of range for most switches: the default
			default:
				d = uint32(r.IntN(4))
			}
			dec = append(dec, d)
			return d
		})
		w.Decisions = dec
		if k := decisionKey(w.Decisions); !seen[k] {
			seen[k] = true
			walks = append(walks, w)
		}
	}
	return walks
}

// coveringWalksReference builds walks until every edge out of a reachable block is
// taken by some walk (or maxWalks is reached).
func coveringWalksReference(g *cfg.Graph, maxSteps, maxWalks int) []Walk {
	n := g.Len()
	covered := make([][]bool, n)
	left := 0
	reach := g.Reachable()
	for b, s := range g.Succs {
		covered[b] = make([]bool, len(s))
		if reach[b] {
			left += len(s)
		}
	}
	toExit := distToExit(g)
	var walks []Walk
	for left > 0 && len(walks) < maxWalks {
		src, idx := firstUncovered(g, covered, reach)
		dec := pathToReference(g, src)
		if dec == nil {
			break
		}
		if g.Decides(src) {
			dec = append(dec, cfg.DecisionFor(len(g.Succs[src]), idx))
		}
		// Continue from the edge's target: uncovered edges first, else
		// towards an exit.
		b := g.Succs[src][idx]
		for steps := len(dec); steps < maxSteps && len(g.Succs[b]) > 0; steps++ {
			i := pickEdge(g, b, covered[b], toExit)
			if g.Decides(b) {
				dec = append(dec, cfg.DecisionFor(len(g.Succs[b]), i))
			}
			if !covered[b][i] {
				covered[b][i] = true
				left--
			}
			b = g.Succs[b][i]
		}
		w := runWalkOn(g, dec, maxSteps)
		markWalk(g, w, covered, &left)
		if !covered[src][idx] { // cut before reaching it: never retry it
			covered[src][idx] = true
			left--
		}
		walks = append(walks, w)
	}
	return walks
}

// boundaryWalksReference appends walks until every reachable deciding
// block got each of its BoundaryDecisions from some walk (or maxWalks more
// walks are made).
func boundaryWalksReference(g *cfg.Graph, walks []Walk, maxSteps, maxWalks int) []Walk {
	reach := g.Reachable()
	given := map[[2]int]bool{} // block, index into its BoundaryDecisions
	mark := func(w Walk) {
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
			for i, bd := range BoundaryDecisions(len(g.Succs[b])) {
				if bd == d {
					given[[2]int{b, i}] = true
				}
			}
		}
	}
	for _, w := range walks {
		mark(w)
	}
	next := func() (int, int) {
		for b, s := range g.Succs {
			for i := range BoundaryDecisions(len(s)) {
				if reach[b] && !given[[2]int{b, i}] {
					return b, i
				}
			}
		}
		return -1, -1
	}
	toExit := distToExit(g)
	for added := 0; added < maxWalks; added++ {
		src, idx := next()
		if src < 0 {
			break
		}
		dec := pathToReference(g, src)
		if dec == nil {
			break
		}
		d := BoundaryDecisions(len(g.Succs[src]))[idx]
		dec = append(dec, d)
		given[[2]int{src, idx}] = true
		b := g.Next(src, d)
		for steps := len(dec); steps < maxSteps && b >= 0 && len(g.Succs[b]) > 0; steps++ {
			var d uint32
			bds := BoundaryDecisions(len(g.Succs[b]))
			i := -1
			for j := range bds {
				if !given[[2]int{b, j}] {
					i = j
					break
				}
			}
			if i >= 0 {
				d = bds[i]
				given[[2]int{b, i}] = true
			} else if g.Decides(b) {
				d = cfg.DecisionFor(len(g.Succs[b]), pickEdge(g, b, nil, toExit))
			}
			if g.Decides(b) {
				dec = append(dec, d)
			}
			b = g.Next(b, d)
		}
		w := runWalkOn(g, dec, maxSteps)
		mark(w)
		walks = append(walks, w)
	}
	return walks
}

// pathToReference returns the decisions of a shortest path from the entry to b.
func pathToReference(g *cfg.Graph, target int) []uint32 {
	n := g.Len()
	from := make([]int, n)
	via := make([]int, n)
	for i := range from {
		from[i] = -1
	}
	from[0] = 0
	queue := []int{0}
	for len(queue) > 0 && from[target] < 0 {
		b := queue[0]
		queue = queue[1:]
		for i, t := range g.Succs[b] {
			if from[t] < 0 {
				from[t], via[t] = b, i
				queue = append(queue, t)
			}
		}
	}
	if from[target] < 0 {
		return nil
	}
	var rev []uint32
	for b := target; b != 0; b = from[b] {
		p := from[b]
		if g.Decides(p) {
			rev = append(rev, cfg.DecisionFor(len(g.Succs[p]), via[b]))
		}
		if p == 0 {
			break
		}
	}
	dec := make([]uint32, len(rev))
	for i, d := range rev {
		dec[len(rev)-1-i] = d
	}
	return dec
}

// runWalkOn is RunWalk as it was: runWalk on the decisions, 0 once they
// run out.
func runWalkOn(g *cfg.Graph, decisions []uint32, maxSteps int) Walk {
	w := runWalk(g, maxSteps, func(k int) uint32 {
		if k < len(decisions) {
			return decisions[k]
		}
		return 0
	})
	w.Decisions = decisions
	return w
}

// runWalk runs g for at most maxSteps blocks, taking decision k from
// decide(k) when a block decides.
func runWalk(g *cfg.Graph, maxSteps int, decide func(k int) uint32) Walk {
	var w Walk
	b := 0
	for range maxSteps {
		w.Trace = append(w.Trace, b)
		var d uint32
		if g.Decides(b) {
			d = decide(w.Consumed)
			w.Consumed++
		}
		b = g.Next(b, d)
		if b < 0 {
			w.Returned = true
			return w
		}
	}
	return w
}

// boundaryLowering is a module whose decision is lowered the way a
// recompiler gets it wrong only on words the edge-covering walks never
// send, and the deterministic walks (no random ones) that must tell.
type boundaryLowering struct {
	name  string
	graph string
	edit  func(t *testing.T, m *spirv.Module)
}

// decisionReads are the ids of main's calls of next(): the decisions.
func decisionReads(t *testing.T, m *spirv.Module) map[uint32]bool {
	ids := map[uint32]bool{}
	for _, i := range callSites(m, funcID(t, m, "next")) {
		ids[m.Insts[i].Operands[1]] = true
	}
	return ids
}

var boundaryLowerings = []boundaryLowering{
	{"switch bound off by one", "{{1, 2, 3, 4}, {}, {}, {}, {}}", func(t *testing.T, m *spirv.Module) {
		// A jump table bounded by d <= 4 instead of d < 4: decision 4, the
		// default's, takes case 3.
		reads := decisionReads(t, m)
		for i, in := range m.Insts {
			if in.Op != spirv.OpSwitch || !reads[in.Operands[0]] {
				continue
			}
			for k := 2; k+1 < len(in.Operands); k += 2 {
				if in.Operands[k] == 3 {
					ops := slices.Insert(slices.Clone(in.Operands), k+2, 4, in.Operands[k+1])
					m.Insts[i].Operands = ops
					return
				}
			}
		}
		t.Fatal("no switch on a decision with a case 3")
	}},
	{"signed conditional", "{{1, 2}, {}, {}}", func(t *testing.T, m *spirv.Module) {
		// d > 0 signed instead of d != 0: a decision with its top bit set
		// falls through.
		reads := decisionReads(t, m)
		for i, in := range m.Insts {
			if in.Op == spirv.OpINotEqual && reads[in.Operands[2]] {
				m.Insts[i].Op = spirv.OpSGreaterThan
				return
			}
		}
		t.Fatal("no test of a decision")
	}},
	{"conditional on the low 16 bits", "{{1, 2}, {}, {}}", func(t *testing.T, m *spirv.Module) {
		// (d & 0xffff) != 0: a decision of zero low bits falls through.
		reads := decisionReads(t, m)
		var uint32Type uint32
		fn := -1
		for i, in := range m.Insts {
			if in.Op == spirv.OpTypeInt && in.Operands[1] == 32 && in.Operands[2] == 0 {
				uint32Type = in.Operands[0]
			}
			if in.Op == spirv.OpFunction && fn < 0 {
				fn = i
			}
		}
		mask, low := m.Bound, m.Bound+1
		m.Bound += 2
		for i, in := range m.Insts {
			if in.Op == spirv.OpINotEqual && reads[in.Operands[2]] {
				and := spirv.Instruction{Op: spirv.OpBitwiseAnd, Operands: []uint32{uint32Type, low, in.Operands[2], mask}}
				m.Insts[i].Operands[2] = low
				m.Insts = slices.Insert(m.Insts, i, and)
				m.Insts = slices.Insert(m.Insts, fn, spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{uint32Type, mask, 0xffff}})
				return
			}
		}
		t.Fatal("no test of a decision")
	}},
}

// TestWalksCatchBoundaryLowerings: a switch whose bound check is off by
// one, a conditional tested as a signed number or on its low bits, each
// agrees with the graph on every decision DecisionFor gives and on small
// random ones; the boundary walks alone tell each from the graph.
func TestWalksCatchBoundaryLowerings(t *testing.T) {
	for _, c := range boundaryLowerings {
		g, err := cfg.ParseCompact(c.graph, cfg.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "structured"})
		if err != nil {
			t.Fatal(err)
		}
		m, err := emit.Module(res.Func, emit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		walks := Walks(g, WalkOptions{Random: -1})
		if v := CompareWalks(Interpreter{}, m.Bytes(), walks); v.Signature != "" {
			t.Fatalf("%s: the module before the edit fails: %s %s", c.name, v.Signature, v.Detail)
		}
		c.edit(t, m)
		if v := CompareWalks(Interpreter{}, m.Bytes(), walks); v.Signature != SigTrace {
			t.Errorf("%s: the deterministic walks give %q, want %s", c.name, v.Signature, SigTrace)
		}
	}
}

// TestRandomWalksCapped: a count of random walks past MaxRandomWalks
// draws MaxRandomWalks: on a graph of few distinct walks (every draw but
// a few repeats one), a count of 2^40 would draw for hours and size a set
// past memory.
func TestRandomWalksCapped(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 0}, {}})
	done := make(chan []Walk, 1)
	go func() { done <- Walks(g, WalkOptions{Random: 1 << 40, Seed: 1}) }()
	select {
	case ws := <-done:
		if len(ws) == 0 || len(ws) > MaxRandomWalks+16 {
			t.Errorf("%d walks", len(ws))
		}
	case <-time.After(time.Minute):
		t.Fatal("Walks with 2^40 random walks still drawing after a minute")
	}
}

// TestWalksTakeEveryCaseOfAJumpTable: every case of a switch of 300
// slots, most of them repeating a target, is taken by some walk, however
// few blocks the graph has.
func TestWalksTakeEveryCaseOfAJumpTable(t *testing.T) {
	succs := [][]int{make([]int, 300), {}, {}}
	for i := range succs[0] {
		succs[0][i] = 1 + i%2
	}
	g := cfg.FromSuccs(succs)
	taken := map[uint32]bool{}
	for _, w := range Walks(g, WalkOptions{Seed: 1}) {
		if len(w.Decisions) > 0 {
			taken[w.Decisions[0]] = true
		}
	}
	for d := range uint32(300) {
		if !taken[d] {
			t.Fatalf("decision %d (case %d of 300) taken by no walk; %d taken", d, d, len(taken))
		}
	}
}

// TestWalksRunPastTheirDecisions: covering walks end where their
// decisions run out, so a module is judged on the reads past the end,
// which yield 0 (emit/CONVENTION.md); each such walk's trace is the one
// its decisions give when they run out.
func TestWalksRunPastTheirDecisions(t *testing.T) {
	// Block 3 decides after block 0 did; covering its first edge needs 0.
	g := &cfg.Graph{Succs: [][]int{{1, 2}, {3}, {3}, {4, 5}, {}, {}}}
	past := 0
	for i, w := range Walks(g, WalkOptions{Random: -1}) {
		if w.Returned && w.Consumed > len(w.Decisions) {
			past++
		}
		if r := RunWalk(g, w.Decisions, 64); !slices.Equal(r.Trace, w.Trace) || r.Consumed != w.Consumed {
			t.Errorf("walk %d: decisions %v give trace %v, the walk's is %v", i, w.Decisions, r.Trace, w.Trace)
		}
	}
	if past == 0 {
		t.Fatal("no returned walk reads past the end of its decisions")
	}
}
