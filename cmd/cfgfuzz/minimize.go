// minimize.go: `cfgfuzz minimize GRAPH-FILE`: shrink a failing graph while
// it keeps failing with the same signature (corpus.Minimize: a pipeline of
// ddmin stages, after syzkaller's pkg/repro and Zeller and Hildebrandt
// 2002), print or write the result, optionally save it as a regression
// file and store every finding (the original and any other signature met
// on the way) in a findings store.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func init() {
	register(command{name: "minimize", summary: "shrink a failing graph to the fewest blocks that fail the same way", run: runMinimize})
}

type minimizeFlags struct {
	signature, baseline, inject, strategy, out, save, regressions, store, checks, origin string
	index, maxSteps, walks                                                               int
	seed                                                                                 uint64
	timeout                                                                              time.Duration
	verbose                                                                              bool
}

func (mf *minimizeFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&mf.signature, "signature", "", "the signature to keep (default: the graph's own failure)")
	fs.StringVar(&mf.baseline, "baseline", "", "a git revision whose structurizer must pass every candidate (built once into the cache by the campaign engine); the failure must be new")
	fs.StringVar(&mf.inject, "inject", "", "comma-separated faults to plant: "+strings.Join(structurizer.FaultNames(), ", "))
	fs.StringVar(&mf.strategy, "strategy", "", "structurizer strategy: "+strings.Join(structurizer.Strategies(), ", ")+" (default "+structurizer.DefaultStrategy+")")
	fs.StringVar(&mf.out, "out", "", "write the minimized graph (line notation, header comments) to this file instead of standard output")
	fs.StringVar(&mf.save, "save-regression", "", "also save the result as NAME.cfg in the regression suite")
	fs.StringVar(&mf.regressions, "regressions", "", "the regression suite's directory (default: corpus/testdata/regressions of the module)")
	fs.StringVar(&mf.store, "store", "", "a findings store directory: the finding and every other signature met are added to DIR/findings")
	fs.StringVar(&mf.checks, "checks", "", "comma-separated oracle checks (default: every check whose tool is present)")
	fs.StringVar(&mf.origin, "origin", "", "where the graph came from, for the header and the store (default: the file and position)")
	fs.IntVar(&mf.walks, "walks", 16, "random walks per graph on top of the edge-covering ones (as for check)")
	fs.Uint64Var(&mf.seed, "seed", 1, "seed of the random walks (as for check; a campaign's finding needs the campaign's seed)")
	fs.IntVar(&mf.index, "index", 0, "which graph of the file to minimize (from 0)")
	fs.IntVar(&mf.maxSteps, "max-steps", corpus.DefaultMaxSteps, "bound on predicate calls (negative: none)")
	fs.DurationVar(&mf.timeout, "timeout", corpus.DefaultTimeout, "bound on the search (negative: none)")
	fs.BoolVar(&mf.verbose, "v", false, "log every accepted reduction")
}

