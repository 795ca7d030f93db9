// gotest_recipe_test.go: the recipe ADAPTERS.md gives a Go team for judging
// its structurizer from its own go test, in process: a fuzz.InProcess side
// around the structurizer, a corpus.Runner judging as `cfgfuzz check` does,
// and every graph of up to 3 blocks. A correct structurizer passes it; one
// that swaps a conditional's arms fails it, with the check's words.
package fuzz_test

import (
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// judgeEveryGraph is the recipe: fn is the team's structurizer, a graph in
// and its structured function out; it returns each failing graph's
// signature and the failing check's words.
func judgeEveryGraph(t *testing.T, fn func(g *cfg.Graph) (*structurizer.Func, *structurizer.Stats, error)) []string {
	promises := proto.Promises{Deterministic: true, RenumberingInvariant: true, Switches: true, Irreducible: true}
	side := &fuzz.InProcess{Fn: func(g *cfg.Graph, opt proto.Options) fuzz.Answer {
		f, st, err := fn(g)
		if err != nil {
			return fuzz.Answer{Outcome: proto.Error, Reason: err.Error(), Declared: &promises}
		}
		return fuzz.Answer{Outcome: proto.OK, Func: f, Stats: st, Declared: &promises}
	}}
	defer side.Close()
	run, err := corpus.NewRunner(corpus.RunnerOptions{
		Structurize: fuzz.SideStructurizer(side, proto.Options{}, 10*time.Second),
		Checks:      oracle.ResolveChecks("-fallback"),
		Oracle:      corpus.CampaignOracle(corpus.Judging{Walks: corpus.DefaultWalks.Random, Seed: corpus.DefaultWalks.Seed}),
	})
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for g := range gen.ExhaustiveAll(3) { // every graph of up to 3 blocks
		out := run.Run(g)
		switch {
		case out.Err != nil:
			t.Fatalf("%s: %v", cfg.FormatCompact(g), out.Err)
		case out.Failed():
			failed = append(failed, cfg.FormatCompact(g)+": "+out.Signature+": "+oracle.Failed(out.Verdicts).Detail)
		}
	}
	return failed
}

func structured(g *cfg.Graph) (*structurizer.Func, *structurizer.Stats, error) {
	res, err := structurizer.Structurize(g, structurizer.Options{})
	if err != nil {
		return nil, nil, err
	}
	return res.Func, &res.Stats, nil
}

func TestGoTestRecipePasses(t *testing.T) {
	if failed := judgeEveryGraph(t, structured); len(failed) > 0 {
		t.Errorf("%d graphs fail, the first: %s", len(failed), failed[0])
	}
}

func TestGoTestRecipeFindsSwappedArms(t *testing.T) {
	swapped := func(g *cfg.Graph) (*structurizer.Func, *structurizer.Stats, error) {
		f, st, err := structured(g)
		if err == nil {
			for i, b := range f.Blocks {
				if b.Term.Kind == structurizer.Choose && len(b.Term.To) == 2 && b.Term.To[0] != b.Term.To[1] {
					f.Blocks[i].Term.To = []int{b.Term.To[1], b.Term.To[0]}
				}
			}
		}
		return f, st, err
	}
	failed := judgeEveryGraph(t, swapped)
	if len(failed) == 0 {
		t.Fatal("no graph fails with its conditionals' arms swapped")
	}
	t.Logf("%d graphs fail, the first: %s", len(failed), failed[0])
}

func TestGoTestRecipeFindsPanic(t *testing.T) {
	panics := func(g *cfg.Graph) (*structurizer.Func, *structurizer.Stats, error) {
		if g.Len() == 3 {
			var m map[int]int
			m[g.Len()]++
		}
		return structured(g)
	}
	failed := judgeEveryGraph(t, panics)
	want := gen.ExhaustiveCount(3) - gen.ExhaustiveCount(2) // the graphs of 3 blocks
	if len(failed) != want || !strings.Contains(failed[0], "structurize:panic") {
		t.Fatalf("%d graphs fail (want the %d of 3 blocks, each a panic), the first: %v", len(failed), want, failed[:min(1, len(failed))])
	}
}
