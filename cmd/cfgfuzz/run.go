// run.go: `cfgfuzz run`, the campaign (package fuzz) over package gen's
// generators at the field's weight settings, with an optional baseline
// revision; and `cfgfuzz structurize`, this binary serving protocols v1 and v2 (the
// child process of --isolate). The flags shared with `cfgfuzz compare` and
// the translation of a saved campaign back into sides (for --resume) live
// here too.

package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func init() {
	register(command{name: "run", summary: "run a fuzz campaign (about 30 s over every generator by default)", run: runRun})
	register(command{name: "structurize", summary: "serve protocol v1 and v2 on stdin/stdout with this tree's structurizer", run: runServe})
}

// campaignFlags are the flags of run and compare.
type campaignFlags struct {
	loaded                            *fuzz.State // --state as read (loadState), once
	graphs                            int
	duration, timeout                 time.Duration
	seed                              uint64
	workers, walks, gpuEvery          int
	dispatchEvery, registers          int
	shard, out, resume                string
	kinds, weights, strategy, inject  string
	blocks                            string
	checks, structurizerCmd, baseline string
	current, gpuDevice                string
	repo                              string
	project                           projectFlags
	state, night                      string
	baselineStructurizer              string
	baselineStrategy                  string
	cpuProfile, memProfile            string
	isolate, minimize, compare        bool
	stateNewStructurizer              bool
	force, listFaults                 bool
	judge                             judgeFlags
	maxGrowth                         *float64 // --max-growth; nil none
	saveRegs                          string   // --save-regressions
	progress                          string
	proc                              processFlags
	budget                            minimizeBudget
	guide                             guidedFlags
	set                               map[string]bool // flags given
}

func (f *campaignFlags) define(fs *flag.FlagSet, compare bool) {
	fs.IntVar(&f.graphs, "graphs", 0, "graph budget `N` (graph indices 0..N-1 before sharding; 0: no graph limit, the time budget ends the run)")
	fs.DurationVar(&f.duration, "duration", 0, "time budget (default 30s when --graphs is not given): no graph starts past it, the graphs in flight finish (their structurizer calls within --timeout), then the new findings are minimized, past it: each new signature's minimization takes up to --minimize-timeout plus 9 judgements, each up to 4 structurizer calls (the graph's and the meta check's 3 re-runs) of up to --timeout on a structurizer that hangs, and a new process's start-up for those judged on a structurizer of their own (30s + 9 x 4 x 10s by default, start-ups aside; see --minimize-timeout); --minimize-budget bounds all of it, --minimize=false skips it")
	fs.DurationVar(&f.timeout, "timeout", fuzz.DefaultTimeout, "per-graph limit on each structurizer call: "+timeoutVerdicts)
	fs.Uint64Var(&f.seed, "seed", 1, "campaign seed")
	fs.IntVar(&f.workers, "workers", 0, "parallel workers; 0: GOMAXPROCS")
	fs.IntVar(&f.registers, "registers", 0, "every module carries a register file of `N` values that its blocks read and write, checked by exec and gpu (emit/CONVENTION.md); cfgfuzz writes the file into a func answer itself, so only a structurizer answering with module has its own register code tested (fuzz/ADAPTERS.md, \"The register file\"); 0 none")
	fs.IntVar(&f.walks, "walks", 16, "random walks drawn per graph on top of the edge-covering ones (a draw repeating an earlier walk is dropped)")
	fs.IntVar(&f.gpuEvery, "gpu-every", 0, "also run every Nth graph's module on the Vulkan driver (the gpu check); 0 never")
	fs.StringVar(&f.gpuDevice, "gpu-device", "", "Vulkan device of the gpu check: cpu (lavapipe, the default), gpu, any")
	fs.StringVar(&f.shard, "shard", "", "run shard `i/n` only (graph index mod n == i, 0 <= i < n)")
	fs.StringVar(&f.out, "out", "cfgfuzz-out", "output `DIR` (results log, reports)")
	fs.BoolVar(&f.force, "force", false, "replace the campaign that --out holds (its log, settings, reports, findings, pictures, re-runs and state update); without it such a DIR is refused")
	fs.StringVar(&f.resume, "resume", "", "continue the killed campaign in `DIR` on its recorded settings; only --workers, --progress, --minimize (and --minimize-timeout, --minimize-steps, --minimize-budget), --state, --night, --corpus, --save-regressions and the profiles may be given with it, and the campaign's own flags repeated with the settings it recorded (every flag that records one: all but --force, --list-faults, --state-new-structurizer and --baseline last-good; --kinds, --weights and --blocks each compared as its part of the graph streams). The minimization flags are not recorded: a resume takes those given to it (the resume command an interrupted report prints repeats the campaign's), and spends its whole --minimize-budget, as it redoes all of the minimization")
	fs.StringVar(&f.kinds, "kinds", "", "generators, comma-separated (default all: "+kindList()+")")
	fs.StringVar(&f.blocks, "blocks", "", "every random graph has `MIN-MAX` blocks (or N), up to "+strconv.Itoa(gen.MaxBlocksLimit)+" (default: 5-9; one graph in "+strconv.Itoa(gen.CampaignLargeEvery)+" larger, "+strconv.Itoa(gen.CampaignLargeMin)+"-"+strconv.Itoa(gen.CampaignLargeMax)+" or, for one in "+strconv.Itoa(gen.CampaignHugeEvery)+" of all, "+strconv.Itoa(gen.CampaignHugeMin)+"-"+strconv.Itoa(gen.CampaignHugeMax)+"); the exhaustive generator keeps its growing order; not with guided generation, whose mutants stay small")
	fs.StringVar(&f.weights, "weights", "", "weight settings, comma-separated (default all: "+weightList()+"); a generator's streams take turns over its graphs, each graph at one setting")
	fs.StringVar(&f.strategy, "strategy", "", "structurizer strategy: "+strings.Join(structurizer.Strategies(), ", ")+" (default: cfgfuzz's own structured, with the dispatch share beside it; a cmd: or repo: structurizer's own choice, none asked)")
	fs.StringVar(&f.inject, "inject", "", "faults to plant on the current side: "+strings.Join(structurizer.FaultNames(), ", "))
	fs.BoolVar(&f.listFaults, "list-faults", false, listFaultsUsage)
	fs.StringVar(&f.checks, "checks", "", "oracle checks (as for check: a,b or +x,-y; default: all of "+strings.Join(oracle.DefaultChecks, ",")+", the gpu check on every --gpu-every th graph)")
	f.judge.define(fs)
	fs.IntVar(&f.dispatchEvery, "dispatch-every", fuzz.DefaultDispatchEvery, "run the dispatch strategy instead of the default on about one graph in `N`, drawn from the seed and index (cfgfuzz's own structurizer on its default strategy only); 0 never")
	fs.StringVar(&f.structurizerCmd, "structurizer", "", "the current side as a structurizer `SPEC`: self, isolated, rev:REV, cmd:CMD (a program speaking fuzz/PROTOCOL.md; a bare command is cmd:) or repo:DIR@REV")
	f.proc.define(fs)
	f.project.define(fs)
	fs.BoolVar(&f.isolate, "isolate", false, "run this tree's structurizer as child processes (a hang is killed, not leaked)")
	fs.StringVar(&f.progress, "progress", "auto", progressUsage)
	fs.StringVar(&f.saveRegs, "save-regressions", "", saveRegressionsUsage)
	fs.BoolVar(&f.minimize, "minimize", true, "minimize the first graph of every new finding's signature into DIR/findings, each search within --minimize-timeout and --minimize-steps, all of them within --minimize-budget")
	f.budget.define(fs)
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the campaign (this process: engine, in-process structurizer, checks) to `FILE`")
	fs.StringVar(&f.memProfile, "memprofile", "", "write the campaign's allocation profile (this process) to `FILE` when it ends")
	fs.StringVar(&f.state, "state", "", "state `DIR` kept from night to night (fuzz/STATE.md): graphs already checked are skipped, the kept graphs of its signatures re-run, every signature classed new, known, ignored or fixed; exit 1 only for new ones")
	fs.StringVar(&f.night, "night", "", "with --state: the night's `DATE` (YYYY-MM-DD) the findings are recorded under, not earlier than the state's latest night; default today (UTC). Give every shard of a night the same DATE: merge refuses shards of different nights")
	fs.BoolVar(&f.stateNewStructurizer, "state-new-structurizer", false, "with --state: take the state directory over to this night's structurizer when its store was written by another (another cmd: command or repository, or cfgfuzz's own); without it such a night is refused. Another revision of the same structurizer needs no flag")
	f.guide.define(fs)
	baselineUsage := "compare with git revision `REV` of cfgfuzz (its cmd/structurize, made once and cached) or a structurizer spec (repo:DIR@REV: a revision of your own repository, built as its " + fuzz.ConfigFile + " says); last-good: the --state directory's last good night's revision, HEAD~1 before there is one"
	if compare {
		baselineUsage = "compare with git revision `REV` (its cmd/structurize, or with --repo its build, made once and cached; or a structurizer spec); last-good: the --state directory's last good night's revision, HEAD~1 before there is one"
	}
	fs.StringVar(&f.baseline, "baseline", "", baselineUsage)
	fs.Func("max-growth", "with a baseline: fail (exit 1) when the current side's modules have more than `PCT` percent more blocks than the baseline's, in all, on the graphs both structured validly (the report's sizes; 0: no growth at all); default no limit", func(v string) error {
		pct, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
		if err != nil || pct < 0 || math.IsInf(pct, 0) || math.IsNaN(pct) {
			return fmt.Errorf("want a percentage of 0 or more, e.g. 5 or 5%%")
		}
		pct += 0 // -0 is 0
		f.maxGrowth = &pct
		return nil
	})
	if compare {
		fs.StringVar(&f.current, "current", "", "the current side: git revision `REV` (built as the baseline is), self (the structurizer inside this binary), or a structurizer spec; default: the working tree (HEAD+dirty, uncommitted changes included) inside a git repository of cfgfuzz or with --repo, else self")
		fs.StringVar(&f.repo, "repo", "", "compare revisions of the git repository `DIR` instead of cfgfuzz's own: each checked out in a worktree, built with --build and served with --serve (or DIR/"+fuzz.ConfigFile+")")
		fs.StringVar(&f.baselineStructurizer, "baseline-structurizer", "", "the baseline side as a structurizer `SPEC` (self, isolated, rev:REV, cmd:CMD, repo:DIR@REV: README.md's \"Structurizer specs\") instead of --baseline REV")
		fs.StringVar(&f.baselineStrategy, "baseline-strategy", "", "the strategy asked of the baseline side when not --strategy (cfgfuzz's own: "+strings.Join(structurizer.Strategies(), ", ")+"): two strategies compared on the same graphs, e.g. --baseline-structurizer self --current self --baseline-strategy dispatch")
	}
}

