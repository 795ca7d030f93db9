// Command mutants measures the oracle with faults nobody planted: each
// source mutant of mutants.txt (a realistic bug in the structurizer or the
// emitter) is applied to a temporary copy of the tree, cmd/cfgfuzz is built
// there and `cfgfuzz run --graphs N --seed S` runs on it. A mutant is
// killed when the campaign reports a finding; graphs-to-detection is the
// index of its first failing graph plus one. It prints one row per mutant,
// then the kill rate over the mutants that are not equivalent and the
// median graphs-to-detection of the killed ones. A control campaign on the
// unmutated copy runs first: if it fails, no mutant's verdict means
// anything and the tool stops (exit 2).
//
//	go run ./corpus/mutants                      # every mutant, 3,000 graphs each, seed 1
//	go run ./corpus/mutants -only emit-cond-inverted,dispatch-return-pc -keep
//
// Exit status: 0 measured, 1 a mutant's snippet is stale or an error, 2
// usage or a failing control.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("mutants", flag.ContinueOnError)
	only := fs.String("only", "", "run only these mutants (`NAMES`, comma-separated)")
	graphs := fs.Int("graphs", 3000, "graph budget of each mutant's campaign")
	seed := fs.Uint64("seed", 1, "campaign seed")
	workers := fs.Int("workers", 2, "campaign workers (mutants run one after another)")
	limit := fs.Duration("limit", 5*time.Minute, "wall-clock limit of one mutant's campaign")
	keep := fs.Bool("keep", false, "keep each mutant's temporary directory (tree, binary, campaign output)")
	table := fs.String("table", "", "mutants table (default corpus/mutants/mutants.txt of the repository)")
	root := fs.String("repo", "", "repository to copy (default: the one holding the working directory)")
	control := fs.Bool("control", true, "first run the campaign on the unmutated copy")
	jsonOut := fs.String("json", "", "also write the results as JSON to `FILE`")
	tags := fs.String("tags", "", "build tags for cmd/cfgfuzz (`vulkan` for --gpu-every)")
	extra := fs.String("run-flags", "", "more `FLAGS` for each `cfgfuzz run`, space-separated (e.g. \"--gpu-every 10\")")
	guided := fs.Float64("guided", 0, "also run each mutant's guided campaign with `--mutate F` and show its first failing index beside the pure one")
	corpusDir := fs.String("corpus", "", "with -guided: start each guided campaign from a copy of this corpus `DIR` (cfgfuzz run --corpus)")
	randomDir := fs.String("random-corpus", "", "with -guided: start each guidance control (the guided campaign with --corpus-keep random) from a copy of this corpus `DIR`, grown the same way with --corpus-keep random")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *root == "" {
		r, err := repoRoot()
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			return 2
		}
		*root = r
	}
	if *table == "" {
		*table = filepath.Join(*root, "corpus", "mutants", "mutants.txt")
	}
	ms, err := parseTable(*table)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	if ms, err = selectMutants(ms, *only); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 2
	}
	if err := checkSnippets(*root, ms); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		return 1
	}
	s := Settings{Root: *root, Graphs: *graphs, Seed: *seed, Workers: *workers, Limit: *limit, Keep: *keep, Extra: strings.Fields(*extra), Tags: *tags, Guided: *guided, Corpus: *corpusDir, RandomCorpus: *randomDir}
	fmt.Printf("cfgfuzz mutants: %d mutants of %s, each `cfgfuzz run --graphs %d --seed %d --workers %d%s`\n",
		len(ms), *root, s.Graphs, s.Seed, s.Workers, strings.TrimRight(" "+strings.Join(s.Extra, " "), " "))
	var controls map[string]map[int]string // by a mutant's flags: its control's outputs
	if *control {
		if controls = runControls(ms, s); controls == nil {
			return 2
		}
		s.Control = controls[""]
	}
	var results []Result
	printHeader()
	for i := range ms {
		ws := withFlags(s, ms[i].Flags)
		ws.Control = controls[strings.Join(ms[i].Flags, " ")]
		r := runMutant(&ms[i], ws)
		r.Flags = strings.Join(ms[i].Flags, " ")
		printRow(r)
		results = append(results, r)
	}
	sum := summarize(ms, results)
	printSummary(ms, results, sum)
	printGuided(results, s)
	if *jsonOut != "" {
		if err := writeJSON(*jsonOut, s, results, sum); err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			return 1
		}
	}
	if sum.Errors > 0 {
		return 1
	}
	return 0
}

