// Command deadstruct is a test-only structurizer speaking protocol v1
// with a bug recompilers' structurizers often have: it panics on a graph
// with a dead block (one no path from the entry reaches: code after a
// return, a jump table's dead target), naming the block, and answers every
// other graph with this tree's structurizer (the structured function
// form). The command tests build it.
package main

import (
	"fmt"
	"os"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func main() {
	local := proto.Local(false)
	proto.Serve(os.Stdin, os.Stdout, func(req proto.Request) proto.Response {
		if g, err := cfg.ParseCompact(req.Graph, cfg.Limits{}); err == nil {
			for b, reached := range g.Reachable() {
				if !reached {
					panic(fmt.Sprintf("deadstruct: block %d has no dominator", b))
				}
			}
		}
		return local(req)
	})
}
