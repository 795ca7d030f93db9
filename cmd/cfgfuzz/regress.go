// regress.go: `cfgfuzz regress [DIR]`: replay every regression file of a
// directory (the files `minimize --save-regression` writes; corpus/
// regress.go has the format, corpus/replay.go the cases) on the
// structurizer under test: --structurizer SPEC, else each file's own
// recorded spec, else this tree's. Prints one line per case, writes JUnit
// XML for CI with --junit, and exits 1 when any case fails, whatever the
// others gave, else 2 on a harness error or an incomplete replay
// (corpus/README.md, "Exit status of regress").

package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/internal/tidy"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

func init() {
	register(command{name: "regress", summary: "replay a directory of regression files on a structurizer (JUnit XML for CI)", run: runRegress})
}

type regressFlags struct {
	structurizer, junit, checks string
	proc                        processFlags
	project                     projectFlags
	walks, registers            int
	seed                        uint64
	timeout                     time.Duration
	// duration is the time budget (--duration): no file starts past it;
	// 0 none.
	duration time.Duration
	judge    judgeFlags
	// allowEmpty (--allow-empty) passes a directory that holds no
	// regression file, as a CI job set up before the first one is saved
	// needs; false: such a directory is a usage error (a mistyped path).
	allowEmpty bool
	// envGiven, compatGiven, walksGiven, seedGiven, timeoutGiven,
	// checkTimeoutGiven and growthTimeGiven say that --target-env,
	// --rules-compat, --walks, --seed, --timeout, --check-timeout and
	// --growth-time were given: they then judge every file, else each
	// file's header (as --checks does when given).
	envGiven, compatGiven, walksGiven, seedGiven, timeoutGiven, checkTimeoutGiven, growthTimeGiven bool
}

