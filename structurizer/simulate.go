// simulate.go: a direct interpreter of the structured function form, for the
// structurizer's own tests and pass checks. The oracle never uses it: it
// runs the emitted SPIR-V with its own interpreter, so a bug shared by this
// file and the emitter cannot hide.

package structurizer

import "github.com/cfgfuzz/cfgfuzz/structurizer/cfg"

// Trace is what one run observed: the original ids appended, the number of
// decisions read, and whether the function returned (false: the step cap
// cut it).
type Trace struct {
	Blocks   []int
	Consumed int
	Returned bool
}

// Simulate runs f on the decisions (0 once they run out) for at most
// maxSteps blocks.
func Simulate(f *Func, decisions []uint32, maxSteps int) Trace {
	var tr Trace
	vars := make([]uint32, len(f.Vars))
	for i, v := range f.Vars {
		vars[i] = v.Init
	}
	b := 0
	for step := 0; step < maxSteps; step++ {
		blk := &f.Blocks[b]
		if blk.Kind != Synthetic {
			tr.Blocks = append(tr.Blocks, blk.Orig)
		}
		choice := 0
		if blk.Arity >= 2 {
			var d uint32
			if tr.Consumed < len(decisions) {
				d = decisions[tr.Consumed]
			}
			tr.Consumed++
			choice = cfg.Choice(blk.Arity, d)
		}
		for _, s := range blk.Stores {
			if s.PerChoice != nil {
				vars[s.Var] = s.PerChoice[choice]
			} else {
				vars[s.Var] = s.Value
			}
		}
		t := blk.Term
		switch t.Kind {
		case Return:
			tr.Returned = true
			return tr
		case Unreachable:
			return tr
		case Branch:
			b = t.To[0]
		case Choose:
			b = t.To[choice]
		case Test:
			if vars[t.Var] == t.Values[0] {
				b = t.To[0]
			} else {
				b = t.To[1]
			}
		case Route:
			b = t.To[0]
			for i, v := range t.Values {
				if vars[t.Var] == v {
					b = t.To[i+1]
					break
				}
			}
		}
	}
	return tr
}

// Walk runs the original graph g on the decisions for at most maxSteps
// blocks, with the same conventions as Simulate.
func Walk(g *cfg.Graph, decisions []uint32, maxSteps int) Trace {
	var tr Trace
	b := 0
	for step := 0; step < maxSteps; step++ {
		tr.Blocks = append(tr.Blocks, b)
		var d uint32
		if g.Decides(b) {
			if tr.Consumed < len(decisions) {
				d = decisions[tr.Consumed]
			}
			tr.Consumed++
		}
		b = g.Next(b, d)
		if b < 0 {
			tr.Returned = true
			return tr
		}
	}
	return tr
}
