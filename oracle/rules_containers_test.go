// rules_containers_test.go: the per-block construct lists
// (rules_containers.go) against the obvious walk they replace: up the
// dominator tree through every construct head, testing each construct
// there. Both must name the same constructs in the same order, for every
// block and every construct's enclosing ones, on valid modules, mutants
// that break the rules and modules with random words overwritten.
package oracle

import (
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// refHeads is the walk's links: up[b] the nearest strict dominator of b
// that heads a construct, near[b] the nearest inclusive one (-1 none).
type refHeads struct{ up, near []int }

// refLinkHeads links every construct head b to the nearest strict
// structural dominator that heads a construct.
func refLinkHeads(c *ruleChecker) refHeads {
	g := c.g
	n := len(g.f.blocks)
	up := make([]int, n)
	near := make([]int, n) // nearest head dominating b (inclusive)
	for i := range near {
		near[i] = -2 // not computed
	}
	var find func(b int) int
	find = func(b int) int {
		path := []int{}
		for b >= 0 && near[b] == -2 {
			path = append(path, b)
			b = g.dom.idom[b]
		}
		res := -1
		if b >= 0 {
			res = near[b]
		}
		for i := len(path) - 1; i >= 0; i-- {
			if len(c.at[path[i]]) > 0 {
				res = path[i]
			}
			near[path[i]] = res
		}
		return res
	}
	for b := range n {
		up[b] = -1
		if d := g.dom.idom[b]; d >= 0 && c.reachable(b) {
			up[b] = find(d)
		}
	}
	r := refHeads{up: up, near: near}
	for b := range n {
		if c.reachable(b) {
			find(b)
		}
	}
	return r
}

// refContainers is every construct holding b, innermost first, by the walk.
func refContainers(c *ruleChecker, h refHeads, b int) []int {
	if !c.reachable(b) {
		return nil
	}
	return refWalk(c, h, h.near[b], b, nil)
}

// refEnclosing is every construct enclosing construct ki, innermost
// first, by the walk.
func refEnclosing(c *ruleChecker, h refHeads, ki int) []int {
	head := c.cons[ki].head
	p := slices.Index(c.at[head], ki)
	if p < 0 {
		p = 0 // every construct is listed at its head: never
	}
	return refWalk(c, h, h.up[head], head, refHolding(c, c.at[head][:p], head, nil))
}

// refWalk appends to out the constructs holding b headed at x and at every
// head above x, innermost first.
func refWalk(c *ruleChecker, h refHeads, x, b int, out []int) []int {
	for ; x >= 0; x = h.up[x] {
		out = refHolding(c, c.at[x], b, out)
	}
	return out
}

// refHolding appends to out the constructs of at (outer first) that hold
// b, innermost first.
func refHolding(c *ruleChecker, at []int, b int, out []int) []int {
	for i := len(at) - 1; i >= 0; i-- {
		if c.contains(at[i], b) {
			out = append(out, at[i])
		}
	}
	return out
}

// collect is what a yield-style listing yields, every item.
func collect(list func(yield func(int) bool)) []int {
	var out []int
	list(func(k int) bool { out = append(out, k); return true })
	return out
}

// sameContainers compares the lists with the walk on every function of
// mod (one that does not parse is skipped); it returns the blocks compared.
func sameContainers(t *testing.T, mod []byte, what string) int {
	t.Helper()
	m, err := spirv.Decode(mod)
	if err != nil {
		return 0
	}
	p := parseModule(m)
	if p.err != nil {
		return 0
	}
	blocks := 0
	for i := range p.rm.funcs {
		if len(p.rm.funcs[i].blocks) == 0 {
			continue
		}
		g, err := p.graph(i)
		if err != nil {
			continue
		}
		c := newRuleChecker(p.rm, g)
		c.buildConstructs()
		h := refLinkHeads(c)
		for b := range g.f.blocks {
			blocks++
			got := collect(func(y func(int) bool) { c.containers(b, y) })
			if want := refContainers(c, h, b); !slices.Equal(got, want) {
				t.Fatalf("%s: function %d block %d: containers %v, the walk %v", what, i, b, got, want)
			}
			for x := c.lists.above[b]; x >= 0; x = c.lists.nodes[x].next {
				if k := int(c.lists.nodes[x].k); c.cons[k].kind != kContinue && !c.contains(k, b) {
					t.Fatalf("%s: function %d block %d: construct %d is listed above it and does not hold it (only continue constructs may be)", what, i, b, k)
				}
			}
		}
		for ki := range c.cons {
			got := collect(func(y func(int) bool) { c.enclosing(ki, y) })
			if want := refEnclosing(c, h, ki); !slices.Equal(got, want) {
				t.Fatalf("%s: function %d construct %d: enclosing %v, the walk %v", what, i, ki, got, want)
			}
		}
	}
	return blocks
}

func TestContainersMatchTheWalk(t *testing.T) {
	r := seededRand(t, 21)
	seeds := seedModules(t, r)
	blocks := 0
	for i, s := range seeds {
		blocks += sameContainers(t, s, "seed "+itoa(uint32(i)))
	}
	for i := range 3000 {
		m, err := spirv.Decode(seeds[r.IntN(len(seeds))])
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + r.IntN(3) {
			mutate(r, m, mutationKinds[r.IntN(len(mutationKinds))])
		}
		blocks += sameContainers(t, m.Bytes(), "mutant "+itoa(uint32(i)))
		blocks += sameContainers(t, damageWords(r, seeds[r.IntN(len(seeds))]), "damaged "+itoa(uint32(i)))
	}
	for _, depth := range []int{1, 8, 40} {
		blocks += sameContainers(t, nested(depth), "nested "+itoa(uint32(depth)))
	}
	if blocks < 10000 {
		t.Errorf("compared %d blocks, want at least 10,000", blocks)
	}
	t.Logf("%d blocks compared", blocks)
}
