// run.go: `cfgfuzz run`, the campaign (package fuzz) over package gen's
// generators at the field's weight settings, with an optional baseline
// revision; and `cfgfuzz structurize`, this binary serving protocol v1 (the
// child process of --isolate). The flags shared with `cfgfuzz compare` and
// the translation of a saved campaign back into sides (for --resume) live
// here too.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

func init() {
	register(command{name: "run", summary: "run a fuzz campaign (about 30 s over every generator by default)", run: runRun})
	register(command{name: "structurize", summary: "serve protocol v1 on stdin/stdout with this tree's structurizer", run: runServe})
}

// campaignFlags are the flags of run and compare.
type campaignFlags struct {
	graphs                            int
	duration, timeout                 time.Duration
	seed                              uint64
	workers, walks, gpuEvery          int
	shard, out, resume                string
	kinds, weights, strategy, inject  string
	checks, structurizerCmd, baseline string
	current, gpuDevice                string
	cpuProfile, memProfile            string
	isolate, minimize, force          bool
	progress                          string
	set                               map[string]bool // flags given
}

func (f *campaignFlags) define(fs *flag.FlagSet, compare bool) {
	fs.IntVar(&f.graphs, "graphs", 0, "graph budget `N` (graph indices 0..N-1 before sharding; 0 none)")
	fs.DurationVar(&f.duration, "duration", 0, "time budget (default 30s when --graphs is not given)")
	fs.DurationVar(&f.timeout, "timeout", fuzz.DefaultTimeout, "per-graph limit on the structurizer")
	fs.Uint64Var(&f.seed, "seed", 1, "campaign seed")
	fs.IntVar(&f.workers, "workers", 0, "parallel workers (default GOMAXPROCS)")
	fs.IntVar(&f.walks, "walks", 16, "random walks drawn per graph on top of the edge-covering ones (a draw repeating an earlier walk is dropped)")
	fs.IntVar(&f.gpuEvery, "gpu-every", 0, "also run every Nth graph's module on the Vulkan driver (the gpu check); 0 never")
	fs.StringVar(&f.gpuDevice, "gpu-device", "", "Vulkan device of the gpu check: cpu (lavapipe, the default), gpu, any")
	fs.StringVar(&f.shard, "shard", "", "run shard `i/n` only (graph index mod n == i)")
	fs.StringVar(&f.out, "out", "cfgfuzz-out", "output `DIR` (results log, reports)")
	fs.BoolVar(&f.force, "force", false, "replace the campaign that --out holds (its log, settings, reports and findings); without it such a DIR is refused")
	fs.StringVar(&f.resume, "resume", "", "continue the killed campaign in `DIR` (its settings; --workers and --progress may change)")
	fs.StringVar(&f.kinds, "kinds", "", "generators, comma-separated (default all: "+kindList()+")")
	fs.StringVar(&f.weights, "weights", "", "weight settings, comma-separated (default all: "+weightList()+")")
	fs.StringVar(&f.strategy, "strategy", "", "structurizer strategy: "+strings.Join(structurizer.Strategies(), ", "))
	fs.StringVar(&f.inject, "inject", "", "faults to plant on the current side: "+strings.Join(structurizer.FaultNames(), ", "))
	fs.StringVar(&f.checks, "checks", "", "oracle checks (as for check: a,b or +x,-y; default all)")
	fs.StringVar(&f.structurizerCmd, "structurizer", "", "run the current side as this shell `CMD` speaking protocol v1 (fuzz/PROTOCOL.md)")
	fs.BoolVar(&f.isolate, "isolate", false, "run this tree's structurizer as child processes (a hang is killed, not leaked)")
	fs.StringVar(&f.progress, "progress", "auto", "progress display: auto, bar, plain or none")
	fs.BoolVar(&f.minimize, "minimize", true, "minimize the first graph of every new finding's signature (up to 30 s each) into DIR/findings")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the campaign (this process: engine, in-process structurizer, checks) to `FILE`")
	fs.StringVar(&f.memProfile, "memprofile", "", "write the campaign's allocation profile (this process) to `FILE` when it ends")
	fs.StringVar(&f.baseline, "baseline", "", "compare with git revision `REV` (its cmd/structurize, built once and cached)")
	if compare {
		fs.StringVar(&f.current, "current", "", "build the current side from git revision `REV` too (default: the working tree)")
	}
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
	for _, w := range gen.FieldWeightings() {
		s = append(s, w.Name())
	}
	return strings.Join(s, ",")
}

