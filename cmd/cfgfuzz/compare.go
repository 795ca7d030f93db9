// compare.go: `cfgfuzz compare --baseline REV [--current REV]`, a campaign
// that runs every graph on two revisions and classifies each graph (the
// flags and the machinery are run's; see run.go).

package main

import (
	"io"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func init() {
	register(command{name: "compare", summary: "compare two revisions' structurizers graph by graph", run: runCompare})
}

func runCompare(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	return campaignMain("compare", args, builds, stdout, stderr)
}
