// program_test.go: lowered programs are reducible, reachable and
// terminating; every construct turns up within 1,000 programs; the
// lowering of a hand-written program is exact.
package gen

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestProgramsReducible(t *testing.T) {
	for _, c := range []Config{{}, {MinBlocks: 1, MaxBlocks: 3}, {MinBlocks: 10, MaxBlocks: 40, SwitchProb: 0.2}, {SwitchProb: -1}} {
		c.Kind = Program
		t.Logf("config %+v, run seed 11", c)
		for _, it := range batch(t, c, 11, 1500) {
			checkCommon(t, it, mustNormalize(t, c))
			if !cfg.RefReducible(it.Graph) {
				t.Fatalf("seed %d: %v is irreducible:\n%s", it.Seed, it.Graph, it.Program)
			}
			if !terminates(it.Graph) {
				t.Fatalf("seed %d: %v has a block that cannot return:\n%s", it.Seed, it.Graph, it.Program)
			}
			checkProgramText(t, it)
		}
	}
}

// checkProgramText checks that the text names every block and no other.
func checkProgramText(t *testing.T, it Item) {
	t.Helper()
	named := map[string]bool{}
	for _, m := range blockRef.FindAllStringSubmatch(it.Program, -1) {
		named[m[1]] = true
	}
	for b := range it.Graph.Len() {
		if !named[fmt.Sprint(b)] {
			t.Fatalf("seed %d: program text never names block %d:\n%s\n%v", it.Seed, b, it.Program, it.Graph)
		}
	}
	if len(named) != it.Graph.Len() {
		t.Fatalf("seed %d: program text names %d blocks, graph has %d:\n%s", it.Seed, len(named), it.Graph.Len(), it.Program)
	}
	if strings.Contains(it.Program, "unreached") {
		t.Fatalf("seed %d: a do-while condition is unreachable:\n%s", it.Seed, it.Program)
	}
}

// TestProgramConstructs: every construct appears within 1,000 programs of
// the default config.
func TestProgramConstructs(t *testing.T) {
	const runSeed = 1000
	t.Logf("run seed %d", runSeed)
	var seen [NumConstructs]int
	maxDepth := 0
	for _, it := range batch(t, Config{Kind: Program}, runSeed, 1000) {
		for c, n := range it.Constructs.Count {
			seen[c] += n
		}
		maxDepth = max(maxDepth, it.Constructs.ReturnDepth)
	}
	for c := range Construct(NumConstructs) {
		if seen[c] == 0 {
			t.Errorf("construct %q never appeared in 1,000 programs", c)
		}
		t.Logf("%-20s %d", c, seen[c])
	}
	if maxDepth < 3 {
		t.Errorf("deepest return at nesting %d; want returns from depth 3 or more", maxDepth)
	}
}

// TestLowering lowers a hand-written program and checks the graph, the
// text and the construct counts exactly.
func TestLowering(t *testing.T) {
	prog := &program{stmts: []stmt{
		{op: opDoWhile, body: []stmt{
			{op: opIf, body: []stmt{{op: opContinue, depth: 1}}},
		}},
		{op: opSwitch, nvals: 3, deflt: -1, cases: []switchCase{
			{values: []int{1, 3}, fallsInto: true},
			{values: []int{2}},
		}},
		{op: opWhile, neg: true, body: []stmt{
			{op: opLoop, body: []stmt{
				{op: opIf, direct: true, body: []stmt{{op: opBreak, depth: 2}}},
				{op: opIfElse, body: []stmt{{op: opReturn}}, els: []stmt{{op: opBreak, depth: 1}}},
			}},
		}},
	}}
	lowerProgram(prog)
	const wantGraph = "{{1}, {2, 3}, {4}, {4}, {1, 5}, {8, 6, 7, 6}, {7}, {8}, {9}, {16, 10}, {11}, {16, 12}, {13, 14}, {}, {15}, {9}, {}}"
	if got := prog.graph.String(); got != wantGraph {
		t.Errorf("graph\n got %s\nwant %s", got, wantGraph)
	}
	const wantText = `b0
do b1 {
  if b1 {
    b2
    continue
  }
  b3
  b4
} while b4
b5
switch b5 {
case 1, 3:
  b6
  fallthrough
case 2:
  b7
}
b8
while !b9 {
  b10
  loop b11 {
    if b11 { break 2 }
    b12
    if b12 {
      b13
      return
    } else {
      b14
      break
    }
  }
  b15
}
b16
return`
	if prog.text != wantText {
		t.Errorf("text\n got:\n%s\nwant:\n%s", prog.text, wantText)
	}
	want := map[Construct]int{
		ConstructDoWhile: 1, ConstructIf: 2, ConstructContinue: 1, ConstructSwitch: 1,
		ConstructFallthrough: 1, ConstructDuplicateCase: 1, ConstructWhile: 1, ConstructLoop: 1,
		ConstructJumpArm: 1, ConstructBreakOuter: 1, ConstructIfElse: 1, ConstructBreak: 1,
		ConstructReturn: 1, ConstructReturnInLoop: 1, ConstructReturnDeep: 1, ConstructLoopOnce: 1,
	}
	for c := range Construct(NumConstructs) {
		if got := prog.constructs.Count[c]; got != want[c] {
			t.Errorf("construct %q counted %d times, want %d", c, got, want[c])
		}
	}
	if prog.constructs.ReturnDepth != 3 {
		t.Errorf("return depth %d, want 3 (while, loop, if/else)", prog.constructs.ReturnDepth)
	}
}

