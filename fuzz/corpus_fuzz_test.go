// corpus_fuzz_test.go: the native fuzz target FuzzLoadCorpus, the guided
// corpus's entries.jsonl (the state's corpus/, --corpus DIR). Whatever the
// bytes, it reads a corpus or fails with an error naming the file and a
// line of it, never a panic; every graph read takes a mutation (it is a
// parent of guided generation); what reads writes back as SaveCorpus
// writes it and reads again as the same corpus (entries and digest). The
// seed corpus is a corpus built here and, under
// testdata/fuzz/FuzzLoadCorpus, one a guided night of the cfgfuzz binary
// left in its state directory.
//
//	go test -run '^$' -fuzz '^FuzzLoadCorpus$' -fuzztime 150s -parallel 1 ./fuzz
package fuzz

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var corpusErrorAt = regexp.MustCompile(`^in/entries\.jsonl:([0-9]+): .`)

func FuzzLoadCorpus(f *testing.F) {
	c := &Corpus{}
	for i, src := range []string{"{{1, 2}, {3}, {3}, {}}", "{{1}, {0, 2, 3}, {}, {1}}", "{{0}}"} {
		g, err := cfg.ParseCompact(src, cfg.Limits{})
		if err != nil {
			f.Fatal(err)
		}
		if i == 1 {
			g.Weights = []int{0, 16, 1000, 3}
		}
		c.Add(g, []string{"pass:" + strconv.Itoa(i), "shape:loop"}, i, 7)
	}
	good, err := corpusBytes(c)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(append([]byte("\n  \n"), good...))
	f.Add([]byte(`{"graph": "a: br a\n", "features": null, "index": -1, "seed": 0}` + "\n"))
	f.Add([]byte("null\n"))
	f.Add([]byte("garbage\x00\xff\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseCorpus("in/entries.jsonl", data)
		if err != nil {
			m := corpusErrorAt.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("%q: error %q names no line of the file", data, err)
			}
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > bytes.Count(data, []byte("\n"))+1 {
				t.Fatalf("%q: error %q names a line past the file", data, err)
			}
			return
		}
		for i, g := range c.graphs {
			if _, err := gen.Mutate(g, uint64(i), gen.MutateOptions{}); err != nil {
				t.Fatalf("%q: entry %d does not mutate: %v", data, i, err)
			}
		}
		text, err := corpusBytes(c)
		if err != nil {
			t.Fatal(err)
		}
		again, err := parseCorpus("in/entries.jsonl", text)
		if err != nil {
			t.Fatalf("%q read, written back as %q, does not read: %v", data, text, err)
		}
		if text2, _ := corpusBytes(again); !bytes.Equal(text, text2) || again.Digest() != c.Digest() || again.Features() != c.Features() {
			t.Fatalf("%q written back as %q reads and writes back as %q", data, text, text2)
		}
		for i := range c.graphs {
			if !c.graphs[i].Equal(again.graphs[i]) {
				t.Fatalf("%q: entry %d reads as %v, written back as %v", data, i, c.graphs[i], again.graphs[i])
			}
		}
	})
}
