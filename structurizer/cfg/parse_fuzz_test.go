// parse_fuzz_test.go: the native fuzz target FuzzParse (go test
// -fuzz=FuzzParse) and its seed corpus: valid graphs in both notations,
// multi-graph files, and the malformed input the table tests reject. Inputs
// the fuzzer found are kept under testdata/fuzz/FuzzParse and replay with
// every go test.
package cfg

import (
	"os"
	"path/filepath"
	"testing"
)

// fuzzSeeds are valid and invalid examples for the corpus.
var fuzzSeeds = []string{
	"{{1}, {2, 3}, {3}, {}}",
	"{{1}, {2, 3}, {4}, {}}",
	"{{1}, {2, 2}, {}}",
	"{{1}, {4, 5, 5}, {}, {}, {}, {}}",
	"{{0}}",
	"{{1, 2,}, {}, {},}", // trailing commas: an error
	"{{1,},{}}",
	"{\n {1}, # c\n {}\n}\n{{}} {{0}}\n",
	"{{1}, {2",
	"{{-1}}",
	"{{99999999999999999999999}}",
	"{{1 2}}",
	"{}",
	"",
	"\uFEFF{{}}",
	"outer: switch unreachable enter_inner outer_payload\nenter_inner: br body\nbody [w=1000]: if a b\n" +
		"a: br outer\nb: if exit, outer\nouter_payload: br outer\nunreachable: ret\nexit: ret\n",
	"b0: if b1 b2\nb1: br b3\nb2: br b3\nb3: ret\n---\nx: br x\n",
	"a: br b\n",
	"a: ret\na: ret\n",
	"a: if a\n",
	"a [w=99999]: ret\n",
	"a [w=1: ret\n",
	"a: switch a a a a a a a a a a a a a a a a a a a a a a a a\n",
	"---\n---\n",
	"{{}}\na: ret\n---\n{{1},{}}\n",
	"a: ret # \xff\n",
	"\x00\x01\x02\xff",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	if data, err := os.ReadFile(filepath.Join("testdata", "examples.cfg")); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParse(t, data)
	})
}