func runRegress(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	fs := flag.NewFlagSet("regress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var rf regressFlags
	rf.proc.stop = builds
	fs.StringVar(&rf.structurizer, "structurizer", "", "the structurizer under test: self, isolated, rev:REV, cmd:CMD or repo:DIR@REV (default: each file's own '# structurizer:', else self)")
	fs.StringVar(&rf.junit, "junit", "", "also write the results as JUnit XML to `FILE`")
	rf.proc.define(fs)
	rf.project.define(fs)
	fs.StringVar(&rf.checks, "checks", "", "comma-separated oracle checks (default: each file's own '# checks:', else every check whose tool is present, the gpu check included where a Vulkan device is; minimize and check leave gpu out unless --checks +gpu, so a failing case's replay then carries it; the summary names the checks run); --allow-fallbacks leaves the fallback check out of either")
	fs.IntVar(&rf.walks, "walks", 16, "random walks per graph on top of the edge-covering ones (as for minimize; default: each file's own '# walks:', else 16)")
	rf.registers = -1 // each file's own
	fs.Func("registers", "judge under a register file of `N` values (as for minimize; default: each file's own '# registers:', else none)", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("want a number of values, 0 or more")
		}
		rf.registers = n
		return nil
	})
	fs.Uint64Var(&rf.seed, "seed", 1, "seed of the random walks (as for minimize; default: each file's own '# walks:', else 1)")
	fs.DurationVar(&rf.timeout, "timeout", fuzz.DefaultTimeout, "per-graph limit on each structurizer call (default: each file's own '# timeout:', else 10s): "+timeoutVerdicts)
	fs.DurationVar(&rf.duration, "duration", 0, "time budget: no file starts past it, the case in flight finishes (its structurizer calls within --timeout, its checks within --check-timeout); the files not replayed are named in the summary and are error cases of the JUnit file, and the replay is incomplete (exit 2, or 1 when a case failed, as for any error); 0: none")
	fs.BoolVar(&rf.allowEmpty, "allow-empty", false, "a DIR that exists and holds no regression file passes (exit 0, 0 cases, an empty JUnit file with --junit) instead of exit 2; for a CI job set up before its first regression is saved")
	rf.judge.define(fs)
	// A file's header gives these when the flag is not: the usage says
	// so, with the value a file without the header gets, and the flag
	// package's "(default N)" would read as overriding the header.
	for _, name := range []string{"walks", "seed", "timeout"} {
		f := fs.Lookup(name)
		f.DefValue = map[string]string{"walks": "0", "seed": "0", "timeout": "0s"}[name]
	}
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz regress [flags] [DIR | FILE] [flags]")
		fmt.Fprintln(fs.Output(), "\nReplay every NAME.cfg regression file of DIR, not of its subdirectories (default: ./"+defaultRegressionsName+";")
		fmt.Fprintln(fs.Output(), "corpus/testdata/regressions inside a cfgfuzz checkout), or the one FILE. Each file's graph must pass every check ('# expect: pass', the default)")
		fmt.Fprintln(fs.Output(), "or fail with its signature ('# expect: fail'); a file found under a planted fault also must fail")
		fmt.Fprintln(fs.Output(), "with it when the structurizer plants cfgfuzz's faults (this tree's). Each file is judged under its\nheader's '# registers:', '# target-env:', '# rules-compat:', '# walks:', '# checks:', '# timeout:',\n'# check-timeout:' and '# growth-time:' unless --registers, --target-env, --rules-compat, --walks, --seed, --checks,\n--timeout, --check-timeout or --growth-time is given; --allow-fallbacks leaves the fallback check out of the file's checks or --checks. A file's own '# structurizer:' of a repo:\nspec is built and served with its '# build:' and '# serve:' where it records them (--build and --serve replace them).\nIn a file's '# structurizer:', '# build:' and '# serve:', {repo} is the top of the git work tree that\nholds the file and {dir} the file's directory.")
		fmt.Fprintln(fs.Output(), "Exit status: 1 a case failed, whatever the other cases gave (their errors are in the summary and the JUnit\nfile); else 2 a usage error, a harness error (a file that does not read, a structurizer that does not start: once the first 2 cases\nreplayed on one answered nothing, not even the protocol's hello, its cases left are not judged, each an ERROR), files\na --duration that ran out left (named in the summary, each an error case \"not run\" of the JUnit file) or a case that\npassed with a check that could not judge its module (\"not judged\" on its line); else 0. 130, 143, 129 stopped by\nSIGINT, SIGTERM, SIGHUP after the case in flight (the summary and the JUnit file hold the cases judged, the JUnit\nfile an error case \"interrupted\" too; a second signal ends at once).\n\nflags:")
		fs.PrintDefaults()
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if err := rf.judge.validate(); err != nil {
		fmt.Fprintln(stderr, flagError(fs.Name(), err))
		return exitUsage
	}
	if rf.structurizer != "" {
		if err := rf.project.needRepo(rf.structurizer); err != nil {
			fmt.Fprintln(stderr, flagError(fs.Name(), err))
			return exitUsage
		}
	}
	fs.Visit(func(f *flag.Flag) {
		rf.envGiven = rf.envGiven || f.Name == "target-env"
		rf.compatGiven = rf.compatGiven || f.Name == "rules-compat"
		rf.walksGiven = rf.walksGiven || f.Name == "walks"
		rf.seedGiven = rf.seedGiven || f.Name == "seed"
		rf.timeoutGiven = rf.timeoutGiven || f.Name == "timeout"
		rf.checkTimeoutGiven = rf.checkTimeoutGiven || f.Name == "check-timeout"
		rf.growthTimeGiven = rf.growthTimeGiven || f.Name == "growth-time"
	})
	pos := fs.Args()
	if len(pos) > 1 {
		fs.Usage()
		fmt.Fprintf(stderr, "cfgfuzz regress: want one DIR or FILE (a directory replays every *.cfg in it), got %d: %s\n", len(pos), strings.Join(pos, " "))
		return exitUsage
	}
	dir, err := "", error(nil)
	if len(pos) == 1 {
		dir = pos[0]
	} else if dir, err = defaultRegressionsDir(); err != nil {
		fmt.Fprintln(stderr, "cfgfuzz regress:", err)
		return exitUsage
	}
	code, err := regress(dir, rf, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz regress:", err)
	}
	return code
}

// defaultRegressionsDir is where regress reads without a DIR: the
// directory minimize --save-regression writes by default.
func defaultRegressionsDir() (string, error) {
	return regressionDir("")
}

// regress replays dir and reports.
func regress(dir string, rf regressFlags, stdout, stderr io.Writer) (int, error) {
	if err := checkJUnitFile(rf.junit); err != nil {
		return exitUsage, err
	}
	rs, bad, err := corpus.LoadRegressionsEach(dir)
	if err != nil {
		return exitUsage, err
	}
	if nested := nestedRegressions(dir); len(nested) > 0 {
		fmt.Fprintf(stderr, "cfgfuzz regress: note: %s in subdirectories of %s not replayed (regress reads DIR/*.cfg; give each directory), the first %s\n",
			fuzz.Plural(len(nested), "regression file"), dir, nested[0])
	}
	if len(rs)+len(bad) == 0 {
		return replayNothing(dir, rf, stderr)
	}
	if err := projectFlagsApply(rf, rs); err != nil {
		return exitUsage, err
	}
	// From here a stop signal is regress's own: the case in flight
	// finishes and the cases judged so far are reported.
	in := onStopSignals("regress", regressStop, stderr, rf.proc.stop)
	defer in.stop()
	r := &regressReplay{dir: dir, rf: rf, stdout: stdout, files: len(rs) + len(bad), code: exitOK, counts: map[string]int{}}
	in.sayWith(r.secondWords)
	r.rp = newReplayer(in.ctx, rf, stderr)
	defer r.rp.close()
	r.showUnread(bad)
	r.replayFiles(in.ctx, rs)
	r.tally(in.ctx, rs, len(bad))
	in.printed(func() { r.summarize(stderr) })
	if (len(r.notRun) > 0 || len(r.notJudged) > 0) && r.code == exitOK {
		r.code = exitUsage
	}
	if rf.junit != "" {
		if err := r.writeJUnit(); err != nil {
			return in.or(exitUsage), err
		}
	}
	return in.or(r.code), r.rp.err
}

