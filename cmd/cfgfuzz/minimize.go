// minimize.go: `cfgfuzz minimize GRAPH-FILE`: shrink a failing graph while
// it keeps failing with the same signature (corpus.Minimize: a pipeline of
// ddmin stages, after syzkaller's pkg/repro and Zeller and Hildebrandt
// 2002) on the structurizer under test (--structurizer SPEC: every
// candidate goes through its fuzz.Side, as in a campaign), print or write
// the result, optionally save it as a regression file and store every
// finding (the original and any other signature met on the way, with the
// structurizer's own module, verdicts, stats and answer) in a findings
// store.

package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func init() {
	register(command{name: "minimize", summary: "shrink a failing graph to the fewest blocks that fail the same way", run: runMinimize})
}

type minimizeFlags struct {
	signature, baseline, inject, strategy, out, save, regressions, store, checks, origin string
	structurizer, expect, gpuDevice                                                      string
	proc                                                                                 processFlags
	project                                                                              projectFlags
	index, maxSteps, walks, registers                                                    int
	seed                                                                                 uint64
	searchTimeout, callTimeout                                                           time.Duration
	verbose, listFaults                                                                  bool
	judge                                                                                judgeFlags
	set                                                                                  map[string]bool // flags given
}

func (mf *minimizeFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&mf.signature, "signature", "", "the signature to keep (default: the graph's own failure)")
	fs.StringVar(&mf.baseline, "baseline", "", "the baseline, which must pass every candidate (the failure must be new; a candidate it refuses or does not serve is taken only when it declines the graph too): a git revision `REV` of cfgfuzz, or a structurizer spec (repo:DIR@REV for a revision of your own repository, cmd:CMD, ...), built once into the cache as a campaign's baseline is")
	fs.StringVar(&mf.inject, "inject", "", "comma-separated faults to plant: "+strings.Join(structurizer.FaultNames(), ", "))
	fs.BoolVar(&mf.listFaults, "list-faults", false, listFaultsUsage)
	fs.StringVar(&mf.strategy, "strategy", "", "structurizer strategy: "+strings.Join(structurizer.Strategies(), ", ")+" (default "+structurizer.DefaultStrategy+")")
	fs.StringVar(&mf.out, "out", "", "write the minimized graph (line notation, header comments) to this file instead of standard output (there after all when the file cannot be written)")
	fs.StringVar(&mf.structurizer, "structurizer", fuzz.SpecSelf, "the structurizer under test: self, isolated, rev:REV, cmd:CMD (a program speaking fuzz/PROTOCOL.md) or repo:DIR@REV")
	mf.proc.define(fs)
	mf.project.define(fs)
	fs.DurationVar(&mf.callTimeout, "timeout", fuzz.DefaultTimeout, "per-graph limit on each structurizer call, as check's --timeout (a candidate past it fails structurize:timeout)")
	fs.Var(renamedFlag{"graph-timeout", "timeout", "the limit on each structurizer call, as check's --timeout"}, "graph-timeout", "renamed: use --timeout")
	fs.StringVar(&mf.save, "save-regression", "", "also save the result as NAME.cfg in the regression directory (--regressions)")
	fs.StringVar(&mf.regressions, "regressions", "", "the regression directory (default: "+defaultRegressionsName+" in the working directory; corpus/testdata/regressions inside a cfgfuzz checkout)")
	fs.StringVar(&mf.expect, "expect", corpus.ExpectPass, "what replaying the saved regression must give: pass (the bug is to be fixed) or fail (it must keep failing with the signature)")
	fs.StringVar(&mf.store, "store", "", "a findings store directory: the finding and every other signature met are added to DIR/findings")
	fs.StringVar(&mf.checks, "checks", "", "comma-separated oracle checks, as for check (default: all of "+strings.Join(oracle.DefaultChecks, ",")+"); +NAME adds to the defaults (+gpu the driver check), -NAME removes")
	fs.StringVar(&mf.origin, "origin", "", "where the graph came from, for the header and the store (default: the file and position)")
	fs.IntVar(&mf.walks, "walks", 16, "random walks per graph on top of the edge-covering ones (as for check)")
	fs.IntVar(&mf.registers, "registers", 0, "judge under a register file of `N` values, as check (default: what the file's header records, else none)")
	fs.StringVar(&mf.gpuDevice, "gpu-device", "", "Vulkan device of the gpu check, as check: cpu (lavapipe, the default), gpu, any")
	mf.judge.define(fs)
	fs.Uint64Var(&mf.seed, "seed", 1, "seed of the random walks (as for check; default: what the file's header records, else 1)")
	fs.IntVar(&mf.index, "index", 0, "which graph of the file to minimize (from 0)")
	fs.IntVar(&mf.maxSteps, "max-steps", corpus.DefaultMaxSteps, "bound on the search's judgements (0 or negative: none); a campaign's --minimize-steps, whose default is lower")
	fs.DurationVar(&mf.searchTimeout, "search-timeout", corpus.DefaultTimeout, "bound on the search between the first judgement of the graph and the final one, which run whole (their structurizer calls within --timeout); 0: none, the search runs to its fixpoint; a campaign's --minimize-timeout, whose default is shorter: a finding the campaign cut (minimize_stopped) may shrink further here")
	fs.BoolVar(&mf.verbose, "v", false, "log every accepted reduction (without it, a progress line every 5 s)")
}

func runMinimize(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	fs := flag.NewFlagSet("minimize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var mf minimizeFlags
	mf.define(fs)
	mf.proc.stop = builds
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz minimize [flags] GRAPH-FILE [flags]")
		fmt.Fprintln(fs.Output(), "\nShrink the graph while it fails with the same signature (the original failure's, or --signature)")
		fmt.Fprintln(fs.Output(), "on the structurizer under test (--structurizer: this tree's, or e.g. 'cmd:./my-adapter');")
		fmt.Fprintln(fs.Output(), "other signatures met on the way are reported (and stored with --store), never adopted.")
		fmt.Fprintln(fs.Output(), "Exit status: 0 minimized and verified (the graph and the result each failed with the signature in all 3 judgements),")
		fmt.Fprintln(fs.Output(), "1 the result did not verify in every judgement, or the graph's judgements disagreed (flaky), or the baseline fails")
		fmt.Fprintln(fs.Output(), "the result: the result is written, no regression saved; 2 usage or input error (including a graph that does")
		fmt.Fprintln(fs.Output(), "not fail with the signature asked for in any judgement).\n\nflags:")
		fs.PrintDefaults()
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if mf.listFaults {
		printFaults(stdout)
		return exitOK
	}
	pos := fs.Args()
	if len(pos) != 1 {
		fs.Usage()
		fmt.Fprintf(stderr, "cfgfuzz minimize: want one GRAPH-FILE (- for standard input), got %d %s\n", len(pos), strings.Join(pos, " "))
		return exitUsage
	}
	if err := mf.judge.validate(); err != nil {
		fmt.Fprintln(stderr, flagError(fs.Name(), err))
		return exitUsage
	}
	specs := []string{mf.structurizer}
	if mf.baseline != "" {
		specs = append(specs, mf.baseline)
	}
	if err := mf.project.needRepo(specs...); err != nil {
		fmt.Fprintln(stderr, flagError(fs.Name(), err))
		return exitUsage
	}
	if err := mf.checkOutputs(); err != nil {
		fmt.Fprintln(stderr, "cfgfuzz minimize:", err)
		return exitUsage
	}
	mf.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { mf.set[f.Name] = true })
	if mf.set["timeout"] && !mf.set["search-timeout"] {
		fmt.Fprintf(stderr, "minimize: note: --timeout %v limits each structurizer call, as check's --timeout does; the search's own limit is --search-timeout (%v)\n", mf.callTimeout, mf.searchTimeout)
	}
	code, err := minimizeFile(pos[0], mf, stdin, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz minimize:", err)
	}
	return code
}

