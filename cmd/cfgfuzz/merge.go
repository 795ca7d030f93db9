// merge.go: `cfgfuzz merge [--out DIR] DIR...`, which combines the
// directories of a campaign's shards into one report, equal to the report
// of the whole campaign run on one machine.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func init() {
	register(command{name: "merge", summary: "merge the shards of a campaign into one report", run: runMerge})
}

func runMerge(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "cfgfuzz-out", "output `DIR` of the merged report")
	partial := fs.Bool("partial", false, "merge an incomplete shard set (a shard missing, interrupted, torn or of another split); the report names what is missing")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cfgfuzz merge [--out DIR] [--partial] SHARD_DIR...\n\nCombine the shards' results logs into one report. Exit status: 0 nothing new, 1 new findings,")
		fmt.Fprintln(stderr, "2 usage or infrastructure error, an incomplete shard set, or a --partial merge without new findings.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	rep, err := fuzz.MergeWith(fs.Args(), fuzz.MergeOptions{Partial: *partial})
	if err == nil {
		err = writeMerged(*out, fs.Args(), rep)
	}
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz merge:", err)
		return exitUsage
	}
	code := reportExit("merge", rep, nil, *out, stdout, stderr)
	if rep.Incomplete != nil && code == exitOK {
		return exitUsage
	}
	return code
}

// writeMerged writes the merged report into out, locked, after refusing an
// out that is one of the inputs or holds a campaign (whose report it would
// replace).
func writeMerged(out string, inputs []string, rep *fuzz.Report) error {
	for _, in := range inputs {
		if sameDir(out, in) {
			return fmt.Errorf("--out %s is one of the shards merged; choose another directory", out)
		}
	}
	if _, err := os.Stat(filepath.Join(out, fuzz.CampaignFile)); err == nil {
		return fmt.Errorf("--out %s holds a campaign (%s) whose report the merge would replace; choose another directory", out, fuzz.CampaignFile)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	unlock, err := fuzz.LockDir(out)
	if err != nil {
		return err
	}
	defer unlock()
	return fuzz.WriteReports(out, rep, genSource{})
}

// sameDir reports whether a and b name one existing directory.
func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