// resumeAllows are the flags --resume takes besides DIR: how this run
// goes (workers, display, profiles, minimization), the state it reads
// and writes, which is the night's, not the campaign's settings, and the
// corpus directory it reads (its digest is a setting, checked).
var resumeAllows = []string{"resume", "workers", "progress", "build-timeout", "cpuprofile", "memprofile", "minimize", "minimize-timeout", "minimize-steps", "minimize-budget", "state", "night", "corpus", "save-regressions"}

// resumeCommand is the command that continues the campaign in dir: the
// state and the corpus directory it read must be given again, and the
// directory it saves regression files into (saveRegs, "" none) is given
// again so that the resumed campaign saves them (and the minimization
// flags, minimizeBudget.resumeFlags).
func resumeCommand(name, dir, state, corpus, saveRegs string) string {
	c := "cfgfuzz " + name + " --resume " + shellWord(dir)
	for _, fl := range [][2]string{{"state", state}, {"corpus", corpus}, {"save-regressions", saveRegs}} {
		if fl[1] != "" {
			c += " --" + fl[0] + " " + shellWord(fl[1])
		}
	}
	return c
}

func kindList() string {
	var s []string
	for _, k := range gen.Kinds() {
		s = append(s, string(k))
	}
	return strings.Join(s, ",")
}

func weightList() string {
	var s []string
	for _, w := range gen.Weightings() {
		s = append(s, w.Name())
	}
	return strings.Join(s, ",")
}

func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	return campaignMain("run", args, builds, stdout, stderr)
}

// campaignMain parses the flags of run or compare, runs the campaign
// (its builds stopped through builds as well as by its first stop
// signal) and maps the outcome to the exit status.
func campaignMain(name string, args []string, builds *fuzz.BuildStop, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := campaignFlags{compare: name == "compare"}
	f.define(fs, f.compare)
	f.proc.stop = builds
	fs.Usage = func() { campaignUsage(fs, name) }
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if code, done := f.checkCommandLine(fs, name, stdout, stderr); done {
		return code
	}
	words := campaignStop
	if f.compare {
		words = compareStop
	}
	in := onStopSignals(name, words, stderr, builds)
	defer in.stop()
	in.setup()
	if killed := fuzz.SweepOrphans(); len(killed) > 0 {
		fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, fuzz.OrphansLine(killed))
	}
	c, err := f.campaignConfig(in.ctx, stderr)
	defer c.Mark.Release() // the state's mark, made before the sides were built
	c.Context = in.ctx     // the minimizer stops with the campaign
	c.CutOnStop = f.compare
	var minimizerSides openSides
	defer minimizerSides.close()
	if err == nil && f.minimize {
		err = campaignMinimizer(&c, &minimizerSides, f.budget, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
		return in.or(exitUsage)
	}
	campaignNotes(name, c.Settings, stderr)
	f.followCampaign(&c, name, in)
	if f.cpuProfile != "" {
		stopProfile, err := startCPUProfile(f.cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
			return exitUsage
		}
		defer stopProfile()
	}
	in.reportsIn(c.Dir)
	o, err := fuzz.Run(c)
	if err != nil {
		if de := (*fuzz.DirError)(nil); errors.As(err, &de) {
			err = fmt.Errorf("--out %s: %w", de.Dir, de.Err)
		}
		fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
		return in.or(exitUsage)
	}
	return f.finishCampaign(name, &c, o, in, stdout, stderr)
}

// campaignUsage is run's or compare's help: what the command does, its
// exit statuses and its flags.
func campaignUsage(fs *flag.FlagSet, name string) {
	if name == "compare" {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz compare --baseline REV [--current REV|self] [--repo DIR [--build CMD] [--serve CMD]] [flags]\n\nRun the same graphs on two revisions and classify every graph: same, output-changed,")
		fmt.Fprintln(fs.Output(), "newly-structured, newly-refused, newly-unsupported, newly-supported, newly-invalid, invalid-fixed, crash,\ntimeout. Each side is judged by its")
		fmt.Fprintln(fs.Output(), "own structurizer. The current side is the working tree, uncommitted changes included, inside a git")
		fmt.Fprintln(fs.Output(), "repository of cfgfuzz (or of --repo), built like the baseline; --current self is this binary's own.")
	} else {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz run [flags]\n\nGenerate graphs, structurize each, check every module; reports in --out.")
	}
	fmt.Fprintln(fs.Output(), "Exit status: 0 nothing new, 1 new findings (with --state: new signatures) or output grown past --max-growth, 2 usage or\ninfrastructure error, or graphs without a whole verdict (harness errors, a check that could not judge a module); 130, 143, 129")
	fmt.Fprintln(fs.Output(), "stopped by SIGINT, SIGTERM, SIGHUP (the reports say so and give the --resume command; a second signal ends at once).\n\nflags:")
	fs.PrintDefaults()
}

// checkCommandLine acts on the parsed command line before the campaign
// starts: --list-faults lists the faults (exit 0); operands, flags
// --resume does not take, an unknown --progress, an --out or --state that
// cannot hold the campaign, and compare without a baseline are usage
// errors (exit 2). done says the command ends with code.
func (f *campaignFlags) checkCommandLine(fs *flag.FlagSet, name string, stdout, stderr io.Writer) (code int, done bool) {
	if f.listFaults {
		printFaults(stdout)
		return exitOK, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "cfgfuzz %s: unexpected arguments %q\n", name, fs.Args())
		return exitUsage, true
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if err := f.resumeFlagsOnly(); err != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
		return exitUsage, true
	}
	if !slices.Contains(progressModes, f.progress) {
		fmt.Fprintf(stderr, "cfgfuzz %s: invalid value %q for flag --progress: want %s\n", name, f.progress, strings.Join(progressModes, ", "))
		return exitUsage, true
	}
	dir := f.out
	if f.resume != "" {
		dir = f.resume
	}
	if err := checkOutState(dir, f.state); err != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
		return exitUsage, true
	}
	if name == "compare" && f.baseline == "" && f.baselineStructurizer == "" && f.resume == "" {
		fmt.Fprintln(stderr, "cfgfuzz compare: --baseline REV or --baseline-structurizer SPEC is required")
		return exitUsage, true
	}
	return 0, false
}

// campaignConfig is the campaign the flags ask for, guided generation
// applied; --blocks with guided generation is an error.
func (f *campaignFlags) campaignConfig(ctx context.Context, stderr io.Writer) (fuzz.Config, error) {
	c, err := f.config(ctx, stderr)
	if err == nil {
		err = f.guide.apply(&c, c.Resume, f.state, stderr)
	}
	if err == nil && c.Guided && slices.ContainsFunc(c.Streams, func(s fuzz.Stream) bool { return s.Blocks != "" }) {
		err = fmt.Errorf("--blocks and guided generation (--guided, --mutate, --corpus) do not go together: mutants and corpus graphs stay within %d blocks", gen.DefaultMutateMaxBlocks)
	}
	return c, err
}