func minimizeFile(path string, mf minimizeFlags, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	it, data, err := mf.pickGraph(path, stdin, stderr)
	if err != nil {
		return exitUsage, err
	}
	if err := mf.adoptRecorded(path, data, stderr); err != nil {
		return exitUsage, err
	}
	if err := gpuDeviceFlag("minimize", mf.gpuDevice, slices.Contains(mf.judge.checks(mf.checks), gpu.CheckName), stderr); err != nil {
		return exitUsage, err
	}
	// From here a stop signal is minimize's own: a revision being built
	// for the structurizer or the baseline is stopped with the search.
	in := onStopSignals("minimize", minimizeStop, stderr, mf.proc.stop)
	defer in.stop()
	popt := proto.Options{Strategy: mf.strategy, Inject: splitList(mf.inject), Registers: mf.registers}
	var spec fuzz.Spec
	var opener *sideOpener // resolved once: every judgement's process is of one build
	open := func() (*corpus.Runner, fuzz.Side, error) {
		if opener == nil {
			o, err := resolveSide(mf.proc.builds(in.ctx, stderr), mf.structurizer, mf.project.project(), mf.proc.options())
			if err != nil {
				return nil, nil, err
			}
			opener, spec = o, o.spec
		}
		side, err := opener.open()
		if err != nil {
			return nil, nil, err
		}
		return mf.runnerOn(side, popt)
	}
	judge, err := newBoundedJudge(mf.judge.checkTimeout, mf.signature, open, (*corpus.Runner).PredicateFor)
	if err != nil {
		if note := unresolvedProjectNote(minimizeInputName(path), data, mf.structurizer, mf.project.project()); note != "" && opener == nil {
			err = fmt.Errorf("%w; note: %s", err, note)
		}
		return in.or(exitUsage), err
	}
	defer func() { judge.close() }()
	opt, err := mf.options(in.ctx, stderr)
	if err != nil {
		return in.or(exitUsage), err
	}
	var progress *minimizeProgress
	if !mf.verbose {
		progress = startMinimizeProgress(stderr, "minimize: ", minimizeProgressEvery, corpus.SizeOf(it.Graph))
		defer progress.end()
		stderr, opt.Progress = progress.writer(), progress.update
	}
	tag := findingTag{spec: spec, opt: popt, walks: mf.walks, seed: mf.seed, checks: mf.replayChecks(), limit: mf.callTimeout, gpuDevice: mf.gpuDevice, judge: mf.judge, project: mf.project.recorded()}
	var store *corpus.Store
	if mf.store != "" {
		store = &corpus.Store{Dir: mf.store}
		opt.OnOther = storeOther(store, judge.runner, tag, mf.judged(), "met while minimizing "+path, stderr)
	}
	opt.Context = in.ctx
	opt.Fresh, opt.Replay = judge.fresh(), judge.replay()
	res, err := corpus.Minimize(it.Graph, judge.predicate(), opt)
	recorded := mf.recordedNote(path, data, spec)
	if err != nil {
		if recorded != "" && errors.Is(err, corpus.ErrNotFailing) {
			err = fmt.Errorf("%w; %s", err, recorded)
		}
		return in.or(exitUsage), err // the graph does not fail as asked, or cannot be judged
	}
	if progress != nil {
		progress.end()
	}
	report(res, stderr)
	if recorded != "" {
		fmt.Fprintf(stderr, "minimize: note: %s; this search judged it under the flags given, which the result's header records (and a saved regression's: regress replays it so)\n", recorded)
	}
	h := mf.resultHeader(res.Signature, popt, spec, path, it)
	written, saved := mf.savedHeaders(h, path, it)
	if err := writeResult(res.Graph, written, mf.out, stdout); err != nil {
		return exitUsage, err
	}
	if res.Stopped == corpus.StoppedByInterruption {
		fmt.Fprintln(stderr, "minimize: interrupted: the smallest graph accepted so far is written; it was not judged again, and no regression or store entry is saved")
		return in.or(exitFail), nil
	}
	if err := saveOutputs(it.Graph, res, h, saved, mf, judge.runner(), tag, store, stderr); err != nil {
		return exitUsage, err
	}
	if err := unreliable(res); err != nil {
		return exitFail, err
	}
	return exitOK, nil
}

// pickGraph reads the graph --index picks of the file at path (- standard
// input), and the file's bytes (nil for standard input), noting on
// stderr which graph when the file holds several and --index was not
// given; an error for an index out of range or an --expect that is
// neither pass nor fail.
func (mf minimizeFlags) pickGraph(path string, stdin io.Reader, stderr io.Writer) (sourced, []byte, error) {
	items, datas, err := readInputs([]string{path}, stdin)
	if err != nil {
		return sourced{}, nil, err
	}
	if mf.index < 0 || mf.index >= len(items) {
		return sourced{}, nil, fmt.Errorf("%s holds %d graphs; --index %d is out of range", path, len(items), mf.index)
	}
	if len(items) > 1 && !mf.set["index"] {
		fmt.Fprintf(stderr, "minimize: note: %s holds %d graphs; minimizing the first (--index N picks another)\n", minimizeInputName(path), len(items))
	}
	if mf.expect != corpus.ExpectPass && mf.expect != corpus.ExpectFail {
		return sourced{}, nil, fmt.Errorf("--expect %q: want %s or %s", mf.expect, corpus.ExpectPass, corpus.ExpectFail)
	}
	noteEntryNames(stderr, "minimize: ", items[mf.index:mf.index+1], datas)
	return items[mf.index], datas[0], nil
}

