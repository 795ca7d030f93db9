// widen_test.go: a widened graph is the graph drawn without widening, each
// switch's list with repeats of its own successors inserted; every width
// tier is drawn; a program's widened switch lists each value it decides on.
package gen

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// isSubsequence reports whether a's elements appear in b in order.
func isSubsequence(a, b []int) bool {
	i := 0
	for _, x := range b {
		if i < len(a) && a[i] == x {
			i++
		}
	}
	return i == len(a)
}

func TestWidenKeepsTheGraph(t *testing.T) {
	const runSeed, n = 3, 3000
	t.Logf("run seed %d, %d graphs a kind", runSeed, n)
	for _, k := range []Kind{Reducible, Irreducible, NonTerminating} {
		widened, tiers := 0, make([]int, len(switchWidths))
		for i := range n {
			seed := SeedFor(k, runSeed, i)
			wide, err := Generate(Config{Kind: k, WideSwitchProb: 1}, seed)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := Generate(Config{Kind: k, WideSwitchProb: -1}, seed)
			if err != nil {
				t.Fatal(err)
			}
			if wide.Graph.Len() != plain.Graph.Len() {
				t.Fatalf("%s seed %d: %d blocks widened, %d drawn", k, seed, wide.Graph.Len(), plain.Graph.Len())
			}
			for b, s := range wide.Graph.Succs {
				p := plain.Graph.Succs[b]
				if len(s) == len(p) {
					if !slices.Equal(s, p) {
						t.Fatalf("%s seed %d: block %d's list %v, drawn %v", k, seed, b, s, p)
					}
					continue
				}
				widened++
				if len(p) < 3 || !isSubsequence(p, s) || len(s) > switchWidths[len(switchWidths)-1].hi {
					t.Fatalf("%s seed %d: block %d widened from %v to %v", k, seed, b, p, s)
				}
				for _, x := range s {
					if !slices.Contains(p, x) {
						t.Fatalf("%s seed %d: block %d widened to a new target %d: %v from %v", k, seed, b, x, s, p)
					}
				}
				for i, w := range switchWidths {
					if len(s) >= w.lo && len(s) <= w.hi {
						tiers[i]++
					}
				}
			}
			if err := wide.Graph.Validate(cfg.Limits{}); err != nil {
				t.Fatalf("%s seed %d: %v", k, seed, err)
			}
		}
		t.Logf("%s: %d switches widened, by tier %v", k, widened, tiers)
		for i, c := range tiers {
			if c == 0 {
				t.Errorf("%s: no switch widened to %d-%d successors", k, switchWidths[i].lo, switchWidths[i].hi)
			}
		}
	}
}

// TestWidenNone: with WideSwitchProb negative no switch passes the 4
// successors (5 for a program) the generators draw.
func TestWidenNone(t *testing.T) {
	for _, k := range []Kind{Reducible, Irreducible, NonTerminating, Program} {
		for _, it := range batch(t, Config{Kind: k, WideSwitchProb: -1}, 5, 500) {
			if d := maxOutDegree(it.Graph); d > 5 {
				t.Fatalf("%s seed %d: a switch of %d successors without widening: %v", k, it.Seed, d, it.Graph)
			}
		}
	}
}

var (
	switchLine = regexp.MustCompile(`^( *)switch b([0-9]+) \{$`)
	caseLine   = regexp.MustCompile(`^( *)case ([0-9, ]+?)(, default)?:$`)
)

// TestWidenProgramText: each switch of a program decides on exactly the
// values its text lists, 1 to its block's successors less one, the
// widened ones (past 4) included.
func TestWidenProgramText(t *testing.T) {
	wide := 0
	for _, it := range batch(t, Config{Kind: Program, WideSwitchProb: 1}, 9, 400) {
		vals := map[int][]int{} // a switch's block: the values its cases list
		open := map[int]int{}   // indentation: the switch whose cases it holds
		for _, line := range strings.Split(it.Program, "\n") {
			if m := switchLine.FindStringSubmatch(line); m != nil {
				b, _ := strconv.Atoi(m[2])
				open[len(m[1])], vals[b] = b, []int{}
				continue
			}
			m := caseLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			b, ok := open[len(m[1])]
			if !ok {
				t.Fatalf("seed %d: case line %q outside a switch\n%s", it.Seed, line, it.Program)
			}
			for _, f := range strings.Split(m[2], ",") {
				v, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil {
					t.Fatalf("seed %d: case line %q", it.Seed, line)
				}
				vals[b] = append(vals[b], v)
			}
		}
		for b, vs := range vals {
			slices.Sort(vs)
			n := len(it.Graph.Succs[b]) - 1
			want := make([]int, n)
			for i := range want {
				want[i] = i + 1
			}
			if !slices.Equal(vs, want) {
				t.Fatalf("seed %d: switch b%d lists values %v, its block decides on 1..%d\n%s\n%v", it.Seed, b, vs, n, it.Program, it.Graph)
			}
			if n > 4 {
				wide++
			}
		}
	}
	if wide == 0 {
		t.Error("no program switch widened past 4 values with WideSwitchProb 1")
	}
	t.Logf("%d switches with values past 4 in 400 programs", wide)
}
