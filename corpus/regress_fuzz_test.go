// regress_fuzz_test.go: the native fuzz target FuzzParseRegression, a
// regression file as `cfgfuzz regress` and `go test ./corpus` read it.
// Whatever the bytes, it reads one regression or fails with an error
// naming the file (and, for the graph, the line and column), never a
// panic; what reads writes back as WriteRegression writes it and reads
// again as the same header (with the compact notation's comment added to
// the notes) and graph. The seed corpus is every file of the regression
// suite, which `cfgfuzz minimize --save-regression` wrote.
//
//	go test -run '^$' -fuzz '^FuzzParseRegression$' -fuzztime 150s -parallel 1 ./corpus
package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func FuzzParseRegression(f *testing.F) {
	paths, err := filepath.Glob(filepath.Join("testdata", "regressions", "*.cfg"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no regression files: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"# signature: none\n{{}}\n", "# signature: x\n# registers: -1\n{{}}\n", "# signature: x\n# expect: maybe\n{{}}\n",
		"# signature: x\n{{}}\n{{}}\n", "{{}}\n", "\x00\x01\xff", "# signature: x\n# registers: 99999999999999999999\n{{}}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRegression("in.cfg", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in.cfg:") {
				t.Fatalf("%q: error %q does not name the file", data, err)
			}
			return
		}
		if r.Name != "in" || r.Header.Signature == "" || r.Header.Registers < 0 || r.Header.Registers > emit.MaxRegisters {
			t.Fatalf("%q: read as %+v", data, r)
		}
		if err := r.Graph.Validate(cfg.Limits{}); err != nil {
			t.Fatalf("%q: read an invalid graph: %v", data, err)
		}
		text := regressionText(r.Header, r.Graph)
		again, err := ParseRegression("in.cfg", []byte(text))
		if err != nil {
			t.Fatalf("%q read as %+v, written back as %q, does not read: %v", data, r.Header, text, err)
		}
		want := r.Header
		want.Notes = append(slices.Clip(want.Notes), "compact: "+cfg.FormatCompact(r.Graph))
		if !reflect.DeepEqual(again.Header, want) {
			t.Fatalf("%q: header %+v written back as %q reads as %+v", data, want, text, again.Header)
		}
		if !again.Graph.Equal(r.Graph) {
			t.Fatalf("%q: graph %v written back as %q reads as %v", data, r.Graph, text, again.Graph)
		}
	})
}
