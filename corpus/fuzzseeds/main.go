// Command fuzzseeds writes the regression suite as fuzzer inputs: each graph of
// corpus/testdata/regressions encoded with gen.ToBytes (the inverse of the
// harnesses' gen.FromBytes) into one file of DIR, named after the
// regression. ClusterFuzzLite's build (.clusterfuzzlite/build.sh) zips DIR
// into the seed corpus; go-fuzz takes DIR as its workdir's corpus.
//
//	go run ./corpus/fuzzseeds -out DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/gen"
)

func main() {
	out := flag.String("out", "seed-corpus", "directory to write the inputs to")
	suite := flag.String("regressions", "corpus/testdata/regressions", "the regression suite")
	flag.Parse()
	if err := write(*suite, *out); err != nil {
		fmt.Fprintln(os.Stderr, "seeds:", err)
		os.Exit(1)
	}
}

func write(suite, out string) error {
	rs, err := corpus.LoadRegressions(suite)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	n := 0
	for _, r := range rs {
		b := gen.ToBytes(r.Graph)
		if b == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(out, r.Name), b, 0o644); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(os.Stderr, "seeds: %d of %d regressions written to %s\n", n, len(rs), out)
	return nil
}
