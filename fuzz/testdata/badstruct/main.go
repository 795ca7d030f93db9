// Command badstruct is a test-only structurizer speaking protocol v1 that
// misbehaves on purpose: it panics on graphs of exactly 4 blocks, loops
// forever on graphs of exactly 5, and otherwise answers with this tree's
// structurizer (the structured function form). The fuzz tests build it.
package main

import (
	"os"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
)

func main() {
	local := proto.Local(false)
	proto.Serve(os.Stdin, os.Stdout, func(req proto.Request) proto.Response {
		switch blocks(req.Graph) {
		case 4:
			panic("badstruct: four blocks")
		case 5:
			for {
			}
		}
		return local(req)
	})
}

// blocks counts the successor lists of a compact graph.
func blocks(g string) int {
	return strings.Count(g, "{") - 1
}
