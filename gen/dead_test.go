// dead_test.go: dead blocks (dead.go) are exactly Config.Dead blocks
// no path from the entry reaches, each branching into the live part,
// among them dead cycles, conditionals and switches; the reachable part is
// the graph drawn without them; and a campaign draws them for about one
// graph in CampaignDeadEvery.
package gen

import (
	"errors"
	"slices"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestDeadBlocks(t *testing.T) {
	const runSeed = 11
	t.Logf("run seed %d", runSeed)
	var cycles, deciding, intoEntry int
	for _, k := range []Kind{Reducible, Irreducible, NonTerminating, Program, Exhaustive} {
		for dead := 1; dead <= CampaignDeadMax; dead++ {
			c := Config{Kind: k, Dead: dead, WordsUpTo: 64, ExhaustiveGrow: true}
			for i := range 300 {
				seed := SeedFor(k, runSeed, i)
				it, err := Generate(c, seed)
				if err != nil {
					t.Fatalf("%s seed %d: %v", k, seed, err)
				}
				plain, err := Generate(Config{Kind: k, WordsUpTo: 64, ExhaustiveGrow: true}, seed)
				if err != nil {
					t.Fatal(err)
				}
				g := it.Graph
				if err := g.Validate(cfg.Limits{}); err != nil {
					t.Fatalf("%s seed %d: %v: %v", k, seed, g, err)
				}
				if g.Len() != plain.Graph.Len()+dead || len(g.Weights) != g.Len() {
					t.Fatalf("%s seed %d: %v has %d blocks and %d weights, want %d", k, seed, g, g.Len(), len(g.Weights), plain.Graph.Len()+dead)
				}
				reach := g.Reachable()
				var deadBlocks []int
				for b, r := range reach {
					if !r {
						deadBlocks = append(deadBlocks, b)
					}
				}
				if len(deadBlocks) != dead || !reach[0] {
					t.Fatalf("%s seed %d: %v: dead blocks %v, want %d", k, seed, g, deadBlocks, dead)
				}
				live, _ := g.DropUnreachable()
				if cfg.FormatCompact(Canonical(live)) != cfg.FormatCompact(Canonical(plain.Graph)) {
					t.Fatalf("%s seed %d: the reachable part of %v is not %v", k, seed, g, plain.Graph)
				}
				if k == Program && (it.Program != plain.Program || cfg.FormatCompact(live) != cfg.FormatCompact(plain.Graph)) {
					t.Fatalf("program seed %d: the dead blocks renumbered the program's blocks: %v against %v", seed, g, plain.Graph)
				}
				for _, d := range deadBlocks {
					s := g.Succs[d]
					if len(s) == 0 || !reach[s[0]] {
						t.Fatalf("%s seed %d: %v: dead block %d does not branch into the live part first", k, seed, g, d)
					}
					if len(s) >= 2 {
						deciding++
					}
					if slices.Contains(s, 0) {
						intoEntry++
					}
					if onDeadCycle(g, reach, d) {
						cycles++
					}
				}
				again, _ := Generate(c, seed)
				if cfg.FormatLines(again.Graph) != cfg.FormatLines(g) {
					t.Fatalf("%s seed %d: the same seed gave %v and %v", k, seed, g, again.Graph)
				}
			}
		}
	}
	if cycles == 0 || deciding == 0 || intoEntry == 0 {
		t.Errorf("dead blocks on a dead cycle %d, with two or more successors %d, branching to the entry %d: want each", cycles, deciding, intoEntry)
	}
	if _, err := Generate(Config{Dead: MaxDead + 1}, 1); !errors.Is(err, ErrConfig) {
		t.Errorf("Dead %d: error %v, want ErrConfig", MaxDead+1, err)
	}
	if it, err := Generate(Config{Dead: -1}, 1); !errors.Is(err, ErrConfig) {
		t.Errorf("Dead -1: %v %v, want ErrConfig", it.Graph, err)
	}
}

// onDeadCycle reports whether dead block d lies on a cycle of dead blocks.
func onDeadCycle(g *cfg.Graph, reach []bool, d int) bool {
	seen := make([]bool, g.Len())
	stack := []int{d}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range g.Succs[b] {
			if reach[t] {
				continue
			}
			if t == d {
				return true
			}
			if !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return false
}

// TestCampaignDead: about one seed in CampaignDeadEvery draws dead
// blocks, every count from 1 to CampaignDeadMax, never for the exhaustive
// kind, independently of the large draw (CampaignBlocks).
func TestCampaignDead(t *testing.T) {
	const n = 256000
	counts := make([]int, CampaignDeadMax+1)
	deadAndLarge := 0
	for seed := range uint64(n) {
		d := CampaignDead(Reducible, seed)
		if d < 0 || d > CampaignDeadMax {
			t.Fatalf("seed %d: %d dead blocks", seed, d)
		}
		counts[d]++
		if _, hi := CampaignBlocks(Reducible, seed); d > 0 && hi != 0 {
			deadAndLarge++
		}
		if d := CampaignDead(Exhaustive, seed); d != 0 {
			t.Fatalf("exhaustive seed %d: %d dead blocks", seed, d)
		}
	}
	near := func(got, want int) bool { return got >= want*9/10 && got <= want*11/10 }
	if want := n / CampaignDeadEvery; !near(n-counts[0], want) {
		t.Errorf("%d of %d seeds with dead blocks, want about %d", n-counts[0], n, want)
	}
	for d := 1; d <= CampaignDeadMax; d++ {
		if want := n / CampaignDeadEvery / CampaignDeadMax; !near(counts[d], want) {
			t.Errorf("%d seeds with %d dead blocks, want about %d", counts[d], d, want)
		}
	}
	if want := n / CampaignDeadEvery / CampaignLargeEvery; !near(deadAndLarge, want) {
		t.Errorf("%d seeds both large and with dead blocks, want about %d (independent draws)", deadAndLarge, want)
	}
}