func runMinimize(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("minimize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var mf minimizeFlags
	mf.define(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cfgfuzz minimize [flags] GRAPH-FILE [flags]")
		fmt.Fprintln(stderr, "\nShrink the graph while it fails with the same signature (the original failure's, or --signature);")
		fmt.Fprintln(stderr, "other signatures met on the way are reported (and stored with --store), never adopted.")
		fmt.Fprintln(stderr, "Exit status: 0 minimized and verified, 1 the result did not verify, 2 usage or input error")
		fmt.Fprintln(stderr, "(including a graph that does not fail with the signature asked for).\n\nflags:")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitUsage
	}
	code, err := minimizeFile(pos[0], mf, stdin, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz minimize:", err)
	}
	return code
}

// parseInterspersed parses flags before and after positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			if err := checkFlagRanges(fs); err != nil {
				fmt.Fprintln(fs.Output(), err)
				return nil, err
			}
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func minimizeFile(path string, mf minimizeFlags, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	items, err := readGraphs([]string{path}, stdin)
	if err != nil {
		return exitUsage, err
	}
	if mf.index < 0 || mf.index >= len(items) {
		return exitUsage, fmt.Errorf("%s holds %d graphs; --index %d is out of range", path, len(items), mf.index)
	}
	it := items[mf.index]
	sopt := structurizer.Options{Strategy: mf.strategy, Inject: splitList(mf.inject)}
	ropt := mf.runnerOptions()
	ropt.Structurizer = sopt
	run, err := corpus.NewRunner(ropt)
	if err != nil {
		return exitUsage, err
	}
	opt, err := mf.options(stderr)
	if err != nil {
		return exitUsage, err
	}
	var store *corpus.Store
	if mf.store != "" {
		store = &corpus.Store{Dir: mf.store}
		opt.OnOther = storeOther(store, run, sopt, "met while minimizing "+path, stderr)
	}
	res, err := corpus.Minimize(it.Graph, run.Predicate(), opt)
	if err != nil {
		return exitUsage, err // the graph does not fail as asked, or cannot be judged
	}
	report(res, stderr)
	origin := fmt.Sprintf("cfgfuzz minimize %s:%d:%d", path, it.Line, it.Col)
	if mf.origin != "" {
		origin = mf.origin + "; " + origin
	}
	h := corpus.Header{Signature: res.Signature, Fault: strings.Join(sopt.Inject, ","), Strategy: sopt.Strategy,
		Origin: origin, Date: time.Now().UTC().Format("2006-01-02")}
	if err := writeResult(res.Graph, h, mf.out, stdout); err != nil {
		return exitUsage, err
	}
	if err := saveOutputs(it.Graph, res, h, mf, run, store, stderr); err != nil {
		return exitUsage, err
	}
	if !res.Verified {
		return exitFail, errors.New("the result did not fail the same way when checked again (flaky?)")
	}
	return exitOK, nil
}

// runnerOptions are the oracle's settings from the flags: the checks
// (resolved as check resolves them) and the walks.
func (mf minimizeFlags) runnerOptions() corpus.RunnerOptions {
	ro := corpus.RunnerOptions{Oracle: corpus.CampaignOracle(mf.walks, mf.seed)}
	if mf.checks != "" {
		ro.Checks = oracle.ResolveChecks(mf.checks)
	}
	return ro
}

// options turns the flags into corpus.Options.
func (mf minimizeFlags) options(stderr io.Writer) (corpus.Options, error) {
	opt := corpus.Options{Signature: mf.signature, MaxSteps: mf.maxSteps, Timeout: mf.timeout}
	if mf.maxSteps == 0 {
		opt.MaxSteps = -1
	}
	if mf.timeout == 0 {
		opt.Timeout = -1
	}
	if mf.verbose {
		opt.Log = func(format string, args ...any) { fmt.Fprintf(stderr, "minimize: "+format+"\n", args...) }
	}
	if mf.baseline != "" {
		base, err := baselinePredicate(mf.baseline, mf, stderr)
		if err != nil {
			return opt, err
		}
		opt.Baseline = base
	}
	return opt, nil
}

// baselinePredicate builds the revision with the campaign engine's
// baseline runner (fuzz.BuildRevision: a detached git worktree, the binary
// cached by commit) and judges each candidate on it through protocol v1.
func baselinePredicate(rev string, mf minimizeFlags, stderr io.Writer) (corpus.Predicate, error) {
	bo := fuzz.BuildOptions{Log: stderr}
	commit, err := fuzz.ResolveRevision(rev, bo)
	if err != nil {
		return nil, err
	}
	bin, err := fuzz.BuildRevision(commit, bo)
	if err != nil {
		return nil, fmt.Errorf("building the baseline %s: %w", rev, err)
	}
	return sidePredicate(fuzz.ProcessFactory("baseline "+commit[:12], []string{bin}, ""), proto.Options{Strategy: mf.strategy}, mf.runnerOptions(), fuzz.DefaultTimeout)
}

