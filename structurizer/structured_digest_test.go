// structured_digest_test.go: TestOutputDigest, a tool that writes one
// digest line per graph of a fixed set (the named shapes at 100, 1k and
// 10k blocks; gen's five kinds at their default sizes; its four random
// kinds at 20-400 blocks with weights of 0-64 words), so that two trees'
// outputs can be compared line by line: a change meant to keep the
// structurizer's output byte-identical must leave the file unchanged.
package structurizer

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestOutputDigest is skipped unless DIGEST names a file to write:
//
//	DIGEST=/tmp/a.txt go test -p 1 ./structurizer -run TestOutputDigest
//
// Each line names a graph and gives the SHA-256 of its result (the Func's
// JSON and the Stats) or of the refusal's text.
func TestOutputDigest(t *testing.T) {
	path := os.Getenv("DIGEST")
	if path == "" {
		t.Skip("DIGEST not set")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	graphs := 0
	for name, g := range digestGraphs(t) {
		fmt.Fprintf(w, "%s %s\n", name, outputDigest(t, g))
		graphs++
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if graphs < 6000 {
		t.Fatalf("%d graphs digested, want at least 6,000", graphs)
	}
	t.Logf("%d graphs digested into %s", graphs, path)
}

// digestGraphs yields the fixed set of TestOutputDigest, each graph under
// a name that says how to draw it again.
func digestGraphs(t *testing.T) func(yield func(string, *cfg.Graph) bool) {
	return func(yield func(string, *cfg.Graph) bool) {
		for _, sh := range shapes {
			for _, n := range []int{100, 1000, 10000} {
				g := sh.make(rand.New(rand.NewPCG(uint64(n), 1)), n)
				if !yield(fmt.Sprintf("%s/%d", sh.name, n), g) {
					return
				}
			}
		}
		for _, k := range gen.Kinds() {
			for i := range 1000 {
				if !yieldGenerated(t, yield, fmt.Sprintf("%s/default/%d", k, i), gen.Config{Kind: k}, gen.SeedFor(k, 1, i)) {
					return
				}
			}
		}
		for _, k := range gen.Kinds() {
			if k == gen.Exhaustive {
				continue
			}
			for i := range 300 {
				c := gen.Config{Kind: k, MinBlocks: 20, MaxBlocks: 400, WordsUpTo: 64}
				if !yieldGenerated(t, yield, fmt.Sprintf("%s/large/%d", k, i), c, gen.SeedFor(k, 2, i)) {
					return
				}
			}
		}
	}
}

// yieldGenerated draws gen's graph of c and seed and yields it.
func yieldGenerated(t *testing.T, yield func(string, *cfg.Graph) bool, name string, c gen.Config, seed uint64) bool {
	it, err := gen.Generate(c, seed)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return yield(name, it.Graph)
}

// outputDigest is the SHA-256 of g's structurized result, or of the
// refusal.
func outputDigest(t *testing.T, g *cfg.Graph) string {
	h := sha256.New()
	res, err := Structurize(g, Options{})
	if err != nil {
		io.WriteString(h, "error: "+err.Error())
		return fmt.Sprintf("%x", h.Sum(nil))
	}
	data, err := json.Marshal(res.Func)
	if err != nil {
		t.Fatal(err)
	}
	h.Write(data)
	fmt.Fprintf(h, "\n%+v", res.Stats)
	return fmt.Sprintf("%x", h.Sum(nil))
}