func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return campaignMain("run", args, stdout, stderr)
}

// campaignMain parses the flags of run or compare, runs the campaign and
// maps the outcome to the exit status.
func campaignMain(name string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f campaignFlags
	f.define(fs, name == "compare")
	fs.Usage = func() {
		if name == "compare" {
			fmt.Fprintln(stderr, "usage: cfgfuzz compare --baseline REV [--current REV] [flags]\n\nRun the same graphs on two revisions and classify every graph: same, output-changed,")
			fmt.Fprintln(stderr, "newly-structured, newly-refused, newly-invalid, invalid-fixed, crash, timeout.")
		} else {
			fmt.Fprintln(stderr, "usage: cfgfuzz run [flags]\n\nGenerate graphs, structurize each, check every module; reports in --out.")
		}
		fmt.Fprintln(stderr, "Exit status: 0 nothing new, 1 new findings, 2 usage or infrastructure error; 130, 143, 129 stopped by")
		fmt.Fprintln(stderr, "SIGINT, SIGTERM, SIGHUP (the reports say so and give the --resume command; a second signal ends at once).\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "cfgfuzz %s: unexpected arguments %q\n", name, fs.Args())
		return exitUsage
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if name == "compare" && f.baseline == "" && f.resume == "" {
		fmt.Fprintln(stderr, "cfgfuzz compare: --baseline REV is required")
		return exitUsage
	}
	in := onStopSignals(name, stderr)
	defer in.stop()
	c, err := f.config(in.ctx, stderr)
	if err == nil && f.minimize {
		err = campaignMinimizer(&c, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
		return in.or(exitUsage)
	}
	c.Context = in.ctx
	c.ResumeCommand = "cfgfuzz " + name + " --resume " + shellQuote(c.Dir)
	if f.cpuProfile != "" {
		stopProfile, err := startCPUProfile(f.cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
			return exitUsage
		}
		defer stopProfile()
	}
	o, err := fuzz.Run(c)
	if err != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
		return in.or(exitUsage)
	}
	if f.memProfile != "" {
		if err := writeAllocProfile(f.memProfile); err != nil {
			fmt.Fprintf(stderr, "cfgfuzz %s: %v\n", name, err)
			return exitUsage
		}
	}
	code := reportExit(name, o.Report, o.Harness, c.Dir, stdout, stderr)
	if o.Report.Incomplete != nil {
		return in.or(exitUsage)
	}
	return code
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
// harness errors, else 0.
func reportExit(name string, rep *fuzz.Report, harness []string, dir string, stdout, stderr io.Writer) int {
	for _, h := range harness {
		fmt.Fprintf(stderr, "cfgfuzz %s: worker: %s\n", name, h)
	}
	fmt.Fprintf(stdout, "%s", summaryLines(rep))
	fmt.Fprintf(stdout, "reports: %s\n", filepath.Join(dir, "report.{json,md,html}"))
	if in := rep.Incomplete; in != nil {
		fmt.Fprintf(stderr, "cfgfuzz %s: %s\n", name, in.Summary())
	}
	switch {
	case rep.NewFindings > 0:
		return exitFail
	case len(harness) > 0 || rep.Outcomes[fuzz.OutError] > 0 || rep.BaselineOutcomes[fuzz.OutError] > 0:
		return exitUsage
	}
	return exitOK
}

func summaryLines(rep *fuzz.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d graphs:", rep.Graphs)
	for _, o := range fuzz.Outcomes {
		fmt.Fprintf(&b, " %s %d", o, rep.Outcomes[o])
	}
	b.WriteString("\n")
	if d := rep.Divergences; d != nil {
		b.WriteString("divergences:")
		for _, c := range fuzz.Classes {
			fmt.Fprintf(&b, " %s %d", c, d.Classes[c])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d findings (%d signatures), %d new\n", countFindings(rep), len(rep.Findings), rep.NewFindings)
	for _, fd := range rep.Findings {
		fmt.Fprintf(&b, "  %s: %d graphs, %d new; replay: %s\n", fd.Signature, fd.Count, fd.New, fd.Replay)
	}
	return b.String()
}

func countFindings(rep *fuzz.Report) int {
	n := 0
	for _, f := range rep.Findings {
		n += f.Count
	}
	return n
}

// config builds the campaign from the flags, or from the saved settings
// with --resume.
func (f *campaignFlags) config(ctx context.Context, stderr io.Writer) (fuzz.Config, error) {
	c := fuzz.Config{Source: genSource{}, Workers: f.workers, Dir: f.out, Force: f.force}
	c.Progress, c.Terminal = progressOutput(f.progress, stderr)
	if f.resume != "" {
		s, err := fuzz.LoadSettings(f.resume)
		if err != nil {
			return c, fmt.Errorf("resume: %w", err)
		}
		c.Settings, c.Dir, c.Resume = s, f.resume, true
		return c, f.sidesFromSettings(ctx, &c, stderr)
	}
	s := fuzz.Settings{Seed: f.seed, Graphs: f.graphs, Duration: fuzz.Duration(f.duration), Timeout: fuzz.Duration(f.timeout),
		Strategy: f.strategy, Inject: splitList(f.inject), Walks: f.walks, GPUEvery: f.gpuEvery, GPUDevice: f.gpuDevice}
	if f.graphs == 0 && f.duration == 0 {
		s.Duration = fuzz.Duration(30 * time.Second)
	}
	if f.checks != "" {
		s.Checks = oracle.ResolveChecks(f.checks)
	}
	if f.shard != "" {
		sh, err := fuzz.ParseShard(f.shard)
		if err != nil {
			return c, err
		}
		s.Shard = sh
	}
	streams, err := streamsFor(f.kinds, f.weights)
	if err != nil {
		return c, err
	}
	s.Streams = streams
	if err := validateOptions(f.strategy, s.Inject); err != nil {
		return c, err
	}
	switch {
	case f.current != "":
		s.Current = "rev:" + f.current
	case f.structurizerCmd != "":
		s.Current = "cmd:" + f.structurizerCmd
	case f.isolate:
		s.Current = "isolated"
	default:
		s.Current = "in-process"
	}
	if f.baseline != "" {
		s.Baseline = "rev:" + f.baseline
	}
	c.Settings = s
	return c, f.sidesFromSettings(ctx, &c, stderr)
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

// sidesFromSettings makes the side factories that Settings.Current and
// Settings.Baseline describe: "in-process", "isolated" (this binary's
// structurize subcommand), "cmd:SHELL COMMAND", "rev:REV" (cmd/structurize
// built at REV; the description is rewritten to the full commit hash so a
// resumed campaign uses the same build).
func (f *campaignFlags) sidesFromSettings(ctx context.Context, c *fuzz.Config, log io.Writer) error {
	cur, desc, err := sideFor(ctx, c.Settings.Current, log)
	if err != nil {
		return fmt.Errorf("current side: %w", err)
	}
	c.Current, c.Settings.Current = cur, desc
	if desc == "in-process" {
		c.Escalate, _, _ = sideFor(ctx, "isolated", log)
	}
	if c.Settings.Baseline != "" {
		base, desc, err := sideFor(ctx, c.Settings.Baseline, log)
		if err != nil {
			return fmt.Errorf("baseline: %w", err)
		}
		c.Baseline, c.Settings.Baseline = base, desc
	}
	return nil
}

func sideFor(ctx context.Context, desc string, log io.Writer) (fuzz.SideFactory, string, error) {
	kind, arg, _ := strings.Cut(desc, ":")
	switch kind {
	case "in-process":
		return fuzz.InProcessFactory(), desc, nil
	case "isolated":
		self, err := os.Executable()
		if err != nil {
			return fuzz.SideFactory{}, "", err
		}
		return fuzz.ProcessFactory(desc, []string{self, "structurize"}, ""), desc, nil
	case "cmd":
		return fuzz.ProcessFactory(desc, []string{"sh", "-c", "exec " + arg}, ""), desc, nil
	case "rev":
		commit, err := fuzz.ResolveRevision(arg, fuzz.BuildOptions{})
		if err != nil {
			return fuzz.SideFactory{}, "", err
		}
		bin, err := fuzz.BuildRevision(commit, fuzz.BuildOptions{Log: log, Context: ctx})
		if err != nil {
			return fuzz.SideFactory{}, "", err
		}
		desc = "rev:" + commit
		return fuzz.ProcessFactory(desc, []string{bin}, ""), desc, nil
	}
	return fuzz.SideFactory{}, "", fmt.Errorf("unknown side %q", desc)
}

// progressOutput picks the progress display: a bar when standard error is a
// terminal (auto) or asked for, plain lines otherwise, or none.
func progressOutput(mode string, stderr io.Writer) (io.Writer, bool) {
	isTerm := false
	if f, ok := stderr.(*os.File); ok {
		isTerm = term.IsTerminal(int(f.Fd()))
	}
	switch mode {
	case "none":
		return nil, false
	case "bar":
		return stderr, true
	case "plain":
		return stderr, false
	}
	return stderr, isTerm
}

// streamsFor is every chosen generator at every chosen weight setting.
func streamsFor(kinds, weights string) ([]fuzz.Stream, error) {
	ks := splitList(kinds)
	if len(ks) == 0 {
		ks = strings.Split(kindList(), ",")
	}
	ws := splitList(weights)
	if len(ws) == 0 {
		ws = strings.Split(weightList(), ",")
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
			out = append(out, fuzz.Stream{Kind: k, Weights: w})
		}
	}
	return out, nil
}

func weighting(name string) (gen.Weighting, error) {
	for _, w := range gen.FieldWeightings() {
		if w.Name() == name {
			return w, nil
		}
	}
	return gen.Weighting{}, fmt.Errorf("unknown weight setting %q (have %s)", name, weightList())
}

// genSource is package gen as the campaign's graph source.
type genSource struct{}

// Item is graph j of a stream: gen.SeedFor's j-th seed of the run.
func (genSource) Item(s fuzz.Stream, run uint64, j int) (fuzz.Item, error) {
	w, err := weighting(s.Weights)
	if err != nil {
		return fuzz.Item{}, err
	}
	k := gen.Kind(s.Kind)
	it, err := gen.Generate(gen.Config{Kind: k, Words: w.Words, Heavy: w.Heavy}, gen.SeedFor(k, run, j))
	if err != nil {
		return fuzz.Item{}, err
	}
	return fuzz.Item{Graph: it.Graph, Seed: it.Seed, Program: it.Program}, nil
}

// Replay prints the graph in line notation, which keeps its weights.
func (genSource) Replay(s fuzz.Stream, seed uint64) string {
	cmd := fmt.Sprintf("cfgfuzz gen --kind %s --seed %d --count 1 --lines", s.Kind, seed)
	if w, err := weighting(s.Weights); err == nil {
		if w.Words != 0 {
			cmd += fmt.Sprintf(" --words %d", w.Words)
		}
		if w.Heavy {
			cmd += " --heavy"
		}
	}
	return cmd
}

// runServe is `cfgfuzz structurize`: protocol v1 with this tree's
// structurizer, the child process of --isolate.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("structurize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	form := fs.String("form", "func", "what an ok response carries: module or func")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if err := proto.Serve(stdin, stdout, proto.Local(*form == "module")); err != nil {
		fmt.Fprintln(stderr, "cfgfuzz structurize:", err)
		return exitUsage
	}
	return exitOK
}