// sidePredicate judges candidates on a campaign side (a protocol process
// or the in-process structurizer): the side's answer is emitted when it
// sends a structured function, then checked by the oracle with the same
// seams the campaign's workers give it (result info, re-structurize through
// the side), so signatures agree with the campaign's.
func sidePredicate(f fuzz.SideFactory, opt proto.Options, ropt corpus.RunnerOptions, limit time.Duration) (corpus.Predicate, error) {
	side, err := f.New()
	if err != nil {
		return nil, err
	}
	run, err := corpus.NewRunner(ropt)
	if err != nil {
		return nil, err
	}
	seam := func(g *cfg.Graph) ([]byte, oracle.ResultInfo, error) {
		start := time.Now()
		a := side.Structurize(g, opt, limit)
		mod, err := answerModule(a)
		return mod, fuzz.InfoOf(a, opt, time.Since(start)), err
	}
	return func(g *cfg.Graph) (string, error) {
		start := time.Now()
		a := side.Structurize(g, opt, limit)
		took := time.Since(start)
		if sig, err, done := answerFailure(a); done {
			return sig, err
		}
		mod, err := answerModule(a)
		if err != nil {
			return corpus.SigEmit, nil
		}
		vs := run.Oracle.Check(&oracle.Subject{Graph: g, Module: mod, Info: fuzz.InfoOf(a, opt, took), Structurize: seam})
		if v := oracle.Failed(vs); v != nil {
			return v.Signature, nil
		}
		if v := oracle.Errored(vs); v != nil {
			return "", fmt.Errorf("%s: %s", v.Check, v.Detail)
		}
		return "", nil
	}, nil
}

// answerFailure is the signature of an answer that carries no module:
// done reports whether the answer was one.
func answerFailure(a fuzz.Answer) (sig string, err error, done bool) {
	switch a.Outcome {
	case proto.OK:
		return "", nil, false
	case proto.Refused:
		return corpus.SigRefused, nil, true
	case fuzz.OutPanic:
		return corpus.PanicSignature(a.Reason), nil, true
	case fuzz.OutTimeout:
		return corpus.SigTimeout, nil, true
	case fuzz.OutCrash:
		return "structurize:" + fuzz.OutCrash, nil, true
	}
	return "", fmt.Errorf("side: %s: %s", a.Outcome, a.Reason), true
}

// answerModule is the answer's module, emitted here when the side sent a
// structured function.
func answerModule(a fuzz.Answer) ([]byte, error) {
	if a.Outcome != proto.OK {
		return nil, fmt.Errorf("%s: %s", a.Outcome, a.Reason)
	}
	return fuzz.ModuleOf(a)
}

// campaignMinimizer sets c.Minimize: every new finding of the campaign is
// minimized (corpus.MinimizeHook, 30 s a finding) on the campaign's own
// current side and checks, in baseline mode when the campaign has a
// baseline (the baseline side must pass every candidate), and stored with
// the minimized graph under DIR/findings (DIR the campaign's output). For
// cmd/cfgfuzz/run.go: call it after the sides are made.
func campaignMinimizer(c *fuzz.Config, log io.Writer) error {
	s := c.Settings
	ropt := corpus.RunnerOptions{Structurizer: structurizer.Options{Strategy: s.Strategy, Inject: s.Inject}, Checks: s.Checks,
		Oracle: corpus.CampaignOracle(s.Walks, s.Seed)}
	limit := time.Duration(s.Timeout)
	if limit == 0 {
		limit = fuzz.DefaultTimeout
	}
	ho := corpus.HookOptions{Runner: ropt, Store: &corpus.Store{Dir: c.Dir}, Log: log,
		Origin: fmt.Sprintf("campaign seed %d in %s", s.Seed, c.Dir)}
	if s.Current != "in-process" && c.Current.New != nil {
		cur, err := sidePredicate(c.Current, proto.Options{Strategy: s.Strategy, Inject: s.Inject}, ropt, limit)
		if err != nil {
			return err
		}
		ho.Predicate = cur
	}
	if c.Baseline.New != nil {
		base, err := sidePredicate(c.Baseline, proto.Options{Strategy: s.Strategy}, ropt, limit)
		if err != nil {
			return err
		}
		ho.Minimize.Baseline = base
	}
	hook, err := corpus.MinimizeHook(ho)
	if err != nil {
		return err
	}
	c.Minimize = hook
	return nil
}

