// Command go-adapter is a structurizer adapter for cfgfuzz written in Go,
// in a module of its own that imports github.com/cfgfuzz/cfgfuzz/fuzz/proto
// (protocols v1 and v2, fuzz/PROTOCOL.md): proto.ServeDeclared runs the
// request loop, and the handler answers with the structured function in
// the func form, which cfgfuzz emits as SPIR-V itself. The toy structurizer
// behind it is the dispatch loop (every block an arm of one switch on a
// program counter inside one loop, as structurizer/dispatch.go lays it
// out); replace dispatchLoop with a call into your own structurizer.
//
//	go build -o go-adapter . && cfgfuzz run --structurizer ./go-adapter --graphs 200
//
// It speaks protocol v2: its hello declares what a dispatch loop promises
// and the build's name, which the report and a nightly state show. Name
// the build when it is linked, with the commit it is built from, from
// CFGFUZZ_BUILD_NAME in the environment of the build:
//
//	CFGFUZZ_BUILD_NAME="go-adapter (git $(git rev-parse HEAD))"
//	go build -ldflags "-X 'main.buildName=$CFGFUZZ_BUILD_NAME'" -o go-adapter .
//
// (a build command of cfgfuzz compare or bisect gives {rev}, the commit it
// builds).
//
// --bug no-loop-merge plants a bug for the tests: the loop header declares
// no OpLoopMerge, so the back edge leaves no loop construct.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// exitPC is the counter value meaning "the function returned".
const exitPC = ^uint32(0)

// buildName is the name the hello declares, set when the adapter is
// linked (go build -ldflags "-X 'main.buildName=$CFGFUZZ_BUILD_NAME'");
// "" none, when the toy's own name stands in.
var buildName string

func main() {
	bug := flag.String("bug", "", "plant a bug (for tests): no-loop-merge")
	flag.Parse()
	if *bug != "" && *bug != "no-loop-merge" {
		fmt.Fprintf(os.Stderr, "go-adapter: unknown bug %q (have no-loop-merge)\n", *bug)
		os.Exit(2)
	}
	if err := proto.ServeDeclared(os.Stdin, os.Stdout, handler(*bug == "no-loop-merge"), declare); err != nil {
		fmt.Fprintln(os.Stderr, "go-adapter:", err)
		os.Exit(1)
	}
}

// declare is the answer to a protocol v2 hello: the build's name
// (buildName, or the toy's with no revision when none was linked in) and
// what a dispatch loop promises whatever the options: the same answer
// every time and for every numbering of the blocks, every graph served,
// but not idempotence (a dispatch loop's own CFG, structurized again, is a
// loop around a switch again, larger).
func declare(proto.Options) proto.HelloAnswer {
	name := buildName
	if name == "" {
		name = "go-adapter (build unnamed)"
	}
	return proto.HelloAnswer{Name: name, Promises: proto.Promises{
		Deterministic: true, RenumberingInvariant: true, Switches: true, Irreducible: true}}
}

// handler reads the request's graph and answers with the dispatch loop.
func handler(noLoopMerge bool) proto.Handler {
	return func(req proto.Request) proto.Response {
		g, err := cfg.ParseCompact(req.Graph, cfg.Limits{})
		if err != nil {
			return proto.Response{Outcome: proto.Error, Reason: proto.RequestError + "graph: " + err.Error()}
		}
		weights := make([]int, g.Len())
		if req.Weights != nil {
			if len(req.Weights) != g.Len() {
				return proto.Response{Outcome: proto.Error, Reason: fmt.Sprintf(proto.RequestError+"weights: %d for %d blocks", len(req.Weights), g.Len())}
			}
			copy(weights, req.Weights)
		}
		f := dispatchLoop(g.Succs, weights, noLoopMerge)
		words := 0
		for _, w := range weights {
			words += w
		}
		st := &structurizer.Stats{BlocksIn: g.Len(), BlocksOut: len(f.Blocks), Synthetic: 6, RouteVars: 1,
			WordsIn: words, WordsOut: words,
			Strategy: "dispatch"} // the layout's name, for reports
		return proto.Response{Outcome: proto.OK, Stats: st, Func: f}
	}
}

// dispatchLoop lays out a graph given by its successor lists:
//
//	entry:    br header
//	header:   loop merge(exit) continue(latch); br dispatch
//	dispatch: selection merge(join); route pc: b -> arm b, default -> join
//	arm b:    (original block b) pc = next block; br join
//	join:     br latch
//	latch:    pc == exitPC ? exit : header
//	exit:     return
func dispatchLoop(succs [][]int, weights []int, noLoopMerge bool) *structurizer.Func {
	n := len(succs)
	const header, dispatch, firstArm = 1, 2, 3
	join := firstArm + n
	latch, exit := join+1, join+2
	syn := func(name string, m structurizer.Merge, t structurizer.Term) structurizer.Block {
		return structurizer.Block{Name: name, Kind: structurizer.Synthetic, Orig: -1, Merge: m, Term: t}
	}
	br := func(to int) structurizer.Term { return structurizer.Term{Kind: structurizer.Branch, To: []int{to}} }
	loop := structurizer.Merge{Kind: structurizer.LoopMerge, Merge: exit, Continue: latch}
	if noLoopMerge {
		loop = structurizer.Merge{}
	}
	f := &structurizer.Func{Vars: []structurizer.Var{{Name: "pc"}}}
	f.Blocks = append(f.Blocks, syn("entry", structurizer.Merge{}, br(header)), syn("header", loop, br(dispatch)))
	route := structurizer.Term{Kind: structurizer.Route, To: []int{join}}
	for b := range n {
		route.Values = append(route.Values, uint32(b))
		route.To = append(route.To, firstArm+b)
	}
	f.Blocks = append(f.Blocks, syn("dispatch", structurizer.Merge{Kind: structurizer.SelectionMerge, Merge: join}, route))
	for b, s := range succs {
		arm := structurizer.Block{Kind: structurizer.Original, Orig: b, Weight: weights[b], Term: br(join)}
		switch len(s) {
		case 0:
			arm.Stores = []structurizer.Store{{Value: exitPC}}
		case 1:
			arm.Stores = []structurizer.Store{{Value: uint32(s[0])}}
		default:
			// A conditional or switch stores its successor by choice: the
			// arm reads the decision and adds no blocks.
			arm.Arity = len(s)
			pc := make([]uint32, len(s))
			for i, t := range s {
				pc[i] = uint32(t)
			}
			arm.Stores = []structurizer.Store{{PerChoice: pc}}
		}
		f.Blocks = append(f.Blocks, arm)
	}
	f.Blocks = append(f.Blocks,
		syn("join", structurizer.Merge{}, br(latch)),
		syn("latch", structurizer.Merge{}, structurizer.Term{Kind: structurizer.Test, Values: []uint32{exitPC}, To: []int{exit, header}}),
		syn("exit", structurizer.Merge{}, structurizer.Term{Kind: structurizer.Return}),
	)
	return f
}
