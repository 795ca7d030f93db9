// merge.go: `cfgfuzz merge [--out DIR] [--state DIR] [--corpus DIR] DIR...`,
// which combines the directories of a campaign's shards into one report,
// equal to the report of the whole campaign run on one machine: it
// minimizes the new findings the shards deferred into DIR/findings (once
// per signature), with --state classes the signatures against the state
// the shards read and writes the night's updated state into it, and for a
// guided night writes the corpus the whole night grew where the shards
// read it (--corpus, else the state's corpus/).

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func init() {
	register(command{name: "merge", summary: "merge the shards of a campaign into one report", run: runMerge})
}

func runMerge(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "cfgfuzz-out", "output `DIR` of the merged report")
	partial := fs.Bool("partial", false, "merge an incomplete shard set (a shard missing, interrupted, torn or of another split); the report names what is missing")
	mixed := fs.Bool("mixed", false, "merge shards that another cfgfuzz build wrote (than each other, or than this one), or that ran other builds of a cmd: structurizer (the files its command names differ); the report names each shard's writer, the state is not committed, and the exit status is 2 unless a finding is new")
	state := fs.String("state", "", "the state `DIR` the shards ran with (--state): class the signatures against it and write the night's updated state into it")
	corpus := fs.String("corpus", "", "the guided corpus `DIR` the shards read (their --corpus): write the corpus the whole night grew into it (default with --state: STATE/corpus)")
	minimize := fs.Bool("minimize", true, "minimize the first graph of every new finding's signature (the shards defer it) into DIR/findings, each search within --minimize-timeout and --minimize-steps, all of them within --minimize-budget")
	saveRegs := fs.String("save-regressions", "", saveRegressionsUsage)
	progress := fs.String("progress", "auto", progressUsage)
	force := fs.Bool("force", false, "replace the merge that --out holds (its reports, findings, pictures and state update); without it such a DIR is refused, unless it holds this same merge unfinished (stopped, or its state not committed)")
	var budget minimizeBudget
	budget.define(fs)
	proc := processFlags{stop: builds} // the minimizer's builds: --build-timeout, and stopped with the command
	fs.DurationVar(&proc.buildTimeout, "build-timeout", 0, buildTimeoutUsage+"; a revision the minimizer needs built")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz merge [--out DIR [--force]] [--partial] [--state DIR] [--corpus DIR] SHARD_DIR...\n\nCombine the shards' results logs into one report. Exit status: 0 nothing new, 1 new findings")
		fmt.Fprintln(fs.Output(), "(with --state: new signatures) or output grown past the campaign's --max-growth, 2 usage or infrastructure error\n(the structurizer the shards ran not there to minimize with: the state is then left as it was), graphs without a whole verdict (harness errors,\na check that could not judge a module), an incomplete shard set, or a --partial merge without new findings.\n\nflags:")
		fs.PrintDefaults()
	}
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	if !slices.Contains(progressModes, *progress) {
		fmt.Fprintf(stderr, "cfgfuzz merge: invalid value %q for flag --progress: want %s\n", *progress, strings.Join(progressModes, ", "))
		return exitUsage
	}
	if err := checkOutState(*out, *state); err != nil {
		fmt.Fprintln(stderr, "cfgfuzz merge:", err)
		return exitUsage
	}
	if *saveRegs != "" {
		if err := checkRegressionDir(*saveRegs); err != nil {
			fmt.Fprintln(stderr, "cfgfuzz merge: --save-regressions:", err)
			return exitUsage
		}
	}
	lines, _ := progressOutput(*progress, stderr)
	corpusDir := *corpus
	if corpusDir == "" && *state != "" {
		corpusDir = filepath.Join(*state, fuzz.StateCorpusDir)
	}
	again := "cfgfuzz merge " + shellWords(args)
	rep, minErr, err := mergeNight(fs.Args(), *out, *state, *force, *minimize, budget, proc, fuzz.MergeOptions{Partial: *partial, Mixed: *mixed, Writer: thisWriter(), Log: lines, CorpusDir: corpusDir}, again, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz merge:", err)
		return exitUsage
	}
	code := reportExit("merge", rep, nil, *out, stdout, stderr)
	if err := saveRegressions(*saveRegs, rep, "merge", stdout); err != nil {
		fmt.Fprintln(stderr, "cfgfuzz merge:", err)
		return exitUsage
	}
	if (rep.Incomplete != nil || rep.Mixed != nil) && code == exitOK {
		return exitUsage
	}
	if notCommitted("merge", rep, stderr) {
		return exitUsage
	}
	if minErr != nil { // an infrastructure error: the night is not recorded
		return exitUsage
	}
	return code
}

