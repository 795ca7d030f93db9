// Command flakystruct is a test-only structurizer speaking protocol v1
// whose answers depend on chance, the way a structurizer that iterates a
// hash map with a per-process random seed, or keyed by addresses, does:
// with probability -rate it plants -fault (default swap-arms) in an
// answer, and with probability -crash it exits without answering.
//
// -per says what chance is drawn for: "call" draws afresh for every
// request, so two requests for one graph may differ even in one process;
// "process" draws once per graph and process (a hash of the graph, its
// options and the process's seed), so one process answers a graph the same
// way every time and another process may answer it differently. -seed
// fixes the process's seed (0: from the clock), so a test can make a
// process flaky in a known way. The fuzz and command tests build it.
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

func main() {
	rate := flag.Float64("rate", 0.5, "chance that an answer has the fault planted")
	crash := flag.Float64("crash", 0, "chance that a request ends the process unanswered")
	per := flag.String("per", "call", "what chance is drawn for: call or process (per graph)")
	fault := flag.String("fault", "swap-arms", "the fault planted")
	seed := flag.Uint64("seed", 0, "the process's seed; 0 from the clock")
	flag.Parse()
	if *per != "call" && *per != "process" {
		fmt.Fprintf(os.Stderr, "flakystruct: -per %q: want call or process\n", *per)
		os.Exit(2)
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano()) | 1
	}
	rng := rand.New(rand.NewPCG(*seed, 0))
	local := proto.Local(false)
	proto.Serve(os.Stdin, os.Stdout, func(req proto.Request) proto.Response {
		draw := rng.Float64
		if *per == "process" {
			draw = graphDraw(*seed, req)
		}
		if draw() < *crash {
			os.Exit(3)
		}
		if draw() < *rate {
			req.Options.Inject = append(req.Options.Inject, *fault)
		}
		return local(req)
	})
}

// graphDraw draws chances for one request that depend only on the
// process's seed and what the request asks (its graph, weights and
// options), not on the requests before it.
func graphDraw(seed uint64, req proto.Request) func() float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%v|%s|%v", seed, req.Graph, req.Weights, req.Options.Strategy, strings.Join(req.Options.Inject, ","))
	r := rand.New(rand.NewPCG(h.Sum64(), seed))
	return r.Float64
}
