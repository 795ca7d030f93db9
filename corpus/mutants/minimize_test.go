// minimize_test.go: the minimizer on a bug nobody planted, in an external
// process: a mutant of the table built as cmd/structurize and judged
// through the protocol, as a user's structurizer is judged.
package main

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestRetargetShrinksAMutantsFinding minimizes a graph whose module
// layout-dead-blocks-kept's cmd/structurize leaves invalid (cfgfuzz gen
// --kind irreducible --seed 1, its eighth graph: a kept dead block branches
// to a loop's continue target from outside the loop, which spirv-val
// refuses): without the retarget stage the pipeline stops at four blocks,
// with it at two; both keep the signature, and the result passes on the
// unmutated structurizer.
func TestRetargetShrinksAMutantsFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the tree and builds two structurizers")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := parseTable("mutants.txt")
	if err != nil {
		t.Fatal(err)
	}
	sel, err := selectMutants(ms, "layout-dead-blocks-kept")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	if err := copyTree(root, tree); err != nil {
		t.Fatal(err)
	}
	if err := sel[0].apply(tree); err != nil {
		t.Fatal(err)
	}
	buggy, clean := buildStructurize(t, tree, filepath.Join(dir, "buggy")), buildStructurize(t, root, filepath.Join(dir, "clean"))
	g, err := cfg.ParseCompact("{{1, 2}, {4}, {3, 4}, {}, {0, 1}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	const sig = "disagree:val-only:Block 'N' branches to the loop continue target 'N', but is not contained in the associated loop construct 'N'"
	bug := processRunner(t, buggy)
	var without []corpus.Stage
	for _, st := range corpus.DefaultStages {
		if st.Name != corpus.StageRetarget.Name {
			without = append(without, st)
		}
	}
	before, err := corpus.Minimize(g, bug.Predicate(), corpus.Options{Stages: without})
	if err != nil {
		t.Fatal(err)
	}
	after, err := corpus.Minimize(g, bug.Predicate(), corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*corpus.Result{before, after} {
		if r.Signature != sig || !r.Verified || r.Stopped != "" {
			t.Fatalf("%v: signature %q, verified %v, stopped %q; want %s verified at the fixpoint", r.Graph, r.Signature, r.Verified, r.Stopped, sig)
		}
	}
	t.Logf("without retarget %v (%d steps), with it %v (%d steps, stages %v)", before.Graph, before.Steps, after.Graph, after.Steps, after.Stages)
	if after.After.Blocks >= before.After.Blocks || after.Stages["retarget"] == 0 {
		t.Errorf("with the retarget stage %v (%d blocks), without it %v (%d blocks): want fewer blocks, by a retarget", after.Graph, after.After.Blocks, before.Graph, before.After.Blocks)
	}
	if o := processRunner(t, clean).Run(after.Graph); o.Failed() || o.Err != nil {
		t.Errorf("the unmutated structurizer fails %v: %s %v", after.Graph, o.Signature, o.Err)
	}
}

// buildStructurize builds cmd/structurize of the tree at dir into bin.
func buildStructurize(t *testing.T, dir, bin string) string {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/structurize")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
	return bin
}

// processRunner judges graphs on the structurizer server bin, through the
// protocol as a campaign's cmd: side does.
func processRunner(t *testing.T, bin string) *corpus.Runner {
	t.Helper()
	side, err := fuzz.ProcessFactory(bin, []string{bin}, "").New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { side.Close() })
	run, err := corpus.NewRunner(corpus.RunnerOptions{Structurize: fuzz.SideStructurizer(side, proto.Options{}, 10*time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	return run
}
