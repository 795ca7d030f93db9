// gen_test.go: determinism, configuration, weights, and each random
// kind's defining property checked with cfg's brute-force references.
package gen

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// batch generates count items of c from run seed runSeed, as the CLI does.
func batch(t testing.TB, c Config, runSeed uint64, count int) []Item {
	t.Helper()
	items := make([]Item, count)
	for i := range items {
		seed := SeedFor(c.Kind, runSeed, i)
		it, err := Generate(c, seed)
		if err != nil {
			t.Fatalf("Generate(%+v, %d): %v", c, seed, err)
		}
		items[i] = it
	}
	return items
}

// render is everything an item prints: program, seed, graph with weights.
func render(items []Item) []byte {
	var buf bytes.Buffer
	for _, it := range items {
		fmt.Fprintf(&buf, "# seed=%d\n%s\n%s\n", it.Seed, it.Program, cfg.FormatLines(it.Graph))
	}
	return buf.Bytes()
}

func TestDeterminism(t *testing.T) {
	const runSeed = 20240601
	t.Logf("run seed %d", runSeed)
	for _, k := range Kinds() {
		c := Config{Kind: k, Words: 16, Heavy: true}
		a := render(batch(t, c, runSeed, 200))
		b := render(batch(t, c, runSeed, 200))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the same seed gave different output", k)
		}
		if d := render(batch(t, c, runSeed+1, 200)); bytes.Equal(a, d) {
			t.Errorf("%s: seeds %d and %d gave the same output", k, runSeed, runSeed+1)
		}
	}
}

func TestDifferentSeedsDiffer(t *testing.T) {
	for _, k := range []Kind{Reducible, Irreducible, NonTerminating, Program} {
		seen := map[string]bool{}
		for _, it := range batch(t, Config{Kind: k}, 7, 500) {
			seen[it.Graph.String()] = true
		}
		// Small graphs repeat by chance; most must differ.
		if len(seen) < 400 {
			t.Errorf("%s: only %d distinct graphs in 500 seeds", k, len(seen))
		}
	}
}

func TestSeedFor(t *testing.T) {
	if SeedFor(Reducible, 42, 0) != 42 || SeedFor(Exhaustive, 42, 3) != 45 {
		t.Fatal("SeedFor: graph 0 must use the run seed, exhaustive must count up")
	}
	seen := map[uint64]bool{}
	for i := range 10000 {
		seen[SeedFor(Program, 42, i)] = true
	}
	if len(seen) != 10000 {
		t.Fatalf("SeedFor repeated a seed: %d distinct of 10000", len(seen))
	}
	// Replaying a printed seed gives that graph.
	items := batch(t, Config{Kind: Program}, 42, 20)
	again, err := Generate(Config{Kind: Program}, items[17].Seed)
	if err != nil || !again.Graph.Equal(items[17].Graph) || again.Program != items[17].Program {
		t.Fatalf("replaying seed %d did not give graph 17 of the run", items[17].Seed)
	}
}

func TestConfigDefaults(t *testing.T) {
	c, err := Config{}.normalized()
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Kind: Reducible, MinBlocks: 5, MaxBlocks: 9, SwitchProb: DefaultSwitchProb, WideSwitchProb: DefaultWideSwitchProb, ExhaustiveN: 4}
	if c != want {
		t.Fatalf("zero Config normalizes to %+v, want %+v", c, want)
	}
	if c, _ := (Config{MaxBlocks: 3}).normalized(); c.MinBlocks != 3 {
		t.Errorf("MaxBlocks 3 alone: MinBlocks %d, want 3", c.MinBlocks)
	}
	if c, _ := (Config{MinBlocks: 20}).normalized(); c.MaxBlocks != 20 {
		t.Errorf("MinBlocks 20 alone: MaxBlocks %d, want 20", c.MaxBlocks)
	}
	if c, _ := (Config{SwitchProb: -1}).normalized(); c.SwitchProb != 0 {
		t.Errorf("negative SwitchProb: %g, want 0", c.SwitchProb)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{
		{Kind: "tree"},
		{MinBlocks: 9, MaxBlocks: 5},
		{MinBlocks: -1, MaxBlocks: 4},
		{MaxBlocks: MaxBlocksLimit + 1},
		{Kind: Irreducible, MaxBlocks: 3},
		{SwitchProb: 1.5},
		{Words: -1},
		{Kind: Exhaustive, ExhaustiveN: MaxExhaustiveN + 1},
	} {
		if _, err := Generate(c, 1); !errors.Is(err, ErrConfig) {
			t.Errorf("Generate(%+v): error %v, want ErrConfig", c, err)
		}
	}
}

