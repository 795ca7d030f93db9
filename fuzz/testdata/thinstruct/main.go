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

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/internal/appendedit"
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
				appendedit.Inline(m)
			}
			if *computed {
				appendedit.ComputeIDs(m)
			}
			mod = m.Bytes()
		}
		return proto.Response{Outcome: proto.OK, Stats: &res.Stats, Module: mod}
	}, declare)
}