// resultHeader is the header of minimize's result for signature, found
// in graph it of the file at path: the judging of the flags (popt's
// faults, strategy and register file among them) on the structurizer
// spec.
func (mf minimizeFlags) resultHeader(signature string, popt proto.Options, spec fuzz.Spec, path string, it sourced) corpus.Header {
	j := mf.judged()
	build, serve := headerProject(spec, mf.project.recorded())
	return corpus.Header{Signature: signature, Fault: strings.Join(popt.Inject, ","), Strategy: popt.Strategy, Registers: popt.Registers,
		TargetEnv: mf.judge.targetEnv, RulesCompat: mf.judge.rulesCompat, Walks: j.Walks, Checks: j.Checks,
		Timeout: j.Timeout, CheckTimeout: j.CheckTimeout, GrowthTime: j.GrowthTime,
		Structurizer: specField(spec), Build: build, Serve: serve, Expect: mf.expect,
		Origin: minimizeOrigin(mf.origin, path, it, nil), Date: time.Now().UTC().Format("2006-01-02")}
}

// recordedNote is recordedMismatch of the file at path, whose bytes as
// read are data, against the judging of the flags, spec the structurizer
// resolved: "" where they agree.
func (mf minimizeFlags) recordedNote(path string, data []byte, spec fuzz.Spec) string {
	return recordedMismatch(minimizeInputName(path), data, mf.used(spec))
}

// minimizeInputName is the name minimize gives the input path in its
// notes: path, or "standard input" for "-".
func minimizeInputName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// used is the judging of the flags on the structurizer spec.
func (mf minimizeFlags) used(spec fuzz.Spec) usedJudging {
	return usedJudging{spec: spec, registers: mf.registers, strategy: mf.strategy, walks: corpus.Walks{Random: mf.walks, Seed: mf.seed},
		checks: mf.checks, timeout: mf.callTimeout, judge: mf.judge, inject: mf.inject, plants: true, project: mf.project.project()}
}

// judged is how minimize judges, as the header of its result, its
// regression file and its store entries record it.
func (mf minimizeFlags) judged() corpus.Judged {
	return corpus.Judged{Walks: corpus.WalksOf(mf.walks, mf.seed), Checks: corpus.PinChecks(mf.replayChecks()),
		Timeout: unlessDefault(mf.callTimeout, fuzz.DefaultTimeout), CheckTimeout: unlessDefault(mf.judge.checkTimeout, fuzz.DefaultCheckTimeout),
		GrowthTime: unlessDefault(mf.judge.growthTime, fuzz.DefaultGrowthTime)}
}

// minimizeOrigin is the header's origin of the graph at it in file path:
// the file from its root's placeholder when roots is given and it lies
// there (portable.go), else as given; --origin's text first.
func minimizeOrigin(given, path string, it sourced, roots *fileRoots) string {
	if roots != nil {
		if abs, err := filepath.Abs(path); err == nil && path != "-" {
			if p := roots.rooted(abs); p != abs {
				path = p
			}
		}
	}
	origin := fmt.Sprintf("cfgfuzz minimize %s:%d:%d", path, it.Line, it.Col)
	if given != "" {
		origin = given + "; " + origin
	}
	return origin
}

// savedHeaders are h as the files minimize writes record it, each with
// the paths that lie where that file lies written from their placeholders
// (portable.go): out for --out (or, without it, standard output, shown as
// the regression file records it), reg for the regression file
// (--save-regression, its checks as regressionChecks gives them); h
// itself where there is no such file.
func (mf minimizeFlags) savedHeaders(h corpus.Header, path string, it sourced) (out, reg corpus.Header) {
	regDir := ""
	if mf.save != "" {
		if d, err := regressionDir(mf.regressions); err == nil {
			regDir = d // else saveOutputs reports it
		}
	}
	outDir := regDir
	if mf.out != "" {
		outDir = filepath.Dir(mf.out)
	}
	reg = mf.headerIn(h, path, it, regDir)
	if mf.save != "" {
		reg.Checks = regressionChecks(reg.Checks)
	}
	return mf.headerIn(h, path, it, outDir), reg
}

// headerIn is h as a file in dir records it; h itself for dir "".
func (mf minimizeFlags) headerIn(h corpus.Header, path string, it sourced, dir string) corpus.Header {
	if dir == "" {
		return h
	}
	r, err := rootsOf(dir)
	if err != nil {
		return h
	}
	h.Structurizer = r.portableSpec(h.Structurizer)
	r.portableProject(&h)
	h.Origin = minimizeOrigin(mf.origin, path, it, &r)
	return h
}

// unreliable is the error of a result that did not fail with its
// signature in every judgement of the original graph and of the result,
// that the baseline fails, or some judgement of which could not be made;
// nil for one that did and it passes. Only judgements that disagree are
// called flaky: one not made says nothing of the structurizer's answers.
func unreliable(res *corpus.Result) error {
	switch {
	case res.BaselineFails != "":
		return fmt.Errorf("the baseline fails the result too (%s): not a new failure; no regression saved", res.BaselineFails)
	case res.Original.Mixed() || res.Confirmed.Failed < res.Confirmed.Judged:
		return fmt.Errorf("flaky: the graph failed with %s in %v judgements, the result in %v (each after the first on a structurizer of its own); "+
			"the structurizer's answers depend on chance, or on the requests before them, so the result is written but no regression is saved", res.Signature, res.Original, res.Confirmed)
	case res.RejudgeErr != nil:
		return fmt.Errorf("could not judge the result again (%v): it failed with %s in %v judgements made; the result is written but no regression is saved", res.RejudgeErr, res.Signature, res.Confirmed)
	case !res.Verified:
		return errors.New("the baseline could not judge the result again: the result is written but no regression is saved")
	}
	return nil
}

// renamedFlag is a flag that was renamed: setting it is an error naming
// the new flag, never a value read with another meaning.
type renamedFlag struct{ old, now, what string }

func (r renamedFlag) String() string { return "" }

func (r renamedFlag) Set(string) error {
	return fmt.Errorf("--%s is now --%s (%s)", r.old, r.now, r.what)
}

// specField is a spec as regression headers and store entries record it:
// "" for this binary's own in-process structurizer.
func specField(s fuzz.Spec) string {
	if s.Kind == "" || s.Kind == fuzz.SpecSelf {
		return ""
	}
	return s.String()
}

// findingTag is what a stored finding records of how it was judged: the
// structurizer, its options and the oracle's settings, from which its
// replay command is made (fuzz.CheckCommand).
type findingTag struct {
	spec      fuzz.Spec
	opt       proto.Options
	walks     int
	seed      uint64
	checks    string
	limit     time.Duration
	gpuDevice string
	judge     judgeFlags // check limit, target environment, rules reading
	// project is the --build and --serve of a repo spec; nil none.
	project *fuzz.Project
}