// campaignNotes writes the notes on a campaign's sides before it starts:
// faults a command structurizer may not plant, two sides that are the
// same structurizer asked the same strategy, and an even register file.
func campaignNotes(name string, s fuzz.Settings, stderr io.Writer) {
	if note := registersNote(s.Registers); note != "" {
		fmt.Fprintf(stderr, "cfgfuzz %s: note: %s\n", name, note)
	}
	if sp, err := fuzz.ParseSpec(s.Current); err == nil {
		if note := externalFaultsNote(sp, strings.Join(s.Inject, ",")); note != "" {
			fmt.Fprintf(stderr, "cfgfuzz %s: note: %s\n", name, note)
		}
	}
	if s.Baseline != "" && s.Baseline == s.Current && len(s.Inject) == 0 && (s.BaselineStrategy == "" || s.BaselineStrategy == s.Strategy) {
		fmt.Fprintf(stderr, "cfgfuzz %s: note: both sides are %s, asked the same strategy: the comparison can show only an answer that depends on chance\n", name, s.Current)
	}
}

// followCampaign ties the campaign to the stop signals: it stops with
// in's context, each stage it enters tells in what a signal interrupts
// (the graphs, the minimization, the reports), and its reports give the
// command that resumes it.
func (f *campaignFlags) followCampaign(c *fuzz.Config, name string, in *interrupt) {
	c.Context = in.ctx
	c.Stage = func(s string) {
		switch s {
		case fuzz.StageGraphs:
			in.started()
		case fuzz.StageMinimize:
			in.minimizes(true)
		case fuzz.StageReport:
			in.minimizes(false)
		}
		if campaignStage != nil {
			campaignStage(s, in.ctx)
		}
	}
	c.ResumeCommand = resumeCommand(name, c.Dir, f.state, f.guide.corpus, f.saveRegs) + f.budget.resumeFlags(f.minimize)
}

// finishCampaign writes what follows a campaign's reports: its grown
// corpus and allocation profile, the summary, and the new findings'
// regression files; it returns the exit status.
func (f *campaignFlags) finishCampaign(name string, c *fuzz.Config, o *fuzz.Outcome, in *interrupt, stdout, stderr io.Writer) int {
	saved := f.saveCorpusAndProfile(name, c, o, stderr)
	code := reportExit(name, o.Report, o.Harness, c.Dir, stdout, stderr)
	if err := saveRegressions(f.saveRegs, o.Report, name, stdout); err != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
		saved = err
	}
	if o.Report.Incomplete != nil {
		return in.or(exitUsage)
	}
	if notCommitted(name, o.Report, stderr) || saved != nil {
		return exitUsage
	}
	return code
}

// saveCorpusAndProfile writes a guided campaign's grown corpus and the
// allocation profile, and returns the error of either, said on stderr.
// Both are written before the summary, which still comes when either
// fails: the run's findings are not lost to an unwritable file, though
// the exit status is then 2. A corpus not written is marked in the
// reports, written again, which named it written.
func (f *campaignFlags) saveCorpusAndProfile(name string, c *fuzz.Config, o *fuzz.Outcome, stderr io.Writer) error {
	saved := f.guide.save(o)
	if saved != nil { // the reports, written before, named the corpus written
		fuzz.MarkCorpusNotWritten(o.Report, saved)
		if err := fuzz.WriteReports(c.Dir, o.Report, c.Source); err != nil {
			fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
		}
		saved = fmt.Errorf("%w; the campaign's grown corpus is not written: once that is fixed, %s writes it", saved, c.ResumeCommand)
	}
	if saved == nil && f.memProfile != "" {
		saved = writeAllocProfile(f.memProfile)
	}
	if saved != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, saved)
	}
	return saved
}

// notCommitted says, on stderr, that a whole night's state update was not
// committed (StateReport.NotCommitted), and whether it was not: the night
// then exits 2, as it would have before its summary, which it still
// prints.
func notCommitted(name string, rep *fuzz.Report, stderr io.Writer) bool {
	if rep.State == nil || rep.State.NotCommitted == "" {
		return false
	}
	fmt.Fprintf(stderr, "cfgfuzz %s: state not committed: %s\n", name, rep.State.NotCommitted)
	return true
}

// startCPUProfile starts writing a CPU profile to path and returns what
// stops it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// writeAllocProfile writes the allocations since the process started.
func writeAllocProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("--memprofile %s: %w", path, err)
	}
	return f.Close()
}

// reportExit prints the summary, the report paths and, last on stderr,
// the report's incompleteness; it returns 1 for new findings, 2 for
// harness errors or graphs a check could not judge, else 0.
func reportExit(name string, rep *fuzz.Report, harness []string, dir string, stdout, stderr io.Writer) int {
	for _, h := range harness {
		fmt.Fprintf(stderr, "cfgfuzz %s: worker: %s\n", name, h)
	}
	fmt.Fprintf(stdout, "%s", summaryLines(rep))
	fmt.Fprintf(stdout, "reports: %s\n", filepath.Join(dir, "report.{json,md,html}"))
	if in := rep.Incomplete; in != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, in.Summary())
	}
	if m := rep.Mixed; m != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, m.Summary())
	}
	if hint := allCrashedHint(rep); hint != "" {
		fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, hint)
	}
	if hint := allErrorsHint(rep); hint != "" {
		fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, hint)
	}
	if hint := allTimedOutHint(rep); hint != "" {
		fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, hint)
	}
	if w := mostlyUnsupportedWarning(rep); w != "" {
		fmt.Fprintf(stderr, "cfgfuzz %s: warning: %s\n", name, w)
	} else if w := mostlyDeclinedWarning(rep); w != "" {
		fmt.Fprintf(stderr, "cfgfuzz %s: warning: %s\n", name, w)
	}
	if judgedNone(rep) {
		fmt.Fprintf(stderr, "cfgfuzz %s: the structurizer declined every graph, so the campaign judged none: incomplete (exit 2)\n", name)
	}
	if n := rep.Outcomes[fuzz.OutError] + rep.BaselineOutcomes[fuzz.OutError]; n > 0 && len(rep.HarnessErrors) > 0 {
		e := rep.HarnessErrors[0]
		fmt.Fprintf(stderr, "cfgfuzz %s: %s no verdict (outcome error; report.json's harness_errors), the first graph %d: %s\n", name, fuzz.HaveGraphs(n), e.Index, e.Detail)
		if e.Replay != "" {
			fmt.Fprintf(stderr, "cfgfuzz %s: replay of graph %d: %s\n", name, e.Index, e.Replay)
		}
		if a := fuzz.CheckLimitAdvice(rep); a != "" && allErrorsHint(rep) == "" {
			fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, a)
		}
		if hint := requestErrorsHint(rep); hint != "" {
			fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, hint)
		}
	}
	if u := rep.UncheckedSummary(); u != "" {
		fmt.Fprintf(stderr, "cfgfuzz %s: %s (report.json's unchecked: fuzz/REPORT.md)\n", name, u)
	}
	if rep.SizeOverLimit() {
		fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, rep.Divergences.Size.Summary())
	}
	switch {
	case rep.State != nil && rep.State.NewSignatures() > 0, rep.State == nil && rep.NewFindings > 0, rep.SizeOverLimit():
		return exitFail
	case len(harness) > 0 || rep.Outcomes[fuzz.OutError] > 0 || rep.BaselineOutcomes[fuzz.OutError] > 0 || rep.UncheckedGraphs() > 0:
		return exitUsage
	case judgedNone(rep):
		return exitUsage // nothing judged: no night passes on that
	}
	return exitOK
}

// judgedNone says a campaign without a baseline judged no graph: the
// structurizer declined every one. (A comparison compares the sides'
// outcomes, refusals among them: newly-refused is one of its classes.)
func judgedNone(rep *fuzz.Report) bool {
	return rep.Settings.Baseline == "" && rep.Graphs > 0 && declined(rep) == rep.Graphs
}

// declined is the current side's graphs that it refused or does not serve
// (outcomes refused and unsupported): structurized into no module, judged
// by no check.
func declined(rep *fuzz.Report) int {
	return rep.Outcomes[fuzz.OutRefused] + rep.Outcomes[fuzz.OutUnsupported]
}

// mostlyDeclinedWarning warns of a campaign that judged little because the
// current side refused or does not serve more than half of its graphs. ""
// otherwise (and where mostlyUnsupportedWarning speaks for the unsupported
// alone).
func mostlyDeclinedWarning(rep *fuzz.Report) string {
	n := declined(rep)
	if rep.Graphs == 0 || 2*n <= rep.Graphs {
		return ""
	}
	return fmt.Sprintf("%d of %s declined (%d refused, %d unsupported): the campaign judged only %d; the declined: line and report.md give the reasons",
		n, fuzz.Plural(rep.Graphs, "graph"), rep.Outcomes[fuzz.OutRefused], rep.Outcomes[fuzz.OutUnsupported], rep.Graphs-n)
}

// allTimedOutHint is a note for a campaign whose every graph timed out on
// the current side: the findings stand, but a structurizer that answers
// no graph in time, whatever the graph, may be one that needs more time
// than --timeout on every graph (its start-up has --start-timeout of its
// own), so the note says how to tell. "" otherwise.
func allTimedOutHint(rep *fuzz.Report) string {
	if rep.Graphs < 2 || rep.Outcomes[fuzz.OutTimeout] != rep.Graphs {
		return ""
	}
	limit := time.Duration(rep.Settings.Timeout)
	if limit == 0 {
		limit = fuzz.DefaultTimeout
	}
	return fmt.Sprintf("every graph timed out (--timeout %s): `cfgfuzz selftest --structurizer %s --timeout 1m` shows whether it answers small graphs given the time, and a larger --timeout gives each graph more (a server's start-up has --start-timeout of its own)",
		limit, fuzz.ShellQuote(rep.Settings.Current))
}

