// emit_test.go: emitted modules decode back to what was encoded, pass
// spirv-val and the execution check for every strategy on seeded random
// graphs and on the field's graph shapes (testdata/seeds.cfg); benchmarks of
// emission and of one whole check per graph.
package emit

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// anyGraph is an arbitrary graph: any edges (irreducible, exit-less,
// self-loops, duplicate switch targets, unreachable blocks), with weights.
func anyGraph(r *rand.Rand, n int) *cfg.Graph {
	g := gen.Arbitrary(r, n)
	for b := range n {
		g.Weights[b] = []int{0, 0, 16, 1000}[r.IntN(4)]
	}
	return g
}

func newOracle(t testing.TB) *oracle.Oracle {
	t.Helper()
	o, err := oracle.New(oracle.Options{Checks: []string{"exec", "spirv-val"}})
	if err != nil {
		t.Skipf("oracle unavailable: %v", err)
	}
	return o
}

// checkGraph structurizes, emits and runs the oracle; it fails the test on
// any verdict other than pass.
func checkGraph(t *testing.T, o *oracle.Oracle, g *cfg.Graph, strategy string) {
	t.Helper()
	res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strategy})
	if err != nil {
		t.Fatalf("%s %v: %v", strategy, g, err)
	}
	mod, err := Bytes(res.Func, Options{})
	if err != nil {
		t.Fatalf("%s %v: %v", strategy, g, err)
	}
	for _, v := range o.Check(&oracle.Subject{Graph: g, Module: mod}) {
		if v.Status != oracle.Pass && v.Status != oracle.Skip {
			t.Fatalf("%s %v: %s %s %s: %s", strategy, g, v.Check, v.Status, v.Signature, v.Detail)
		}
	}
}

func TestDispatchModulesPassEveryCheck(t *testing.T) {
	o := newOracle(t)
	const seed = 21
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	count := 300
	if testing.Short() {
		count = 50
	}
	for range count {
		checkGraph(t, o, anyGraph(r, 1+r.IntN(12)), "dispatch")
	}
}

func TestSeedShapesPassEveryStrategy(t *testing.T) {
	data, err := os.ReadFile("testdata/seeds.cfg")
	if err != nil {
		t.Fatal(err)
	}
	items, err := cfg.Parse("testdata/seeds.cfg", data, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) < 9 {
		t.Fatalf("only %d seed graphs", len(items))
	}
	o := newOracle(t)
	for _, s := range structurizer.Strategies() {
		for _, it := range items {
			checkGraph(t, o, it.Graph, s)
		}
	}
}

// TestModulesRoundTripThroughTheDecoder also holds Bytes (written straight
// from the builder's sections) and Module.Bytes (EncodeBytes) to the slow
// reference: Module's instruction list encoded as words, then as bytes.
func TestModulesRoundTripThroughTheDecoder(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 0))
	for i := range 200 {
		g := anyGraph(r, 1+r.IntN(10))
		strategy := structurizer.Strategies()[i%len(structurizer.Strategies())]
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strategy})
		if err != nil {
			continue // a refusal: nothing to encode
		}
		opt := Options{NoNames: i%3 == 0, Salt: uint32(i % 2), NoLaneGuard: i%5 == 0}
		m, err := Module(res.Func, opt)
		if err != nil {
			t.Fatal(err)
		}
		words := mustEncode(t, m)
		ref := spirv.WordsToBytes(words)
		fast, err := Bytes(res.Func, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fast, ref) || !slices.Equal(m.Bytes(), ref) {
			t.Fatalf("%s %v: Bytes or Module.Bytes differs from the words' encoding", strategy, g)
		}
		m.Schema = 7
		if got := m.Bytes(); binary.LittleEndian.Uint32(got[16:]) != 7 {
			t.Fatalf("Module.Bytes dropped the schema word")
		}
		m.Schema = 0
		back, err := spirv.Decode(ref)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(mustEncode(t, back), words) {
			t.Fatalf("%v: decode(encode(m)) differs", g)
		}
	}
}

