// Command thinstruct is a test-only structurizer speaking protocol v1 that
// breaks the module convention's promises on size while keeping every
// other: it answers with this tree's structurizer as a module, and with
// -drop-filler emits every block of weight 16 or less without its filler,
// with -clone-budget N copies up to N words; with -max-clone-words N it
// speaks protocol v2 and declares copies of blocks of at most N words (what
// it copies is this tree's: up to 16). With -inline its modules have the
// convention's append helper inlined into the entry point (a compiler's
// output); with -computed-ids every append call passes its id as an
// OpIAdd of the constant and 0, which the filler and clone checks do not
// read. Its stats claim nothing unusual. The fuzz tests build it.
package main

import (
	"flag"
	"os"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func main() {
	dropFiller := flag.Bool("drop-filler", false, "emit blocks of weight 16 or less without filler")
	budget := flag.Int("clone-budget", 0, "the structurizer's clone budget (0: its default)")
	maxClone := flag.Int("max-clone-words", 0, "speak v2 and declare copies of at most N words (0: speak v1)")
	inline := flag.Bool("inline", false, "inline the append helper's calls")
	computed := flag.Bool("computed-ids", false, "append computed ids (the constant plus 0)")
	flag.Parse()
	var declare proto.Declare
	if *maxClone > 0 {
		declare = func(opt proto.Options) proto.HelloAnswer {
			h := proto.LocalDeclare(opt)
			h.Name, h.Promises.MaxCloneWords = "thinstruct", *maxClone
			return h
		}
	}
	proto.ServeDeclared(os.Stdin, os.Stdout, func(req proto.Request) proto.Response {
		g, err := cfg.ParseCompact(req.Graph, cfg.Limits{})
		if err != nil {
			return proto.Response{Outcome: proto.Error, Reason: proto.RequestError + err.Error()}
		}
		if len(req.Weights) == g.Len() {
			g.Weights = req.Weights
		}
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: req.Options.Strategy, CloneBudget: *budget})
		if err != nil {
			return proto.Response{Outcome: proto.Error, Reason: err.Error()}
		}
		if *dropFiller {
			for i := range res.Func.Blocks {
				if res.Func.Blocks[i].Weight <= 16 {
					res.Func.Blocks[i].Weight = 0
				}
			}
		}
		mod, err := emit.Bytes(res.Func, emit.Options{})
		if err != nil {
			return proto.Response{Outcome: proto.Error, Reason: err.Error()}
		}
		if *inline || *computed {
			m, err := spirv.Decode(mod)
			if err != nil {
				return proto.Response{Outcome: proto.Error, Reason: err.Error()}
			}
			if *inline {
				inlineAppend(m)
			}
			if *computed {
				computeIDs(m)
			}
			mod = m.Bytes()
		}
		return proto.Response{Outcome: proto.OK, Stats: &res.Stats, Module: mod}
	}, declare)
}

// appendFunc is the id of m's append helper: the function whose only
// parameter is the id (the emitter's other helper, next, has none); 0
// none.
func appendFunc(m *spirv.Module) uint32 {
	for i, in := range m.Insts {
		if in.Op == spirv.OpFunction && i+2 < len(m.Insts) && m.Insts[i+1].Op == spirv.OpFunctionParameter && m.Insts[i+2].Op != spirv.OpFunctionParameter {
			return in.Operands[1]
		}
	}
	return 0
}

// inlineAppend replaces every call of m's append helper by a copy of its
// body (between its label and its return) with fresh result ids.
func inlineAppend(m *spirv.Module) {
	fn := appendFunc(m)
	var param uint32
	var body []spirv.Instruction
	in := false
	for _, x := range m.Insts {
		switch {
		case x.Op == spirv.OpFunction:
			in = fn != 0 && x.Operands[1] == fn
		case !in:
		case x.Op == spirv.OpFunctionParameter:
			param = x.Operands[1]
		case x.Op == spirv.OpLabel, x.Op == spirv.OpReturn, x.Op == spirv.OpFunctionEnd:
		default:
			body = append(body, x)
		}
	}
	var out []spirv.Instruction
	for _, x := range m.Insts {
		if x.Op != spirv.OpFunctionCall || fn == 0 || x.Operands[2] != fn {
			out = append(out, x)
			continue
		}
		sub := map[uint32]uint32{param: x.Operands[3]}
		for _, b := range body {
			c := spirv.Instruction{Op: b.Op, Operands: slices.Clone(b.Operands)}
			if b.Op != spirv.OpStore {
				sub[c.Operands[1]] = m.Bound
				m.Bound++
			}
			for k, id := range c.Operands {
				if y, ok := sub[id]; ok && (b.Op == spirv.OpStore || k > 0) {
					c.Operands[k] = y
				}
			}
			out = append(out, c)
		}
	}
	m.Insts = out
}

// computeIDs makes every call of the append helper pass its id as an
// OpIAdd of the constant and 0.
func computeIDs(m *spirv.Module) {
	fn := appendFunc(m)
	var uintT, zero uint32
	for _, x := range m.Insts {
		if x.Op == spirv.OpTypeInt && x.Operands[1] == 32 && x.Operands[2] == 0 && uintT == 0 {
			uintT = x.Operands[0]
		}
		if x.Op == spirv.OpConstant && uintT != 0 && x.Operands[0] == uintT && x.Operands[2] == 0 && zero == 0 {
			zero = x.Operands[1]
		}
	}
	if fn == 0 || zero == 0 {
		return
	}
	var out []spirv.Instruction
	for _, x := range m.Insts {
		if x.Op == spirv.OpFunctionCall && x.Operands[2] == fn {
			id := m.Bound
			m.Bound++
			out = append(out, spirv.Instruction{Op: spirv.OpIAdd, Operands: []uint32{uintT, id, x.Operands[3], zero}})
			x = spirv.Instruction{Op: x.Op, Operands: []uint32{x.Operands[0], x.Operands[1], fn, id}}
		}
		out = append(out, x)
	}
	m.Insts = out
}
