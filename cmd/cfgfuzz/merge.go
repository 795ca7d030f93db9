// merge.go: `cfgfuzz merge [--out DIR] DIR...`, which combines the
// directories of a campaign's shards into one report, equal to the report
// of the whole campaign run on one machine.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func init() {
	register(command{name: "merge", summary: "merge the shards of a campaign into one report", run: runMerge})
}

func runMerge(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "cfgfuzz-out", "output `DIR` of the merged report")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cfgfuzz merge [--out DIR] SHARD_DIR...\n\nCombine the shards' results logs into one report (exit 1 when it holds new findings).\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	rep, err := fuzz.Merge(fs.Args())
	if err == nil {
		err = os.MkdirAll(*out, 0o755)
	}
	if err == nil {
		err = fuzz.WriteReports(*out, rep, genSource{})
	}
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz merge:", err)
		return exitUsage
	}
	return reportExit("merge", rep, nil, *out, stdout, stderr)
}
