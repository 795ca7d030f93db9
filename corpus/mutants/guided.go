// guided.go: the side-by-side measurement of guided generation (fuzz's
// guide.go). With -guided F, each mutant's binary also runs a guided
// campaign (`--mutate F`, the same budget and seed), from a copy of the
// -corpus directory when given (the corpus a previous campaign on the clean
// tree left, as a nightly state keeps it), and the table shows its first
// failing index beside the pure campaign's. The control runs guided too and
// must pass.

package main

import (
	"fmt"
	"path/filepath"
)

// guidedFirst runs m's guided campaign with bin in dir and returns its
// first failing index (-1 none) and, when it did not complete, why.
func guidedFirst(bin, dir string, s Settings) (int, string) {
	g := s
	g.Extra = append(append([]string{}, s.Extra...), "--mutate", fmt.Sprint(s.Guided))
	if s.Corpus != "" {
		c := filepath.Join(dir, "corpus")
		if err := copyTree(s.Corpus, c); err != nil {
			return -1, "guided: copy corpus: " + err.Error()
		}
		g.Extra = append(g.Extra, "--corpus", c)
	}
	out := filepath.Join(dir, "out-guided")
	exit, tail, cut := campaign(bin, out, g)
	r := Result{First: -1, outputs: map[int]string{}}
	if err := readResults(filepath.Join(out, "results.jsonl"), &r); err != nil {
		return -1, "guided: " + err.Error()
	}
	switch {
	case cut != nil && r.First < 0:
		return -1, "guided: " + cut.Error()
	case exit != 0 && exit != 1:
		return r.First, fmt.Sprintf("guided: campaign exit %d: %s", exit, tail)
	}
	return r.First, ""
}

// guidedSummary compares the killed mutants' graphs-to-detection, pure
// against guided: the medians (a mutant the guided campaign missed counts
// as past the budget) and the mutants guided found later or not at all.
func guidedSummary(rs []Result, graphs int) (pure, guided float64, later []string) {
	var p, g []int
	for _, r := range rs {
		if r.Status != StKilled || r.First < 0 {
			continue
		}
		p = append(p, r.First+1)
		gi := graphs + 1
		if r.GuidedFirst >= 0 {
			gi = r.GuidedFirst + 1
		}
		g = append(g, gi)
		if gi > r.First+1 {
			later = append(later, fmt.Sprintf("%s (%d against %d)", r.Name, gi, r.First+1))
		}
	}
	return median(p), median(g), later
}

func printGuided(rs []Result, s Settings) {
	if s.Guided <= 0 {
		return
	}
	pure, guided, later := guidedSummary(rs, s.Graphs)
	fmt.Printf("guided (--mutate %g, corpus %q): median graphs-to-detection of the killed: pure %g, guided %g\n", s.Guided, s.Corpus, pure, guided)
	for _, r := range rs {
		if r.Status != StKilled && r.GuidedFirst >= 0 {
			fmt.Printf("guided found a mutant pure did not: %s (first %d)\n", r.Name, r.GuidedFirst)
		}
	}
	if len(later) == 0 {
		fmt.Println("guided found every killed mutant within as many graphs as pure")
	}
	for _, l := range later {
		fmt.Printf("guided later than pure: %s\n", l)
	}
}