// projectFlagsApply refuses --build or --serve that no file would be
// replayed with: --structurizer is checked when the flags are read; without
// it, they build and serve the repo: specs the files record, and a
// directory of which none records one is a usage error.
func projectFlagsApply(rf regressFlags, rs []*corpus.Regression) error {
	if rf.structurizer != "" || !rf.project.given() {
		return nil
	}
	var specs []string
	for _, r := range rs {
		if sp := cmp.Or(r.Header.Structurizer, fuzz.SpecSelf); !slices.Contains(specs, sp) {
			specs = append(specs, sp)
		}
	}
	if err := rf.project.needRepo(specs...); err != nil {
		return fmt.Errorf("%w (the structurizers the files record in '# structurizer:'; --structurizer repo:DIR@REV names one)", err)
	}
	return nil
}

// checkJUnitFile checks that --junit FILE ("" none) can be written: its
// directory exists, and FILE is not a directory.
func checkJUnitFile(junit string) error {
	if junit == "" {
		return nil
	}
	switch st, err := os.Stat(filepath.Dir(junit)); {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--junit %s: the directory %s does not exist", junit, filepath.Dir(junit))
	case err != nil:
		return fmt.Errorf("--junit %s: %w", junit, err)
	case !st.IsDir():
		return fmt.Errorf("--junit %s: %s is not a directory", junit, filepath.Dir(junit))
	}
	if st, err := os.Stat(junit); err == nil && st.IsDir() {
		return fmt.Errorf("--junit %s is a directory: give the file to write the XML into", junit)
	}
	return nil
}

// replayNothing ends the replay of a directory that holds no regression
// file: a usage error, unless --allow-empty passes it (with an empty
// JUnit file).
func replayNothing(dir string, rf regressFlags, stderr io.Writer) (int, error) {
	if !rf.allowEmpty {
		return exitUsage, fmt.Errorf("no regression files (*.cfg) in %s (--allow-empty passes an empty directory)", dir)
	}
	fmt.Fprintf(stderr, "cfgfuzz regress: %s: 0 files, 0 cases: nothing to replay (--allow-empty)\n", dir)
	if rf.junit != "" {
		if err := writeJUnit(rf.junit, junitReport(dir, nil, nil, nil)); err != nil {
			return exitUsage, err
		}
	}
	return exitOK, nil
}

// regressReplay is one replay of a directory's regression files: the
// cases judged so far, their counts by status and the exit status they
// give, and, for a second stop signal's line, how far it got.
type regressReplay struct {
	dir    string
	rf     regressFlags
	stdout io.Writer
	rp     *replayer
	files  int // the regression files, those that do not read included
	budget replayBudget
	cases  []corpus.ReplayCase
	judged int // files with a case
	code   int
	counts map[string]int
	// notJudged are the unchecked keys of the cases that passed.
	notJudged []string
	// filesSaid is the summary's count of files; stopped says, when a
	// stop signal ended the replay, after how many; notRun are the files
	// the time budget left.
	filesSaid, stopped string
	notRun             []*corpus.Regression
	// What a second signal finds done: the files replayed, the summary
	// (printed under in.printed) and the JUnit file.
	replayed     atomic.Int64
	summarized   bool
	junitWritten atomic.Bool
}

// secondWords is what a second stop signal's line says the replay
// leaves (regressSecondWords).
func (r *regressReplay) secondWords() string {
	return regressSecondWords(r.rf.junit, int(r.replayed.Load()), r.files, r.summarized,
		r.junitWritten.Load() || r.rf.junit != "" && tidy.Replaced(r.rf.junit))
}

// show prints case c's line as it is judged and counts it: a slow
// structurizer shows its progress, and a replay stopped part way keeps
// the lines of the cases it judged. A failed case is exit 1 whatever the
// others gave (corpus/README.md, "Exit status of regress"), an error
// case exit 2 unless one failed.
func (r *regressReplay) show(c corpus.ReplayCase) {
	r.counts[c.Status]++
	fmt.Fprintln(r.stdout, caseLine(c, r.rp.replay(c))+r.rp.pinnedNote(c))
	switch c.Status {
	case corpus.CaseFail:
		r.code = exitFail
	case corpus.CaseError:
		if r.code != exitFail {
			r.code = exitUsage
		}
	}
	r.notJudged = append(r.notJudged, c.Unchecked...)
}