// mostlyUnsupportedWarning warns of a campaign that tested little: more
// than half of its graphs went unstructurized because the current side's
// hello declares it does not serve them (outcome unsupported), which is no
// finding, so the night passes on the few it did serve. A promise set wrong
// (max_blocks left at 1, switches left false) looks so. "" otherwise.
func mostlyUnsupportedWarning(rep *fuzz.Report) string {
	n := rep.Outcomes[fuzz.OutUnsupported]
	if rep.Graphs == 0 || 2*n <= rep.Graphs {
		return ""
	}
	promises := ""
	if h := rep.Declared["current"]; h != nil {
		b, _ := json.Marshal(h.Promises)
		promises = " (" + string(b) + ")"
	}
	return fmt.Sprintf("%d of %s unsupported: the structurizer's hello declares it does not serve them%s, so the campaign structurized only %d; if that is not what it means to promise, fix its hello (fuzz/PROTOCOL.md, version 2)",
		n, fuzz.Plural(rep.Graphs, "graph"), promises, rep.Graphs-n)
}

// allErrorsHint is a note for a campaign whose every graph had no verdict
// on the current side (outcome error: the structurizer did not start, or
// could not serve a request), complete or stopped early for it
// (fuzz.IsStoppedEarly): a command that is wrong or too slow to start looks
// so, and the selftest tells; a structurizer that rejects the requests
// carrying --inject's faults is told so instead (fuzz.InjectRefusedHint).
// "" otherwise.
func allErrorsHint(rep *fuzz.Report) string {
	if rep.Graphs < 2 {
		return ""
	}
	if rep.Outcomes[fuzz.OutError] != rep.Graphs {
		return baselineErrorsHint(rep)
	}
	if hint := fuzz.InjectRefusedHint(rep); hint != "" {
		return hint
	}
	if checkLimitOnly(rep.HarnessErrors) {
		limit := time.Duration(rep.Settings.CheckTimeout)
		if limit == 0 {
			limit = fuzz.DefaultCheckTimeout
		}
		return fmt.Sprintf("every graph is a harness error, and the ones listed are the checks past their limit (--check-timeout %s), not the structurizer: it answered; %s", limit, fuzz.CheckLimitAdvice(rep))
	}
	hint := fmt.Sprintf("every graph is a harness error: `cfgfuzz selftest --structurizer %s` shows whether the structurizer serves the protocol, and how it fails",
		fuzz.ShellQuote(rep.Settings.Current))
	if in := rep.Incomplete; in != nil && fuzz.IsStoppedEarly(in.Reason) {
		hint += "; once it does, start the campaign again with --force (a --resume keeps these graphs' errors)"
	}
	return hint
}

// baselineErrorsHint is allErrorsHint for a comparison whose every graph
// is a harness error on the baseline side alone (the current side had
// none): the selftest of the baseline's structurizer; "" otherwise.
func baselineErrorsHint(rep *fuzz.Report) string {
	if rep.BaselineOutcomes[fuzz.OutError] != rep.Graphs || rep.Outcomes[fuzz.OutError] != 0 || rep.Settings.Baseline == "" {
		return ""
	}
	return fmt.Sprintf("every graph is a harness error on the baseline side: `cfgfuzz selftest --structurizer %s` shows whether the baseline's structurizer serves the protocol, and how it fails",
		fuzz.ShellQuote(rep.Settings.Baseline))
}

// requestErrorsHint is a note for a campaign whose first harness error is
// the structurizer's request error ("request: ..."): a graph cfgfuzz
// generated, which parses, that the structurizer says it cannot read is
// more likely its misreading of the request than a bad request; "" for
// other errors, and where allErrorsHint speaks (every graph an error). A
// request error to requests carrying planted faults gets
// fuzz.InjectRefusedHint. The note names the side whose error it is: the
// baseline's structurizer for an error of the baseline alone.
func requestErrorsHint(rep *fuzz.Report) string {
	if len(rep.HarnessErrors) == 0 || rep.Outcomes[fuzz.OutError] == rep.Graphs {
		return ""
	}
	if hint := fuzz.InjectRefusedHint(rep); hint != "" {
		return hint
	}
	e := rep.HarnessErrors[0]
	if !strings.Contains(e.Detail, proto.RequestError) {
		return ""
	}
	spec, side := rep.Settings.Current, "structurizer"
	if !strings.HasPrefix(e.Current, fuzz.OutError) && strings.HasPrefix(e.Baseline, fuzz.OutError) && rep.Settings.Baseline != "" {
		spec, side = rep.Settings.Baseline, "baseline's structurizer"
	}
	return fmt.Sprintf("note: the %s answered a request error on graphs cfgfuzz generated, which parse (the first %s): its reading of the request, the compact notation or the weights (report.json's harness_errors), may be wrong; `echo %s | cfgfuzz check --structurizer %s` shows its answer to the first",
		side, e.Graph, fuzz.ShellQuote(e.Graph), fuzz.ShellQuote(spec))
}

// checkLimitOnly says whether every harness error listed is a graph whose
// checks ran past the check limit.
func checkLimitOnly(errs []fuzz.Example) bool {
	for _, e := range errs {
		if !strings.Contains(e.Detail, fuzz.CheckLimitDetail) {
			return false
		}
	}
	return len(errs) > 0
}

// allCrashedHint is a note for a campaign whose every graph crashed the
// current side with one signature: the findings stand, but a command that
// dies at once (a script's path mistyped, a missing library) looks the
// same, so the note says how to tell. "" otherwise.
func allCrashedHint(rep *fuzz.Report) string {
	if rep.Graphs < 2 || rep.Outcomes[fuzz.OutCrash] != rep.Graphs || len(rep.Findings) != 1 {
		return ""
	}
	return fmt.Sprintf("every graph crashed the structurizer with one signature (%s): if its command is wrong, `cfgfuzz selftest --structurizer %s` shows how the server fails",
		rep.Findings[0].Signature, fuzz.ShellQuote(rep.Settings.Current))
}

// guidedLine is a guided campaign's summary line: its features, mutants
// and what it did with its corpus.
func guidedLine(g *fuzz.GuidedSummary) string {
	s := "guided: " + fuzz.Plural(g.Features, "behaviour feature")
	if g.Found != nil {
		s += " (" + g.Found.Summary() + ")"
	}
	s += ", " + fuzz.Plural(g.Mutants, "mutant")
	if g.Corpus != nil {
		s += "; " + g.Corpus.Summary()
	}
	if n := g.KeepNote(); n != "" {
		s += "; " + n
	}
	return s
}

// summaryLines is a campaign's (or a merge's) summary on stdout: the
// notes on how it ran, the sides compared, its throughput and outcomes,
// the divergences from a baseline, and its findings, in that order.
func summaryLines(rep *fuzz.Report) string {
	var b strings.Builder
	summaryNotes(&b, rep)
	summarySides(&b, rep)
	summaryThroughput(&b, rep)
	summaryOutcomes(&b, rep)
	summaryExtras(&b, rep)
	summaryDivergences(&b, rep)
	summaryFindingCounts(&b, rep)
	summaryFindings(&b, rep)
	return b.String()
}

// registersNote says what a register file of n values leaves untested,
// "" when nothing: with an even n no block's step reads a register it has
// just written nor writes one twice (emit/CONVENTION.md, "Register file").
func registersNote(n int) string {
	if n <= 0 || n%2 != 0 {
		return ""
	}
	return fmt.Sprintf("--registers %d is even: no block's step reads a register it has just written or writes one twice, so the order of a step's reads and writes goes untested; a campaign with a small odd file (--registers 5) tests it (emit/CONVENTION.md, \"Register file\")", n)
}

// summaryNotes writes the summary's opening notes: a campaign left
// incomplete (said on stdout too, for a job that reads only it), a merge
// of mixed builds, a time budget that ran out before the graph budget, and
// side files left out of the digest.
func summaryNotes(b *strings.Builder, rep *fuzz.Report) {
	if in := rep.Incomplete; in != nil {
		what, _, _ := strings.Cut(in.Summary(), "; resume with:")
		fmt.Fprintf(b, "%s (the counts below cover those)\n", what)
	}
	if m := rep.Mixed; m != nil {
		fmt.Fprintf(b, "%s\n", m.Summary())
	}
	if n := rep.TimeBudgetNote; n != "" {
		fmt.Fprintf(b, "note: %s\n", n)
	}
	if n := fuzz.SideFilesNote(&rep.Settings); n != "" {
		fmt.Fprintf(b, "note: %s\n", n)
	}
}

