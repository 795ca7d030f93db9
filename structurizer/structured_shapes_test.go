// structured_shapes_test.go: named graph shapes of any size for the scale
// benchmarks and the output-size report: random reducible graphs
// (randomReducible), random reducible graphs laid out with locality, whose
// loops nest deeper as they grow (randomLocal), structured programs with
// break, continue and early return (composed constructs: sequences, if,
// if-else, while, do-while), deep loop nests, long chains of diamonds and
// wide switches, all reducible, and one irreducible shape: the local graphs
// with edges into the middle of their loops, whose loops with several
// entries nest in one another (tangledLocal). Block 0 is the entry, every
// block reachable.
package structurizer

import (
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// shape is a named generator of graphs of about n blocks.
type shape struct {
	name string
	make func(r *rand.Rand, n int) *cfg.Graph
}

var shapes = []shape{
	{"random", randomReducible},
	{"local", randomLocal},
	{"tangled", tangledLocal},
	{"program", structuredProgram},
	{"nests", loopNests},
	{"diamonds", diamondChain},
	{"switches", switchChain},
}

// TestShapeOnce is a tool, skipped unless SHAPE and N are set: it
// structurizes shape SHAPE at N blocks once (seed N, as BenchmarkShapes
// draws it), for a profiler that counts what one run does, such as
// valgrind's callgrind, whose instruction counts do not depend on what
// else the machine is doing:
//
//	go test -c -o s.test ./structurizer
//	SHAPE=random N=100000 GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 \
//		valgrind --tool=callgrind ./s.test -test.run TestShapeOnce
//
// (callgrind 3.19 aborts on the signals of Go's asynchronous preemption,
// hence asyncpreemptoff). With GRAPH=FILE instead, it structurizes the
// first graph of FILE (either notation, up to a million blocks): a graph
// of another generator, such as an independent one's. With OUT=FILE it
// writes the shape's graph to FILE in compact notation instead, for
// cfgfuzz check to time; SHAPE may also name one of deepShapes. With
// PROFILE=FILE it writes the CPU profile of structurizing the graph until
// 4,000,000 blocks are done (TOTAL=N for another count), for comparing
// two sizes function by function:
//
//	SHAPE=tangled N=10000 PROFILE=10k.out ./s.test -test.run TestShapeOnce
//	SHAPE=tangled N=100000 PROFILE=100k.out ./s.test -test.run TestShapeOnce
//	go tool pprof -top s.test 10k.out
func TestShapeOnce(t *testing.T) {
	if path := os.Getenv("GRAPH"); path != "" {
		structurizeFileOnce(t, path)
		return
	}
	name, n := os.Getenv("SHAPE"), os.Getenv("N")
	if name == "" || n == "" {
		t.Skip("SHAPE and N (or GRAPH) not set")
	}
	blocks, err := strconv.Atoi(n)
	if err != nil || blocks < 2 {
		t.Fatalf("N=%q: want a block count of 2 or more", n)
	}
	all := append(slices.Clone(shapes), deepShapes...)
	i := slices.IndexFunc(all, func(s shape) bool { return s.name == name })
	if i < 0 {
		t.Fatalf("SHAPE=%q: no such shape", name)
	}
	g := all[i].make(rand.New(rand.NewPCG(uint64(blocks), 1)), blocks)
	if out := os.Getenv("OUT"); out != "" {
		if err := os.WriteFile(out, []byte(g.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s, %d blocks: written to %s", name, g.Len(), out)
		return
	}
	if prof := os.Getenv("PROFILE"); prof != "" {
		profileShape(t, g, prof)
		return
	}
	res, err := Structurize(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s, %d blocks: %d out, %d synthetic", name, g.Len(), res.Stats.BlocksOut, res.Stats.Synthetic)
}

// profileShape writes to file prof the CPU profile of structurizing g
// again and again, after one run outside it, until 4,000,000 blocks (or
// TOTAL) have been structurized: the same work at every size, so that the
// profiles of two sizes compare function by function, the drawing of the
// graph left out.
func profileShape(t *testing.T, g *cfg.Graph, prof string) {
	total := 4_000_000
	if v, err := strconv.Atoi(os.Getenv("TOTAL")); err == nil && v > 0 {
		total = v
	}
	if _, err := Structurize(g, Options{}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(prof)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	runs := 0
	for done := 0; done < total; done += g.Len() {
		if _, err := Structurize(g, Options{}); err != nil {
			pprof.StopCPUProfile()
			t.Fatal(err)
		}
		runs++
	}
	pprof.StopCPUProfile()
	t.Logf("%d runs of %d blocks profiled into %s", runs, g.Len(), prof)
}

// deepShapes are the nests of structured_deep_test.go, which TestShapeOnce
// also builds (N is then the number of loops): deepnest (nestGraph),
// breaknest (breakNestGraph) and irrnest (nestGraph behind a loop of two
// entries, so that the loop forest comes from the component search).
var deepShapes = []shape{
	{"deepnest", func(_ *rand.Rand, n int) *cfg.Graph { return nestGraph(n) }},
	{"breaknest", func(_ *rand.Rand, n int) *cfg.Graph { return breakNestGraph(n) }},
	{"irrnest", func(_ *rand.Rand, n int) *cfg.Graph { return behindIrreducibleLoop(nestGraph(n)) }},
}

// behindIrreducibleLoop is g entered through a loop of two entries:
// blocks 1 and 2, both entered from the new entry 0, each branching to
// the other and to g's entry (block 3).
func behindIrreducibleLoop(g *cfg.Graph) *cfg.Graph {
	h := cfg.New(g.Len() + 3)
	h.Succs[0] = []int{1, 2}
	h.Succs[1] = []int{2, 3}
	h.Succs[2] = []int{1, 3}
	for b, ss := range g.Succs {
		for _, t := range ss {
			h.Succs[b+3] = append(h.Succs[b+3], t+3)
		}
	}
	return h
}

// structurizeFileOnce is TestShapeOnce on the first graph of a file.
func structurizeFileOnce(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	items, err := cfg.Parse(path, data, cfg.Limits{MaxBlocks: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	g := items[0].Graph
	res, err := Structurize(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s, %d blocks: %d out, %d synthetic (%s)", path, g.Len(), res.Stats.BlocksOut, res.Stats.Synthetic, synthByName(res.Func))
}

// randomLocal builds a reducible graph with locality, as a compiler lays
// code out: each block but the last branches to one or two of the next
// six blocks (the next one whenever nothing else enters it; one block in
// thirty returns instead when it can), and a third of the blocks with one
// successor also branch back to a dominator a few steps up the dominator
// tree (an exponential count of steps, mean 3). The loops nest ever deeper
// as such a graph grows (seed 1: depth 29 at 1,000 blocks, 87 at 10,000,
// 140 at 100,000): what a loop forest built level by level pays for on
// every level.
func randomLocal(r *rand.Rand, n int) *cfg.Graph {
	g := cfg.New(n)
	entered := make([]bool, n)
	for b := 0; b+1 < n; b++ {
		k := 1 + r.IntN(20)/11 // two targets with probability 9/20
		if r.IntN(30) == 0 {
			k = 0
		}
		if !entered[b+1] {
			g.Succs[b] = append(g.Succs[b], b+1)
		}
		for tries := 0; len(g.Succs[b]) < k && tries < 8; tries++ {
			if t := b + 1 + r.IntN(min(n-b-1, 6)); !slices.Contains(g.Succs[b], t) {
				g.Succs[b] = append(g.Succs[b], t)
			}
		}
		for _, t := range g.Succs[b] {
			entered[t] = true
		}
		g.Weights[b] = r.IntN(3) * 8
	}
	dom := cfg.Dominators(g)
	for b := 1; b < n; b++ {
		if len(g.Succs[b]) == 1 && r.IntN(3) == 0 {
			a := b
			for k := int(r.ExpFloat64() * 3); k > 0 && dom.IDom[a] != cfg.NoBlock; k-- {
				a = dom.IDom[a]
			}
			if !slices.Contains(g.Succs[b], a) {
				g.Succs[b] = append(g.Succs[b], a)
			}
		}
	}
	return g
}

// tangledLocal is randomLocal with one edge in a hundred blocks (a
// block with one successor branching also to a block drawn from the whole
// graph) that enters a loop in its middle: loops with several entries,
// nested in one another as deep as the local graph's loops are.
func tangledLocal(r *rand.Rand, n int) *cfg.Graph {
	g := randomLocal(r, n)
	for range max(1, n/100) {
		if a, b := r.IntN(n), r.IntN(n); len(g.Succs[a]) == 1 && a != b && !slices.Contains(g.Succs[a], b) {
			g.Succs[a] = append(g.Succs[a], b)
		}
	}
	return g
}

// builder grows a graph block by block; pending blocks get the next
// construct's entry appended (sequence).
type builder struct {
	succs [][]int
	r     *rand.Rand
}

func (b *builder) block(to ...int) int {
	b.succs = append(b.succs, to)
	return len(b.succs) - 1
}

func (b *builder) follow(pending []int, e int) {
	for _, p := range pending {
		b.succs[p] = append(b.succs[p], e)
	}
}

// graph ends the pending blocks in a return block and returns the graph,
// each block's successors distinct.
func (b *builder) graph(pending []int) *cfg.Graph {
	b.follow(pending, b.block())
	g := cfg.New(len(b.succs))
	for i, s := range b.succs {
		var d []int
		for _, t := range s {
			if !slices.Contains(d, t) {
				d = append(d, t)
			}
		}
		g.Succs[i] = d
	}
	return g
}

// sequence appends constructs from part until the graph has n blocks.
func (b *builder) sequence(n int, part func(budget int) (int, []int)) *cfg.Graph {
	entry := b.block()
	pending := []int{entry}
	for len(b.succs) < n-1 {
		e, p := part(n - 1 - len(b.succs))
		b.follow(pending, e)
		pending = p
	}
	return b.graph(pending)
}

// structuredProgram composes structured constructs as a program does:
// sequences, if, if-else, while and do-while loops, early returns, and
// breaks and continues inside loops, at most 12 deep.
func structuredProgram(r *rand.Rand, n int) *cfg.Graph {
	b := &builder{r: r}
	return b.sequence(n, func(budget int) (int, []int) { return b.region(budget, 0, nil) })
}

// loopCtx is the loop a region is in: its breaks and continue target.
type loopCtx struct {
	breaks *[]int
	cont   int
}

func (b *builder) region(budget, depth int, loop *loopCtx) (int, []int) {
	if budget <= 1 || depth > 12 {
		x := b.block()
		return x, []int{x}
	}
	kinds := []string{"seq", "seq", "if", "ifelse", "while", "dowhile", "ret"}
	if loop != nil {
		kinds = append(kinds, "break", "continue")
	}
	switch kinds[b.r.IntN(len(kinds))] {
	case "seq":
		half := max(1, budget/2)
		e1, p1 := b.region(half, depth+1, loop)
		e2, p2 := b.region(budget-half, depth+1, loop)
		b.follow(p1, e2)
		return e1, p2
	case "if":
		c := b.block()
		e, p := b.region(budget-1, depth+1, loop)
		b.follow([]int{c}, e)
		return c, append([]int{c}, p...)
	case "ifelse":
		c := b.block()
		half := max(1, (budget-1)/2)
		e1, p1 := b.region(half, depth+1, loop)
		e2, p2 := b.region(max(1, budget-1-half), depth+1, loop)
		b.succs[c] = append(b.succs[c], e1, e2)
		return c, append(p1, p2...)
	case "while":
		h := b.block()
		var breaks []int
		e, p := b.region(budget-1, depth+1, &loopCtx{&breaks, h})
		b.follow([]int{h}, e)
		b.follow(p, h)
		return h, append([]int{h}, breaks...)
	case "dowhile":
		latch := b.block()
		var breaks []int
		e, p := b.region(budget-1, depth+1, &loopCtx{&breaks, latch})
		b.follow(p, latch)
		b.follow([]int{latch}, e)
		return e, append([]int{latch}, breaks...)
	case "ret":
		c := b.block()
		ret := b.block()
		e, p := b.region(budget-2, depth+1, loop)
		b.succs[c] = append(b.succs[c], ret, e)
		return c, p
	case "break":
		c := b.block()
		*loop.breaks = append(*loop.breaks, c)
		e, p := b.region(budget-1, depth+1, loop)
		b.follow([]int{c}, e)
		return c, p
	default: // continue
		c := b.block(loop.cont)
		e, p := b.region(budget-1, depth+1, loop)
		b.follow([]int{c}, e)
		return c, p
	}
}

// loopNests is a sequence of loop nests 32 deep: each level a header, a
// block that breaks out of the level or enters the next one, and a latch
// that loops or leaves.
func loopNests(r *rand.Rand, n int) *cfg.Graph {
	b := &builder{r: r}
	var nest func(depth int) (int, []int)
	nest = func(depth int) (int, []int) {
		if depth == 0 {
			x := b.block()
			return x, []int{x}
		}
		h := b.block()
		k := b.block()
		b.follow([]int{h}, k)
		e, p := nest(depth - 1)
		b.follow([]int{k}, e)
		latch := b.block(h)
		b.follow(p, latch)
		return h, []int{latch, k}
	}
	return b.sequence(n, func(budget int) (int, []int) { return nest(min(32, max(1, budget/3))) })
}

// diamondChain is a chain of diamonds: a conditional, two arms, a join.
func diamondChain(r *rand.Rand, n int) *cfg.Graph {
	b := &builder{r: r}
	return b.sequence(n, func(int) (int, []int) {
		j := b.block()
		c := b.block(b.block(j), b.block(j))
		return c, []int{j}
	})
}

// switchChain is a chain of 16-way switches whose cases join, every
// fourth case falling through into the next.
func switchChain(r *rand.Rand, n int) *cfg.Graph {
	b := &builder{r: r}
	return b.sequence(n, func(int) (int, []int) {
		const width = 16
		j := b.block()
		cases := make([]int, width)
		for i := width - 1; i >= 0; i-- {
			if i%4 == 1 && i+1 < width {
				cases[i] = b.block(cases[i+1])
			} else {
				cases[i] = b.block(j)
			}
		}
		return b.block(cases...), []int{j}
	})
}