// showUnread makes each file that does not read an error case of its own,
// reported with the others (and in the JUnit file); the rest still run.
func (r *regressReplay) showUnread(bad []corpus.BadRegression) {
	for _, b := range bad {
		name := strings.TrimSuffix(filepath.Base(b.Path), ".cfg")
		r.cases = append(r.cases, corpus.ReplayCase{Regression: &corpus.Regression{Name: name, Path: b.Path}, Case: "read",
			Want: "a regression file", Got: b.Err.Error(), Status: corpus.CaseError})
	}
	for _, c := range r.cases {
		r.show(c)
		r.replayed.Add(1)
	}
	r.judged = len(bad)
}

// replayFiles replays the files that read, within --duration (its budget
// starts here) and until ctx stops, showing each case as it is judged.
func (r *regressReplay) replayFiles(ctx context.Context, rs []*corpus.Regression) {
	r.budget = newReplayBudget(r.rf.duration)
	r.cases = append(r.cases, corpus.Replay(rs, corpus.ReplayOptions{Runner: r.rp.runner, PlantsFaults: r.rp.plantsFaults,
		OnCase: func(c corpus.ReplayCase) {
			r.show(c)
			r.rp.noteStart(c)
			if c.Case == "clean" {
				r.judged++
				r.replayed.Add(1)
			}
		},
		Stop: func() bool { return ctx.Err() != nil || r.budget.spent() }})...)
}

// tally says how far the replay got: every file, the files before a stop
// signal ended it (stopped), or the files before the time budget ran out
// (the rest notRun); unread files come first.
func (r *regressReplay) tally(ctx context.Context, rs []*corpus.Regression, unread int) {
	r.filesSaid = fmt.Sprintf("%d files", r.files)
	switch {
	case r.judged == r.files:
	case ctx.Err() != nil:
		r.stopped = fmt.Sprintf("interrupted (%v) after %d of %d files", context.Cause(ctx), r.judged, r.files)
		r.filesSaid = r.stopped
	default: // the time budget ran out
		r.notRun = rs[r.judged-unread:]
		r.filesSaid = fmt.Sprintf("%d of %d files (%s)", r.judged, r.files, r.budget.outOfTime())
	}
}

// summarize prints the replay's summary on stderr: the cases by status
// and the checks run, then the files the time budget left and the checks
// that could not judge a case that passed.
func (r *regressReplay) summarize(stderr io.Writer) {
	fmt.Fprintf(stderr, "cfgfuzz regress: %s: %s, %d cases: %d passed, %d failed, %d errors, %d skipped%s\n",
		r.dir, r.filesSaid, len(r.cases), r.counts[corpus.CasePass], r.counts[corpus.CaseFail], r.counts[corpus.CaseError], r.counts[corpus.CaseSkip], checksNamed(r.rp.checks))
	if len(r.notRun) > 0 {
		inJUnit := ""
		if r.rf.junit != "" {
			inJUnit = "; each is an error case of the JUnit file"
		}
		fmt.Fprintf(stderr, "cfgfuzz regress: incomplete: %s not replayed (%s): %s%s\n", fuzz.Plural(len(r.notRun), "file"), r.budget.outOfTime(), regressionPaths(r.notRun), inJUnit)
	}
	if note := notStartedNote(r.cases); note != "" {
		fmt.Fprintln(stderr, "cfgfuzz regress:", note)
	}
	if len(r.notJudged) > 0 {
		fmt.Fprintf(stderr, "cfgfuzz regress: incomplete: some checks of cases that passed could not judge the module (\"not judged\" on the line); to leave those checks out: --checks %s\n", fuzz.LeaveOut(r.notJudged))
	}
	r.summarized = true
}

// writeJUnit writes the cases judged into the JUnit file, with an error
// case for a replay a stop signal ended and one for each file the time
// budget left.
func (r *regressReplay) writeJUnit() error {
	j := junitReport(r.dir, r.cases, r.rp.replay, r.rp.walksOf)
	if r.stopped != "" {
		j.addError("interrupted", r.stopped+": the other files were not replayed")
	}
	for _, n := range r.notRun {
		j.addNotRun(n, r.rp.walksOf(n), "not run: "+r.budget.outOfTime())
	}
	if err := writeJUnit(r.rf.junit, j); err != nil {
		return err
	}
	r.junitWritten.Store(true)
	return nil
}

// regressStop is what regress's stop lines say; the second one's words
// in parentheses are regressSecondWords's once the cases run.
var regressStop = stopWords{
	first:  "the case in flight finishes, then the summary and the JUnit file of the cases judged; a second signal ends at once",
	second: "killing the structurizer servers and ending now (no case replayed, no summary or JUnit file is written)",
}