// TestLoweringSwitchBodyIDs: a switch drawn with an id order numbers its
// case bodies in that order, so a case can fall into one of a lower id
// listed before it (the graph of a reversed fall-through).
func TestLoweringSwitchBodyIDs(t *testing.T) {
	sw := stmt{op: opSwitch, nvals: 2, deflt: -1, cases: []switchCase{
		{values: []int{2}, fallsInto: true},
		{values: []int{1}},
	}}
	for _, c := range []struct {
		ids         []int
		graph, text string
	}{
		{nil, "{{3, 2, 1}, {2}, {3}, {}}", "b0\nswitch b0 {\ncase 2:\n  b1\n  fallthrough\ncase 1:\n  b2\n}\nb3\nreturn"},
		{[]int{1, 0}, "{{3, 1, 2}, {3}, {1}, {}}", "b0\nswitch b0 {\ncase 2:\n  b2\n  fallthrough\ncase 1:\n  b1\n}\nb3\nreturn"},
	} {
		s := sw
		s.ids = c.ids
		prog := &program{stmts: []stmt{s}}
		lowerProgram(prog)
		if got := prog.graph.String(); got != c.graph {
			t.Errorf("ids %v: graph %s, want %s", c.ids, got, c.graph)
		}
		if prog.text != c.text {
			t.Errorf("ids %v: text\n%s\nwant\n%s", c.ids, prog.text, c.text)
		}
	}
}

// TestProgramExactCounts: a range of one count, which nearly every draw
// misses at a large count, gives programs of exactly that count (padded,
// padProgram), reducible, reachable and returning from every block, with
// jumps of every kind among them; and a large count costs no more than a
// few draws.
func TestProgramExactCounts(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 8, 9, 33, 100, 101, 2000} {
		c := Config{Kind: Program, MinBlocks: n, MaxBlocks: n}
		count := 60
		if n >= 1000 {
			count = 6
		}
		var seen [NumConstructs]int
		start := time.Now()
		for _, it := range batch(t, c, 9, count) {
			checkCommon(t, it, mustNormalize(t, c))
			if !cfg.RefReducible(it.Graph) {
				t.Fatalf("%d blocks, seed %d: %v is irreducible:\n%s", n, it.Seed, it.Graph, it.Program)
			}
			if !terminates(it.Graph) {
				t.Fatalf("%d blocks, seed %d: a block cannot return:\n%s", n, it.Seed, it.Program)
			}
			checkProgramText(t, it)
			for k, m := range it.Constructs.Count {
				seen[k] += m
			}
		}
		if per := time.Since(start) / time.Duration(count); per > 5*time.Second {
			t.Errorf("%d blocks: %v a program", n, per)
		}
		if n >= 100 {
			for _, k := range []Construct{ConstructBreak, ConstructContinue, ConstructReturn, ConstructSwitch} {
				if seen[k] == 0 {
					t.Errorf("%d blocks: no %s in %d programs", n, k, count)
				}
			}
		}
	}
}
