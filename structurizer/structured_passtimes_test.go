// structured_passtimes_test.go: TestPassTimes, a tool that times each
// pass of the structured strategy's pass table at 10k and 100k blocks on
// the named shapes, to see which passes grow faster than their input.
package structurizer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestPassTimes is a tool, skipped unless PASSTIMES names a shape (or
// "all"): for each size it structurizes the shape's graph (seed N, as
// BenchmarkShapes draws it) once untimed and then REPS times at 100k
// blocks (10 x REPS at 10k; REPS 3 when unset), collecting the garbage
// before each run, and prints per pass the mean time at both sizes and
// their ratio (10 is linear):
//
//	PASSTIMES=all go test ./structurizer -run TestPassTimes -v
//
// "first" is what runs before the pass table's first pass reports (the
// input's facts, the nested pass's attempt, the irreducible pass), "tail"
// what runs after its last (validation, the self-check, the read-back);
// a shape the nested pass lays out whole has only "tail". A pass of the
// arms group runs once per round: its time is the sum over the rounds.
func TestPassTimes(t *testing.T) {
	name := os.Getenv("PASSTIMES")
	if name == "" {
		t.Skip("a tool: PASSTIMES=SHAPE or all")
	}
	reps := 3
	if v, err := strconv.Atoi(os.Getenv("REPS")); err == nil && v > 0 {
		reps = v
	}
	for _, sh := range shapes {
		if name != "all" && sh.name != name {
			continue
		}
		small, large := passTimes(t, sh, 10000, 10*reps), passTimes(t, sh, 100000, reps)
		var names []string
		for p := range large {
			names = append(names, p)
		}
		slices.Sort(names)
		for _, p := range names {
			fmt.Printf("%-9s %-12s %10v %10v %6.2fx\n", sh.name, p, small[p].Round(time.Microsecond), large[p].Round(time.Microsecond), float64(large[p])/float64(small[p]))
		}
	}
}

// passTimes is the mean time of each pass (and "first", "tail" and
// "total") over reps timed runs on shape sh at n blocks, after one
// untimed run.
func passTimes(t *testing.T, sh shape, n, reps int) map[string]time.Duration {
	g := sh.make(rand.New(rand.NewPCG(uint64(n), 1)), n)
	sum := map[string]time.Duration{}
	for i := 0; i <= reps; i++ {
		runtime.GC()
		run := map[string]time.Duration{}
		start := time.Now()
		last, first := start, true
		opt := Options{Hooks: &Hooks{AfterPass: func(pass string, f *Func) {
			now := time.Now()
			if first {
				run["first"], first = now.Sub(last), false
			} else {
				run[pass] += now.Sub(last) // a pass of the arms group: every round
			}
			last = now
		}}}
		if _, err := Structurize(g, opt); err != nil {
			t.Fatal(err)
		}
		run["tail"], run["total"] = time.Since(last), time.Since(start)
		if i == 0 {
			continue // untimed: the heap grown to the size's working set
		}
		for p, d := range run {
			sum[p] += d
		}
	}
	for p := range sum {
		sum[p] /= time.Duration(reps)
	}
	return sum
}