// regressSecondWords says what a regress ending at once on a second
// signal leaves: replayed of files replayed (their lines printed) and the
// rest not, while the summary is not printed; whether the summary is
// printed and the JUnit file junit ("" none asked for) written.
func regressSecondWords(junit string, replayed, files int, summarized, junitWritten bool) string {
	var s string
	if summarized {
		s = "the summary is printed"
	} else {
		s = fmt.Sprintf("%d of %d files replayed, their cases' lines printed, the others not; no summary is printed", replayed, files)
	}
	switch {
	case junit == "":
	case junitWritten:
		s += ", the JUnit file " + junit + " is written"
	default:
		s += ", the JUnit file " + junit + " is not written"
	}
	return s
}

// caseLine is one case's line: ok, FAIL, ERROR or SKIP, the file and the
// case, and for a failure what was wanted, what came with the failing
// check's words on it, and the replay.
func caseLine(c corpus.ReplayCase, replay string) string {
	name := c.Regression.Path + " " + c.Case
	switch c.Status {
	case corpus.CasePass:
		if len(c.Unchecked) > 0 {
			return "ok " + name + "; not judged: " + strings.Join(c.Unchecked, ", ")
		}
		return "ok " + name
	case corpus.CaseSkip:
		return "SKIP " + name + ": " + c.Got
	case corpus.CaseError:
		return "ERROR " + name + ": " + c.Got
	}
	got := c.Got
	if d := caseDetail(c.Detail); d != "" {
		got += " (" + d + ")"
	}
	return fmt.Sprintf("FAIL %s: want %s, got %s; replay: %s", name, c.Want, got, replay)
}

// caseDetail is the first line of a failing case's detail, the failing
// check's own words (the walk that differs, the rule broken), cut at
// lineClip bytes: a test log that shows regress's output then says what
// went wrong, which the JUnit file holds whole.
func caseDetail(d string) string {
	d = strings.TrimSpace(firstLine(d))
	if len(d) <= lineClip {
		return d
	}
	cut := lineClip
	for cut > 0 && !utf8.RuneStart(d[cut]) {
		cut--
	}
	return d[:cut] + "..."
}

// checksNamed is the summary's note of the checks run, empty when no
// case was judged.
func checksNamed(checks []string) string {
	if len(checks) == 0 {
		return ""
	}
	return "; checks " + strings.Join(checks, ",")
}

// replayer opens one side per structurizer spec and one runner per spec,
// strategy and faults, for corpus.Replay.
type replayer struct {
	ctx     context.Context // a build a side needs stops with it
	rf      regressFlags
	log     io.Writer
	sides   map[string]fuzz.Side
	specs   map[string]fuzz.Spec
	runners map[string]*corpus.Runner
	// abandoned are the sides whose judgement ran past --check-timeout,
	// closed at the end.
	abandoned []fuzz.Side
	err       error // the first side that could not start
	// checks are the checks the runners run, in the order first met (the
	// summary names them).
	checks []string
	// unstarted watches each spec's cases, in order, for servers that
	// did not start (fuzz.UnstartedStop); gaveUp holds the specs whose
	// watch stopped: their cases left are not judged (unstartedSpec).
	unstarted map[string]*fuzz.UnstartedStop
	gaveUp    map[string]bool
}

// unstartedSpec is the error of a case not judged because its spec's
// servers did not start on the first cases replayed on it.
type unstartedSpec struct {
	spec string
}

func (e *unstartedSpec) Error() string {
	return fmt.Sprintf("not judged: the servers of %s answered nothing, not even the protocol's hello, on the first %d cases replayed on it, within --timeout and --start-timeout: every case would wait as long", e.spec, fuzz.UnstartedStopGraphs)
}

// noteStart takes case c, judged on its spec's server, into the spec's
// watch for servers that did not start: once it stops, the spec's cases
// left are not judged (runner).
func (rp *replayer) noteStart(c corpus.ReplayCase) {
	spec, err := rp.specOf(c.Regression)
	if err != nil || c.Status == corpus.CaseSkip {
		return
	}
	u := rp.unstarted[spec]
	if u == nil {
		u = &fuzz.UnstartedStop{}
		rp.unstarted[spec] = u
	}
	if u.Add(fuzz.NotStarted(c.Err)) {
		rp.gaveUp[spec] = true
	}
}

// notStartedNote is the summary's line on the cases left not judged
// because their structurizers' servers did not start (unstartedSpec), ""
// for none.
func notStartedNote(cases []corpus.ReplayCase) string {
	var specs []string
	n := 0
	for _, c := range cases {
		var us *unstartedSpec
		if errors.As(c.Err, &us) {
			n++
			if !slices.Contains(specs, us.spec) {
				specs = append(specs, us.spec)
			}
		}
	}
	if n == 0 {
		return ""
	}
	quoted := make([]string, len(specs))
	for i, sp := range specs {
		quoted[i] = "`cfgfuzz selftest --structurizer " + fuzz.ShellQuote(sp) + "`"
	}
	return fmt.Sprintf("incomplete: %s not judged (ERROR lines): the servers of %s answered nothing, not even the protocol's hello, on the first %d cases replayed on it, within --timeout and --start-timeout, and every case left would wait as long; %s shows whether the structurizer serves the protocol, and how it fails",
		fuzz.Plural(n, "case"), strings.Join(specs, " and of "), fuzz.UnstartedStopGraphs, strings.Join(quoted, " and "))
}

