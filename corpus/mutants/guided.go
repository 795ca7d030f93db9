// guided.go: the side-by-side measurement of guided generation (fuzz's
// guide.go). With -guided F, each mutant's binary also runs a guided
// campaign (`--mutate F`, the same budget and seed), from a copy of the
// -corpus directory when given (the corpus a previous campaign on the clean
// tree left, as a nightly state keeps it), and its control: the same
// campaign with the corpus kept at random (`--corpus-keep random`), from a
// copy of -random-corpus when given (a corpus grown the same way with
// that flag). The table shows both first failing indices beside the pure
// campaign's: guided against the control is what guidance adds, the
// control against pure what mutating and grafting corpus graphs adds. The
// unmutated tree's campaigns run both too and must pass.

package main

import (
	"fmt"
	"path/filepath"
)

// The corpus keeps of the guided campaigns (cfgfuzz run --corpus-keep).
const (
	keepNovel  = "novel"
	keepRandom = "random"
)

// guidedFirst runs m's guided campaign with bin in dir, its corpus kept
// by keep, and returns its first failing index (-1 none) and, when it did
// not complete, why.
func guidedFirst(bin, dir string, s Settings, keep string) (int, string) {
	g := s
	g.Extra = append(append([]string{}, s.Extra...), "--mutate", fmt.Sprint(s.Guided), "--corpus-keep", keep)
	name, start := "guided", s.Corpus
	if keep == keepRandom {
		name, start = "random", s.RandomCorpus
	}
	if start != "" {
		c := filepath.Join(dir, "corpus-"+name)
		if err := copyTree(start, c); err != nil {
			return -1, name + ": copy corpus: " + err.Error()
		}
		g.Extra = append(g.Extra, "--corpus", c)
	}
	out := filepath.Join(dir, "out-"+name)
	exit, tail, cut := campaign(bin, out, g)
	r := Result{First: -1, outputs: map[int]string{}}
	if err := readResults(filepath.Join(out, "results.jsonl"), &r); err != nil {
		return -1, name + ": " + err.Error()
	}
	switch {
	case cut != nil && r.First < 0:
		return -1, name + ": " + cut.Error()
	case exit != 0 && exit != 1:
		return r.First, fmt.Sprintf("%s: campaign exit %d: %s", name, exit, tail)
	}
	return r.First, ""
}

// GuidedMedians are the killed mutants' median graphs-to-detection of
// the three campaigns (a mutant a guided campaign missed counts as past
// the budget), and the mutants each guided campaign found later than pure
// or not at all.
type GuidedMedians struct {
	Pure   float64 `json:"pure"`
	Random float64 `json:"random"`
	Guided float64 `json:"guided"`
	// RandomLater and GuidedLater: "NAME (G against P)".
	RandomLater []string `json:"random_later,omitempty"`
	GuidedLater []string `json:"guided_later,omitempty"`
}

// guidedSummary compares the killed mutants' graphs-to-detection: pure,
// the guidance control (random keep) and guided.
func guidedSummary(rs []Result, graphs int) GuidedMedians {
	var p, rd, g []int
	var m GuidedMedians
	for _, r := range rs {
		if r.Status != StKilled || r.First < 0 {
			continue
		}
		p = append(p, r.First+1)
		ri, rl := toDetection(r.Name, r.RandomFirst, r.First, graphs)
		gi, gl := toDetection(r.Name, r.GuidedFirst, r.First, graphs)
		rd, g = append(rd, ri), append(g, gi)
		if rl != "" {
			m.RandomLater = append(m.RandomLater, rl)
		}
		if gl != "" {
			m.GuidedLater = append(m.GuidedLater, gl)
		}
	}
	m.Pure, m.Random, m.Guided = median(p), median(rd), median(g)
	return m
}

// toDetection is the graphs-to-detection of a first failing index (graphs
// plus one when -1) and, when later than pure's, the line that says so.
func toDetection(name string, first, pure, graphs int) (int, string) {
	n := graphs + 1
	if first >= 0 {
		n = first + 1
	}
	if n > pure+1 {
		return n, fmt.Sprintf("%s (%d against %d)", name, n, pure+1)
	}
	return n, ""
}

func printGuided(rs []Result, s Settings) {
	if s.Guided <= 0 {
		return
	}
	m := guidedSummary(rs, s.Graphs)
	fmt.Printf("guided (--mutate %g, corpus %q; control --corpus-keep random, corpus %q): median graphs-to-detection of the killed: pure %g, random %g, guided %g\n",
		s.Guided, s.Corpus, s.RandomCorpus, m.Pure, m.Random, m.Guided)
	for _, r := range rs {
		if r.Status == StKilled {
			continue
		}
		if r.GuidedFirst >= 0 {
			fmt.Printf("guided found a mutant pure did not: %s (first %d)\n", r.Name, r.GuidedFirst)
		}
		if r.RandomFirst >= 0 {
			fmt.Printf("random found a mutant pure did not: %s (first %d)\n", r.Name, r.RandomFirst)
		}
	}
	for _, c := range []struct {
		name  string
		later []string
	}{{"random", m.RandomLater}, {"guided", m.GuidedLater}} {
		if len(c.later) == 0 {
			fmt.Printf("%s found every killed mutant within as many graphs as pure\n", c.name)
		}
		for _, l := range c.later {
			fmt.Printf("%s later than pure: %s\n", c.name, l)
		}
	}
}