// summarySides names, with a baseline, the current side and the baseline
// (and their strategies when they differ); nothing without one.
func summarySides(b *strings.Builder, rep *fuzz.Report) {
	s := rep.Settings
	if s.Baseline == "" {
		return
	}
	fmt.Fprintf(b, "current: %s%s: %s\nbaseline: %s%s: %s\n", rep.Sides.Named("current", ", "), s.Current, fuzz.DescribeSide(s.Current, rep.Declared["current"]),
		rep.Sides.Named("baseline", ", "), s.Baseline, fuzz.DescribeSide(s.Baseline, rep.Declared["baseline"]))
	if between := rep.Sides.Between(); between != "" {
		fmt.Fprintf(b, "between the sides: %s\n", between)
	}
	if s.BaselineStrategy != "" && s.BaselineStrategy != s.Strategy {
		fmt.Fprintf(b, "strategies: current %s, baseline %s\n", cmp.Or(s.Strategy, "its default"), s.BaselineStrategy)
	}
}

// summaryThroughput writes how many distinct graphs ran in how long (a
// merge's: its shards' graphs, in the longest shard's time), with a
// baseline how long each side took to answer, and a hint when meta's
// re-runs of a slow structurizer are most of the campaign's time.
func summaryThroughput(b *strings.Builder, rep *fuzz.Report) {
	t := rep.Throughput
	if t.Shards > 0 {
		// A merge runs no graph: its shards did, side by side as a rule.
		fmt.Fprintf(b, "%s (%s skipped); %d shards ran %d in %.1f s (the longest shard's time), %s distinct graphs/s\n", fuzz.Plural(rep.Graphs, "distinct graph"), fuzz.Plural(rep.Skipped, "repeat"), t.Shards, t.Graphs, t.Seconds, fuzz.Rate(t.GraphsPerSec))
	} else {
		fmt.Fprintf(b, "%s (%s skipped); this run %d in %.1f s, %s distinct graphs/s\n", fuzz.Plural(rep.Graphs, "distinct graph"), fuzz.Plural(rep.Skipped, "repeat"), t.Graphs, t.Seconds, fuzz.Rate(t.GraphsPerSec))
	}
	if s := rep.Settings; s.Baseline != "" && t.Graphs > 0 && t.BaselineSeconds > 0 {
		fmt.Fprintf(b, "answers: current %.2f s, baseline %.2f s (%.2fx), summed over the workers; meta's re-runs: current %.2f s, baseline %.2f s\n",
			t.CurrentSeconds, t.BaselineSeconds, t.CurrentSeconds/t.BaselineSeconds, t.CurrentMetaSeconds, t.BaselineMetaSeconds)
	}
	if h := fuzz.MetaHint(t); h != "" {
		b.WriteString(h + "\n")
	}
}

// summaryOutcomes writes the line of the graphs' outcomes on the current
// side, with a baseline the graphs without a verdict there too (the
// stop's "graphs have no verdict" counts both sides'), the fallbacks to the dispatch loop, the dispatch share, the graphs
// the gpu check ran and the register file every module carried; with a
// baseline, a line of the baseline's outcomes follows.
func summaryOutcomes(b *strings.Builder, rep *fuzz.Report) {
	fmt.Fprintf(b, "%s:", fuzz.Plural(rep.Graphs, "graph"))
	for _, o := range fuzz.Outcomes {
		fmt.Fprintf(b, " %s %d", o, rep.Outcomes[o])
		if o == fuzz.OutError && rep.Divergences != nil {
			fmt.Fprintf(b, " (baseline %d)", rep.BaselineOutcomes[o])
		}
	}
	fmt.Fprintf(b, "; fallbacks %d", rep.Fallbacks)
	if rep.Divergences != nil {
		fmt.Fprintf(b, " (baseline %d)", rep.BaselineFallbacks)
	}
	b.WriteString(fuzz.FallbackNote(rep))
	if n := rep.Strategies[fuzz.DispatchStrategy]; n > 0 {
		fmt.Fprintf(b, "; dispatch share %d", n)
	}
	if rep.Settings.GPUEvery > 0 {
		fmt.Fprintf(b, "; gpu check %d", rep.GPUChecked)
	}
	if n := rep.Settings.Registers; n > 0 {
		fmt.Fprintf(b, "; register file of %d in every module (--registers %d)", n, n)
	}
	b.WriteString("\n")
	if rep.Divergences != nil {
		b.WriteString("baseline's outcomes:")
		for _, o := range fuzz.Outcomes {
			fmt.Fprintf(b, " %s %d", o, rep.BaselineOutcomes[o])
		}
		b.WriteString("\n")
	}
}

// summaryExtras writes a line each for what the outcomes leave out, when
// there is any: graphs a structurizer declined, a guided campaign's
// features and corpus, checks that could not judge a module, and answers
// that left processes running.
func summaryExtras(b *strings.Builder, rep *fuzz.Report) {
	if d := fuzz.DeclinedSummary(rep); d != "" {
		b.WriteString(d + "\n")
	}
	if g := rep.Guided; g != nil {
		b.WriteString(guidedLine(g) + "\n")
	}
	if u := rep.UncheckedSummary(); u != "" {
		b.WriteString(u + "\n")
	}
	if l := fuzz.LeakedSummary(rep); l != "" {
		b.WriteString(l + "\n")
	}
}

// summaryDivergences writes, with a baseline, the count of graphs in each
// divergence class and the sides' module sizes; nothing without one.
func summaryDivergences(b *strings.Builder, rep *fuzz.Report) {
	d := rep.Divergences
	if d == nil {
		return
	}
	b.WriteString("divergences:")
	for _, c := range fuzz.Classes {
		fmt.Fprintf(b, " %s %d", c, d.Classes[c])
		if c == fuzz.ClassChanged {
			fmt.Fprintf(b, " (of which both invalid %d)", d.BothInvalid)
		}
	}
	b.WriteString("\n")
	if d.Size != nil {
		b.WriteString(d.Size.Summary() + "\n")
	}
}

// summaryByState says whether a state's classes say what is new (a night
// without a baseline): the summary then leaves out the counts of new
// graphs, which would contradict them. Without a baseline and a state
// every failing graph is new to the campaign.
func summaryByState(rep *fuzz.Report) bool {
	return rep.State != nil && rep.Settings.Baseline == ""
}

// summaryFindingCounts writes the count of findings and signatures (a
// night's: classed against the state, whose lines follow), and the notes
// on the findings' reproduction and the minimization budget.
func summaryFindingCounts(b *strings.Builder, rep *fuzz.Report) {
	if summaryByState(rep) {
		end := ":" // the night's line and its signatures' follow
		if len(rep.State.Signatures) == 0 {
			end = "." // no signature's line follows
		}
		fmt.Fprintf(b, "%s (%s) in tonight's graphs; %s classed against the state (tonight's graphs and the re-runs of the state's)%s\n",
			fuzz.Plural(countFindings(rep), "finding"), fuzz.Plural(len(rep.Findings), "signature"), fuzz.Plural(len(rep.State.Signatures), "signature"), end)
	} else {
		news := "new"
		if rep.Settings.Baseline != "" {
			news = fuzz.NewlyFailing // not the state's class "new", whose lines may follow
		}
		fmt.Fprintf(b, "%s (%s), %d %s\n", fuzz.Plural(countFindings(rep), "finding"), fuzz.Plural(len(rep.Findings), "signature"), rep.NewFindings, news)
	}
	b.WriteString(stateSummary(rep))
	if note := fuzz.ReproductionNote(rep); note != "" {
		b.WriteString("  " + note + "\n")
	}
	if note := fuzz.BudgetNote(rep); note != "" {
		b.WriteString("  " + note + "\n")
	}
	if note := fuzz.UnminimizedNote(rep); note != "" {
		b.WriteString("  " + note + "\n")
	}
	if note := fuzz.NoBisectNote(rep); note != "" {
		b.WriteString("  " + note + "\n")
	}
}

// bisectLabel heads a finding's bisect line: "bisect", with where it
// starts when the sides diverge.
func bisectLabel(sides *fuzz.Sides) string {
	if from := sides.FromMergeBase(); from != "" {
		return "bisect (" + from + ")"
	}
	return "bisect"
}

// summaryFindings writes each finding's signature, graphs and replay, with
// what its minimization and replays found: stopped early, skipped, not
// reproduced, flaky on either side, or first new on a later graph.
func summaryFindings(b *strings.Builder, rep *fuzz.Report) {
	byState := summaryByState(rep)
	for _, fd := range rep.Findings {
		news := ", " + fuzz.FindingNewCount(rep, &fd)
		if byState {
			news = ""
		}
		fmt.Fprintf(b, "  %s%s: %s%s; replay: %s\n", fd.Signature, onStrategy(fd.Strategy), fuzz.Plural(fd.Count, "graph"), news, fd.Replay)
		if n := fuzz.RerunOutcomeNote(fd.Signature); n != "" {
			fmt.Fprintf(b, "    %s\n", n)
		}
		if fd.MinimizeStopped != "" {
			fmt.Fprintf(b, "    minimized: %s\n", fuzz.MinimizeStoppedNote(fd.MinimizeStopped))
		}
		if line := fuzz.UnminimizedLine(rep, &fd); line != "" {
			fmt.Fprintf(b, "    %s\n", line)
		}
		if fd.MinimizeSkipped != "" {
			fmt.Fprintf(b, "    %s\n", fd.MinimizeSkipped)
		}
		if fd.NotReproduced != "" {
			fmt.Fprintf(b, "    not reproduced: %s: the replay may pass; %s\n", fd.NotReproduced, fuzz.AnswerCause(fd.Signature))
		}
		if fd.Flaky != "" {
			fmt.Fprintf(b, "    flaky: %s: the replays may pass; %s\n", fd.Flaky, fuzz.AnswerCause(fd.Signature))
		}
		if fd.BaselineFlaky != "" {
			fmt.Fprintf(b, "    baseline flaky: %s: the failure may not be new; the baseline's answer depends on chance, or on the requests before it\n", fd.BaselineFlaky)
		}
		if fd.BaselineChanged != "" {
			fmt.Fprintf(b, "    baseline changed: %s\n", fd.BaselineChanged)
		}
		if fd.FirstNew != nil {
			fmt.Fprintf(b, "    %s\n", fuzz.FirstNewNote(&fd))
		}
		if fd.Bisect != "" {
			fmt.Fprintf(b, "    %s: %s\n", bisectLabel(rep.Sides), fd.Bisect)
		}
	}
}

