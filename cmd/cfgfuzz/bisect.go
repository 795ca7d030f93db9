// bisect.go: `cfgfuzz bisect --good REV --bad REV GRAPH-FILE`, the first
// commit whose verdict on one graph (outcome and signature) differs from
// the good commit's, each commit built and served as compare builds a
// revision: cfgfuzz's own cmd/structurize inside a repository of cfgfuzz,
// or with --repo DIR that repository's build and serve commands (--build,
// --serve, or DIR/.cfgfuzz.json). The search is package fuzz's Bisect.

package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func init() {
	register(command{name: "bisect", summary: "find the first commit whose verdict on a graph differs from a good commit's", run: runBisect})
}

// bisectFlags are bisect's flags.
type bisectFlags struct {
	repo, good, bad             string
	project                     projectFlags
	strategy, checks, gpuDevice string
	timeout, startTimeout       time.Duration
	buildTimeout                time.Duration
	walks, registers            int
	seed                        uint64
	judge                       judgeFlags
}

func runBisect(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	fs := flag.NewFlagSet("bisect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f bisectFlags
	fs.StringVar(&f.repo, "repo", "", "the git repository `DIR` (default: the repository of cfgfuzz around the current directory)")
	fs.StringVar(&f.good, "good", "", "a commit whose verdict is the good one (`REV`)")
	fs.StringVar(&f.bad, "bad", "", "a later commit whose verdict differs (`REV`)")
	f.project.define(fs)
	fs.StringVar(&f.strategy, "strategy", "", "the strategy asked of every commit's structurizer")
	fs.StringVar(&f.checks, "checks", "", "oracle checks (as for check: a,b or +x,-y; default: all of "+strings.Join(oracle.DefaultChecks, ",")+")")
	fs.StringVar(&f.gpuDevice, "gpu-device", "", "Vulkan device of the gpu check, as check: cpu (lavapipe, the default), gpu, any (a gpu finding needs the campaign's device)")
	fs.DurationVar(&f.timeout, "timeout", fuzz.DefaultTimeout, "per-structurization limit")
	fs.DurationVar(&f.startTimeout, "start-timeout", fuzz.DefaultStartTimeout, startTimeoutUsage)
	fs.DurationVar(&f.buildTimeout, "build-timeout", 0, buildTimeoutUsage)
	fs.IntVar(&f.walks, "walks", 16, "random walks of the exec check")
	fs.IntVar(&f.registers, "registers", 0, "judge under a register file of `N` values, as check (a campaign's finding needs the campaign's --registers)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the checks (meta's renumbering, exec's walks)")
	f.judge.define(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz bisect [--repo DIR [--build CMD] [--serve CMD]] --good REV --bad REV GRAPH-FILE (- for standard input)")
		fmt.Fprintln(fs.Output(), "\nFind the first commit on the first-parent chain from --good to --bad whose verdict on the graph")
		fmt.Fprintln(fs.Output(), "(outcome and signature) differs from the good commit's; --good must be an ancestor of --bad (for")
		fmt.Fprintln(fs.Output(), "a branch against a main that moved on, give --good their merge base, as compare's bisect line does;")
		fmt.Fprintln(fs.Output(), "for a branch that merged main in, the commit where its first-parent history leaves main's).")
		fmt.Fprintln(fs.Output(), "The good commit is judged first: one that fails the graph is noted, or, failing it as --bad does,")
		fmt.Fprintln(fs.Output(), "ends the search. Each commit tested is built once (cached) and served as compare does; a commit")
		fmt.Fprintln(fs.Output(), "whose build fails is skipped, shown with the last lines of its build's output. The output counts")
		fmt.Fprintln(fs.Output(), "the commits after --good, those tested and those skipped.")
		fmt.Fprintln(fs.Output(), "Exit status: 0 found; 2 usage, build or harness error, the good and bad commits giving the same")
		fmt.Fprintln(fs.Output(), "verdict, or an answer not narrowed to one commit (skipped commits hide which of several it is).\n\nflags:")
		fs.PrintDefaults()
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if err := f.judge.validate(); err != nil {
		fmt.Fprintln(stderr, flagError(fs.Name(), err))
		return exitUsage
	}
	files := fs.Args()
	res, err := bisectMain(f, files, builds, stdin, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "cfgfuzz bisect: %v\n", err)
		return exitUsage
	}
	if n := len(res.Candidates); n > 0 {
		fmt.Fprintf(stderr, "cfgfuzz bisect: not narrowed to one commit: one of %d candidates, %d of which did not build\n", n+1, n)
		return exitUsage
	}
	return exitOK
}

// bisectMain bisects as f says on the graph of files, each commit's build
// stopped through builds (nil: never).
func bisectMain(f bisectFlags, files []string, builds *fuzz.BuildStop, stdin io.Reader, stdout, stderr io.Writer) (*fuzz.BisectResult, error) {
	if f.good == "" || f.bad == "" || len(files) != 1 {
		return nil, fmt.Errorf("want --good REV --bad REV and one GRAPH-FILE")
	}
	items, datas, err := readInputs(files, stdin)
	if err != nil {
		return nil, err
	}
	if len(items) != 1 {
		return nil, fmt.Errorf("%s holds %d graphs, want one", files[0], len(items))
	}
	noteEntryNames(stderr, "cfgfuzz bisect: ", items, datas)
	g := items[0].Graph
	specOf, err := f.specOf()
	if err != nil {
		return nil, err
	}
	c, err := f.config(stderr)
	if err != nil {
		return nil, err
	}
	// The structurizer is each commit's, so a header's is not held
	// against it.
	if m := recordedMismatch(inputName(files[0]), datas[0], usedJudging{spec: specOf(f.good), registers: f.registers, strategy: f.strategy,
		walks: corpus.Walks{Random: f.walks, Seed: f.seed}, checks: f.checks, timeout: f.timeout, judge: f.judge}); m != "" {
		fmt.Fprintln(stderr, "cfgfuzz bisect: note:", m)
	}
	if f.repo != "" {
		// Every commit is built and served by these commands: a file that
		// does not read, or no serve command, is the repository's error,
		// said before the first step, not the good commit's.
		if _, err := fuzz.ProjectFor(f.repo, f.project.project()); err != nil {
			return nil, err
		}
	}
	opt := fuzz.BisectOptions{Good: f.good, Bad: f.bad, Repo: f.repo, SpecOf: specOf, Log: stderr,
		Resolve: fuzz.ResolveOptions{Build: fuzz.BuildOptions{Stop: builds, Log: stderr, Timeout: f.buildTimeout}, Project: f.project.project(), Process: fuzz.ProcessOptions{StartTimeout: f.startTimeout}, HandOn: true},
		Judge: func(side fuzz.SideFactory) (fuzz.SideResult, error) {
			c.Current = side
			return fuzz.JudgeGraph(c, g.Clone())
		}}
	res, err := fuzz.Bisect(opt)
	if err != nil {
		return nil, err
	}
	printBisect(res, f, c.Settings, specOf, graphInput(files[0], g), stdout)
	return res, nil
}

// config is how each commit judges the graph: the checks and their
// settings, the gpu check's device among them, as the flags give them.
func (f *bisectFlags) config(stderr io.Writer) (fuzz.Config, error) {
	c := fuzz.Config{Settings: fuzz.Settings{Seed: f.seed, Timeout: fuzz.Duration(f.timeout), StartTimeout: fuzz.Duration(f.startTimeout), Strategy: f.strategy, Walks: f.walks, Registers: f.registers, GPUDevice: f.gpuDevice}}
	c.Checks = f.judge.checks(f.checks)
	f.judge.settings(&c.Settings)
	if err := gpuDeviceFlag("bisect", f.gpuDevice, slices.Contains(c.Checks, gpu.CheckName), stderr); err != nil {
		return c, err
	}
	if err := validateOptions(f.strategy, nil); err != nil {
		return c, err
	}
	if err := proto.CheckOptions(proto.Options{Registers: f.registers}); err != nil {
		return c, fmt.Errorf("--registers: %w", err)
	}
	return c, nil
}

// specOf is how a commit is built and served: a revision of --repo's
// repository, or of cfgfuzz's own around the current directory.
func (f *bisectFlags) specOf() (func(string) fuzz.Spec, error) {
	if f.repo == "" {
		if f.project.given() {
			return nil, fmt.Errorf("%s: builds and serves the revisions of --repo DIR only, and no --repo is given", f.project.names())
		}
		if !fuzz.IsOwnRepo("") {
			return nil, fmt.Errorf("not inside a git repository of cfgfuzz: give --repo DIR")
		}
		return func(c string) fuzz.Spec { return fuzz.Spec{Kind: fuzz.SpecRev, Rev: c} }, nil
	}
	top, err := repoFlag(f.repo)
	if err != nil {
		return nil, err
	}
	f.repo = top
	return func(c string) fuzz.Spec { return fuzz.Spec{Kind: fuzz.SpecRepo, Repo: top, Rev: c} }, nil
}

// graphIn is how a printed command gets the bisected graph: a file named
// as an argument, or for standard input the graph piped in.
type graphIn struct {
	pipe, arg string // pipe: "" or a command ending in "| "
}

// graphInput is file as a printed command's input: standard input ("-")
// as the graph printed and piped in, so that the command runs as printed:
// in compact notation, or in line notation, one printf line, when it has
// weights.
func graphInput(file string, g *cfg.Graph) graphIn {
	if file != "-" {
		return graphIn{arg: fuzz.ShellQuote(file)}
	}
	if !slices.ContainsFunc(g.Weights, func(w int) bool { return w != 0 }) {
		return graphIn{pipe: "echo " + fuzz.ShellQuote(cfg.FormatCompact(g)) + " | ", arg: "-"}
	}
	format := strings.NewReplacer(`\`, `\\`, "%", "%%", "\n", `\n`).Replace(cfg.FormatLines(g))
	return graphIn{pipe: "printf " + fuzz.ShellQuote(format) + " | ", arg: "-"}
}

// printBisect prints the first differing commit with its subject, both verdicts, what was
// skipped, and the commands that reproduce it, each judging as s (the
// strategy, checks and the gpu check's device, register file, walks,
// seed and limits the bisection ran).
func printBisect(res *fuzz.BisectResult, f bisectFlags, s fuzz.Settings, specOf func(string) fuzz.Spec, in graphIn, w io.Writer) {
	commits := fmt.Sprintf("%d commits", res.Commits)
	if res.Commits == 1 {
		commits = "1 commit"
	}
	fmt.Fprintf(w, "%s after the good one, %d tested, %d skipped\n", commits, res.Tested(), len(res.Skipped()))
	fmt.Fprintf(w, "good  %s: %s\n", res.Good, res.GoodVerdict)
	if len(res.Candidates) > 0 {
		fmt.Fprintf(w, "the first commit whose verdict differs is one of (the others were skipped): %s %s\n", strings.Join(res.Candidates, " "), res.First)
	}
	label := "first"
	if len(res.Candidates) > 0 {
		label = "then "
	}
	fmt.Fprintf(w, "%s %s: %s\n", label, firstCommit(res), res.FirstVerdict)
	if res.GoodVerdict != fuzz.OutOK && res.GoodVerdict != fuzz.OutUnsupported {
		fmt.Fprintf(w, "note: the good commit does not pass the graph either (%s): the commit found is where its verdict changes, a fix of that failure if it now passes; give --good a commit that passes (ok) to find where a failure began\n", res.GoodVerdict)
	}
	for _, s := range res.Steps {
		if s.Skipped != "" {
			fmt.Fprintf(w, "skipped %s: %s\n", s.Commit, s.Skipped)
			for _, l := range s.Output {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
	}
	cmd := []string{"cfgfuzz", "bisect"}
	if f.repo != "" {
		cmd = append(cmd, "--repo", fuzz.ShellQuote(f.repo))
		if flags := f.project.project().Flags(); flags != "" {
			cmd = append(cmd, flags[1:]) // without its leading space
		}
	}
	if judging := fuzz.JudgingFlags(&s, s.Strategy, ""); judging != "" {
		cmd = append(cmd, judging[1:]) // without its leading space
	}
	before := res.LastGood // the narrowest ends established, not --good
	if len(res.Candidates) == 0 {
		before = res.First + "^"
	}
	cmd = append(cmd, "--good", before, "--bad", res.First, in.arg)
	fmt.Fprintf(w, "reproduce: %s%s\n", in.pipe, strings.Join(cmd, " "))
	s.Current, s.Project = specOf(res.First).String(), f.project.recorded()
	fmt.Fprintf(w, "check it:  %s%s %s\n", in.pipe, fuzz.CheckCommand(&s, ""), in.arg)
}

// firstCommit is the first differing commit as its result line names
// it: the full hash, then its subject as a Go string literal (no colon
// or quote of the subject left bare, no control character), so that the
// line reads `first HASH "SUBJECT": VERDICT`; the hash alone when git
// gave no subject.
func firstCommit(res *fuzz.BisectResult) string {
	if res.FirstSubject == "" {
		return res.First
	}
	return res.First + " " + strconv.Quote(res.FirstSubject)
}