func newReplayer(ctx context.Context, rf regressFlags, log io.Writer) *replayer {
	return &replayer{ctx: ctx, rf: rf, log: log, sides: map[string]fuzz.Side{}, specs: map[string]fuzz.Spec{}, runners: map[string]*corpus.Runner{},
		unstarted: map[string]*fuzz.UnstartedStop{}, gaveUp: map[string]bool{}}
}

// specOf is the spec a file is replayed on: the flag's, else the file's
// own with its placeholders replaced from where it lies (portable.go),
// else self. The error is a placeholder that cannot be replaced.
func (rp *replayer) specOf(r *corpus.Regression) (string, error) {
	switch {
	case rp.rf.structurizer != "":
		return rp.rf.structurizer, nil
	case r.Header.Structurizer != "":
		spec, err := recordedSpec(r)
		if err != nil {
			return spec, fmt.Errorf("%w (--structurizer SPEC replays it on your build)", err)
		}
		return spec, nil
	}
	return fuzz.SpecSelf, nil
}

// pinnedNote is what a failed case's line adds when the file was judged
// on the commit its header records (a rev: or repo: spec, no
// --structurizer): a file saved from a comparison of two commits records
// the one that failed, so it fails on every replay until --structurizer
// names the build to judge.
func (rp *replayer) pinnedNote(c corpus.ReplayCase) string {
	if c.Status != corpus.CaseFail || rp.rf.structurizer != "" || c.Regression.Header.Structurizer == "" {
		return ""
	}
	spec, err := rp.specOf(c.Regression)
	if err != nil {
		return ""
	}
	sp, err := fuzz.ParseSpec(spec)
	if err != nil || sp.Kind != fuzz.SpecRev && sp.Kind != fuzz.SpecRepo {
		return ""
	}
	return fmt.Sprintf(" (judged on the commit the file records, %s: --structurizer SPEC judges your build)", sp)
}

// projectOf is how a file's repo spec is built and served: --build and
// --serve where given, else, on the file's own structurizer, the
// '# build:' and '# serve:' its header records (placeholders replaced);
// DIR/.cfgfuzz.json gives the rest. The error is a placeholder that
// cannot be replaced.
func (rp *replayer) projectOf(r *corpus.Regression) (fuzz.Project, error) {
	var p fuzz.Project
	if rp.rf.structurizer == "" {
		var err error
		if p, err = recordedProject(r); err != nil {
			return p, fmt.Errorf("%w (--build and --serve replace them)", err)
		}
	}
	if rp.rf.project.build != "" {
		p.Build = rp.rf.project.build
	}
	if rp.rf.project.serve != "" {
		p.Serve = rp.rf.project.serve
	}
	return p, nil
}

// sideKey names the side of spec built and served with project's
// commands: a spec alone when the project is the repository's file's.
func sideKey(spec string, project fuzz.Project) string {
	return spec + project.Flags()
}

// side is the (started) side of a spec built and served with project.
func (rp *replayer) side(spec string, project fuzz.Project) (fuzz.Side, fuzz.Spec, error) {
	key := sideKey(spec, project)
	if s, ok := rp.sides[key]; ok {
		return s, rp.specs[key], nil
	}
	s, sp, err := openSide(rp.rf.proc.builds(rp.ctx, rp.log), spec, project, rp.rf.proc.options())
	if err != nil {
		if rp.rf.structurizer == "" && spec != fuzz.SpecSelf {
			// The file's own, the build it was found on: a CI job's
			// machine seldom has it.
			err = fmt.Errorf("%w (the structurizer the file records in # structurizer:; --structurizer SPEC replays it on your build)", err)
		}
		if rp.err == nil {
			rp.err = err
		}
		return nil, sp, err
	}
	rp.sides[key], rp.specs[key] = s, sp
	return s, sp, nil
}