// replay is the command that judges file again as the finding of
// signature was judged.
func (t findingTag) replay(file, signature string) string {
	s := fuzz.Settings{Current: t.spec.String(), Strategy: t.opt.Strategy, Inject: t.opt.Inject, Walks: t.walks, Seed: t.seed,
		Checks: splitList(corpus.PinChecks(t.checks)), Timeout: fuzz.Duration(t.limit), Registers: t.opt.Registers, GPUDevice: t.gpuDevice, Project: t.project}
	t.judge.settings(&s)
	return fuzz.CheckCommand(&s, signature) + " " + file
}

// replayer is replay of file as a function of the finding's signature.
func (t findingTag) replayer(file string) func(string) string {
	return func(signature string) string { return t.replay(file, signature) }
}

// runnerOn is a runner judging through side under the flags, with side;
// side is closed when no runner can be made.
func (mf minimizeFlags) runnerOn(side fuzz.Side, popt proto.Options) (*corpus.Runner, fuzz.Side, error) {
	ropt := mf.runnerOptions()
	ropt.Structurize = fuzz.SideStructurizer(side, popt, mf.callTimeout)
	run, err := corpus.NewRunner(ropt)
	if err != nil {
		side.Close()
		return nil, nil, err
	}
	return run, side, nil
}

// runnerOptions are the oracle's settings from the flags: the checks
// (resolved as check resolves them, --allow-fallbacks included, check's
// defaults when none are given, so the result is judged as its replay
// command judges it), the walks, the register file, the gpu check's
// device, spirv-val's target environment, the rules check's reading and
// the growth check's time limit.
func (mf minimizeFlags) runnerOptions() corpus.RunnerOptions {
	ro := corpus.RunnerOptions{Oracle: corpus.CampaignOracle(corpus.Judging{Walks: mf.walks, Seed: mf.seed, Registers: mf.registers, GPUDevice: mf.gpuDevice,
		TargetEnv: mf.judge.targetEnv, RulesCompat: mf.judge.rulesCompat, GrowthTime: mf.judge.growthTime})}
	ro.Oracle.GPUTimeout = mf.judge.checkTimeout // a driver's run ends with the judgement the limit abandons
	ro.Checks = mf.judge.checks(mf.checks)
	if ro.Checks == nil {
		ro.Checks = oracle.ResolveChecks("")
	}
	return ro
}

// replayChecks is --checks as a replay command gives it: with
// --allow-fallbacks, the fallback check left out.
func (mf minimizeFlags) replayChecks() string {
	if mf.judge.allowFallbacks {
		return strings.TrimPrefix(mf.checks+",-fallback", ",")
	}
	return mf.checks
}

// options turns the flags into corpus.Options.
func (mf minimizeFlags) options(ctx context.Context, stderr io.Writer) (corpus.Options, error) {
	opt := corpus.Options{Signature: mf.signature, MaxSteps: mf.maxSteps, Timeout: mf.searchTimeout}
	if mf.maxSteps == 0 {
		opt.MaxSteps = -1
	}
	if mf.searchTimeout == 0 {
		opt.Timeout = -1
	}
	if mf.verbose {
		opt.Log = func(format string, args ...any) { fmt.Fprintf(stderr, "minimize: "+format+"\n", args...) }
	}
	if mf.baseline != "" {
		base, err := baselinePredicate(ctx, mf.baseline, mf, stderr)
		if err != nil {
			return opt, err
		}
		opt.Baseline = base
	}
	return opt, nil
}

// minimizeStop is what minimize's stop lines say.
var minimizeStop = stopWords{
	first:  "a build in progress is stopped; once the search has begun, the judgement in flight finishes and the smallest graph accepted so far is written; a second signal ends at once",
	second: "killing the structurizer servers and ending now (nothing is written)",
}

// minimizeProgressEvery is how often minimize without -v says where its
// search stands.
const minimizeProgressEvery = 5 * time.Second

// minimizeProgress writes a line to its writer every interval while the
// search runs: the time so far, the judgements and the current graph's
// size, as corpus.Options.Progress last reported them (before the first
// judgement of a candidate: that the graph itself is being judged, and its
// size; while the findings store judges a minimized finding, which of
// its judgements runs: storing). Its own ticker writes the
// line, so a judgement that outlasts the interval (a large graph through a
// slow structurizer, whose meta and growth checks call it again) does not
// silence it.
type minimizeProgress struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string // what each line opens with: "minimize: "
	start  time.Time
	steps  int
	cur    corpus.Size
	// stored and stores: the findings store's judgement running, stored
	// of stores (corpus.HookOptions.Storing); stores 0 for a search.
	stored, stores int
	stop           chan struct{}
	done           chan struct{}
}