func report(res *corpus.Result, w io.Writer) {
	fmt.Fprintf(w, "minimize: %s: %d blocks %d edges %d words -> %d blocks %d edges %d words in %v (%d steps, %d cache hits, %d harness errors)\n",
		res.Signature, res.Before.Blocks, res.Before.Edges, res.Before.Words, res.After.Blocks, res.After.Edges, res.After.Words,
		res.Elapsed.Round(time.Millisecond), res.Steps, res.CacheHits, res.Errors)
	fmt.Fprintf(w, "minimize: accepted reductions per stage: %v\n", res.Stages)
	if res.Stopped != "" {
		fmt.Fprintf(w, "minimize: stopped early by the %s; the result is the smallest accepted so far\n", res.Stopped)
	}
	for sig, g := range res.Others {
		fmt.Fprintf(w, "minimize: other signature met, not adopted: %s on %s\n", sig, cfg.FormatCompact(g))
	}
	fmt.Fprintf(w, "minimize: verified: %v\n", res.Verified)
}

// writeResult writes the graph with its header to file, or to stdout.
func writeResult(g *cfg.Graph, h corpus.Header, file string, stdout io.Writer) error {
	text := h.Format() + "# compact: " + cfg.FormatCompact(g) + "\n" + cfg.FormatLines(g)
	if file == "" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	return os.WriteFile(file, []byte(text), 0o644)
}

// saveOutputs writes the regression file and the store entry when asked.
func saveOutputs(orig *cfg.Graph, res *corpus.Result, h corpus.Header, mf minimizeFlags, run *corpus.Runner, store *corpus.Store, stderr io.Writer) error {
	if mf.save != "" && res.Verified {
		dir := mf.regressions
		if dir == "" {
			dir = defaultRegressionDir()
		}
		p, err := corpus.WriteRegression(dir, mf.save, h, res.Graph)
		if err != nil {
			return err
		}
		fmt.Fprintln(stderr, "minimize: saved regression", p)
	}
	if store == nil {
		return nil
	}
	o, m := run.Run(orig), run.Run(res.Graph)
	a, err := store.Add(corpus.Finding{Signature: res.Signature, Graph: orig, Minimized: res.Graph, Verdicts: o.Verdicts,
		Module: o.Module, MinModule: m.Module, Stats: o.Stats, Origin: h.Origin, Strategy: h.Strategy, Inject: splitList(h.Fault)})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "minimize: store: %s (new signature %v, kept %v, %d reports)\n", a.Dir, a.New, a.Kept, a.Reports)
	return nil
}

// storeOther adds each other signature met while minimizing to the store.
func storeOther(store *corpus.Store, run *corpus.Runner, sopt structurizer.Options, origin string, stderr io.Writer) func(*cfg.Graph, string) {
	return func(g *cfg.Graph, sig string) {
		o := run.Run(g)
		_, err := store.Add(corpus.Finding{Signature: sig, Graph: g, Verdicts: o.Verdicts, Module: o.Module, Stats: o.Stats,
			Origin: origin, Strategy: sopt.Strategy, Inject: sopt.Inject})
		if err != nil {
			fmt.Fprintln(stderr, "minimize: store:", err)
		}
	}
}

// defaultRegressionDir is corpus/testdata/regressions of the enclosing
// module (found by walking up to go.mod), or of the working directory.
func defaultRegressionDir() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "corpus", "testdata", "regressions")
		}
		if filepath.Dir(d) == d {
			return filepath.Join(dir, "corpus", "testdata", "regressions")
		}
	}
}
