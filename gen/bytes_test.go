// bytes_test.go: FromBytes is total and bounded; ToBytes round-trips; a
// fuzz target keeps it that way.
package gen

import (
	"errors"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func checkDecoded(t *testing.T, data []byte) {
	t.Helper()
	g, err := FromBytes(data)
	if len(data) == 0 {
		if !errors.Is(err, ErrNoBytes) || g != nil {
			t.Fatalf("FromBytes(empty) = %v, %v; want nil, ErrNoBytes", g, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("FromBytes(%x): %v", data, err)
	}
	if err := g.Validate(cfg.Limits{}); err != nil {
		t.Fatalf("FromBytes(%x) = %v: %v", data, g, err)
	}
	if g.Len() > MaxBytesBlocks {
		t.Fatalf("FromBytes(%x) has %d blocks", data, g.Len())
	}
}

func TestFromBytesTotal(t *testing.T) {
	for _, data := range [][]byte{nil, {}, {0}, {255}, {63}, {64, 3}, {3, 0xff, 0xff}, {7, 3, 1, 2, 3, 4, 5, 6, 7}} {
		checkDecoded(t, data)
	}
	r := newRNG(12345, 1)
	t.Logf("random inputs from seed 12345")
	for range 20000 {
		data := make([]byte, r.intn(300))
		for i := range data {
			data[i] = byte(r.intn(256))
		}
		checkDecoded(t, data)
	}
}

func TestFromBytesLayout(t *testing.T) {
	// 3 blocks: a conditional to 1 and 2 at 16 words, a branch to 2, a return at 1000.
	g, err := FromBytes([]byte{2, 2 | 5<<5, 1, 2, 1, 2, 7 << 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.String(); got != "{{1, 2}, {2}, {}}" || !slices.Equal(g.Weights, []int{16, 0, 1000}) {
		t.Errorf("decoded %s weights %v", got, g.Weights)
	}
	// Running out: the missing target points at the next block, the
	// missing blocks return.
	g, _ = FromBytes([]byte{3, 2, 3})
	if got := g.String(); got != "{{3, 1}, {}, {}, {}}" {
		t.Errorf("truncated input decoded to %s", got)
	}
}

func TestToBytesRoundTrip(t *testing.T) {
	for _, k := range Kinds() {
		for _, it := range batch(t, Config{Kind: k, Words: 16, Heavy: true}, 4, 300) {
			data := ToBytes(it.Graph)
			if maxOutDegree(it.Graph) > 6 { // a widened switch: past the layout's 6 successors
				if data != nil {
					t.Fatalf("%s seed %d: %v encoded, with a switch of %d successors", k, it.Seed, it.Graph, maxOutDegree(it.Graph))
				}
				continue
			}
			g, err := FromBytes(data)
			if err != nil || !g.Equal(it.Graph) {
				t.Fatalf("%s seed %d: %v round-trips to %v (%v)", k, it.Seed, it.Graph, g, err)
			}
		}
	}
	if ToBytes(cfg.New(MaxBytesBlocks+1)) != nil || ToBytes(cfg.FromSuccs([][]int{{0, 0, 0, 0, 0, 0, 0}})) != nil {
		t.Error("ToBytes accepted a graph outside its bounds")
	}
}

func maxOutDegree(g *cfg.Graph) int {
	d := 0
	for _, s := range g.Succs {
		d = max(d, len(s))
	}
	return d
}

func FuzzFromBytes(f *testing.F) {
	for _, it := range batch(f, Config{Kind: Program}, 1, 20) {
		f.Add(ToBytes(it.Graph))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecoded(t, data)
	})
}
