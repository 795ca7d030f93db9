// graphs.go: a small seeded generator of reducible graphs, the shapes of
// structured programs (sequences, if, if/else, while and do-while loops with
// break, continue and early return, switches with shared cases), and of
// arbitrary random graphs (irreducible or non-terminating ones included).
// The bench and the tests use it so they do not depend on package gen;
// deciding 0 everywhere always leaves every loop of a structured graph.

package gpu

import (
	"math/rand/v2"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// StructuredGraph returns a reducible graph of about n blocks (n, or n+1
// when an early return needs its own block), a pure function of seed.
func StructuredGraph(seed uint64, n int) *cfg.Graph {
	p := &progGen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), ret: -1}
	entry := p.region(max(n, 1), -1, -1, -1)
	return p.graph(entry)
}

// RandomGraph returns an arbitrary graph of n blocks: out-degree 0 to 3,
// targets anywhere, so cycles may be irreducible or have no exit.
func RandomGraph(seed uint64, n int) *cfg.Graph {
	r := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909))
	succs := make([][]int, n)
	for b := range succs {
		k := []int{0, 1, 1, 2, 2, 2, 3}[r.IntN(7)]
		if b == n-1 && r.IntN(2) == 0 {
			k = 0
		}
		for range k {
			succs[b] = append(succs[b], r.IntN(n))
		}
	}
	return cfg.FromSuccs(succs)
}

type progGen struct {
	r     *rand.Rand
	succs [][]int
	ret   int // the shared returning block of early returns, -1 until made
}

func (p *progGen) block(succs ...int) int {
	p.succs = append(p.succs, succs)
	return len(p.succs) - 1
}

// to is an edge to next, where -1 means the function's end.
func (p *progGen) to(next int) int {
	if next >= 0 {
		return next
	}
	if p.ret < 0 {
		p.ret = p.block()
	}
	return p.ret
}

// region emits n blocks that run and then continue at next (-1: return);
// cont and brk are the innermost loop's header and exit (-1: no loop).
func (p *progGen) region(n, next, cont, brk int) int {
	if n == 1 {
		return p.leaf(next, cont, brk)
	}
	switch k := p.r.IntN(10); {
	case k < 3:
		a := 1 + p.r.IntN(n-1)
		second := p.region(n-a, next, cont, brk)
		return p.region(a, second, cont, brk)
	case k < 5 && n >= 3:
		return p.ifElse(n, next, cont, brk)
	case k < 6:
		body := p.region(n-1, next, cont, brk)
		return p.block(body, p.to(next))
	case k < 8:
		return p.while(n, next)
	case k < 9:
		return p.doWhile(n, next)
	case n >= 4:
		return p.switchOf(n, next, cont, brk)
	}
	return p.while(n, next)
}

// leaf is one block; now and then a conditional break, continue or return.
func (p *progGen) leaf(next, cont, brk int) int {
	if next < 0 {
		return p.block()
	}
	switch p.r.IntN(12) {
	case 0:
		if cont >= 0 {
			return p.block(cont, next)
		}
	case 1:
		if brk >= 0 {
			return p.block(p.to(brk), next)
		}
	case 2:
		return p.block(p.to(-1), next)
	}
	return p.block(next)
}

func (p *progGen) ifElse(n, next, cont, brk int) int {
	a := 1 + p.r.IntN(n-2)
	x := p.region(a, next, cont, brk)
	y := p.region(n-1-a, next, cont, brk)
	return p.block(x, y)
}

// while: a header that enters the body on non-zero and leaves on zero.
func (p *progGen) while(n, next int) int {
	h := p.block()
	body := p.region(n-1, h, h, next)
	p.succs[h] = []int{body, p.to(next)}
	return h
}

// doWhile: the body, then a latch that repeats on non-zero.
func (p *progGen) doWhile(n, next int) int {
	latch := p.block()
	if n == 2 {
		p.succs[latch] = []int{latch, p.to(next)} // a self-loop
		return p.block(latch)
	}
	body := p.region(n-1, latch, latch, next)
	p.succs[latch] = []int{body, p.to(next)}
	return body
}

// switchOf: a default arm that falls to next, and 2-3 case arms, one of
// them listed twice now and then.
func (p *progGen) switchOf(n, next, cont, brk int) int {
	arms := min(2+p.r.IntN(2), n-1)
	succs := []int{p.to(next)}
	left := n - 1
	for i := range arms {
		size := left
		if i < arms-1 {
			size = 1 + p.r.IntN(left-(arms-1-i))
		}
		left -= size
		succs = append(succs, p.region(size, next, cont, brk))
	}
	if p.r.IntN(3) == 0 {
		succs = append(succs, succs[1])
	}
	return p.block(succs...)
}

// graph renumbers the blocks reachable from entry in depth-first preorder,
// the entry becoming block 0.
func (p *progGen) graph(entry int) *cfg.Graph {
	id := make([]int, len(p.succs))
	for i := range id {
		id[i] = -1
	}
	var order []int
	stack := []int{entry}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id[b] >= 0 {
			continue
		}
		id[b] = len(order)
		order = append(order, b)
		for i := len(p.succs[b]) - 1; i >= 0; i-- {
			if id[p.succs[b][i]] < 0 {
				stack = append(stack, p.succs[b][i])
			}
		}
	}
	out := make([][]int, len(order))
	for i, b := range order {
		for _, s := range p.succs[b] {
			out[i] = append(out[i], id[s])
		}
	}
	return cfg.FromSuccs(out)
}
