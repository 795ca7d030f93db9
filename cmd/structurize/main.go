// Command structurize serves protocol v1 (fuzz/PROTOCOL.md) over standard
// input and output with this tree's structurizer: one JSON request a line
// in, one JSON response a line out. cfgfuzz builds it at a baseline commit
// and runs it as a process; a panic or a hang here takes down only this
// process, which cfgfuzz reports as a finding and restarts.
//
//	structurize [--form module|func]
package main

import (
	"flag"
	"fmt"
	"os"

	"cfgfuzz/emit"
	"cfgfuzz/fuzz/proto"
	"cfgfuzz/structurizer"
	"cfgfuzz/structurizer/cfg"
)

func main() {
	form := flag.String("form", "module", "what an ok response carries: module (SPIR-V, base64) or func (structured function JSON)")
	flag.Parse()
	if *form != "module" && *form != "func" {
		fmt.Fprintln(os.Stderr, "structurize: --form must be module or func")
		os.Exit(2)
	}
	err := proto.Serve(os.Stdin, os.Stdout, func(req proto.Request) proto.Response {
		return handle(req, *form == "module")
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "structurize:", err)
		os.Exit(2)
	}
}

// handle structurizes one request; it does not recover from panics.
func handle(req proto.Request, module bool) proto.Response {
	g, err := cfg.ParseCompact(req.Graph, cfg.Limits{})
	if err != nil {
		return proto.Response{Outcome: proto.Error, Reason: "graph: " + err.Error()}
	}
	if req.Weights != nil {
		if len(req.Weights) != g.Len() {
			return proto.Response{Outcome: proto.Error, Reason: fmt.Sprintf("weights: %d for %d blocks", len(req.Weights), g.Len())}
		}
		g.Weights = append([]int(nil), req.Weights...)
	}
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: req.Options.Strategy, Inject: req.Options.Inject})
	if err != nil {
		if r, ok := err.(*structurizer.Refusal); ok {
			return proto.Response{Outcome: proto.Refused, Reason: r.Reason}
		}
		return proto.Response{Outcome: proto.Error, Reason: err.Error()}
	}
	resp := proto.Response{Outcome: proto.OK, Stats: &res.Stats}
	if !module {
		resp.Func = res.Func
		return resp
	}
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		return proto.Response{Outcome: proto.Error, Reason: "emit: " + err.Error(), Stats: &res.Stats}
	}
	resp.Module = mod
	return resp
}
