// Command fallbackstruct is a test-only structurizer speaking protocol v1
// that reports a fallback: on graphs of 3 or more blocks it answers with
// this tree's dispatch loop and stats saying it fell back, with the reason
// in passes_used (FallbackAnswer); smaller graphs get the dispatch loop
// without a fallback. The fuzz tests build it.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

func main() {
	local := proto.Local(false)
	proto.Serve(os.Stdin, os.Stdout, func(req proto.Request) proto.Response {
		req.Options.Strategy = "dispatch"
		resp := local(req)
		if n := strings.Count(req.Graph, "{") - 1; resp.Outcome == proto.OK && n >= 3 {
			resp.Stats.Fallbacks = 1
			resp.Stats.PassesUsed = []string{"shapes", fmt.Sprintf("fallback: shapes: no layout for %d blocks: gave up at block %d", n, n-1)}
		}
		return resp
	})
}
