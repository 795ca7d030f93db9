// dispatch.go: the dispatch-loop strategy. Every block is an arm of one
// OpSwitch on a program counter inside one loop; a branch assigns the
// counter (a conditional or switch assigns it from its decision, so an arm
// adds no blocks), a return assigns the exit value. It is valid for any
// flow, reducible or not, terminating or not, and is the reference the
// structured layout is checked against and its fallback. A single-block
// graph also goes through the loop: one code path for every graph.
//
// Layout:
//
//	entry:   br header
//	header:  loop merge(exit) continue(latch); br dispatch
//	dispatch: selection merge(join); route pc: b -> arm b, default -> join
//	arm b:   (block b) pc = next block; br join
//	join:    br latch
//	latch:   pc == exit ? exit : header
//	exit:    return

package structurizer

import "github.com/cfgfuzz/cfgfuzz/structurizer/cfg"

// ExitPC is the program counter value meaning "the function returned".
const ExitPC = ^uint32(0)

// Dispatch lays out g as a dispatch loop.
func Dispatch(g *cfg.Graph, opt Options) (*Result, error) {
	n := g.Len()
	const (
		entry = iota
		header
		dispatch
		firstArm
	)
	join := firstArm + n
	latch, exit := join+1, join+2
	f := &Func{Vars: []Var{{Name: "pc", Init: 0}}}
	syn := func(name string, m Merge, t Term) Block {
		return Block{Name: name, Kind: Synthetic, Orig: -1, Merge: m, Term: t}
	}
	f.Blocks = append(f.Blocks,
		syn("entry", Merge{}, Term{Kind: Branch, To: []int{header}}),
		syn("header", Merge{Kind: LoopMerge, Merge: exit, Continue: latch}, Term{Kind: Branch, To: []int{dispatch}}),
	)
	route := Term{Kind: Route, Var: 0, To: []int{join}}
	for b := range n {
		route.Values = append(route.Values, uint32(b))
		route.To = append(route.To, firstArm+b)
	}
	f.Blocks = append(f.Blocks, syn("dispatch", Merge{Kind: SelectionMerge, Merge: join}, route))
	for b := range n {
		f.Blocks = append(f.Blocks, dispatchArm(g, b, join, opt))
	}
	f.Blocks = append(f.Blocks,
		syn("join", Merge{}, Term{Kind: Branch, To: []int{latch}}),
		syn("latch", Merge{}, Term{Kind: Test, Var: 0, Values: []uint32{ExitPC}, To: []int{exit, header}}),
		syn("exit", Merge{}, Term{Kind: Return}),
	)
	opt.Hooks.dispatch(f)
	return &Result{Func: f}, nil
}

// dispatchArm is original block b as an arm: it assigns the counter to the
// block it branches to and goes to the switch's merge.
func dispatchArm(g *cfg.Graph, b, join int, opt Options) Block {
	blk := Block{Name: g.Name(b), Kind: Original, Orig: b, Weight: g.Weight(b), Term: Term{Kind: Branch, To: []int{join}}}
	s := g.Succs[b]
	switch len(s) {
	case 0:
		blk.Stores = []Store{{Var: 0, Value: ExitPC}}
	case 1:
		blk.Stores = []Store{{Var: 0, Value: uint32(s[0])}}
	default:
		blk.Arity = len(s)
		pc := make([]uint32, len(s))
		for i, t := range s {
			pc[i] = uint32(t)
		}
		if opt.Has("swap-arms") && len(s) == 2 {
			pc[0], pc[1] = pc[1], pc[0]
		}
		blk.Stores = []Store{{Var: 0, PerChoice: pc}}
	}
	return blk
}