// mergeFiles are the files and directories a merge writes into its --out,
// which --force removes: nothing of an earlier merge (its findings, its
// pictures) is left beside the new report to be read as the new night's.
var mergeFiles = []string{"report.json", "report.md", "report.html", "findings", fuzz.PicturesDir, fuzz.StateUpdateDir, unfinishedFile}

// unfinishedFile is in a merge's --out from when the merge starts writing
// there until it has finished: it stays when the merge is stopped (a
// signal, a kill) or cannot commit the night's state (a full disk, the
// state's lock held), and names the state and the shards (unfinishedText).
// The same merge run again replaces such an --out without --force.
const unfinishedFile = "unfinished-merge.txt"

// unfinishedText is unfinishedFile's text for a merge of the shards dirs
// with the state directory state ("" without one): the directories
// absolute, the shards sorted, each quoted.
func unfinishedText(dirs []string, state string) string {
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	var b strings.Builder
	b.WriteString("# a merge that has not finished: stopped, or its state not committed; the same merge run again replaces it\n")
	if state != "" {
		fmt.Fprintf(&b, "state %q\n", abs(state))
	}
	var shards []string
	for _, d := range dirs {
		shards = append(shards, abs(d))
	}
	slices.Sort(shards)
	for _, d := range shards {
		fmt.Fprintf(&b, "shard %q\n", d)
	}
	return b.String()
}

// checkMergeOut refuses an out that is one of the inputs, holds a
// campaign (whose report the merge would replace), or holds an earlier
// merge unless force. An out holding this same merge unfinished
// (unfinishedFile: the same state and shards) is not refused. replace
// says whether the merge removes what out holds of a merge once it goes
// on.
func checkMergeOut(out string, inputs []string, state string, force bool) (replace bool, err error) {
	for _, in := range inputs {
		if sameDir(out, in) {
			return false, fmt.Errorf("--out %s is one of the shards merged; choose another directory", out)
		}
	}
	if _, err := os.Stat(filepath.Join(out, fuzz.CampaignFile)); err == nil {
		return false, fmt.Errorf("--out %s holds a campaign (%s) whose report the merge would replace; choose another directory", out, fuzz.CampaignFile)
	}
	if force {
		return true, nil
	}
	if b, err := os.ReadFile(filepath.Join(out, unfinishedFile)); err == nil {
		if string(b) == unfinishedText(inputs, state) {
			return true, nil
		}
		return false, fmt.Errorf("--out %s holds an unfinished merge of other shards or another --state (%s names them): replace it with --force, or choose another directory", out, filepath.Join(out, unfinishedFile))
	}
	for _, name := range mergeFiles {
		if _, err := os.Lstat(filepath.Join(out, name)); err == nil {
			return false, fmt.Errorf("--out %s holds an earlier merge (%s): replace it with --force, or choose another directory", out, name)
		}
	}
	return false, nil
}