// checkCommon checks what every generated graph satisfies.
func checkCommon(t *testing.T, it Item, c Config) {
	t.Helper()
	g := it.Graph
	if err := g.Validate(cfg.Limits{}); err != nil {
		t.Fatalf("seed %d: %v: %v", it.Seed, g, err)
	}
	if slices.Contains(g.Reachable(), false) {
		t.Fatalf("seed %d: %v has an unreachable block", it.Seed, g)
	}
	if c.Kind != Exhaustive && (g.Len() < c.MinBlocks || g.Len() > c.MaxBlocks) {
		t.Fatalf("seed %d: %v has %d blocks, outside %d-%d", it.Seed, g, g.Len(), c.MinBlocks, c.MaxBlocks)
	}
	for b, s := range g.Succs {
		if len(s) >= 3 && c.SwitchProb < 0 && c.Kind != NonTerminating {
			t.Fatalf("seed %d: %v: block %d is a switch with switches off", it.Seed, g, b)
		}
	}
}

func terminates(g *cfg.Graph) bool { return !slices.Contains(cfg.RefReachesExit(g), false) }

var randomConfigs = []Config{
	{},
	{MinBlocks: 1, MaxBlocks: 4},
	{MinBlocks: 10, MaxBlocks: 30, SwitchProb: 0.3},
	{SwitchProb: -1},
	{SwitchProb: 1},
}

func TestReducible(t *testing.T) {
	for _, c := range randomConfigs {
		c.Kind = Reducible
		const runSeed = 1
		t.Logf("config %+v, run seed %d", c, runSeed)
		for _, it := range batch(t, c, runSeed, 1500) {
			checkCommon(t, it, mustNormalize(t, c))
			if !cfg.RefReducible(it.Graph) {
				t.Fatalf("seed %d: %v is irreducible", it.Seed, it.Graph)
			}
			if !terminates(it.Graph) {
				t.Fatalf("seed %d: %v has a block that cannot return", it.Seed, it.Graph)
			}
			if it.Program != "" {
				t.Fatalf("seed %d: program text on a reducible graph", it.Seed)
			}
		}
	}
}

func mustNormalize(t *testing.T, c Config) Config {
	t.Helper()
	n, err := c.normalized()
	if err != nil {
		t.Fatal(err)
	}
	if c.SwitchProb < 0 {
		n.SwitchProb = -1 // keep "off" visible to checkCommon
	}
	return n
}

// TestReducibleDistribution keeps the figures documented in reducible.go
// within a few points.
func TestReducibleDistribution(t *testing.T) {
	var s Stats
	for _, it := range batch(t, Config{}, 1, 20000) {
		s.Add(it)
	}
	n := s.Graphs
	within := func(name string, got, lo, hi float64) {
		t.Helper()
		if got < lo || got > hi {
			t.Errorf("%s: %.1f%%, documented range %.0f-%.0f%%", name, got, lo, hi)
		}
	}
	within("graphs with a loop", pct(s.WithLoop, n), 65, 75)
	within("graphs with a self-loop", pct(s.WithSelfLoop, n), 11, 20)
	within("loop nesting depth 2+", 100-pct(s.LoopDepth[0]+s.LoopDepth[1], n), 20, 30)
	within("loops with 2+ exit targets", 100-pct(s.LoopExits[0]+s.LoopExits[1], s.Loops), 38, 50)
	within("loops with 2+ back edges", 100-pct(s.BackEdges[0]+s.BackEdges[1], s.Loops), 16, 26)
	within("graphs with a switch", pct(s.WithSwitch, n), 24, 33)
	within("graphs with a duplicate case", pct(s.WithDupCase, n), 13, 22)
	within("graphs with a switch of 5+ successors", pct(s.Shapes[ShapeWideSwitch], n), 5, 11)
	within("graphs with 2+ returns", 100-pct(s.Returns[0]+s.Returns[1], n), 40, 52)
	var buf bytes.Buffer
	s.Format(&buf)
	t.Logf("run seed 1, 20000 graphs:\n%s", buf.String())
}