// startMinimizeProgress starts the ticker, its lines opening with prefix;
// stop ends it.
func startMinimizeProgress(w io.Writer, prefix string, every time.Duration, size corpus.Size) *minimizeProgress {
	p := &minimizeProgress{w: w, prefix: prefix, start: time.Now(), cur: size, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case now := <-t.C:
				p.mu.Lock()
				size := fuzz.Plural(p.cur.Blocks, "block") + ", " + fuzz.Plural(p.cur.Edges, "edge")
				where := fuzz.Plural(p.steps, "judgement") + ", now " + size
				switch {
				case p.stores > 0:
					where = fmt.Sprintf("judging %s (%s) once more for the findings store, %d of %d", storeGraphs[min(p.stored, 2)-1], size, p.stored, p.stores)
				case p.steps == 0: // the graph is judged as it is (three times) before any candidate
					where = "judging the graph itself (" + size + ") before the search"
				}
				fmt.Fprintf(p.w, "%s%s, %s\n", p.prefix, now.Sub(p.start).Round(time.Second), where)
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// update is corpus.Options.Progress: the judgements so far and the
// current graph's size.
func (p *minimizeProgress) update(steps int, cur corpus.Size) {
	p.mu.Lock()
	p.steps, p.cur = steps, cur
	p.mu.Unlock()
}

// storeGraphs names the graphs the findings store judges, in its order.
var storeGraphs = [2]string{"the graph found", "its minimized graph"}

// storing is corpus.HookOptions.Storing: the findings store's judgement i
// of n runs, of a graph of the size given.
func (p *minimizeProgress) storing(i, n int, size corpus.Size) {
	p.mu.Lock()
	p.stored, p.stores, p.cur = i, n, size
	p.mu.Unlock()
}

// writer is w with its writes and the ticker's lines kept apart.
func (p *minimizeProgress) writer() io.Writer { return lockedWriter{&p.mu, p.w} }

// end stops the ticker; no line is written after it returns.
func (p *minimizeProgress) end() {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	<-p.done
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// baselinePredicate judges each candidate on the baseline: a structurizer
// spec, or a bare revision of cfgfuzz (revisionSpec), built once into the
// cache as a campaign's baseline is (the build stopped when ctx is done)
// and served through protocol v1; a refusal and a graph it does not
// serve are declines (corpus.Runner.BaselinePredicate).
func baselinePredicate(ctx context.Context, rev string, mf minimizeFlags, stderr io.Writer) (corpus.Predicate, error) {
	spec, err := revisionSpec("--baseline", rev, "")
	if err != nil {
		return nil, err
	}
	f, _, err := sideFor(mf.proc.builds(ctx, stderr), spec, mf.project.recorded(), mf.proc.options())
	if err != nil {
		return nil, fmt.Errorf("the baseline %s: %w", rev, err)
	}
	popt := proto.Options{Strategy: mf.strategy, Registers: mf.registers}
	open := func() (*corpus.Runner, fuzz.Side, error) {
		side, err := f.New()
		if err != nil {
			return nil, nil, err
		}
		return mf.runnerOn(side, popt)
	}
	judge, err := newBoundedJudge(mf.judge.checkTimeout, "", open, func(r *corpus.Runner, _ string) corpus.Predicate { return r.BaselinePredicate() })
	if err != nil {
		return nil, err
	}
	return judge.predicate(), nil
}

// sidePredicate judges candidates on a campaign side (a protocol process
// or the in-process structurizer) through corpus.Runner with the side as
// its seam (fuzz.SideStructurizer): the answer read and checked as the
// campaign's workers read and check it, so signatures agree with the
// campaign's.
func sidePredicate(f fuzz.SideFactory, opt proto.Options, ropt corpus.RunnerOptions, limit time.Duration) (corpus.Predicate, error) {
	return trackedPredicate(nil, f, opt, ropt, limit)
}

// openSides are the sides a command opens for its own use (the campaign
// minimizer's), closed when the command is done with them; a nil list
// tracks nothing (a one-shot command, whose servers end with it).
type openSides []fuzz.Side

// open makes a side of f and keeps it for close.
func (o *openSides) open(f fuzz.SideFactory) (fuzz.Side, error) {
	s, err := f.New()
	if err == nil && o != nil {
		*o = append(*o, s)
	}
	return s, err
}

// openLazily is a side of f made on its first request (lazySide), kept
// for close: a campaign's minimizer opens its sides so, and starts no
// structurizer before its first finding.
func (o *openSides) openLazily(f fuzz.SideFactory) fuzz.Side {
	s := &lazySide{f: f}
	if o != nil {
		*o = append(*o, s)
	}
	return s
}

// lazySide is a side of f made (f.New) when it is first asked to
// structurize: until then no server of f runs for it, and a server the
// preflight handed on (fuzz.ResolveOptions.HandOn) goes to the first side
// that serves, a campaign's worker. A side f cannot make answers the
// request with a harness error (NotStarted) saying why, as a server that
// does not start does; the next request tries again.
type lazySide struct {
	f    fuzz.SideFactory
	side fuzz.Side // nil: not made yet
}

func (l *lazySide) Structurize(g *cfg.Graph, opt proto.Options, limit time.Duration) fuzz.Answer {
	if l.side == nil {
		s, err := l.f.New()
		if err != nil {
			return fuzz.Answer{Outcome: proto.Error, Reason: "start " + l.f.Describe + ": " + err.Error(), NotStarted: true}
		}
		l.side = s
	}
	return l.side.Structurize(g, opt, limit)
}

// Close closes the side if it was made.
func (l *lazySide) Close() error {
	if l.side == nil {
		return nil
	}
	return l.side.Close()
}

// close closes every side opened.
func (o *openSides) close() {
	for _, s := range *o {
		s.Close()
	}
	*o = nil
}

// trackedPredicate is sidePredicate with the side kept in sides.
func trackedPredicate(sides *openSides, f fuzz.SideFactory, opt proto.Options, ropt corpus.RunnerOptions, limit time.Duration) (corpus.Predicate, error) {
	run, err := sideRunner(sides, f, opt, ropt, limit)
	if err != nil {
		return nil, err
	}
	return run.Predicate(), nil
}

// sideRunner is a corpus.Runner judging through a new side of f.
func sideRunner(sides *openSides, f fuzz.SideFactory, opt proto.Options, ropt corpus.RunnerOptions, limit time.Duration) (*corpus.Runner, error) {
	side, err := sides.open(f)
	if err != nil {
		return nil, err
	}
	ropt.Structurize = fuzz.SideStructurizer(side, opt, limit)
	return corpus.NewRunner(ropt)
}

// freshPredicate is, for a signature, a predicate that judges each graph
// on a new side of f, closed after it (corpus.HookOptions.Fresh): the
// minimizer's rejudgements of a finding see a structurizer process that
// served nothing before, and judge as a replay command does (the
// runner's Predicate: a timeout finding's search predicate is laxer).
func freshPredicate(f fuzz.SideFactory, opt proto.Options, ropt corpus.RunnerOptions, limit time.Duration) func(string) corpus.Predicate {
	return func(sig string) corpus.Predicate {
		return func(g *cfg.Graph) (string, error) {
			side, err := f.New()
			if err != nil {
				return "", err
			}
			defer side.Close()
			ro := ropt
			ro.Structurize = fuzz.SideStructurizer(side, opt, limit)
			run, err := corpus.NewRunner(ro)
			if err != nil {
				return "", err
			}
			return run.Predicate()(g)
		}
	}
}

// minimizeBudget is the limits of a campaign's search for each finding's
// minimized graph (run, compare and merge: --minimize-timeout,
// --minimize-steps) and of all its minimization (--minimize-budget); 0
// means none.
type minimizeBudget struct {
	timeout time.Duration
	steps   int
	total   time.Duration
}

// Defaults of a campaign's minimizeBudget.
const (
	DefaultMinimizeTimeout = 30 * time.Second
	DefaultMinimizeSteps   = 5000
)

// define declares the budget's flags on fs.
func (b *minimizeBudget) define(fs *flag.FlagSet) {
	fs.DurationVar(&b.timeout, "minimize-timeout", DefaultMinimizeTimeout, "time limit (`DURATION`) on the search for each new finding's minimized graph; 0: none, the search runs to its fixpoint. A finding's minimization runs past it by up to 9 judgements, each up to 4 structurizer calls (the graph's and the meta check's 3 re-runs) of up to the structurizer's --timeout on a structurizer that hangs, and a new process's start-up for those judged on a structurizer of their own: the candidate being judged when it runs out is judged to its end, and the 3 judgements of the graph before the search, the 3 of its result after it and the findings store's 2 are not counted (with a baseline, its judgement of the graph and of the result too; for a timeout finding whose search ends on a graph answered within --timeout, the judgements that find the graph on its path a replay times out, about log2 of the graphs it accepted); the minimize line on standard error gives the search's time and theirs apart, and --minimize-budget caps all of it, judgements included. A result a time limit cut depends on the machine's speed, and the report marks it (minimize_stopped); on a slow structurizer raise it, or shrink the finding further with cfgfuzz minimize (its --search-timeout, 5m by default)")
	fs.IntVar(&b.steps, "minimize-steps", DefaultMinimizeSteps, "limit (`N`) on the structurizer judgements of each finding's minimization; 0: none. A result a limit cut is marked in the report (minimize_stopped); cfgfuzz minimize --max-steps goes on from it")
	fs.DurationVar(&b.total, "minimize-budget", 0, "limit on the time all of the campaign's minimization takes, judgements included: each search ends by it too; past it the result's judgements and the findings store's are skipped (the result's reproduction is then unknown), and the remaining new signatures are kept unminimized, not judged again (the report marks both, minimize_skipped, and says how many). The judgements that run when it runs out (the finding's graph's 3 before its search, the candidate in flight) go to their end, so the campaign can pass it by those; 0: no limit")
}

// resumeFlags is how a resume command asks for minimize and these
// limits: --minimize=false, else each limit flag not at its default. A
// campaign's settings do not record them (a resume may change them), so
// the resume command an interrupted report prints repeats them; the
// resume spends the whole budget, as it redoes all of the minimization
// (an interrupted run keeps none of it).
func (b minimizeBudget) resumeFlags(minimize bool) string {
	if !minimize {
		return " --minimize=false"
	}
	var f string
	if b.timeout != DefaultMinimizeTimeout {
		f += " --minimize-timeout " + b.timeout.String()
	}
	if b.steps != DefaultMinimizeSteps {
		f += fmt.Sprintf(" --minimize-steps %d", b.steps)
	}
	if b.total != 0 {
		f += " --minimize-budget " + b.total.String()
	}
	return f
}

// budgetClock is a campaign's --minimize-budget: the minimization time
// spent so far against the budget.
type budgetClock struct {
	budget, spent time.Duration
}

// remaining is the budget's time left, 0 when spent.
func (b *budgetClock) remaining() time.Duration { return max(b.budget-b.spent, 0) }

// wrap is m, minimizing each finding only while the budget is not
// spent and counting the time it takes; a finding past it is not
// minimized (*fuzz.BudgetSpent, said on log). With no budget it is m
// itself.
func (b *budgetClock) wrap(m fuzz.Minimizer, log io.Writer) fuzz.Minimizer {
	if b.budget <= 0 {
		return m
	}
	return func(g *cfg.Graph, sig, strategy string, baseline corpus.BaselineAnswer) (*cfg.Graph, error) {
		if b.remaining() == 0 {
			err := &fuzz.BudgetSpent{Budget: b.budget}
			fmt.Fprintf(log, "minimize %s: %v\n", fuzz.PrintableLine(sig), err)
			return nil, err
		}
		start := time.Now()
		defer func() { b.spent += time.Since(start) }()
		return m(g, sig, strategy, baseline)
	}
}

// options is the budget as corpus.Options' limits (negative: none).
func (b minimizeBudget) options() corpus.Options {
	o := corpus.Options{Timeout: b.timeout, MaxSteps: b.steps}
	if o.Timeout == 0 {
		o.Timeout = -1
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = -1
	}
	return o
}

// campaignMinimizer sets c.Minimize: every new finding of the campaign is
// minimized (corpus.MinimizeHook, within budget) on the campaign's own
// current side and checks, with the strategy the finding's graphs ran (the
// campaign's, or the dispatch share's), in baseline mode when the campaign
// has a baseline (the baseline side must pass every candidate), and stored
// with the minimized graph under DIR/findings (DIR the campaign's output).
// One hook per strategy, made when a finding first needs it. For
// cmd/cfgfuzz/run.go: call it after the sides are made; the sides the
// hooks open are kept in sides, for the caller to close once the campaign
// is done. They are opened lazily (openLazily): a structurizer server of
// the minimizer's, and of its baseline, starts when the first finding's
// search first asks that side, none for a campaign that finds nothing,
// and a server the preflight handed on serves a worker.
func campaignMinimizer(c *fuzz.Config, sides *openSides, budget minimizeBudget, log io.Writer) error {
	s := c.Settings
	hooks := map[string]func(g *cfg.Graph, sig string, baseline corpus.BaselineAnswer) (*cfg.Graph, error){}
	clock := &budgetClock{budget: budget.total}
	first, err := strategyMinimizer(c, sides, s.Strategy, budget, clock, log)
	if err != nil {
		return err
	}
	hooks[s.Strategy] = first
	c.Minimize = clock.wrap(func(g *cfg.Graph, sig, strategy string, baseline corpus.BaselineAnswer) (*cfg.Graph, error) {
		if strategy == "" {
			strategy = s.Strategy
		}
		h, ok := hooks[strategy]
		if !ok {
			if h, err = strategyMinimizer(c, sides, strategy, budget, clock, log); err != nil {
				fmt.Fprintf(log, "minimize %s (strategy %s): %v\n", sig, strategy, err)
				return nil, err
			}
			hooks[strategy] = h
		}
		return h(g, sig, baseline)
	}, log)
	return nil
}

// campaignChecks is the checks a campaign of settings s judged its graphs
// with, which its minimizer judges candidates with: --checks, else the
// oracle's defaults (not every check that can run here, as minimize's own
// default: a gpu check the campaign never ran would judge, and slow, every
// candidate), and gpu with --gpu-every.
func campaignChecks(s fuzz.Settings) []string {
	checks := s.Checks
	if checks == nil {
		checks = slices.Clone(oracle.DefaultChecks)
	}
	if s.GPUEvery > 0 && !slices.Contains(checks, gpu.CheckName) {
		checks = append(slices.Clip(checks), gpu.CheckName)
	}
	return checks
}

// strategyMinimizer is campaignMinimizer's hook for the graphs that ran
// one strategy.
func strategyMinimizer(c *fuzz.Config, sides *openSides, strategy string, budget minimizeBudget, clock *budgetClock, log io.Writer) (func(g *cfg.Graph, sig string, baseline corpus.BaselineAnswer) (*cfg.Graph, error), error) {
	s := c.Settings
	// Structurizer only names the options in stored findings; candidates
	// go through the side (Structurize).
	ropt := corpus.RunnerOptions{Structurizer: structurizer.Options{Strategy: strategy, Inject: s.Inject}, Checks: campaignChecks(s),
		Oracle: corpus.CampaignOracle(corpus.Judging{Walks: s.Walks, Seed: s.Seed, Registers: s.Registers, GPUDevice: s.GPUDevice,
			TargetEnv: s.TargetEnv, RulesCompat: s.RulesCompat, GrowthTime: time.Duration(s.GrowthTime)})}
	ropt.Oracle.GPUTimeout = time.Duration(s.CheckTimeout)
	if ropt.Oracle.GPUTimeout <= 0 {
		ropt.Oracle.GPUTimeout = fuzz.DefaultCheckTimeout
	}
	limit := time.Duration(s.Timeout)
	if limit == 0 {
		limit = fuzz.DefaultTimeout
	}
	spec, err := fuzz.ParseSpec(s.Current)
	if err != nil {
		return nil, err
	}
	cur := c.Current
	if cur.New == nil {
		cur = fuzz.InProcessFactory()
	}
	popt := proto.Options{Strategy: strategy, Inject: s.Inject, Registers: s.Registers}
	ropt.Structurize = fuzz.SideStructurizer(sides.openLazily(cur), popt, limit)
	checks := ""
	if s.Checks != nil {
		checks = strings.Join(s.Checks, ",")
	}
	tag := findingTag{spec: spec, opt: popt, walks: s.Walks, seed: s.Seed, checks: checks, limit: limit, gpuDevice: s.GPUDevice, judge: judgeOf(&s), project: s.Project}
	ho := corpus.HookOptions{Runner: ropt, Store: &corpus.Store{Dir: c.Dir}, Log: log, Quiet: c.Progress == nil,
		Origin: fmt.Sprintf("campaign seed %d in %s", s.Seed, c.Dir), Structurizer: specField(spec), Judged: campaignJudged(&s), Replay: tag.replayer("graph.cfg")}
	ho.Build, ho.Serve = headerProject(spec, s.Project)
	ho.Minimize = budget.options()
	ho.Minimize.Context = c.Context
	if clock.budget > 0 {
		ho.Remaining = clock.remaining
	}
	ho.Fresh = freshPredicate(cur, popt, ropt, limit)
	if c.Baseline.New != nil {
		bopt := proto.Options{Strategy: baselineStrategy(s, strategy), Registers: s.Registers}
		base, err := corpus.NewRunner(corpus.RunnerOptions{Checks: ropt.Checks, Oracle: ropt.Oracle, Structurize: fuzz.SideStructurizer(sides.openLazily(c.Baseline), bopt, limit)})
		if err != nil {
			return nil, err
		}
		ho.Minimize.Baseline = base.BaselinePredicate() // a decline told from a pass and from a failure, as the campaign classes them
	}
	label := ""
	if strategy != s.Strategy {
		label = " (strategy " + strategy + ")"
	}
	return minimizeHook(ho, c.Progress, label)
}

// baselineStrategy is the strategy the campaign of settings s asked its
// baseline for the graphs whose current side ran strategy, as the
// campaign's workers ask it: that strategy for a graph of the dispatch
// share, else --baseline-strategy, else --strategy.
func baselineStrategy(s fuzz.Settings, strategy string) string {
	if strategy != s.Strategy {
		return strategy
	}
	return cmp.Or(s.BaselineStrategy, s.Strategy)
}

// campaignMinimizeEvery is how often a campaign's search for a finding's
// minimized graph says where it stands.
var campaignMinimizeEvery = 10 * time.Second

// minimizeHook is corpus.MinimizeHook, with a line to w every
// campaignMinimizeEvery while each search and the judgements of its
// result run (as minimize writes, its own ticker's, so a slow
// structurizer's long judgements do not silence it), none after the
// hook's line on the result, unless w is nil (--progress none). label
// follows the signature.
func minimizeHook(ho corpus.HookOptions, w io.Writer, label string) (func(*cfg.Graph, string, corpus.BaselineAnswer) (*cfg.Graph, error), error) {
	if w == nil {
		return corpus.MinimizeHook(ho)
	}
	var cur *minimizeProgress   // the search running, set and read on the hook's goroutine
	var store *minimizeProgress // the findings store's judgements, likewise
	name := ""                  // the finding minimized, likewise
	ho.Log = progressLog{&cur, ho.Log}
	ho.Minimize.Progress = func(steps int, size corpus.Size) {
		if cur != nil {
			cur.update(steps, size)
		}
	}
	ho.Searched = func() { // no line on the search after its result's
		if cur != nil {
			cur.end()
		}
	}
	ho.Storing = func(i, n int, size corpus.Size) { // lines of their own while the store judges
		if store == nil {
			store = startMinimizeProgress(w, "cfgfuzz: storing "+name+": ", campaignMinimizeEvery, size)
		}
		store.storing(i, n, size)
	}
	hook, err := corpus.MinimizeHook(ho)
	if err != nil {
		return nil, err
	}
	return func(g *cfg.Graph, sig string, baseline corpus.BaselineAnswer) (*cfg.Graph, error) {
		name = fuzz.PrintableLine(sig) + label
		cur = startMinimizeProgress(w, "cfgfuzz: minimizing "+name+": ", campaignMinimizeEvery, corpus.SizeOf(g))
		defer func() {
			cur.end()
			if store != nil {
				store.end()
			}
			cur, store = nil, nil
		}()
		return hook(g, sig, baseline)
	}, nil
}

// progressLog is a hook's log whose lines are kept apart from the lines
// of the search running, if any.
type progressLog struct {
	cur **minimizeProgress
	w   io.Writer
}

func (l progressLog) Write(b []byte) (int, error) {
	if l.w == nil {
		return len(b), nil
	}
	if p := *l.cur; p != nil {
		return lockedWriter{&p.mu, l.w}.Write(b)
	}
	return l.w.Write(b)
}

// stageCounts words the accepted reductions per stage, "none" when no
// stage shrank the graph.
func stageCounts(stages map[string]int) string {
	if len(stages) == 0 {
		return "none"
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(stages)) {
		parts = append(parts, fmt.Sprintf("%s %d", name, stages[name]))
	}
	return strings.Join(parts, ", ")
}

func report(res *corpus.Result, w io.Writer) {
	fmt.Fprintf(w, "minimize: %s: %d blocks %d edges %d words -> %d blocks %d edges %d words in %v (%d steps, %d cache hits, %d harness errors)\n",
		res.Signature, res.Before.Blocks, res.Before.Edges, res.Before.Words, res.After.Blocks, res.After.Edges, res.After.Words,
		res.Elapsed.Round(time.Millisecond), res.Steps, res.CacheHits, res.Errors)
	fmt.Fprintf(w, "minimize: accepted reductions per stage: %s\n", stageCounts(res.Stages))
	if note := corpus.BaselineNote(res); note != "" {
		fmt.Fprintf(w, "minimize: %s\n", note)
	}
	if res.Overshot != nil {
		fmt.Fprintf(w, "minimize: %s\n", corpus.OvershotNote(res))
	}
	if res.Stopped != "" {
		fmt.Fprintf(w, "minimize: stopped early by the %s; the result is the smallest accepted so far\n", res.Stopped)
	}
	for _, sig := range slices.Sorted(maps.Keys(res.Others)) {
		fmt.Fprintf(w, "minimize: other signature met, not adopted: %s on %s\n", sig, cfg.FormatCompact(res.Others[sig]))
	}
	if res.Stopped == corpus.StoppedByInterruption {
		fmt.Fprintf(w, "minimize: not verified: the interruption stopped it before its result was judged (the graph failed with the signature in %v judgements)\n", res.Original)
		return
	}
	fmt.Fprintf(w, "minimize: verified: %v (the graph failed with the signature in %v judgements, the result in %v)\n", res.Verified, res.Original, res.Confirmed)
}

// checkOutputs refuses, before the search runs, the outputs it could
// not write: a regression whose directory is a file or whose name is bad
// or taken, an --out that is a directory, a --store that is a file.
func (mf *minimizeFlags) checkOutputs() error {
	if mf.save != "" {
		dir, err := regressionDir(mf.regressions)
		if err != nil {
			return fmt.Errorf("--save-regression: %w", err)
		}
		if _, err := corpus.RegressionPath(dir, mf.save); err != nil {
			return fmt.Errorf("--save-regression: %w", err)
		}
	}
	if mf.out != "" {
		if st, err := os.Stat(mf.out); err == nil && st.IsDir() {
			return fmt.Errorf("--out %s is a directory: give the file to write the graph into", mf.out)
		}
		if st, err := os.Stat(filepath.Dir(mf.out)); err != nil || !st.IsDir() {
			return fmt.Errorf("--out %s: %s is no directory that exists", mf.out, filepath.Dir(mf.out))
		}
	}
	if mf.store != "" {
		if err := dirPathFree(mf.store); err != nil {
			return fmt.Errorf("--store %s: %w", mf.store, err)
		}
	}
	return nil
}

// writeOutFile replaces file with data whole (corpus.ReplaceFile: a
// failed write, a full disk, leaves the file as it was), through a
// symbolic link to the file it names, or writes into it when it is no
// regular file (a device, a pipe: /dev/stdout).
func writeOutFile(file string, data []byte) error {
	if st, err := os.Stat(file); err == nil && !st.Mode().IsRegular() {
		return os.WriteFile(file, data, 0o644)
	}
	if target, err := filepath.EvalSymlinks(file); err == nil {
		file = target
	}
	return corpus.ReplaceFile(file, data)
}

// writeResult writes the graph with its header to file, or to stdout; to
// stdout too when file cannot be written, so that the search's result is
// not lost.
func writeResult(g *cfg.Graph, h corpus.Header, file string, stdout io.Writer) error {
	text := h.Format() + "# compact: " + cfg.FormatCompact(g) + "\n" + cfg.FormatLines(g)
	if file == "" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	err := writeOutFile(file, []byte(text))
	if err != nil {
		if _, werr := io.WriteString(stdout, text); werr == nil {
			return fmt.Errorf("--out: %w (the minimized graph is on standard output instead)", err)
		}
	}
	return err
}

// saveOutputs writes the regression file (under header saved, for a
// result every judgement reproduced: unreliable) and the store entry
// (under h) when asked.
func saveOutputs(orig *cfg.Graph, res *corpus.Result, h, saved corpus.Header, mf minimizeFlags, run *corpus.Runner, tag findingTag, store *corpus.Store, stderr io.Writer) error {
	if mf.save != "" && unreliable(res) == nil {
		dir, err := regressionDir(mf.regressions)
		if err != nil {
			return err
		}
		dirty := markUncommitted(&saved)
		p, err := corpus.WriteRegression(dir, mf.save, saved, res.Graph)
		if err != nil {
			return err
		}
		fmt.Fprintln(stderr, "minimize: saved regression", p)
		if dirty != "" {
			fmt.Fprintln(stderr, "minimize: "+dirty)
		}
		if n := relativeCdNote(saved.Structurizer); n != "" {
			fmt.Fprintln(stderr, "minimize: "+n)
		}
		if n := outsideRepoNote(saved.Structurizer, dir); n != "" {
			fmt.Fprintln(stderr, "minimize: "+n)
		}
		if n := pinnedCommitNote(saved.Structurizer); n != "" {
			fmt.Fprintln(stderr, "minimize: "+n)
		}
	}
	if store == nil {
		return nil
	}
	o, m := run.Run(orig), run.Run(res.Graph)
	a, err := store.Add(corpus.Finding{Signature: res.Signature, Graph: orig, Minimized: res.Graph, Verdicts: o.Verdicts,
		Module: o.Module, MinModule: m.Module, Stats: o.Stats, Origin: h.Origin, Strategy: h.Strategy, Inject: splitList(h.Fault),
		Registers: h.Registers, TargetEnv: h.TargetEnv, RulesCompat: h.RulesCompat, Structurizer: h.Structurizer, Build: h.Build, Serve: h.Serve,
		Judged: corpus.Judged{Walks: h.Walks, Checks: h.Checks, Timeout: h.Timeout, CheckTimeout: h.CheckTimeout, GrowthTime: h.GrowthTime},
		Answer: o.Answer, Replay: tag.replay("graph.cfg", res.Signature)})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "minimize: store: %s (new signature %v, kept %v, %d reports)\n", a.Dir, a.New, a.Kept, a.Reports)
	return nil
}

// storeOther adds each other signature met while minimizing to the store.
func storeOther(store *corpus.Store, run func() *corpus.Runner, tag findingTag, judged corpus.Judged, origin string, stderr io.Writer) func(*cfg.Graph, string) {
	build, serve := headerProject(tag.spec, tag.project)
	return func(g *cfg.Graph, sig string) {
		o := run().Run(g)
		_, err := store.Add(corpus.Finding{Signature: sig, Graph: g, Verdicts: o.Verdicts, Module: o.Module, Stats: o.Stats,
			Origin: origin, Strategy: tag.opt.Strategy, Inject: tag.opt.Inject, Registers: tag.opt.Registers,
			TargetEnv: tag.judge.targetEnv, RulesCompat: tag.judge.rulesCompat, Structurizer: specField(tag.spec), Build: build, Serve: serve, Judged: judged, Answer: o.Answer,
			Replay: tag.replay("graph.cfg", sig)})
		if err != nil {
			fmt.Fprintln(stderr, "minimize: store:", err)
		}
	}
}