// onStrategy is " (strategy S)" for a finding under a strategy other than
// the campaign's, "" otherwise.
func onStrategy(strategy string) string {
	if strategy == "" {
		return ""
	}
	return " (strategy " + strategy + ")"
}

func countFindings(rep *fuzz.Report) int {
	n := 0
	for _, f := range rep.Findings {
		n += f.Count
	}
	return n
}

// command is the subcommand the flags belong to.
func (f *campaignFlags) command() string {
	if f.compare {
		return "compare"
	}
	return "run"
}

// config builds the campaign from the flags, or from the saved settings
// with --resume.
func (f *campaignFlags) config(ctx context.Context, stderr io.Writer) (fuzz.Config, error) {
	c := fuzz.Config{Source: genSource{}, Workers: f.workers, Dir: f.out, Force: f.force, Notes: stderr}
	c.Progress, c.Terminal = progressOutput(f.progress, stderr)
	if f.saveRegs != "" {
		if err := checkRegressionDir(f.saveRegs); err != nil {
			return c, fmt.Errorf("--save-regressions: %w", err) // before the campaign, not after it
		}
	}
	c.Writer = thisWriter()
	if f.resume != "" {
		s, w, err := fuzz.LoadCampaign(f.resume)
		if err != nil {
			if inUse := fuzz.InUse(f.resume); inUse != nil { // a campaign still starting has no settings yet
				err = inUse
			}
			return c, fmt.Errorf("resume: %w", err)
		}
		if w != c.Writer { // before a revision is built for nothing
			return c, fmt.Errorf("resume: %w", &fuzz.WriterMismatch{Dir: f.resume, Log: w, This: c.Writer})
		}
		c.Settings, c.Dir, c.Resume = s, f.resume, true
		if err := f.attachState(&c); err != nil {
			return c, err
		}
		if err := c.CheckResumeState(); err != nil { // before a revision is resolved or built for nothing
			return c, err
		}
		return c, f.sidesFromSettings(ctx, &c, stderr)
	}
	s, err := f.flagSettings()
	if err != nil {
		return c, err
	}
	if err := gpuDeviceFlag(f.command(), f.gpuDevice, f.gpuEvery > 0 || slices.Contains(s.Checks, gpu.CheckName), stderr); err != nil {
		return c, err
	}
	if f.repo != "" {
		if f.repo, err = repoFlag(f.repo); err != nil {
			return c, err
		}
		s.Project = f.project.recorded() // nil: DIR's .cfgfuzz.json gives both, and is not recorded
	}
	if s.Baseline, err = f.baselineSpec(stderr); err != nil {
		return c, err
	}
	if s.Current, err = f.currentSpec(stderr); err != nil {
		return c, err
	}
	if f.repo == "" {
		// Without --repo, the flags build and serve the sides that are
		// repo: specs, and are refused where neither is.
		specs := []string{s.Current}
		if s.Baseline != "" {
			specs = append(specs, s.Baseline)
		}
		if err := f.project.needRepo(specs...); err != nil {
			return c, err
		}
		s.Project = f.project.recorded()
	}
	if f.maxGrowth != nil && s.Baseline == "" {
		return c, fmt.Errorf("--max-growth needs a baseline (--baseline or --baseline-structurizer): it limits the current side's growth over the baseline's")
	}
	if s.Baseline != "" { // a new campaign's: a resumed one keeps what it recorded
		s.CurrentRef, s.BaselineRef = revisionAsGiven(s.Current), revisionAsGiven(s.Baseline)
	}
	c.Settings = s
	if err := fuzz.CheckDirFree(c.Dir, c.Force); err != nil {
		return c, err // before a revision is built for nothing
	}
	if err := f.attachState(&c); err != nil {
		return c, err
	}
	if err := f.sidesFromSettings(ctx, &c, stderr); err != nil {
		return c, err
	}
	c.Settings.CurrentRef = revisionBuilt(c.Settings.CurrentRef, c.Settings.Current)
	c.Settings.BaselineRef = revisionBuilt(c.Settings.BaselineRef, c.Settings.Baseline)
	return c, nil
}

// repoFlag is the repository --repo names, as its top directory: the
// builds run in a checkout's top and .cfgfuzz.json is read there, so a
// subdirectory names the same sides, and the specs spell them one way.
func repoFlag(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	top, err := fuzz.RepoTop(abs)
	if err != nil {
		return "", fmt.Errorf("--repo: %w", err)
	}
	return top, nil
}

// flagSettings is the campaign's settings as its flags give them, the
// sides and the project left out: what config records for a new campaign,
// and what a flag repeated with --resume is compared with
// (resumeFlagsOnly). Guided generation's settings are guidedFlags.apply's.
func (f *campaignFlags) flagSettings() (fuzz.Settings, error) {
	s := fuzz.Settings{Seed: f.seed, Graphs: f.graphs, Duration: fuzz.Duration(f.duration), Timeout: fuzz.Duration(f.timeout),
		Strategy: f.strategy, BaselineStrategy: f.baselineStrategy, Inject: splitList(f.inject), Walks: f.walks, GPUEvery: f.gpuEvery, GPUDevice: f.gpuDevice, Registers: f.registers}
	if err := proto.CheckOptions(proto.Options{Registers: f.registers}); err != nil {
		return s, fmt.Errorf("--registers: %w", err)
	}
	if int(f.proc.maxAnswer) != fuzz.DefaultMaxAnswer {
		s.MaxAnswer = int(f.proc.maxAnswer)
	}
	if f.proc.startTimeout != fuzz.DefaultStartTimeout {
		s.StartTimeout = fuzz.Duration(f.proc.startTimeout)
	}
	if err := f.judge.validate(); err != nil {
		return s, err
	}
	f.judge.settings(&s)
	if f.graphs == 0 && f.duration == 0 {
		if f.set["graphs"] || f.set["duration"] {
			return s, fmt.Errorf("--graphs 0 and --duration 0 leave the campaign no budget: give --graphs N or --duration D above 0 (without either, a 30 s campaign)")
		}
		s.Duration = fuzz.Duration(30 * time.Second)
	}
	s.Checks = f.judge.checks(f.checks)
	if f.shard != "" {
		sh, err := fuzz.ParseShard(f.shard)
		if err != nil {
			return s, fmt.Errorf("invalid value %q for flag --shard: %s", f.shard, fuzz.ShardWant(f.shard))
		}
		s.Shard = sh
	}
	streams, err := streamsFor(f.kinds, f.weights, f.blocks)
	if err != nil {
		return s, err
	}
	s.Streams = streams
	if err := validateOptions(f.strategy, s.Inject); err != nil {
		return s, err
	}
	if err := validateOptions(f.baselineStrategy, nil); err != nil {
		return s, fmt.Errorf("--baseline-strategy: %w", err)
	}
	if err := f.dispatchShare(&s); err != nil {
		return s, err
	}
	s.MaxGrowth = f.maxGrowth
	return s, nil
}

// dispatchShare sets Settings.DispatchEvery: --dispatch-every on
// cfgfuzz's own structurizer (in-process, isolated or a revision, named by
// default or by --structurizer self, isolated or rev:REV alike) on its
// default strategy; never for another project's structurizer
// (--structurizer cmd: or repo:, which has no strategies) or an explicit
// --strategy, where an explicit --dispatch-every is a usage error.
func (f *campaignFlags) dispatchShare(s *fuzz.Settings) error {
	if f.dispatchEvery < 0 {
		return fmt.Errorf("--dispatch-every %d: want 0 or more", f.dispatchEvery)
	}
	if oursOrNone(f.structurizerCmd) && f.strategy == "" && f.baselineStrategy == "" && f.repo == "" && oursOrNone(f.baselineStructurizer) {
		s.DispatchEvery = f.dispatchEvery
		return nil
	}
	if f.set["dispatch-every"] && f.dispatchEvery > 0 {
		return fmt.Errorf("--dispatch-every needs cfgfuzz's own structurizer on its default strategy (not --structurizer, --baseline-structurizer of another program, --repo or --strategy)")
	}
	return nil
}

