// guided_bench_test.go: BenchmarkGuided, graphs-to-detection of each
// planted fault (structurizer/faults.go) under pure generation, under
// guided generation (--mutate 0.5) and under its control, the same with
// the corpus kept at random (--corpus-keep random), the latter two from an
// empty corpus and from the corpus a previous campaign on the clean tree
// left (the nightly case: --corpus kept in the state directory; grown
// with the random keep for the control). Every campaign is `cfgfuzz run`
// set up through its own flags (2 workers, seeds 1, 3 and 5); graphs-to-
// detection is the first failing graph index plus one, searched with
// budgets of 100, 400, 1600 and 3000 graphs (a guided campaign's first
// graphs do not depend on its budget: guide.go). Run it with
//
//	go test ./cmd/cfgfuzz -run '^$' -bench Guided -benchtime 1x
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// guidedBudgets are the budgets tried in turn; past the last, not found.
var guidedBudgets = []int{100, 400, 1600, 3000}

// guidedCampaign runs `cfgfuzz run ARGS` (plus the bench's fixed flags)
// with a start corpus, and returns its outcome.
func guidedCampaign(tb testing.TB, corpus *fuzz.Corpus, graphs int, args ...string) *fuzz.Outcome {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f campaignFlags
	f.define(fs, false)
	all := append([]string{"--graphs", strconv.Itoa(graphs), "--workers", "2", "--seed", "1", "--progress", "none", "--minimize=false", "--out", tb.TempDir()}, args...)
	if err := fs.Parse(all); err != nil {
		tb.Fatal(err)
	}
	c, err := f.config(context.Background(), io.Discard)
	if err == nil {
		err = f.guide.apply(&c, false, "", io.Discard)
	}
	if err != nil {
		tb.Fatal(err)
	}
	if corpus != nil {
		c.Corpus = corpus
	}
	o, err := fuzz.Run(c)
	if err != nil {
		tb.Fatal(err)
	}
	return o
}

// firstFailing is the lowest failing graph index of a report, -1 none.
func firstFailing(rep *fuzz.Report) int {
	first := -1
	for _, f := range rep.Findings {
		if first < 0 || f.First.Index < first {
			first = f.First.Index
		}
	}
	return first
}

// graphsToDetection is the first failing index plus one over growing
// budgets; 0 when no budget found it.
func graphsToDetection(tb testing.TB, corpus *fuzz.Corpus, args ...string) int {
	for _, n := range guidedBudgets {
		if i := firstFailing(guidedCampaign(tb, corpus, n, args...).Report); i >= 0 {
			return i + 1
		}
	}
	return 0
}

// median of the found counts, a miss counted as past the last budget.
func median(xs []int) float64 {
	ys := make([]float64, len(xs))
	for i, x := range xs {
		ys[i] = float64(x)
		if x == 0 {
			ys[i] = float64(guidedBudgets[len(guidedBudgets)-1] + 1)
		}
	}
	slices.Sort(ys)
	n := len(ys)
	if n%2 == 1 {
		return ys[n/2]
	}
	return (ys[n/2-1] + ys[n/2]) / 2
}

func BenchmarkGuided(b *testing.B) {
	for range b.N {
		night := guidedCampaign(b, nil, 1000, "--seed", "2", "--mutate", "0.5").Corpus
		random := guidedCampaign(b, nil, 1000, "--seed", "2", "--mutate", "0.5", "--corpus-keep", "random").Corpus
		fmt.Printf("previous night's corpus (clean tree, seed 2, 1000 graphs, --mutate 0.5): %d entries, %d features; with --corpus-keep random: %d entries, %d features\n",
			len(night.Entries), night.Features(), len(random.Entries), random.Features())
		for _, seed := range []string{"1", "3", "5"} { // none the previous night's seed
			// Printed, not logged: the testing package cuts a benchmark's
			// log to its first lines.
			fmt.Printf("seed %s: graphs to detection (first failing index + 1; - not within %d):\n%s",
				seed, guidedBudgets[len(guidedBudgets)-1], guidedTable(b, seed, night, random))
		}
	}
}

// guidedTable is BenchmarkGuided's table for one campaign seed: each
// planted fault's graphs-to-detection under pure generation, guided
// generation and its control (--corpus-keep random), the latter two from
// an empty corpus and from the previous night's (night, and random grown
// with the random keep).
func guidedTable(b *testing.B, seed string, night, random *fuzz.Corpus) string {
	cols := []struct {
		corpus *fuzz.Corpus
		args   []string
	}{
		{nil, nil},
		{nil, []string{"--mutate", "0.5"}},
		{night, []string{"--mutate", "0.5"}},
		{nil, []string{"--mutate", "0.5", "--corpus-keep", "random"}},
		{random, []string{"--mutate", "0.5", "--corpus-keep", "random"}},
	}
	var rows strings.Builder
	rows.WriteString("| fault | pure | guided, empty corpus | guided, previous corpus | random keep, empty corpus | random keep, previous random corpus |\n|---|---|---|---|---|---|\n")
	all := make([][]int, len(cols))
	for _, fault := range structurizer.FaultNames() {
		rows.WriteString("| " + fault)
		for k, c := range cols {
			n := graphsToDetection(b, c.corpus, append([]string{"--seed", seed, "--inject", fault}, c.args...)...)
			all[k] = append(all[k], n)
			rows.WriteString(" | " + found(n))
		}
		rows.WriteString(" |\n")
	}
	rows.WriteString("| median")
	for _, ns := range all {
		fmt.Fprintf(&rows, " | %g", median(ns))
	}
	return rows.String() + " |\n"
}

func found(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}
