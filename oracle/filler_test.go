// filler_test.go: the filler check and growth's clone budget and case
// list: emit's filler meets FillerWords at every weight; a module whose
// small block lost its filler fails filler (and only filler); the copies
// the oracle counts never exceed the structurizer's own clone count; a
// structurizer copying past the budget fails growth:clones; a wide switch
// passes growth on both strategies while a grown module still fails.
package oracle

import (
	byteorder "encoding/binary"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// structuredModule structurizes src (weights given) with sopt and emits
// it; edit, when not nil, changes the structured function first.
func structuredModule(t *testing.T, src string, weights []int, sopt structurizer.Options, edit func(*structurizer.Func)) (*cfg.Graph, []byte, structurizer.Stats) {
	t.Helper()
	g, err := cfg.ParseCompact(src, cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	copy(g.Weights, weights)
	res, err := structurizer.Structurize(g, sopt)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(res.Func)
	}
	mod, err := emit.Bytes(res.Func, emit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, mod, res.Stats
}

func TestEmitFillerMeetsFillerWords(t *testing.T) {
	for w := 0; w <= 1100; w++ {
		g, mod, _ := structuredModule(t, "{{}}", []int{w}, structurizer.Options{Strategy: "dispatch"}, nil)
		m, err := spirv.Decode(mod)
		if err != nil {
			t.Fatal(err)
		}
		fills := blockFills(m)
		i := slices.IndexFunc(fills, func(f blockFill) bool { return f.reported == 0 })
		if i < 0 {
			t.Fatalf("weight %d: no block reports b0: %+v", w, fills)
		}
		if got := fills[i].words; got < FillerWords(w) || got > w+12 {
			t.Fatalf("weight %d: %d filler words, want %d..%d", w, got, FillerWords(w), w+12)
		}
		if v := (&Oracle{}).checkFiller(&Subject{Graph: g, Module: mod}); v.Status != Pass {
			t.Fatalf("weight %d: %+v", w, v)
		}
	}
}

// TestFillerCatchesDroppedFiller drops the filler of one small block (its
// weight 0 in the structured function): the module still runs, validates
// and stays small, so only the filler check can tell.
func TestFillerCatchesDroppedFiller(t *testing.T) {
	o, err := New(Options{Checks: []string{"rules", "exec", "growth", "filler"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, strategy := range []string{"dispatch", "structured"} {
		weights := []int{16, 3, 40, 0}
		g, mod, _ := structuredModule(t, "{{1, 2}, {3}, {3}, {}}", weights, structurizer.Options{Strategy: strategy}, nil)
		if f := Failed(o.Check(&Subject{Graph: g, Module: mod})); f != nil {
			t.Fatalf("%s, filler kept: %+v", strategy, f)
		}
		g, mod, _ = structuredModule(t, "{{1, 2}, {3}, {3}, {}}", weights, structurizer.Options{Strategy: strategy}, func(f *structurizer.Func) {
			for i := range f.Blocks {
				if f.Blocks[i].Orig == 1 && f.Blocks[i].Kind != structurizer.Synthetic {
					f.Blocks[i].Weight = 0
				}
			}
		})
		vs := o.Check(&Subject{Graph: g, Module: mod})
		f := Failed(vs)
		if f == nil || f.Signature != "filler:"+SigFillerShort || !strings.Contains(f.Detail, "b1") {
			t.Fatalf("%s, filler of b1 dropped: want filler:short on b1, got %+v", strategy, vs)
		}
		for _, v := range vs {
			if v.Check != "filler" && v.Status != Pass {
				t.Errorf("%s: %s should pass on the module (only filler can tell): %+v", strategy, v.Check, v)
			}
		}
	}
}

func TestDefaultCloneBudgetIsTheStructurizers(t *testing.T) {
	if DefaultCloneBudget != structurizer.DefaultCloneBudget {
		t.Fatalf("oracle's DefaultCloneBudget %d, structurizer's %d", DefaultCloneBudget, structurizer.DefaultCloneBudget)
	}
}

// cloningGraph is a graph on which the structured strategy, given the
// budget, copies 112 words (7 return blocks of weight 16).
const cloningGraph = "{{8, 5}, {}, {4, 4, 8}, {10, 7, 4, 6}, {}, {4, 8, 7}, {11, 0, 4, 2}, {5, 7, 8, 7}, {8, 0, 9, 4}, {4, 3}, {0, 2}, {4}}"

var cloningWeights = []int{16, 16, 0, 0, 16, 16, 16, 40, 40, 16, 0, 16}

func TestGrowthHoldsTheCloneBudget(t *testing.T) {
	for _, c := range []struct {
		budget int
		sig    string
	}{{0, ""}, {1000, "growth:" + SigGrowthClones}} {
		g, mod, st := structuredModule(t, cloningGraph, cloningWeights, structurizer.Options{CloneBudget: c.budget}, nil)
		s := &Subject{Graph: g, Module: mod}
		v := (&Oracle{}).checkGrowth(s)
		t.Logf("clone budget %d: %d clones, oracle counts %+v: %+v", c.budget, st.Clones, s.Copied, v)
		if v.Signature != c.sig {
			t.Errorf("clone budget %d: want %q, got %+v", c.budget, c.sig, v)
		}
		if !s.CopiedKnown || s.Copied.Blocks == 0 || s.Copied.Blocks > st.Clones {
			t.Errorf("clone budget %d: oracle counts %+v copies, structurizer %d clones", c.budget, s.Copied, st.Clones)
		}
	}
	// A Check without growth measures nothing, and says so.
	g0, mod0, _ := structuredModule(t, cloningGraph, cloningWeights, structurizer.Options{}, nil)
	s := &Subject{Graph: g0, Module: mod0, Copied: Copies{Blocks: 9, Words: 99}, CopiedKnown: true}
	if o, err := New(Options{Checks: []string{"filler"}}); err != nil {
		t.Fatal(err)
	} else if o.Check(s); s.CopiedKnown {
		t.Errorf("a Check without growth left copies %+v known", s.Copied)
	}
	// No budget: the structurizer's default copies fail a budget of none.
	g, mod, _ := structuredModule(t, cloningGraph, cloningWeights, structurizer.Options{}, nil)
	if v := (&Oracle{opt: Options{Growth: GrowthOptions{CloneBudget: -1}}}).checkGrowth(&Subject{Graph: g, Module: mod}); v.Signature != "growth:"+SigGrowthClones {
		t.Errorf("budget none: want growth:clones, got %+v", v)
	}
}

// TestGrowthHoldsTheDeclaredCloneWeight: the structured strategy copies
// return blocks of 16 words on cloningGraph; a structurizer declaring
// copies of at most 16 words passes, one declaring 8 fails
// growth:clone-weight, one declaring nothing passes.
func TestGrowthHoldsTheDeclaredCloneWeight(t *testing.T) {
	g, mod, _ := structuredModule(t, cloningGraph, cloningWeights, structurizer.Options{}, nil)
	for _, c := range []struct {
		most int
		sig  string
	}{{0, ""}, {structurizer.CloneMaxWeight, ""}, {8, "growth:" + SigCloneWeight}} {
		s := &Subject{Graph: g, Module: mod, Info: ResultInfo{CloneMaxWords: c.most}}
		v := (&Oracle{}).checkGrowth(s)
		if v.Signature != c.sig {
			t.Errorf("declared %d: want %q, got %+v", c.most, c.sig, v)
		}
		if s.Copied.Heaviest != 16 || g.Weight(s.Copied.HeaviestID) != 16 {
			t.Errorf("declared %d: heaviest copy %+v, want a block of 16 words", c.most, s.Copied)
		}
	}
}

// TestCopiesNeverExceedClones: on random graphs the copies the oracle
// counts in the module are at most the clones the structurizer reports,
// and within the default budget.
func TestCopiesNeverExceedClones(t *testing.T) {
	r := seededRand(t, 17)
	for range 400 {
		g := anyGraph(r, 2+r.IntN(12))
		res, err := structurizer.Structurize(g, structurizer.Options{})
		if err != nil {
			continue
		}
		m, err := emit.Module(res.Func, emit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := copiesOf(g, blockFills(m))
		if c.Blocks > res.Stats.Clones || c.Words > DefaultCloneBudget {
			t.Fatalf("%s %v: copies %+v, structurizer clones %d", cfg.FormatCompact(g), g.Weights, c, res.Stats.Clones)
		}
	}
}

// wideSwitch is one switch block of n cases over two returning blocks.
func wideSwitch(n int) string {
	var b strings.Builder
	b.WriteString("{{")
	for k := range n {
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString([]string{"1", "2"}[k%2])
	}
	b.WriteString("}, {}, {}}")
	return b.String()
}

func TestGrowthCountsTheCaseList(t *testing.T) {
	for _, n := range []int{160, 300, 1000} {
		for _, strategy := range []string{"dispatch", "structured"} {
			g, mod, _ := structuredModule(t, wideSwitch(n), nil, structurizer.Options{Strategy: strategy}, nil)
			if v := (&Oracle{}).checkGrowth(&Subject{Graph: g, Module: mod}); v.Status != Pass {
				t.Errorf("%d cases, %s: %+v", n, strategy, v)
			}
			// The same module grown to 5 times the words the graph allows
			// still fails.
			lim := GrowthOptions{}.withDefaults()
			in := lim.PerBlockWords*3 + lim.PerCaseWords*n
			grown := slices.Clone(mod)
			for range 5 * int(lim.WordFactor) * in {
				grown = byteorder.LittleEndian.AppendUint32(grown, 1<<16) // OpNop
			}
			if v := (&Oracle{}).checkGrowth(&Subject{Graph: g, Module: grown}); v.Signature != "growth:"+SigGrowthWords {
				t.Errorf("%d cases, %s, grown: want growth:words, got %+v", n, strategy, v)
			}
		}
	}
}

// TestGrowthCountsDeadBlocks: a structurizer may keep a dead block (one
// no path from the entry reaches) in its module, code and filler: growth
// counts the graph's dead blocks into blocks in and words in. The module
// of {{1, 2}, {}, {}} carries block 2's 1000 words, and judged against
// {{1}, {}, {}}, where block 2 is dead, it is within the limits; the same
// module grown past them still fails.
func TestGrowthCountsDeadBlocks(t *testing.T) {
	weights := []int{0, 0, 1000}
	_, mod, _ := structuredModule(t, "{{1, 2}, {}, {}}", weights, structurizer.Options{}, nil)
	dead, err := cfg.ParseCompact("{{1}, {}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	copy(dead.Weights, weights)
	if v := (&Oracle{}).checkGrowth(&Subject{Graph: dead, Module: mod}); v.Status != Pass {
		t.Errorf("a module keeping dead block 2's 1000 words: %+v, want a pass", v)
	}
	grown := slices.Clone(mod)
	for range 5 * 4 * 1000 {
		grown = byteorder.LittleEndian.AppendUint32(grown, 1<<16) // OpNop
	}
	if v := (&Oracle{}).checkGrowth(&Subject{Graph: dead, Module: grown}); v.Signature != "growth:"+SigGrowthWords {
		t.Errorf("grown past the limit: want growth:words, got %+v", v)
	}
}