// sameDir reports whether a and b name one existing directory.
func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// mergeNight merges as opt says (an incomplete shard set only when
// opt.Partial, shards of another cfgfuzz only when opt.Mixed), minimizes,
// writes the reports into out, locked, and commits the state of a whole
// night of one cfgfuzz whose new findings were minimized. minErr says why
// the minimizer did not start (the structurizer the shards ran is not
// there): the night's new findings are then not minimized, and the state
// is left as it was, so that they stay new and a merge run again where
// the structurizer runs minimizes them. opt.Log (nil: none) takes the
// minimization's progress lines, as a campaign's --progress; stderr the
// merge's own messages; proc says how a revision the minimizer needs is
// built (its --build-timeout, its BuildStop). A guided night's grown corpus is written into
// opt.CorpusDir after the state is committed (or, without a state, after
// the reports), not when the state is left as it was. A commit that
// cannot be written (a full disk, the state's lock held) leaves out
// whole, its reports saying so (StateReport.NotCommitted) with again,
// the command that runs this merge again, and unfinishedFile in place,
// so that again replaces it. A merge a stop signal ends (killServersOnStop)
// says so, with again, before it ends (mergeStopped): it leaves out as a
// failed commit does, unfinishedFile in place, and the state as it was.
func mergeNight(dirs []string, out, state string, force, minimize bool, budget minimizeBudget, proc processFlags, opt fuzz.MergeOptions, again string, stderr io.Writer) (rep *fuzz.Report, minErr error, err error) {
	replace, err := checkMergeOut(out, dirs, state, force)
	if err != nil {
		return nil, nil, err
	}
	if _, serr := os.Lstat(out); errors.Is(serr, os.ErrNotExist) {
		// A refused merge leaves no folder of its own behind: out is
		// removed again when nothing was written into it (os.Remove
		// removes an empty directory only), after the lock is released.
		defer func() {
			if err != nil {
				os.Remove(out)
			}
		}()
	}
	unlock, err := lockMergeOut(out, stderr)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	// Once the merge is known to go on (every refusal made: MergeNight
	// calls opt.Prepare), --force (or an unfinished run of this same
	// merge) has the earlier merge's files removed, and unfinishedFile is
	// written; from then a merge that fails before it commits removes
	// what it wrote (a report, a findings store cut short by a full
	// disk), so that the merge run again is not refused as replacing an
	// earlier one, and one that finishes removes unfinishedFile. A merge
	// whose commit cannot be written keeps both: its reports say so. A
	// refused merge leaves out as it was, an earlier merge included.
	m := &nightMerge{dirs: dirs, out: out, state: state, again: again, replace: replace}
	stopSays.Store(stopNote{"merge", func() string { return mergeStopped(out, state, again, &m.writing, &m.committing, &m.committed) }})
	defer stopSays.Store(stopNote{})
	opt.Prepare = m.prepare
	defer func() { m.tidy(err) }()
	concurrent, unmark, err := loadMergeState(&opt, state, stderr)
	if err != nil {
		return nil, nil, err
	}
	defer unmark()
	var sides openSides
	defer sides.close()
	if minimize {
		if err := mergeMinimizer(&opt, dirs[0], out, &sides, budget, proc, stderr, &minErr); err != nil {
			return nil, nil, err
		}
	}
	rep, up, grown, err := fuzz.MergeNight(dirs, opt)
	if err != nil {
		return nil, nil, err
	}
	if rep.State != nil {
		rep.State.Concurrent = concurrent
	}
	return m.finish(rep, up, grown, opt, minErr, stderr)
}

// lockMergeOut makes the merge's output directory out and locks it; the
// function it returns releases the lock.
func lockMergeOut(out string, stderr io.Writer) (unlock func(), err error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	return fuzz.LockDir(out, stderr)
}

// nightMerge is a merge's output directory out and how far the merge got
// in writing it: writing once the merge goes on (prepare), committing
// once it commits the night's state, committed once the commit is done,
// unsaved when the commit could not be written (out is then kept whole,
// unfinishedFile included, for the merge run again).
type nightMerge struct {
	dirs                           []string
	out, state, again              string
	replace                        bool // --force, or an unfinished run of this same merge
	writing, committing, committed atomic.Bool
	unsaved                        bool
}