// oursOrNone reports whether a --baseline-structurizer value is empty or
// names cfgfuzz's own structurizer (self, isolated, a revision of cfgfuzz),
// which has the strategies the dispatch share asks for.
func oursOrNone(spec string) bool {
	if spec == "" {
		return true
	}
	sp, err := fuzz.ParseSpec(spec)
	return err == nil && (sp.IsSelf() || sp.Kind == fuzz.SpecRev)
}

func validateOptions(strategy string, inject []string) error {
	if strategy != "" && !slices.Contains(structurizer.Strategies(), strategy) {
		return fmt.Errorf("unknown strategy %q (have %s)", strategy, strings.Join(structurizer.Strategies(), ", "))
	}
	for _, x := range inject {
		if !slices.Contains(structurizer.FaultNames(), x) {
			return fmt.Errorf("unknown fault %q (have %s)", x, strings.Join(structurizer.FaultNames(), ", "))
		}
	}
	return nil
}

// currentLabel opens an error about the current side: "current side: "
// beside a baseline, "" for a campaign of one side, which has no sides to
// tell apart (its errors name the structurizer themselves).
func currentLabel(baseline string) string {
	if baseline == "" {
		return ""
	}
	return "current side: "
}

// sidesFromSettings makes the side factories that Settings.Current and
// Settings.Baseline name (fuzz.Spec: self, isolated, cmd:CMD, rev:REV,
// repo:DIR@REV); each recorded spec is rewritten to its resolved form (a
// revision to its full commit hash) so a resumed campaign uses the same
// build.
func (f *campaignFlags) sidesFromSettings(ctx context.Context, c *fuzz.Config, log io.Writer) error {
	// Both revisions resolved before either side is built: a baseline
	// that does not exist is said at once, not after the current side's
	// build.
	current := currentLabel(c.Settings.Baseline)
	if err := fuzz.CheckRevision(c.Settings.Current); err != nil {
		return fmt.Errorf("%s%w", current, err)
	}
	if c.Settings.Baseline != "" {
		if err := fuzz.CheckRevision(c.Settings.Baseline); err != nil {
			return fmt.Errorf("baseline: %w", err)
		}
	}
	popt := fuzz.ProcessOptions{MaxAnswer: c.Settings.MaxAnswer, StartTimeout: time.Duration(c.Settings.StartTimeout)}
	bo := f.proc.builds(ctx, log)
	bo.Named = map[string]bool{} // a revision both sides run is named once in the log
	cur, spec, err := sideFor(bo, c.Settings.Current, c.Settings.Project, popt)
	if err != nil {
		return fmt.Errorf("%s%w", current, err)
	}
	c.Current, c.Settings.Current = cur, spec.String()
	if spec.Kind == fuzz.SpecSelf {
		c.Escalate, _, _ = sideFor(bo, fuzz.SpecIsolated, nil, popt)
	}
	if c.Settings.Baseline != "" {
		base, spec, err := sideFor(bo, c.Settings.Baseline, c.Settings.Project, popt)
		if err != nil {
			return fmt.Errorf("baseline: %w", err)
		}
		c.Baseline, c.Settings.Baseline = base, spec.String()
	}
	return nil
}

// revisionAsGiven is the revision a rev or repo spec names as the command
// line gave it, before sidesFromSettings resolves it (v1.0, HEAD+dirty),
// for the reports' names of the sides; "" for any other spec.
func revisionAsGiven(desc string) string {
	sp, err := fuzz.ParseSpec(desc)
	if err != nil || (sp.Kind != fuzz.SpecRev && sp.Kind != fuzz.SpecRepo) {
		return ""
	}
	if sp.WorkTree == fuzz.WorkTreeAny {
		return sp.Rev + "+dirty"
	}
	return sp.Rev
}

// revisionBuilt is the revision given as the command line named it
// (revisionAsGiven), said as what was built from the resolved spec
// desc: REV+dirty names REV alone when the working tree had no
// uncommitted changes, so its commit was built.
func revisionBuilt(given, desc string) string {
	rev, ok := strings.CutSuffix(given, "+dirty")
	if !ok {
		return given
	}
	if sp, err := fuzz.ParseSpec(desc); err == nil && sp.WorkTree == "" {
		return rev
	}
	return given
}

// sideFor resolves a recorded spec into its side factory; bo says how a
// revision is built (its context cancels a build), project gives repo
// specs' build and serve commands (nil: their .cfgfuzz.json) and popt
// configures its processes.
func sideFor(bo fuzz.BuildOptions, desc string, project *fuzz.Project, popt fuzz.ProcessOptions) (fuzz.SideFactory, fuzz.Spec, error) {
	spec, err := fuzz.ParseSpec(desc)
	if err != nil {
		return fuzz.SideFactory{}, spec, err
	}
	opt := fuzz.ResolveOptions{Build: bo, Process: popt, HandOn: true}
	if project != nil {
		opt.Project = *project
	}
	return fuzz.Resolve(spec, opt)
}

// baselineSpec is the baseline side's spec from --baseline (a revision,
// a spec or last-good) or --baseline-structurizer; "" none.
func (f *campaignFlags) baselineSpec(stderr io.Writer) (string, error) {
	switch {
	case f.baseline != "" && f.baselineStructurizer != "":
		return "", fmt.Errorf("--baseline and --baseline-structurizer both name the baseline; give one")
	case f.baseline != "":
		rev, err := f.lastGood(f.baseline, stderr)
		if err != nil {
			return "", err
		}
		return f.sideSpec("--baseline", rev)
	case f.baselineStructurizer != "":
		return specString(f.baselineStructurizer)
	}
	return "", nil
}

// currentSpec is the current side's spec: --current, --structurizer,
// --isolate, compare's working tree, else self.
func (f *campaignFlags) currentSpec(stderr io.Writer) (string, error) {
	switch {
	case f.current != "" && f.structurizerCmd != "":
		return "", fmt.Errorf("--current %s and --structurizer %s both name the current side: give one", f.current, f.structurizerCmd)
	case f.current != "":
		return f.sideSpec("--current", f.current)
	case f.structurizerCmd != "":
		return specString(f.structurizerCmd)
	case f.isolate:
		return fuzz.SpecIsolated, nil
	case f.compare:
		return f.workTreeSpec(stderr), nil
	}
	return fuzz.SpecSelf, nil
}

// specString is a structurizer spec checked and written as recorded.
func specString(v string) (string, error) {
	spec, err := fuzz.ParseSpec(v)
	return spec.String(), err
}

// sideSpec reads a --baseline or --current value (flag names which):
// self, isolated or a structurizer spec as it is, else a revision: of
// --repo's repository when given, else of cfgfuzz's own (revisionSpec).
func (f *campaignFlags) sideSpec(flag, v string) (string, error) {
	if f.repo != "" && !isSpec(v) {
		return "repo:" + f.repo + "@" + v, nil
	}
	hint := ""
	if f.compare {
		hint = ", or give --repo DIR"
	}
	return revisionSpec(flag, v, hint)
}

// isSpec reports whether v is written as a structurizer spec rather than
// a bare revision.
func isSpec(v string) bool {
	return v == fuzz.SpecSelf || v == fuzz.SpecIsolated || strings.HasPrefix(v, "rev:") || strings.HasPrefix(v, "cmd:") || strings.HasPrefix(v, "repo:")
}

// revisionSpec is a --baseline value (or flag's) as a spec: a spec as it
// is (checked), a bare revision as rev:REV, a commit of cfgfuzz, which
// needs a git repository of cfgfuzz around the current directory;
// elsewhere the error says how to name a revision of the user's own
// repository (hint adds the command's own way). A value that reads as a
// path to a program (it starts with ./, ../ or /, which no revision does,
// or, outside cfgfuzz's repository, names an existing file) is refused,
// the error saying how to name it as a command.
func revisionSpec(flag, v, hint string) (string, error) {
	if isSpec(v) {
		return specString(v)
	}
	own := fuzz.IsOwnRepo("")
	if looksLikePath(v) || !own && isFile(v) {
		path := v
		if !strings.Contains(path, "/") {
			path = "./" + path // a command's shell searches $PATH for a bare name
		}
		return "", fmt.Errorf("%s %s: a bare revision names a commit of cfgfuzz, but %s reads as a path to a program: for a structurizer command give %s %s", flag, v, v, flag, fuzz.ShellQuote("cmd:"+path))
	}
	if !own {
		wd, _ := os.Getwd()
		return "", fmt.Errorf("revision %q: a bare revision names a commit of cfgfuzz, and %s is not inside a git repository of cfgfuzz; for a revision of your own structurizer's repository give repo:DIR@%s%s", v, wd, v, hint)
	}
	return "rev:" + v, nil
}

// looksLikePath reports whether v starts as a path does (./, ../ or /),
// which no git revision does.
func looksLikePath(v string) bool {
	return strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "/")
}

// isFile reports whether v names an existing regular file.
func isFile(v string) bool {
	fi, err := os.Stat(v)
	return err == nil && fi.Mode().IsRegular()
}