func (rp *replayer) runner(r *corpus.Regression, strategy string, faults []string) (*corpus.Runner, error) {
	spec, err := rp.specOf(r)
	if err != nil {
		return nil, err
	}
	if rp.gaveUp[spec] {
		return nil, &unstartedSpec{spec: spec}
	}
	project, err := rp.projectOf(r)
	if err != nil {
		return nil, err
	}
	sk := sideKey(spec, project)
	registers := rp.registersOf(r)
	env, compat := rp.judgingOf(r)
	walks := rp.walksOf(r)
	checks, timeout, checkLimit, growthTime := rp.checksOf(r), rp.timeoutOf(r), rp.checkLimitOf(r), rp.growthTimeOf(r)
	key := strings.Join([]string{sk, strategy, strings.Join(faults, ","), strconv.Itoa(registers), env, compat, walks.String(),
		checks, timeout.String(), checkLimit.String(), growthTime.String()}, "\x00")
	if run, ok := rp.runners[key]; ok {
		return run, nil
	}
	side, _, err := rp.side(spec, project)
	if err != nil {
		return nil, err
	}
	ro := corpus.RunnerOptions{Oracle: corpus.CampaignOracle(corpus.Judging{Walks: walks.Random, Seed: walks.Seed, Registers: registers, TargetEnv: env, RulesCompat: compat, GrowthTime: growthTime}),
		Structurize: fuzz.SideStructurizer(side, proto.Options{Strategy: strategy, Inject: faults, Registers: registers}, timeout),
		CheckLimit:  checkLimit, OnAbandon: func() { rp.abandon(sk) }}
	ro.Checks = rp.resolveChecks(checks, ro.Oracle)
	run, err := corpus.NewRunner(ro)
	if err != nil {
		switch {
		case !rp.rf.envGiven && r.Header.TargetEnv != "":
			// the file's own environment, which no flag checked
			err = fmt.Errorf("'# target-env: %s': %w (--target-env ENV judges the file under another)", r.Header.TargetEnv, err)
		case rp.rf.checks == "" && r.Header.Checks != "":
			err = fmt.Errorf("'# checks: %s': %w (--checks judges the file under others)", r.Header.Checks, err)
		}
		return nil, err
	}
	rp.runners[key] = run
	rp.noteChecks(run.Oracle.Checks())
	return run, nil
}

// noteChecks adds a new runner's checks to those the summary names.
func (rp *replayer) noteChecks(checks []string) {
	for _, c := range checks {
		if !slices.Contains(rp.checks, c) {
			rp.checks = append(rp.checks, c)
		}
	}
}

// abandon drops the side of key (sideKey) and its runners after a
// judgement ran past --check-timeout (the judgement still holds the
// side): the next case on it starts a new one.
func (rp *replayer) abandon(sk string) {
	if s, ok := rp.sides[sk]; ok {
		rp.abandoned = append(rp.abandoned, s)
		delete(rp.sides, sk)
	}
	for key := range rp.runners {
		if strings.HasPrefix(key, sk+"\x00") {
			delete(rp.runners, key)
		}
	}
}

// recorded is the judging r is judged under: each flag given, else what
// r's header records (recordedFields, as check and minimize take it),
// else the flag's default. The file's strategy and faults are its cases'
// (corpus.Replay), and --allow-fallbacks applies to the checks taken too
// (checksOf): neither is read here.
func (rp *replayer) recorded(r *corpus.Regression) usedJudging {
	rf := rp.rf
	u := usedJudging{registers: max(rf.registers, 0), walks: corpus.Walks{Random: rf.walks, Seed: rf.seed}, checks: rf.checks,
		timeout: rf.timeout, judge: rf.judge}
	u.judge.allowFallbacks = false
	given := map[string]bool{"inject": true, "strategy": true, "registers": rf.registers >= 0, "walks": rf.walksGiven, "seed": rf.seedGiven,
		"checks": rf.checks != "", "timeout": rf.timeoutGiven, "check-timeout": rf.checkTimeoutGiven, "growth-time": rf.growthTimeGiven,
		"target-env": rf.envGiven, "rules-compat": rf.compatGiven}
	u.adopt(r.Header, given)
	if !rf.envGiven {
		u.judge.targetEnv = r.Header.Env() // the file's own, the default where it records none
	}
	return u
}

// checksOf is the --checks value r is judged under, --allow-fallbacks
// applied: --checks when given, else the file's own '# checks:' ("" the
// defaults).
func (rp *replayer) checksOf(r *corpus.Regression) string {
	checks := rp.recorded(r).checks
	if rp.rf.judge.allowFallbacks {
		checks = strings.TrimPrefix(checks+",-fallback", ",")
	}
	return checks
}

// resolveChecks is the checks a runner on base runs for the --checks
// value checks (checksOf): --checks as check resolves it; a file's names
// as given, and its changes of the defaults ("-fallback", or
// --allow-fallbacks alone) applied to regress's defaults, every check
// whose tool is present (corpus.AllChecks); nil for "", those defaults.
func (rp *replayer) resolveChecks(checks string, base oracle.Options) []string {
	switch {
	case checks == "":
		return nil
	case rp.rf.checks != "" || !changesOnly(checks):
		return oracle.ResolveChecks(checks)
	}
	return oracle.ResolveChecks(strings.Join(corpus.AllChecks(base), ",") + "," + checks)
}