// runControls runs the control campaign on the unmutated tree under s,
// then once more for each set of flags a mutant of ms adds (Mutant.Flags),
// and returns each one's outputs by those flags ("" for none); nil when a
// control fails, which it reports: no mutant can then be judged.
func runControls(ms []Mutant, s Settings) map[string]map[int]string {
	controls := map[string]map[int]string{}
	sets := [][]string{nil}
	for _, m := range ms {
		if k := strings.Join(m.Flags, " "); k != "" && !slices.ContainsFunc(sets, func(f []string) bool { return strings.Join(f, " ") == k }) {
			sets = append(sets, m.Flags)
		}
	}
	for _, fl := range sets {
		c := runMutant(nil, withFlags(s, fl))
		with := ""
		if len(fl) > 0 {
			with = ", with " + strings.Join(fl, " ")
		}
		if c.Status != StSurvived {
			fmt.Fprintf(os.Stderr, "mutants: the control campaign on the unmutated tree%s is %s (%d failing, first %d: %s) %s: no mutant can be judged\n",
				with, c.Status, c.Failing, c.First, topSignatures(c.Signatures, 3), c.Note)
			return nil
		}
		if c.GuidedFirst >= 0 || c.RandomFirst >= 0 {
			fmt.Fprintf(os.Stderr, "mutants: a guided campaign on the unmutated tree%s fails (guided at graph %d, random keep at %d; -1 none) %s: no guided result can be judged\n", with, c.GuidedFirst, c.RandomFirst, c.Note)
			return nil
		}
		fmt.Printf("control (unmutated tree%s): %d graphs ok, %d fallbacks, %.1f s\n", with, c.Graphs, c.Fallbacks, c.Seconds)
		controls[strings.Join(fl, " ")] = c.outputs
	}
	return controls
}

// withFlags is s with flags added to each campaign's flags.
func withFlags(s Settings, flags []string) Settings {
	if len(flags) > 0 {
		s.Extra = append(slices.Clone(s.Extra), flags...)
	}
	return s
}

// writeJSON writes the measurement to path: its settings, results and
// summary, and with -guided the three campaigns' medians.
func writeJSON(path string, s Settings, results []Result, sum Summary) error {
	doc := map[string]any{"settings": s, "results": results, "summary": sum}
	if s.Guided > 0 {
		doc["guided"] = guidedSummary(results, s.Graphs)
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// selectMutants keeps the mutants named in only (all when only is "").
func selectMutants(ms []Mutant, only string) ([]Mutant, error) {
	if only == "" {
		return ms, nil
	}
	by := map[string]Mutant{}
	for _, m := range ms {
		by[m.Name] = m
	}
	var out []Mutant
	for _, n := range strings.Split(only, ",") {
		m, ok := by[strings.TrimSpace(n)]
		if !ok {
			return nil, fmt.Errorf("-only: no mutant %q in the table", n)
		}
		out = append(out, m)
	}
	return out, nil
}

// checkSnippets demands that every mutant's snippet occurs exactly once in
// the tree at root, before any campaign runs.
func checkSnippets(root string, ms []Mutant) error {
	var errs []string
	for _, m := range ms {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
		if err == nil {
			_, err = m.mutate(string(src))
		}
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%d stale mutants:\n  %s", len(errs), strings.Join(errs, "\n  "))
	}
	return nil
}

// repoRoot is the nearest directory at or above the working directory
// holding a go.mod.
func repoRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		p := filepath.Dir(d)
		if p == d {
			return "", fmt.Errorf("no go.mod at or above the working directory (use -repo)")
		}
		d = p
	}
}
