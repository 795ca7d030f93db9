// Command historystruct is a test-only structurizer speaking protocol v1
// whose answers depend on the requests it served before: the first
// -after requests (default 4) get this tree's structurizer, every later
// one the same with the swap-arms fault planted. A campaign's worker, deep
// into its graphs, sees failures that a fresh process (the minimizer's,
// a replay's) does not reproduce. The fuzz and command tests build it.
package main

import (
	"flag"
	"os"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

func main() {
	after := flag.Int("after", 4, "requests answered faithfully before the fault is planted")
	flag.Parse()
	local := proto.Local(false)
	served := 0
	proto.Serve(os.Stdin, os.Stdout, func(req proto.Request) proto.Response {
		served++
		if served > *after {
			req.Options.Inject = append(req.Options.Inject, "swap-arms")
		}
		return local(req)
	})
}