// workTreeSpec is compare's default current side: the working tree of
// --repo's repository, or of the git repository of cfgfuzz around the
// current directory; elsewhere this binary's own structurizer, with a
// note saying so.
func (f *campaignFlags) workTreeSpec(stderr io.Writer) string {
	switch {
	case f.repo != "":
		return "repo:" + f.repo + "@HEAD+" + fuzz.WorkTreeAny
	case fuzz.IsOwnRepo(""):
		return "rev:HEAD+" + fuzz.WorkTreeAny
	}
	fmt.Fprintln(stderr, "cfgfuzz compare: not inside a git repository of cfgfuzz: the current side is the structurizer inside this binary (self); nothing is built")
	return fuzz.SpecSelf
}

// progressUsage is the --progress flag's text, the same on run, compare
// and merge.
const progressUsage = "progress display: auto, bar, plain or none (none: no progress lines, the minimization's and the findings store's included)"

// progressModes are the values of --progress.
var progressModes = []string{"auto", "bar", "plain", "none"}

// progressOutput picks the progress display: a bar when standard error is a
// terminal (auto) or asked for, plain lines otherwise, or none. Under a
// bar, the lines written to stderr (a printable writer) erase the bar's
// frame first (barLine).
func progressOutput(mode string, stderr io.Writer) (io.Writer, bool) {
	raw := rawWriter(stderr) // the bar draws with control characters of its own
	isTerm := false
	if f, ok := raw.(*os.File); ok {
		isTerm = term.IsTerminal(int(f.Fd()))
	}
	switch {
	case mode == "none":
		return nil, false
	case mode == "plain", mode != "bar" && !isTerm:
		return stderr, false
	}
	if p, ok := stderr.(*printableWriter); ok {
		bar := &barLine{w: raw}
		p.underBar(bar)
		return bar, true
	}
	return raw, true
}

// streamsFor is every chosen generator at every chosen weight setting (a
// setting named twice counts once): the streams of one generator take
// turns over its graphs (fuzz.Settings.Place), each graph at one setting.
func streamsFor(kinds, weights, blocks string) ([]fuzz.Stream, error) {
	ks := splitList(kinds)
	if len(ks) == 0 {
		ks = strings.Split(kindList(), ",")
	}
	ws := splitList(weights)
	if len(ws) == 0 {
		ws = strings.Split(weightList(), ",")
	}
	ks, ws = dedupe(ks), dedupe(ws)
	if blocks != "" {
		lo, hi, err := parseRange(blocks)
		if err != nil {
			return nil, fmt.Errorf("--blocks: %w", err)
		}
		if hi > gen.MaxBlocksLimit {
			return nil, fmt.Errorf("--blocks %s: at most %d blocks", blocks, gen.MaxBlocksLimit)
		}
		blocks = fmt.Sprintf("%d-%d", lo, hi)
		if !slices.ContainsFunc(ks, func(k string) bool { return gen.Kind(k) != gen.Exhaustive }) {
			return nil, fmt.Errorf("--blocks does not apply to the exhaustive generator, the only one asked")
		}
	}
	var out []fuzz.Stream
	for _, k := range ks {
		if err := (gen.Config{Kind: gen.Kind(k)}).Validate(); err != nil {
			return nil, err
		}
		for _, w := range ws {
			if _, err := weighting(w); err != nil {
				return nil, err
			}
			st := fuzz.Stream{Kind: k, Weights: w}
			if gen.Kind(k) != gen.Exhaustive {
				st.Blocks = blocks
			}
			out = append(out, st)
		}
	}
	return out, nil
}

// dedupe keeps the first of each name, in order.
func dedupe(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func weighting(name string) (gen.Weighting, error) {
	for _, w := range gen.Weightings() {
		if w.Name() == name {
			return w, nil
		}
	}
	return gen.Weighting{}, fmt.Errorf("unknown weight setting %q (have %s)", name, weightList())
}

// genSource is package gen as the campaign's graph source.
type genSource struct{}

// Item is graph j of a stream's generator at the stream's weights:
// gen.SeedFor's j-th seed of the run; the exhaustive generator walks its
// growing order (gen.GrowingAt), so it goes on to larger graphs instead of
// wrapping around; the random kinds draw some graphs larger than the
// field's 5-9 blocks (gen.CampaignBlocks), and some dead blocks no path
// from the entry reaches (gen.CampaignDead).
func (genSource) Item(s fuzz.Stream, run uint64, j int) (fuzz.Item, error) {
	w, err := weighting(s.Weights)
	if err != nil {
		return fuzz.Item{}, err
	}
	k := gen.Kind(s.Kind)
	seed := gen.SeedFor(k, run, j)
	lo, hi, err := streamBlocks(s, seed)
	if err != nil {
		return fuzz.Item{}, err
	}
	it, err := gen.Generate(gen.Config{Kind: k, MinBlocks: lo, MaxBlocks: hi, Words: w.Words, Heavy: w.Heavy, WordsUpTo: w.UpTo, ExhaustiveGrow: true, Dead: gen.CampaignDead(k, seed)}, seed)
	if err != nil {
		return fuzz.Item{}, err
	}
	return fuzz.Item{Graph: it.Graph, Seed: it.Seed, Program: it.Program}, nil
}

// SeedOf is graph j's own seed (fuzz.SeedSource: a generator panic is
// reported with the seed that replays it).
func (genSource) SeedOf(s fuzz.Stream, run uint64, j int) uint64 {
	return gen.SeedFor(gen.Kind(s.Kind), run, j)
}

// Replay prints the graph in line notation, which keeps its weights.
func (genSource) Replay(s fuzz.Stream, seed uint64) string {
	cmd := fmt.Sprintf("cfgfuzz gen --kind %s --seed %d --count 1 --lines", s.Kind, seed)
	if gen.Kind(s.Kind) == gen.Exhaustive {
		cmd += " --grow"
	}
	if lo, hi, err := streamBlocks(s, seed); err == nil && hi != 0 {
		cmd += fmt.Sprintf(" --blocks %d-%d", lo, hi)
	}
	if dead := gen.CampaignDead(gen.Kind(s.Kind), seed); dead > 0 {
		cmd += fmt.Sprintf(" --dead %d", dead)
	}
	if w, err := weighting(s.Weights); err == nil {
		if w.Words != 0 {
			cmd += fmt.Sprintf(" --words %d", w.Words)
		}
		if w.UpTo != 0 {
			cmd += fmt.Sprintf(" --words-upto %d", w.UpTo)
		}
		if w.Heavy {
			cmd += " --heavy"
		}
	}
	return cmd
}

// streamBlocks is the block range of stream s's graph of the given seed:
// the stream's own (--blocks), else the campaign's mix
// (gen.CampaignBlocks); (0, 0) the generator's default. A stream's range
// that does not read as MIN-MAX (a damaged campaign.json) is an error.
func streamBlocks(s fuzz.Stream, seed uint64) (lo, hi int, err error) {
	if s.Blocks != "" {
		if lo, hi, err = parseRange(s.Blocks); err != nil {
			return 0, 0, fmt.Errorf("stream %s: blocks: %w", s, err)
		}
		return lo, hi, nil
	}
	lo, hi = gen.CampaignBlocks(gen.Kind(s.Kind), seed)
	return lo, hi, nil
}

// runServe is `cfgfuzz structurize`: protocols v1 and v2 with this tree's
// structurizer, the child process of --isolate.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer, _ *fuzz.BuildStop) int {
	fs := flag.NewFlagSet("structurize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	form := fs.String("form", "func", "what an ok response carries: module or func")
	inject := fs.String("inject", "", "faults planted in every answer, whatever the request asks (a structurizer with a bug of its own): "+strings.Join(structurizer.FaultNames(), ", "))
	listFaults := fs.Bool("list-faults", false, listFaultsUsage)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz structurize [--form func|module] [--inject FAULT,...]")
		fmt.Fprintln(fs.Output(), "\nServe fuzz/PROTOCOL.md (versions 1 and 2) on standard input and output with this tree's structurizer:")
		fmt.Fprintln(fs.Output(), "one request line in, one answer line out, until end of input. It is the child process of --isolate")
		fmt.Fprintln(fs.Output(), "and a reference server for adapters (cfgfuzz selftest --structurizer 'cfgfuzz structurize').")
		fmt.Fprintln(fs.Output(), "Exit status: 0 end of input, 2 usage or a broken stream.\n\nflags:")
		fs.PrintDefaults()
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "cfgfuzz structurize: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	if *listFaults {
		printFaults(stdout)
		return exitOK
	}
	if *form != "module" && *form != "func" {
		fmt.Fprintf(stderr, "cfgfuzz structurize: --form %q: want module or func\n", *form)
		return exitUsage
	}
	faults := splitList(*inject)
	if err := validateOptions("", faults); err != nil {
		fmt.Fprintln(stderr, "cfgfuzz structurize:", err)
		return exitUsage
	}
	if err := proto.ServeDeclared(stdin, stdout, proto.WithFaults(proto.Local(*form == "module"), faults), proto.LocalDeclare); err != nil {
		fmt.Fprintln(stderr, "cfgfuzz structurize:", err)
		return exitUsage
	}
	return exitOK
}
