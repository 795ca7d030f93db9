// report.go prints the mutants' table and the score: the kill rate over
// the mutants that are not equivalent (stillborn ones are not mutants of a
// program and are left out too) and the median graphs-to-detection.

package main

import (
	"fmt"
	"sort"
	"strings"
)

// Summary is the score of one measurement.
type Summary struct {
	Mutants, Killed, Survived, Stillborn, Equivalent, Errors int
	// KillRate is Killed / (Mutants - Stillborn - Equivalent), in percent.
	KillRate float64
	// MedianGraphs is the median graphs-to-detection (first failing index
	// plus one) over the killed mutants; 0 when none was killed.
	MedianGraphs float64
}

func printHeader() {
	fmt.Printf("%-34s %-10s %6s %6s %6s %7s %7s %9s %6s  %s\n", "mutant", "status", "first", "random", "guided", "failing", "changed", "fallbacks", "secs", "signatures (most frequent first) / note")
}

func printRow(r Result) {
	first := "-"
	if r.First >= 0 {
		first = fmt.Sprint(r.First)
	}
	detail := topSignatures(r.Signatures, 3)
	if r.Flags != "" {
		detail = strings.TrimPrefix(detail+"; run with "+r.Flags, "; ")
	}
	if r.Note != "" {
		if detail != "" {
			detail += "; "
		}
		detail += r.Note
	}
	changed := "-"
	if r.Changed >= 0 {
		changed = fmt.Sprint(r.Changed)
	}
	fmt.Printf("%-34s %-10s %6s %6s %6s %7d %7s %9d %6.1f  %s\n", r.Name, r.Status, first, index(r.RandomFirst), index(r.GuidedFirst), r.Failing, changed, r.Fallbacks, r.Seconds, detail)
}

// index is a first failing index as the table shows it: "-" for none.
func index(i int) string {
	if i < 0 {
		return "-"
	}
	return fmt.Sprint(i)
}

func summarize(ms []Mutant, rs []Result) Summary {
	s := Summary{Mutants: len(rs)}
	var g2d []int
	for _, r := range rs {
		switch r.Status {
		case StKilled:
			s.Killed++
			if r.First >= 0 {
				g2d = append(g2d, r.First+1)
			}
		case StSurvived:
			s.Survived++
		case StStillborn:
			s.Stillborn++
		case StEquivalent:
			s.Equivalent++
		default:
			s.Errors++
		}
	}
	if d := s.Mutants - s.Stillborn - s.Equivalent; d > 0 {
		s.KillRate = 100 * float64(s.Killed) / float64(d)
	}
	s.MedianGraphs = median(g2d)
	return s
}

func median(v []int) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Ints(v)
	if len(v)%2 == 1 {
		return float64(v[len(v)/2])
	}
	return float64(v[len(v)/2-1]+v[len(v)/2]) / 2
}

func printSummary(ms []Mutant, rs []Result, s Summary) {
	fmt.Printf("\nkilled %d of %d non-equivalent mutants (%.1f%%); survived %d, equivalent %d, stillborn %d, errors %d\n",
		s.Killed, s.Mutants-s.Stillborn-s.Equivalent, s.KillRate, s.Survived, s.Equivalent, s.Stillborn, s.Errors)
	fmt.Printf("median graphs-to-detection of the killed: %g\n", s.MedianGraphs)
	what := map[string]Mutant{}
	for _, m := range ms {
		what[m.Name] = m
	}
	for _, r := range rs {
		m := what[r.Name]
		switch r.Status {
		case StSurvived:
			fmt.Printf("survivor %s: %s (%d graphs changed, %d fallbacks to the dispatch loop)\n", r.Name, m.What, r.Changed, r.Fallbacks)
			if m.Note != "" {
				fmt.Printf("  why: %s\n", m.Note)
			}
		case StEquivalent:
			fmt.Printf("equivalent %s: %s\n", r.Name, m.Equivalent)
		}
	}
}