func TestIrreducible(t *testing.T) {
	for _, c := range randomConfigs {
		c.Kind = Irreducible
		t.Logf("config %+v, run seed 2", c)
		for _, it := range batch(t, c, 2, 600) {
			checkCommon(t, it, mustNormalize(t, c))
			if cfg.RefReducible(it.Graph) {
				t.Fatalf("seed %d: %v is reducible", it.Seed, it.Graph)
			}
			if !hasMultiEntryLoop(it.Graph) {
				t.Fatalf("seed %d: %v: no loop with two entries", it.Seed, it.Graph)
			}
			if !terminates(it.Graph) {
				t.Fatalf("seed %d: %v has a block that cannot return", it.Seed, it.Graph)
			}
		}
	}
}

func hasMultiEntryLoop(g *cfg.Graph) bool {
	for _, l := range cfg.RefLoopBlocks(g) {
		if len(l.Entries) >= 2 {
			return true
		}
	}
	return false
}

func TestNonTerminating(t *testing.T) {
	for _, c := range randomConfigs {
		c.Kind = NonTerminating
		t.Logf("config %+v, run seed 3", c)
		for _, it := range batch(t, c, 3, 600) {
			checkCommon(t, it, mustNormalize(t, c))
			if !stuckCycle(it.Graph) {
				t.Fatalf("seed %d: %v: every reachable block can return", it.Seed, it.Graph)
			}
		}
	}
}

// stuckCycle reports, by the references, whether a reachable block on a
// cycle cannot reach a return.
func stuckCycle(g *cfg.Graph) bool {
	live := cfg.RefReachesExit(g)
	reach := g.Reachable()
	onCycle := map[int]bool{}
	for _, l := range cfg.RefLoopBlocks(g) {
		for _, b := range l.Blocks {
			onCycle[b] = true
		}
	}
	for b := range g.Succs {
		if reach[b] && !live[b] && onCycle[b] {
			return true
		}
	}
	return false
}

func TestWeights(t *testing.T) {
	for _, k := range Kinds() {
		for _, w := range FieldWeightings() {
			for seed := range uint64(50) {
				plain, err := Generate(Config{Kind: k}, seed)
				if err != nil {
					t.Fatal(err)
				}
				it, err := Generate(Config{Kind: k, Words: w.Words, Heavy: w.Heavy}, seed)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.EqualFunc(plain.Graph.Succs, it.Graph.Succs, slices.Equal) {
					t.Fatalf("%s %s seed %d: the weights changed the shape", k, w.Name(), seed)
				}
				heavy := -1
				if w.Heavy {
					heavy = HeavyBlock(seed, it.Graph.Len())
				}
				for b := range it.Graph.Succs {
					want := w.Words
					if b == heavy {
						want = HeavyWords
					}
					if got := it.Graph.Weight(b); got != want {
						t.Fatalf("%s %s seed %d: block %d weighs %d, want %d", k, w.Name(), seed, b, got, want)
					}
				}
			}
		}
	}
	if names := fmt.Sprint(FieldWeightings()); names != "[{0 false 0} {0 true 0} {16 false 0} {16 true 0} {1000 false 0}]" {
		t.Errorf("FieldWeightings = %s", names)
	}
}

func TestStatsFormat(t *testing.T) {
	var s Stats
	for _, it := range batch(t, Config{Kind: Program}, 5, 200) {
		s.Add(it)
	}
	var buf bytes.Buffer
	s.Format(&buf)
	for _, want := range []string{"graphs with a loop", "max loop nesting depth", "exit targets per loop", "graphs with a switch", "blocks per graph", "fallthrough"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("stats lack %q:\n%s", want, buf.String())
		}
	}
}