func TestWeightsBecomeWords(t *testing.T) {
	size := func(w int) int {
		g := cfg.FromSuccs([][]int{{}})
		g.Weights[0] = w
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "dispatch"})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Module(res.Func, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return len(mustEncode(t, m))
	}
	base := size(0)
	for _, w := range []int{16, 1000, 10000} {
		grew := size(w) - base
		// Filler plus the constants it uses; within 10% + 40 words.
		if grew < w*9/10 || grew > w*11/10+40 {
			t.Fatalf("weight %d added %d words", w, grew)
		}
	}
}

func BenchmarkEmitDispatch(b *testing.B) {
	for _, n := range []int{10, 1000} {
		r := rand.New(rand.NewPCG(uint64(n), 0))
		g := anyGraph(r, n)
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "dispatch"})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%d-blocks", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Bytes(res.Func, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheckPerGraph is one `cfgfuzz check` of a 5-9-block graph:
// structurize, emit, and every check with the validator in use.
func BenchmarkCheckPerGraph(b *testing.B) {
	o := newOracle(b)
	r := rand.New(rand.NewPCG(3, 0))
	var gs []*cfg.Graph
	for range 64 {
		gs = append(gs, anyGraph(r, 5+r.IntN(5)))
	}
	i := 0
	for b.Loop() {
		g := gs[i%len(gs)]
		i++
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: "dispatch"})
		if err != nil {
			b.Fatal(err)
		}
		mod, err := Bytes(res.Func, Options{})
		if err != nil {
			b.Fatal(err)
		}
		o.Check(&oracle.Subject{Graph: g, Module: mod})
	}
}

// TestPrefixCacheMatchesFreshBuild: modules built on the cached prefix are
// byte for byte those built with the prefix made anew and main by the
// reference paths (names, filler), under every option,
// and building one module never changes the next: the same function
// emitted before and after 300 others gives the same bytes.
func TestPrefixCacheMatchesFreshBuild(t *testing.T) {
	const seed = 41
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	encode := func(b *builder) []byte { return b.bytes() }
	var first []byte
	var firstFunc *structurizer.Func
	var firstOpt Options
	for i := range 300 {
		g := anyGraph(r, 1+r.IntN(10))
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: structurizer.Strategies()[i%len(structurizer.Strategies())]})
		if err != nil {
			continue
		}
		opt := Options{NoNames: i%3 == 0, Salt: uint32(i % 2), NoLaneGuard: i%4 == 0}
		cached, err := build(res.Func, opt)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := buildFresh(res.Func, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := encode(cached), encode(fresh); !slices.Equal(got, want) {
			t.Fatalf("graph %d %v %+v: the cached prefix gives %d bytes, a fresh one %d, not the same", i, g, opt, len(got), len(want))
		}
		if firstFunc == nil {
			firstFunc, first, firstOpt = res.Func, encode(cached), opt
		}
	}
	again, err := build(firstFunc, firstOpt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(encode(again), first) {
		t.Fatal("the first module emitted again differs: a later build wrote into the shared prefix")
	}
}

// TestAppendStringIsSpirvString: the names' encoding without allocations
// is spirv.String's, for every length around the word boundaries.
func TestAppendStringIsSpirvString(t *testing.T) {
	for n := range 14 {
		s := "abcdefghijklmn"[:n]
		want := spirv.WordsToBytes(spirv.String(s))
		if got := appendString([]byte("x"), s); !slices.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("%q: %x, want %x", s, got, want)
		}
		if got := appendString(nil, []byte(s)); !slices.Equal(got, want) {
			t.Fatalf("%q as bytes: %x, want %x", s, got, want)
		}
	}
}

// mustEncode is m.Encode() for a module that fits.
func mustEncode(t *testing.T, m *spirv.Module) []uint32 {
	t.Helper()
	w, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return w
}
