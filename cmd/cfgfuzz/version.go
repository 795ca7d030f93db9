// version.go: `cfgfuzz version` and `cfgfuzz --version`: the module
// version and VCS revision this binary was built from (fuzz.ThisBuild, from
// runtime/debug.ReadBuildInfo), the toolchain and the host; and the writer
// a campaign directory records (thisWriter).

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

func init() {
	register(command{name: "version", summary: "print the module version and VCS revision this binary was built from", run: runVersion})
}

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer, _ *fuzz.BuildStop) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the build facts as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz version [--json]  (also: cfgfuzz --version)")
		fmt.Fprintln(fs.Output(), "\nPrint the module version, the VCS revision (+dirty for uncommitted changes), the Go toolchain and")
		fmt.Fprintln(fs.Output(), "the host (GOOS/GOARCH) this binary was built for, and the writer it records in the campaigns it writes,")
		fmt.Fprintln(fs.Output(), "which merge and --resume compare; report.json's provenance holds the same facts (tool, host, writer).\n\nflags:")
		fs.PrintDefaults()
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "cfgfuzz version: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	b := fuzz.ThisBuild()
	if *asJSON {
		out, err := json.Marshal(struct {
			fuzz.Build
			Host   string      `json:"host"`
			Writer fuzz.Writer `json:"writer"`
		}{b, fuzz.Host(), thisWriter()})
		if err != nil {
			fmt.Fprintln(stderr, "cfgfuzz version:", err)
			return exitUsage
		}
		fmt.Fprintln(stdout, string(out))
		return exitOK
	}
	fmt.Fprintln(stdout, b)
	// The name merge and --resume compare: two builds that print the same
	// version line (no VCS information) may still be two writers.
	fmt.Fprintf(stdout, "campaign writer: %s\n", thisWriter())
	return exitOK
}

// buildID, when set at link time (go build -ldflags "-X main.buildID=ID"),
// names this build in the campaign directories it writes instead of its
// module version and revision: for a build without VCS information that
// a packager names, and for the tests that make two builds of one tree.
var buildID string

// thisWriter is the cfgfuzz this binary writes into campaign.json and
// compares a resumed log and merged shards with (fuzz.Writer).
func thisWriter() fuzz.Writer {
	if buildID == "" {
		return fuzz.ThisWriter()
	}
	w := fuzz.ThisWriter()
	w.Build = buildID
	return w
}