// TestLargeGraphs: thousands of blocks stay fast (non-termination is
// repaired, not rejected, there) and keep each kind's property, checked
// with the fast analyses (the references are too slow at this size).
func TestLargeGraphs(t *testing.T) {
	c := Config{MinBlocks: 3000, MaxBlocks: 6000}
	for _, k := range []Kind{Reducible, Irreducible, NonTerminating, Program} {
		c.Kind = k
		for _, it := range batch(t, c, 77, 3) {
			g := it.Graph
			checkCommon(t, it, mustNormalize(t, c))
			reducible, stuck := cfg.Reducible(g), stuckReachable(g, g.Reachable())
			want := map[Kind][2]bool{Reducible: {true, false}, Irreducible: {false, false}, NonTerminating: {reducible, true}, Program: {true, false}}[k]
			if reducible != want[0] || stuck != want[1] {
				t.Fatalf("%s seed %d (%d blocks): reducible %v, stuck %v", k, it.Seed, g.Len(), reducible, stuck)
			}
		}
	}
}

// TestWeightingsDistinct: no two field settings weigh a graph alike, so a
// campaign running each graph at one of them never repeats a graph.
func TestWeightingsDistinct(t *testing.T) {
	for seed := range uint64(20) {
		seen := map[string]string{}
		for _, w := range FieldWeightings() {
			it, err := Generate(Config{Kind: Reducible, Words: w.Words, Heavy: w.Heavy}, seed)
			if err != nil {
				t.Fatal(err)
			}
			key := fmt.Sprint(it.Graph.Weights)
			if other, dup := seen[key]; dup {
				t.Fatalf("seed %d: %s and %s give the same weights %s", seed, other, w.Name(), key)
			}
			seen[key] = w.Name()
		}
	}
}

// TestCampaignBlocks: about one seed in CampaignLargeEvery draws a
// larger range, one in CampaignHugeEvery of them the huge one, never for
// the exhaustive kind, and the draw does not follow the seed's low bits.
func TestCampaignBlocks(t *testing.T) {
	const n = 256000
	large, huge := 0, 0
	for seed := range uint64(n) {
		lo, hi := CampaignBlocks(Reducible, seed)
		switch {
		case lo == 0 && hi == 0:
		case lo == CampaignLargeMin && hi == CampaignLargeMax:
			large++
		case lo == CampaignHugeMin && hi == CampaignHugeMax:
			huge++
		default:
			t.Fatalf("seed %d: range %d-%d", seed, lo, hi)
		}
		if lo, hi := CampaignBlocks(Exhaustive, seed); lo != 0 || hi != 0 {
			t.Fatalf("exhaustive seed %d: range %d-%d", seed, lo, hi)
		}
	}
	near := func(got, want int) bool { return got >= want*9/10 && got <= want*11/10 }
	if want := n/CampaignLargeEvery - n/CampaignHugeEvery; !near(large, want) {
		t.Errorf("%d of %d seeds large, want about %d", large, n, want)
	}
	if want := n / CampaignHugeEvery; !near(huge, want) {
		t.Errorf("%d of %d seeds huge, want about %d", huge, n, want)
	}
	aligned := 0 // seeds that are multiples of CampaignLargeEvery
	for seed := uint64(0); seed < n*CampaignLargeEvery; seed += CampaignLargeEvery {
		if _, hi := CampaignBlocks(Reducible, seed); hi != 0 {
			aligned++
		}
	}
	if want := n / CampaignLargeEvery; !near(aligned, want) {
		t.Errorf("%d of %d seeds that are multiples of %d large, want about %d", aligned, n, CampaignLargeEvery, want)
	}
}

// TestConfigProbabilities: a probability of 0 is the default, a negative
// one none, and one above 1 or NaN an error naming the field.
func TestConfigProbabilities(t *testing.T) {
	c, err := Config{SwitchProb: -1, WideSwitchProb: -0.5}.normalized()
	if err != nil || c.SwitchProb != 0 || c.WideSwitchProb != 0 {
		t.Errorf("negative probabilities: %+v, %v; want none", c, err)
	}
	for _, c := range []Config{{SwitchProb: 1.5}, {WideSwitchProb: math.NaN()}} {
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "want a probability of at most 1") {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