// changesOnly says whether a --checks value only changes the defaults:
// each name prefixed + or -.
func changesOnly(checks string) bool {
	return corpus.Header{Checks: checks}.ChecksChangeDefaults()
}

// timeoutOf is the per-graph limit r is judged under: --timeout when
// given, else the file's own, else the default.
func (rp *replayer) timeoutOf(r *corpus.Regression) time.Duration { return rp.recorded(r).timeout }

// checkLimitOf is the limit on r's checks: --check-timeout when given,
// else the file's own, else the default.
func (rp *replayer) checkLimitOf(r *corpus.Regression) time.Duration {
	return rp.recorded(r).judge.checkTimeout
}

// growthTimeOf is the growth check's time limit r is judged under:
// --growth-time when given, else the file's own, else the default.
func (rp *replayer) growthTimeOf(r *corpus.Regression) time.Duration {
	return rp.recorded(r).judge.growthTime
}

// registersOf is the register file r is judged under: --registers when
// given, else the file's own.
func (rp *replayer) registersOf(r *corpus.Regression) int { return rp.recorded(r).registers }

// walksOf is the random walks r is judged under: --walks and --seed where
// given, else the file's own.
func (rp *replayer) walksOf(r *corpus.Regression) corpus.Walks { return rp.recorded(r).walks }

// judgingOf is the target environment and rules reading r is judged
// under: each the flag's when given, else the file's own.
func (rp *replayer) judgingOf(r *corpus.Regression) (env, compat string) {
	u := rp.recorded(r)
	return u.judge.targetEnv, u.judge.rulesCompat
}

// plantsFaults: only this tree's structurizer plants cfgfuzz's faults.
func (rp *replayer) plantsFaults(r *corpus.Regression) bool {
	spec, err := rp.specOf(r)
	if err != nil {
		return false
	}
	sp, err := fuzz.ParseSpec(spec)
	return err == nil && sp.IsSelf()
}

// replay is the check command that reproduces a case: on the spec as
// resolved, with the paths under the working directory named from there
// and the others absolute (portable.go), so it runs where regress ran,
// in this checkout or, copied from a CI log, in the same place of another.
func (rp *replayer) replay(c corpus.ReplayCase) string {
	path := c.Regression.Path
	if abs, err := filepath.Abs(path); err == nil {
		path = shownPath(abs)
	}
	if c.Case == "read" { // its header did not read: no spec or settings to trust
		return "cfgfuzz regress " + fuzz.ShellQuote(path)
	}
	spec, _ := rp.specOf(c.Regression)
	project, _ := rp.projectOf(c.Regression)
	sp, ok := rp.specs[sideKey(spec, project)]
	if !ok {
		sp, _ = fuzz.ParseSpec(spec)
	}
	sp = shownSpec(sp)
	checks := rp.checksOf(c.Regression)
	if rp.rf.checks == "" && changesOnly(checks) && slices.Contains(rp.checks, "gpu") {
		checks = strings.TrimSuffix("+gpu,"+checks, ",") // the default set here had it; check's leaves it out
	}
	walks := rp.walksOf(c.Regression)
	s := fuzz.Settings{Current: sp.String(), Strategy: c.Regression.Header.Strategy, Walks: walks.Random, Seed: walks.Seed,
		Checks: splitList(checks), Timeout: fuzz.Duration(rp.timeoutOf(c.Regression)), Registers: rp.registersOf(c.Regression)}
	if project.Build != "" || project.Serve != "" {
		shown := project.MapPaths(shownPath)
		s.Project = &shown
	}
	j := rp.rf.judge
	j.targetEnv, j.rulesCompat = rp.judgingOf(c.Regression)
	j.checkTimeout, j.growthTime = rp.checkLimitOf(c.Regression), rp.growthTimeOf(c.Regression)
	j.settings(&s)
	if c.Case != "clean" {
		s.Inject = c.Regression.Header.Faults()
	}
	return fuzz.CheckCommand(&s, c.Regression.Header.Signature) + " " + fuzz.ShellQuote(path)
}

// nestedRegressions are the *.cfg files below dir's own, at any depth
// (symbolic links not followed), in walk order: regress does not replay
// them, and says so.
func nestedRegressions(dir string) []string {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil // one file: nothing below it
	}
	var nested []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".cfg") && filepath.Dir(p) != filepath.Clean(dir) {
			nested = append(nested, p)
		}
		return nil // an unreadable directory is left out
	})
	return nested
}

func (rp *replayer) close() {
	for _, s := range rp.sides {
		s.Close()
	}
	for _, s := range rp.abandoned {
		s.Close()
	}
}

// regressionPaths is the files' paths, comma-separated.
func regressionPaths(rs []*corpus.Regression) string {
	paths := make([]string, len(rs))
	for i, r := range rs {
		paths[i] = r.Path
	}
	return strings.Join(paths, ", ")
}