// prepare is the merge's opt.Prepare: once every refusal is made, it
// removes an earlier merge's files (replace) and writes unfinishedFile.
func (m *nightMerge) prepare() error {
	m.writing.Store(true)
	if m.replace {
		for _, name := range mergeFiles {
			if err := os.RemoveAll(filepath.Join(m.out, name)); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(filepath.Join(m.out, unfinishedFile), []byte(unfinishedText(m.dirs, m.state)), 0o644)
}

// tidy is what the merge leaves in out as it returns err: a merge that
// wrote nothing leaves out as it was, one that failed before its commit
// removes the files it wrote, and one that finished (its commit written)
// removes unfinishedFile.
func (m *nightMerge) tidy(err error) {
	switch {
	case !m.writing.Load():
	case err != nil && !m.committed.Load():
		for _, name := range mergeFiles {
			os.RemoveAll(filepath.Join(m.out, name))
		}
	case !m.unsaved:
		os.Remove(filepath.Join(m.out, unfinishedFile))
	}
}

// loadMergeState reads the state directory the shards ran with (""
// none) into opt.State; a merge of every shard commits the night there,
// so it must be writable, and it marks the state while it runs (unmark
// removes the mark), warning of another live process that will commit
// to it (concurrent names it; "" none).
func loadMergeState(opt *fuzz.MergeOptions, state string, stderr io.Writer) (concurrent string, unmark func(), err error) {
	unmark = func() {}
	if state == "" {
		return "", unmark, nil
	}
	st, err := fuzz.LoadState(state)
	if err != nil {
		return "", unmark, fmt.Errorf("--state: %w", err)
	}
	if st.Newer != "" {
		fmt.Fprintf(stderr, "cfgfuzz merge: note: %s\n", st.Newer)
	}
	if st.Empty {
		fmt.Fprintf(stderr, "cfgfuzz merge: note: %s\n", fuzz.EmptyNote(state, st.Absent))
	}
	if !opt.Partial { // the merge commits the night there
		if err := st.CheckWritable(stderr); err != nil {
			return "", unmark, err
		}
		var others []string
		others, unmark = st.MarkNight()
		if concurrent = fuzz.StateUseNote(state, others); concurrent != "" {
			fmt.Fprintf(stderr, "cfgfuzz merge: warning: %s\n", concurrent)
		}
	}
	opt.State = st
	return concurrent, unmark, nil
}

// mergeMinimizer sets opt.Minimize to minimize the new findings the
// shards deferred, on the campaign settings of the first shard, shard,
// with its sides kept in sides; *minErr says why it could not start.
func mergeMinimizer(opt *fuzz.MergeOptions, shard, out string, sides *openSides, budget minimizeBudget, proc processFlags, stderr io.Writer, minErr *error) error {
	s, err := fuzz.LoadSettings(shard)
	if err != nil {
		return err
	}
	s.Shard = fuzz.Shard{}
	opt.Minimize = lazyMinimizer(fuzz.Config{Settings: s, Dir: out, Progress: opt.Log}, shard, sides, budget, proc, stderr, minErr)
	return nil
}

// finish writes the merged night's reports into out and, without a
// state, the grown corpus; with one it goes on to the night's update
// (commitNight). Findings the minimizer did not reach (minErr) are said
// on stderr, and their night's corpus is not written.
func (m *nightMerge) finish(rep *fuzz.Report, up *fuzz.StateUpdate, grown *fuzz.Corpus, opt fuzz.MergeOptions, minErr error, stderr io.Writer) (*fuzz.Report, error, error) {
	where := ""
	if minErr != nil {
		rep.Unminimized = "the merge's minimizer did not start (" + minErr.Error() + "): merge again where the structurizer runs"
		where = "; merge again where the structurizer runs"
		if up == nil {
			fmt.Fprintf(stderr, "cfgfuzz merge: the new findings are not minimized%s\n", where)
		}
	}
	if up != nil && minErr != nil && grown != nil { // the corpus goes with the state
		grown, rep.Guided.Corpus.Written, rep.Guided.Corpus.NotWritten = nil, "", fuzz.CorpusUnminimized
	}
	if err := fuzz.WriteReports(m.out, rep, genSource{}); err != nil {
		return nil, nil, err
	}
	if up == nil {
		return rep, minErr, saveMergedCorpus(opt.CorpusDir, grown)
	}
	return m.commitNight(rep, *up, grown, opt, minErr, where, stderr)
}

// commitNight writes the night's state update into out and commits it to
// the state, then writes the grown corpus, which goes with the state. A
// partial night, a night of several builds and a night whose new findings
// are not minimized leave the state as it was (stateLeftBy says which).
func (m *nightMerge) commitNight(rep *fuzz.Report, up fuzz.StateUpdate, grown *fuzz.Corpus, opt fuzz.MergeOptions, minErr error, where string, stderr io.Writer) (*fuzz.Report, error, error) {
	update := filepath.Join(m.out, fuzz.StateUpdateDir)
	if err := fuzz.WriteStateUpdate(update, up); err != nil {
		return nil, nil, err
	}
	if night, why := stateLeftBy(rep, minErr, where); night != "" {
		fmt.Fprintf(stderr, "cfgfuzz merge: %s leaves %s as it was; its update is in %s%s\n", night, m.state, update, why)
		return rep, minErr, nil
	}
	m.committing.Store(true)
	err := fuzz.CommitState(opt.State, up, stderr)
	m.committed.Store(err == nil)
	switch {
	case errors.Is(err, fuzz.ErrStateChanged):
		// Another night committed between this merge's reading of the
		// state and now: the reports say so, and the corpus, which goes
		// with the state, is not written.
		fuzz.MarkNotCommitted(rep, fuzz.NotCommittedNote(m.state, update, rep.Settings.Night, fuzz.CommittedNight(err)), fuzz.CorpusStateNotCommitted)
		m.committed.Store(true) // nothing to undo: the reports say what happened
		return rep, minErr, fuzz.WriteReports(m.out, rep, genSource{})
	case err != nil:
		return m.notSaved(rep, minErr, update, err)
	}
	if err := saveMergedCorpus(opt.CorpusDir, grown); err != nil {
		return nil, nil, err
	}
	return rep, minErr, nil
}

// stateLeftBy names the night whose merge leaves the state as it was,
// with its update in out's: a partial night (the merge of every shard
// commits the night), a night of several cfgfuzz or structurizer builds
// (one cfgfuzz's night commits it), or a night whose new findings are not
// minimized (they are left for a merge that minimizes them; why then says
// where to merge again). night is "" for a night that commits.
func stateLeftBy(rep *fuzz.Report, minErr error, where string) (night, why string) {
	switch {
	case rep.Incomplete != nil:
		return "a partial night", ""
	case rep.Mixed != nil:
		return "a night of several cfgfuzz or structurizer builds", ""
	case minErr != nil:
		return "a night whose new findings are not minimized", where
	}
	return "", ""
}

// notSaved marks the reports of a night whose commit could not be written
// (err: a full disk, the state's lock held). The state is as it was
// (CommitState writes both files before it replaces either): the reports
// say the night is not committed, and the merge run again commits it.
// When not even the reports can say so, the merge fails, and its output
// is removed.
func (m *nightMerge) notSaved(rep *fuzz.Report, minErr error, update string, err error) (*fuzz.Report, error, error) {
	fuzz.MarkNotCommitted(rep, fuzz.NotSavedNote(m.state, update, err, m.again), fuzz.CorpusStateNotSaved)
	if werr := fuzz.WriteReports(m.out, rep, genSource{}); werr != nil {
		return nil, nil, fmt.Errorf("%w; nor could the reports in %s say so (%v), so the merge's output is removed: run the merge again once that is fixed", err, m.out, werr)
	}
	m.unsaved = true
	return rep, minErr, nil
}

// mergeStopped is what a merge a stop signal ends says, after
// tidy.Freeze (a commit in progress is then done or not begun): that it
// stopped, what it leaves and the command that runs it again. A merge
// stopped once its commit is done has finished: it removes
// unfinishedFile, and says so.
func mergeStopped(out, state, again string, writing, committing, committed *atomic.Bool) string {
	if committed.Load() || (committing.Load() && stateHolds(state, filepath.Join(out, fuzz.StateUpdateDir))) {
		os.Remove(filepath.Join(out, unfinishedFile))
		return fmt.Sprintf("stopped after it committed the night into %s; its reports are in %s", state, out)
	}
	left := ""
	if state != "" {
		left = fmt.Sprintf("%s is left as it was (the night not committed); ", state)
	}
	if !writing.Load() {
		return fmt.Sprintf("stopped before it wrote anything; %srun the same merge again: %s", left, again)
	}
	return fmt.Sprintf("stopped; %s%s holds this merge unfinished (%s): run the same merge again, which replaces it: %s", left, out, unfinishedFile, again)
}

// stateHolds says whether the state directory holds the update written
// into update: its findings.json is the update's.
func stateHolds(state, update string) bool {
	a, err1 := os.ReadFile(filepath.Join(state, fuzz.StateFindingsFile))
	b, err2 := os.ReadFile(filepath.Join(update, fuzz.StateFindingsFile))
	return err1 == nil && err2 == nil && string(a) == string(b)
}

// shellWords is args as a POSIX shell command line's words.
func shellWords(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = shellWord(a)
	}
	return strings.Join(words, " ")
}

// saveMergedCorpus writes a merged guided night's grown corpus into dir
// (nil: none to write).
func saveMergedCorpus(dir string, grown *fuzz.Corpus) error {
	if grown == nil {
		return nil
	}
	if err := fuzz.SaveCorpus(dir, grown); err != nil {
		return fmt.Errorf("corpus %s: %w", dir, err)
	}
	return nil
}

// lazyMinimizer is the campaign's minimizer for the merged settings, its
// sides made (a revision built as proc says: within its --build-timeout
// unless it is 0, stopped through its BuildStop) on the first finding to
// minimize; when
// they cannot be made, or a cmd side's files here differ from those the
// shards (shard, the first) ran, it minimizes nothing and sets *failed.
func lazyMinimizer(c fuzz.Config, shard string, sides *openSides, budget minimizeBudget, proc processFlags, stderr io.Writer, failed *error) fuzz.Minimizer {
	var made bool
	return func(g *cfg.Graph, sig, strategy string, baseline corpus.BaselineAnswer) (*cfg.Graph, error) {
		if !made {
			made = true
			var f campaignFlags
			f.proc = proc
			err := fuzz.CheckShardSideFiles(shard)
			if err == nil {
				err = f.sidesFromSettings(context.Background(), &c, stderr)
			}
			if err == nil {
				err = campaignMinimizer(&c, sides, budget, stderr)
			}
			if err != nil {
				fmt.Fprintf(stderr, "cfgfuzz merge: minimizer: %v\n", err)
				c.Minimize = nil
				*failed = err
			}
		}
		if c.Minimize == nil {
			return nil, nil
		}
		return c.Minimize(g, sig, strategy, baseline)
	}
}
