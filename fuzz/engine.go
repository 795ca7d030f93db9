// engine.go defines Run, the coordinator: it hands graph indices to the
// workers (in order, skipping other shards' indices and those the log
// already holds), appends each finished record to the results log, drives
// the progress display, and writes the reports from the log when the budget
// is spent, the context is cancelled or the indices run out.

package fuzz

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Outcome of a campaign: the report and whether it found anything new.
type Outcome struct {
	Report *Report
	// Harness lists infrastructure failures (a worker that could not
	// start); findings are in the report.
	Harness []string
	// Corpus is a guided campaign's corpus at its end (the start corpus
	// and the graphs this campaign added), to save for the next into
	// Report.Guided.Corpus.Written when that names a directory; nil
	// unguided.
	Corpus *Corpus
}

// validate checks a Config and fills defaults.
func (c *Config) validate() error {
	switch {
	case c.Dir == "":
		return errors.New("no output directory")
	case c.Source == nil:
		return errors.New("no graph source")
	case len(c.Streams) == 0:
		return errors.New("no streams")
	case c.Graphs <= 0 && c.Duration <= 0:
		return errors.New("no budget: set a graph count or a duration")
	case c.Current.New == nil:
		return errors.New("no current side")
	case c.Shard.N > 0 && (c.Shard.I < 0 || c.Shard.I >= c.Shard.N):
		return fmt.Errorf("bad shard %d/%d", c.Shard.I, c.Shard.N)
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Timeout == 0 {
		c.Timeout = Duration(DefaultTimeout)
	}
	if c.Context == nil {
		c.Context = context.Background()
	}
	c.Writer = writerOr(c.Writer)
	c.Settings.Current = c.Current.Describe
	c.Settings.Baseline = c.Baseline.Describe
	if err := c.validateState(); err != nil {
		return err
	}
	return c.validateGuide()
}

// validateGuide checks a guided campaign's settings against its corpus.
func (c *Config) validateGuide() error {
	if !c.Guided {
		if c.Mutate != 0 || c.Corpus != nil || c.CorpusKeep != "" {
			return errors.New("a mutate share, a corpus or a corpus keep needs a guided campaign")
		}
		return nil
	}
	if c.CorpusKeep != "" && c.CorpusKeep != KeepRandom {
		return fmt.Errorf("corpus keep %q: want %q or none (novelty)", c.CorpusKeep, KeepRandom)
	}
	if c.Mutate < 0 || c.Mutate > 1 {
		return fmt.Errorf("mutate share %v outside 0..1", c.Mutate)
	}
	if c.Shard.N > 1 {
		c.CorpusBatch = 0 // shards run frozen (guide.go)
	}
	d := (&Corpus{}).Digest()
	if c.Corpus != nil {
		d = c.Corpus.Digest()
	}
	if c.Resume && c.Settings.Corpus != d {
		return fmt.Errorf("the corpus is %s, the campaign started from %s: a campaign wrote it back since, this campaign's own once it finished or another one, and a campaign resumes only on the corpus it started from: start a new campaign (another --out, or --force)", d, c.Settings.Corpus)
	}
	c.Settings.Corpus = d
	return nil
}

// Run runs (or resumes) a campaign and writes its reports into c.Dir.
func Run(c Config) (*Outcome, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	unlock, err := c.openDir()
	if err != nil {
		return nil, err
	}
	defer unlock()
	mark := c.Mark
	if mark == nil {
		mark = c.MarkState()
		defer mark.Release()
	}
	r := &campaignRun{rs: newRecordSet(&c.Settings, c.State != nil), done: &indexSet{}, concurrent: mark.concurrent()}
	j, err := c.startLog(r)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	tp, harness, stopped, err := c.runGraphs(r, j)
	if err != nil {
		return nil, err
	}
	c.stage(StageGraphsDone)
	rep := c.graphsReport(r, tp, stopped, start)
	c.classifyState(rep, r)
	c.minimizeNew(rep, r)
	grown := c.grownCorpus(rep, r)
	c.stage(StageReport)
	rep.Provenance = NewProvenance(&rep.Settings, c.Writer, time.Now())
	if err := WriteReports(c.Dir, rep, c.Source); err != nil {
		return nil, c.resumable(err)
	}
	if grown, err = c.commitState(rep, r, grown); err != nil {
		return nil, err
	}
	return &Outcome{Report: rep, Harness: harness, Corpus: grown}, nil
}

// campaignRun is what one Run carries from stage to stage: the records
// (those a resume replayed from the log, then the new ones) and the graph
// indices done, what a resume found in the log and the last report, the
// digests of the sides' files, the night's re-runs of kept graphs and a
// guided campaign's guide.
type campaignRun struct {
	rs   *recordSet
	done *indexSet
	// resumed is the count of records a resume replayed from the log.
	resumed int
	// earlier are the last report's minimized findings, read when every
	// graph was judged before this resume (their minimizations stand).
	earlier []Finding
	sides   SideFiles
	reruns  []Rerun
	gd      *guide // nil unguided
	// concurrent names another live process that will commit to the
	// state (StateUseNote); "" none.
	concurrent string
}

// startLog replays a resumed campaign's log into r, records the
// campaign's settings and sides in c.Dir, and opens the results log to
// append to (after the replayed log's valid prefix).
func (c *Config) startLog(r *campaignRun) (*journal, error) {
	good, err := c.replayLog(r)
	if err != nil {
		return nil, err
	}
	if c.Resume {
		r.sides = recordedSideFiles(c.Dir) // replay held them against the files
	} else {
		r.sides = sideFilesOf(&c.Settings)
	}
	if err := saveCampaign(c.Dir, c.Settings, c.Writer, c.stateDir(), r.sides); err != nil {
		return nil, err
	}
	return openJournal(c.Dir, c.Resume, good, SettingsSum(c.Settings))
}

// replayLog replays the log of a campaign being resumed into r and
// returns the length of its valid prefix; a resume that finds every graph
// judged before says so, and keeps the last report's minimized findings
// (read before the reports are written again). Without a resume it does
// nothing.
func (c *Config) replayLog(r *campaignRun) (good int64, err error) {
	if c.Resume {
		if good, err = c.replay(r.rs, r.done); err != nil {
			return 0, err
		}
	}
	r.resumed = r.rs.total
	judgedBefore := false // every graph was: the last report's minimizations stand
	if planned := c.planned(r.done); c.Resume && planned >= 0 && r.resumed >= planned {
		judgedBefore = true
		if c.Progress != nil {
			fmt.Fprintf(c.Progress, "cfgfuzz: every graph of the campaign in %s was judged before this resume: it minimizes only the new findings its last report left unminimized, and writes the reports\n", c.Dir)
		}
	}
	if judgedBefore {
		r.earlier = earlierMinimized(c.Dir) // read before the reports are written again
	}
	return good, nil
}

// runGraphs runs the campaign's graphs (and the night's re-runs of kept
// graphs) into r and the log j, which it closes: the throughput's counts,
// the harness failures and whether the context stopped it (execute). An
// error writing the log is resumable.
func (c *Config) runGraphs(r *campaignRun, j *journal) (Throughput, []string, bool, error) {
	reruns, err := c.reruns()
	if err != nil {
		j.close()
		return Throughput{}, nil, false, err
	}
	r.reruns = reruns
	c.declared = &declaredSink{}
	if c.Guided {
		r.gd = newGuide(&c.Settings, c.Corpus)
	}
	c.errorStop = newErrorStop(c, r.done)
	c.stage(StageGraphs)
	tp, harness, stopped, jerr := c.execute(j, r.done, r.reruns, r.gd, r.rs)
	if err := j.close(); jerr == nil {
		jerr = err
	}
	if jerr != nil {
		return Throughput{}, nil, false, c.resumable(jerr)
	}
	return tp, harness, stopped, nil
}

// graphsReport is the report of the graphs run: their records, the
// throughput (the graphs ran from start), the sides' declarations, the
// checks run, and why the campaign is incomplete or its time budget
// notable.
func (c *Config) graphsReport(r *campaignRun, tp Throughput, stopped bool, start time.Time) *Report {
	rs := r.rs
	rep := rs.report(c.Settings)
	tp.Seconds, tp.Workers, tp.Resumed = time.Since(start).Seconds(), c.Workers, r.resumed
	rep.Throughput = tp
	rep.Throughput.fill()
	rep.Declared = c.declared.get()
	rep.Checks = c.checks
	rep.Incomplete = c.interruption(stopped, rs.total, c.planned(r.done))
	if rep.Incomplete == nil {
		rep.Incomplete = c.errorStop.incomplete(rs.total, c.planned(r.done))
	}
	if planned := c.planned(r.done); rep.Incomplete == nil && c.Duration > 0 && planned > 0 && rs.total < planned {
		rep.TimeBudgetNote = fmt.Sprintf("the time budget (%s) ran out at %s of %s graphs, before the graph budget", time.Duration(c.Duration), thousands(rs.total), thousands(planned))
	}
	if c.Duration > 0 && r.resumed > 0 {
		// Elapsed time is not checkpointed: the budget restarted here.
		note := fmt.Sprintf("resumed: this run had the whole time budget (%s) again beside the %s graph indices its log held, so the campaign ran longer than the budget", time.Duration(c.Duration), thousands(r.resumed))
		rep.TimeBudgetNote = strings.TrimPrefix(rep.TimeBudgetNote+"; "+note, "; ")
	}
	return rep
}

// classifyState classes a night's signatures against its state (new,
// known, ignored, fixed), notes the night's build, and gives the
// signatures the state holds a minimized graph of that graph; nothing
// without a state.
func (c *Config) classifyState(rep *Report, r *campaignRun) {
	if c.State == nil {
		return
	}
	rep.State = ClassifyState(c.State, rep, r.reruns)
	rep.State.Concurrent = r.concurrent
	rep.State.noteBuild(c.State, c.Settings.Current, nightBuild(&c.Settings, r.sides.Current, c.Writer))
	fillStateMinimized(rep, c.State)
}

// minimizeNew minimizes the report's new findings, keeping those a resume
// found minimized before; an interrupted campaign leaves them to its
// resume, and a shard to the merge.
func (c *Config) minimizeNew(rep *Report, r *campaignRun) {
	switch {
	case c.Minimize == nil:
		rep.Unminimized = MinimizeOff
	case rep.Incomplete != nil: // an interrupted run's resume minimizes
	case c.Shard.N > 1:
		rep.Minimization = MinimizationDeferred
	default:
		keepMinimized(rep, r.earlier)
		c.minimizeUnlessStopped(rep, r.rs.total, c.planned(r.done))
	}
}

// grownCorpus is a guided campaign's corpus at its end, its every record
// merged in, with the report's note of it; nil unguided.
func (c *Config) grownCorpus(rep *Report, r *campaignRun) *Corpus {
	if r.gd == nil {
		return nil
	}
	r.gd.mergeBelow(-1, r.rs.kept) // a guided campaign's set keeps every record
	grown := r.gd.corpus
	rep.Guided.Corpus = newCorpusNote(c.Corpus, grown, c.Settings.Current, c.CorpusKeep, c.CorpusDir, c.corpusKept(rep))
	rep.Guided.splitFeatures(c.Corpus, r.rs.kept)
	return grown
}

// commitState saves a night's state update, once its reports are
// written, and returns the grown corpus to write, which goes with the
// state: none when the state changed under the night (the reports, written
// again, say so) or its update could not be saved (the resume writes
// both). An update that cannot be saved makes the report incomplete, or
// fails the campaign, resumable (unsaved).
func (c *Config) commitState(rep *Report, r *campaignRun, grown *Corpus) (*Corpus, error) {
	if c.State == nil {
		return grown, nil
	}
	err := c.saveState(rep, r.rs.seen)
	switch {
	case errors.Is(err, ErrStateChanged): // a resume would find the state changed too
		MarkNotCommitted(rep, NotCommittedNote(c.State.Dir, filepath.Join(c.Dir, StateUpdateDir), c.Night, CommittedNight(err)), CorpusStateNotCommitted)
		if err := WriteReports(c.Dir, rep, c.Source); err != nil {
			return nil, err
		}
		return nil, nil
	case err != nil:
		if !c.unsaved(rep, err, r.rs.total, c.planned(r.done)) {
			return nil, c.resumable(err)
		}
		return nil, nil // the resume writes it, with the state
	}
	return grown, nil
}

// unsaved makes the report incomplete after the night's state update
// could not be saved (err: a full disk, a quota), and writes the reports
// again: those written before said the night whole, and its resume saves
// the update (and a guided night's corpus, which goes with it). It says
// whether the reports were written; ones that cannot be are removed, so
// that none says the night passed.
func (c *Config) unsaved(rep *Report, err error, done, planned int) bool {
	rep.Incomplete = &Incomplete{Reason: "the state update was not saved: " + err.Error(), Done: done, Planned: max(planned, 0), Resume: c.ResumeCommand}
	if g := rep.Guided; g != nil && g.Corpus != nil && g.Corpus.Written != "" {
		g.Corpus.Written, g.Corpus.NotWritten = "", CorpusInterrupted
	}
	if WriteReports(c.Dir, rep, c.Source) != nil {
		for _, name := range []string{"report.json", "report.md", "report.html"} {
			os.Remove(filepath.Join(c.Dir, name))
		}
		return false
	}
	return true
}

// corpusKept is why a guided campaign's grown corpus is not written back
// (CorpusNote.NotWritten): no directory, a shard (the merge writes the
// night's), an incomplete campaign (its resume starts from the corpus it
// read); "" when it is.
func (c *Config) corpusKept(rep *Report) string {
	switch {
	case c.CorpusDir == "":
		return CorpusNoDir
	case c.Shard.N > 1:
		return CorpusShard
	case rep.Incomplete != nil:
		return CorpusInterrupted
	}
	return ""
}

// The stages of a campaign that Config.Stage is told of.
const (
	StageGraphs     = "graphs"      // before the first graph is handed out
	StageGraphsDone = "graphs-done" // no graph runs any more, nothing reported yet
	StageMinimize   = "minimize"    // before each finding's minimization
	StageReport     = "report"      // before the reports are written
)

// stage tells c.Stage, when set, that the campaign reached s.
func (c *Config) stage(s string) {
	if c.Stage != nil {
		c.Stage(s)
	}
}

// resumable adds to an error that stopped a campaign after it started its
// log (a full disk, a directory that cannot be written) the command that
// continues it from the log once the cause is fixed.
// No command is given when the log itself is gone.
func (c *Config) resumable(err error) error {
	log := filepath.Join(c.Dir, ResultsFile)
	if _, serr := os.Stat(log); c.ResumeCommand == "" || serr != nil {
		return err
	}
	return fmt.Errorf("%w; the graphs checked are kept in %s: once that is fixed, continue with: %s", err, log, c.ResumeCommand)
}

// replay reads the log of the campaign being resumed, record by record
// into rs and done, after checking that this cfgfuzz (c.Writer) wrote it
// and that this run's settings are those the log was written under, and
// holds each record against its index's graph (logcheck.go); good is the
// length of its valid prefix.
func (c *Config) replay(rs *recordSet, done *indexSet) (good int64, err error) {
	saved, w, err := LoadCampaign(c.Dir)
	if err != nil {
		return 0, fmt.Errorf("resume: %w", err)
	}
	if w != c.Writer {
		return 0, fmt.Errorf("resume: %w", &WriterMismatch{Dir: c.Dir, Log: w, This: c.Writer})
	}
	if SettingsSum(saved) != SettingsSum(c.Settings) {
		return 0, fmt.Errorf("resume: the settings differ from those %s was written under: %s", filepath.Join(c.Dir, CampaignFile), settingsDiff(c.Settings, saved))
	}
	if err := checkSideFiles(c.Dir, &c.Settings, recordedSideFiles(c.Dir)); err != nil {
		return 0, fmt.Errorf("resume: %w", err)
	}
	v := newLogCheck(c)
	good, err = eachRecordAt(c.Dir, func(r *Record, line int) error {
		if err := v.check(r, line); err != nil {
			return err
		}
		done.add(r.Index)
		rs.add(*r)
		return nil
	})
	if err == nil {
		err = v.finish(filepath.Join(c.Dir, ResultsFile), rs.kept)
	}
	if err != nil {
		return 0, err
	}
	return good, nil
}

// execute runs the workers until the budget is spent, adding each new
// record to rs, and returns the graphs and skips it ran (the throughput's
// counts), the harness failures and whether c.Context stopped it before
// the graph indices ran out (a time budget running out does not count).
// rs holds the records replayed from the log, and reruns are the night's
// re-runs of kept graphs: the progress line counts both.
func (c *Config) execute(j *journal, done *indexSet, reruns []Rerun, gd *guide, rs *recordSet) (Throughput, []string, bool, error) {
	ctx, cancel := context.WithCancel(c.Context)
	defer cancel()
	if c.Duration > 0 {
		ctx, cancel = context.WithTimeout(ctx, time.Duration(c.Duration))
		defer cancel()
	}
	prog := c.campaignProgress(done, reruns, rs)
	old := rs.kept[:len(rs.kept):len(rs.kept)] // a guided campaign's replayed records, all of them
	indices := make(chan job)
	results := make(chan Record, 256) // workers never wait on a sync of the log
	var wg sync.WaitGroup
	var answered sideTimes
	limit := time.Duration(c.CheckTimeout)
	if limit <= 0 {
		limit = DefaultCheckTimeout
	}
	start := time.Duration(c.StartTimeout)
	if start <= 0 {
		start = DefaultStartTimeout
	}
	fly := newFlights(limit, c.Baseline.New != nil, time.Duration(c.Timeout), start)
	prog.inFlight = fly.describe
	halt := newHalt(c.Context.Done())
	defer halt.release()
	harness := c.startWorkers(indices, results, &wg, &answered, fly, halt.c)
	if len(harness) == c.Workers {
		close(indices)
		prog.finish()
		return Throughput{}, harness, false, errors.New(harness[0])
	}
	batches := make(chan batchDone)
	var stopped bool // written by the feeder before it closes indices
	go func() {
		defer close(indices)
		stopped = c.dispatch(ctx, done, gd, indices, results, batches)
	}()
	go func() { wg.Wait(); close(results) }()
	co := collector{c: c, j: j, rs: rs, gd: gd, prog: prog, old: old, cancel: cancel, fly: fly, halt: halt}
	co.collect(results, batches)
	prog.finish()
	co.tp.CurrentSeconds = time.Duration(answered.current.Load()).Seconds()
	co.tp.CurrentMetaSeconds = time.Duration(answered.currentMeta.Load()).Seconds()
	if c.Baseline.New != nil {
		co.tp.BaselineSeconds = time.Duration(answered.baseline.Load()).Seconds()
		co.tp.BaselineMetaSeconds = time.Duration(answered.baselineMeta.Load()).Seconds()
	}
	// a graph the stop left unjudged is not done, even once every index
	// was handed out; the early stop's graphs left so are its own
	return co.tp, harness, stopped || co.unjudged > 0 && !c.errorStop.stopped, co.jerr
}

// campaignProgress is the progress display of the graphs planned after
// those done, with the deadline of a time budget and a night's classes
// and re-runs of kept graphs, having counted the records rs holds (those
// replayed from the log); a terminal's bar is drawn at once.
func (c *Config) campaignProgress(done *indexSet, reruns []Rerun, rs *recordSet) *progress {
	total := c.planned(done)
	prog := newProgress(c.Progress, c.Terminal, c.ProgressEvery, total)
	prog.compared = c.Baseline.New != nil
	if c.Duration > 0 {
		prog.deadline = time.Now().Add(time.Duration(c.Duration))
	}
	if c.State != nil {
		prog.class = c.State.classShowing(c.Night)
		prog.reruns(reruns)
	}
	rs.each(func(r *Record, n int, whole bool) { prog.countN(r, n, true, whole) }, prog.countSignatures)
	prog.draw()
	return prog
}

// startWorkers starts c.Workers workers, each judging the jobs from
// indices into results until indices is closed, their sides' answer times
// summed into answered, their graphs in flight noted in fly and wg done as
// each ends; it returns the harness failures of the workers that could
// not start. The first worker started gives c.checks. Their servers
// still starting end when stop closes (worker.stop).
func (c *Config) startWorkers(indices <-chan job, results chan<- Record, wg *sync.WaitGroup, answered *sideTimes, fly *flights, stop <-chan struct{}) []string {
	var harness []string
	var hmu sync.Mutex
	for range c.Workers {
		wk, err := newWorker(c)
		if err != nil {
			hmu.Lock()
			harness = append(harness, err.Error())
			hmu.Unlock()
			continue
		}
		if c.checks == nil {
			c.checks = wk.orc.Checks() // every worker's oracle has the same options
		}
		wk.answered, wk.fly, wk.stop, wk.cut = answered, fly, stop, c.CutOnStop
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer wk.close()
			for i := range indices {
				results <- wk.run(i)
			}
		}()
	}
	return harness
}

// collector is the coordinator's side of the graphs: it appends each
// finished record to the results log and adds it to the record set,
// counts it on the progress display and in the throughput, and merges
// each guided batch into the corpus once the batch's records are all in.
type collector struct {
	c    *Config
	j    *journal
	rs   *recordSet
	gd   *guide
	prog *progress
	old  []Record // a guided campaign's replayed records, all of them
	// cancel hands out no more graphs.
	cancel context.CancelFunc
	tp     Throughput
	jerr   error // the log's first error: it takes no more
	// pending is the batch the dispatcher handed out whole, to merge once
	// got, the records taken since the last merge, reach its sent.
	pending *batchDone
	got     int
	// unjudged counts the records the stop left unjudged (take).
	unjudged int
	// fly is the graphs in flight, which the first stop (c.Context
	// cancelled) names as what it waits for.
	fly  *flights
	halt *halt
}

// halt is the stop the workers' servers still starting hear
// (worker.stop): the campaign's stop (a signal), or the collector's
// early stop on servers that do not start.
type halt struct {
	c    chan struct{} // closed by now
	once sync.Once
	done chan struct{} // closed by release: the watch on the signal ends
}

// newHalt is a halt that signal's close closes too.
func newHalt(signal <-chan struct{}) *halt {
	h := &halt{c: make(chan struct{}), done: make(chan struct{})}
	go func() {
		select {
		case <-signal:
			h.now()
		case <-h.done:
		}
	}()
	return h
}

// now closes h.c (once).
func (h *halt) now() { h.once.Do(func() { close(h.c) }) }

// release ends h's watch on its signal.
func (h *halt) release() { close(h.done) }

// collect takes the records from results until the workers are done, and
// the batches handed out from batches, with a plain progress line on each
// tick (the terminal's bar redrawn) even while no graph finishes; when c.Context is cancelled (the
// first stop signal) it says which graphs and checks the stop waits for.
func (co *collector) collect(results <-chan Record, batches <-chan batchDone) {
	tick := time.NewTicker(co.prog.tick())
	defer tick.Stop()
	stop := co.c.Context.Done()
	for in := results; in != nil; {
		select {
		case <-stop:
			stop = nil
			co.prog.halt(co.fly, co.c.CutOnStop)
		case <-tick.C:
			co.prog.heartbeat() // a plain line, or the bar redrawn, even while no graph finishes
		case r, ok := <-in:
			if !ok {
				in = nil
				continue
			}
			co.take(r)
		case b := <-batches:
			co.pending = &b
		}
		co.mergeBatch()
	}
}

// take appends record r to the log and adds it to the record set,
// counting it; a log that takes no more (a full disk), or records that no
// check can judge, hand out no more graphs.
//
// A record the stop left unjudged (Record.stopped) is neither logged nor
// counted, nor counted in its batch (got): the graph waits for --resume
// as one never handed out, and its batch is not merged (the stop ended
// the dispatcher's wait for it).
func (co *collector) take(r Record) {
	if r.stopped {
		co.unjudged++
		return
	}
	co.got++
	switch {
	case r.Skipped:
		co.tp.Skipped++
	case !r.Seen: // a graph an earlier night checked is not run
		co.tp.Graphs++
	}
	if co.jerr == nil {
		if co.jerr = co.j.add(&r); co.jerr != nil {
			co.cancel() // the log takes no more (a full disk): hand out no more graphs
		}
	}
	co.prog.count(&r, false)
	co.rs.add(r)
	if co.c.errorStop.add(&r) { // hand out no more graphs: none can be judged
		co.prog.stopEarly(co.c.errorStop.reason)
		co.cancel()
		if co.c.errorStop.reason == StoppedUnstarted {
			co.halt.now() // the graphs in flight wait on servers that do not start either
		}
	}
}

// mergeBatch merges the pending guided batch into the corpus once its
// records are all taken, and tells the dispatcher so.
func (co *collector) mergeBatch() {
	if co.pending == nil || co.got < co.pending.sent {
		return
	}
	// a guided campaign's set keeps every record: its last got are the
	// batch's
	co.gd.mergeBelow(co.pending.end, slices.Concat(co.rs.kept[len(co.rs.kept)-co.got:], co.old))
	close(co.pending.merged)
	co.pending, co.got = nil, 0
}

// batchDone is the dispatcher's word that a guided batch is all handed
// out: sent records (jobs and skipped indices) below end; merged is
// closed once the coordinator has added the batch's records to the corpus.
type batchDone struct {
	sent, end int
	merged    chan struct{}
}

// dispatch generates every graph index's graph in order and hands this
// shard's to the workers, except the repeats of an earlier index's graph
// (distinct.go), which it records as skipped. A guided campaign with a
// corpus batch waits at the end of each batch until the batch's records
// are in the corpus (guide.go) before it generates the next batch's
// graphs, so each batch's mutants draw on the records of every lower
// batch. It returns whether c.Context stopped it before the indices ran
// out.
func (c *Config) dispatch(ctx context.Context, done *indexSet, gd *guide, jobs chan<- job, results chan<- Record, batches chan<- batchDone) (stopped bool) {
	seen := NewDistinctSet(0)
	end, sent := -1, 0
	if gd != nil {
		end = gd.batchEnd(0)
	}
	for i := 0; c.Graphs <= 0 || i < c.Graphs; i++ {
		if ctx.Err() != nil {
			return c.Context.Err() != nil
		}
		if i == end {
			if !barrier(ctx, batches, batchDone{sent: sent, end: end, merged: make(chan struct{})}) {
				return c.Context.Err() != nil
			}
			end, sent = gd.batchEnd(i), 0
		}
		mine := c.Shard.has(i) && !done.has(i)
		j := makeJob(c.Source, &c.Settings, gd, i)
		if j.err == nil {
			same, repeat := seen.See(i, GraphHash(j.it.Graph, c.GraphStrategy(i)))
			if repeat && !c.gpuSampled(i) {
				if mine {
					results <- Record{Index: i, Stream: j.stream, Seed: j.it.Seed, Mutant: j.mutant, Skipped: true, SameAs: same}
					sent++
				}
				continue
			}
		}
		if !mine {
			continue
		}
		select {
		case jobs <- j:
			sent++
		case <-ctx.Done():
			return c.Context.Err() != nil
		}
	}
	return false
}

// barrier tells the coordinator that batch b is handed out and waits
// until its records are in the corpus; false when ctx ended first.
func barrier(ctx context.Context, batches chan<- batchDone, b batchDone) bool {
	select {
	case batches <- b:
	case <-ctx.Done():
		return false
	}
	select {
	case <-b.merged:
		return true
	case <-ctx.Done():
		return false
	}
}

// gpuSampled says whether index i runs the gpu check too (GPUEvery).
func (s *Settings) gpuSampled(i int) bool { return s.GPUEvery > 0 && i%s.GPUEvery == 0 }

// planned is the number of graphs this run will do under a graph budget,
// -1 without one.
func (c *Config) planned(done *indexSet) int {
	if c.Graphs <= 0 {
		return -1
	}
	n := 0
	for i := 0; i < c.Graphs; i++ {
		if c.Shard.has(i) {
			n++
		}
	}
	return n
}

// minimizeUnlessStopped minimizes the report's new findings until the
// campaign's context is done; a campaign stopped while minimizing is
// incomplete (its resume minimizes every finding again, from the start).
// One stopped with nothing left to minimize (no new finding, or the last
// search ended before the stop) is complete.
func (c *Config) minimizeUnlessStopped(rep *Report, done, planned int) {
	ctx := c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	type minimized struct {
		graph     string
		weights   []int
		stopped   string
		notShrunk string
	}
	before := make([]minimized, len(rep.Findings))
	for i, f := range rep.Findings {
		before[i] = minimized{f.Minimized, f.MinimizedWeights, f.MinimizeStopped, f.notShrunk}
	}
	cut := false // a search was skipped or ran while the context was done
	MinimizeFindings(rep, func(g *cfg.Graph, sig, strategy string, baseline corpus.BaselineAnswer) (*cfg.Graph, error) {
		if c.stage(StageMinimize); ctx.Err() != nil {
			cut = true
			return nil, nil
		}
		m, err := c.Minimize(g, sig, strategy, baseline)
		cut = cut || ctx.Err() != nil
		return m, err
	}, c.Progress, func() bool {
		cut = cut || ctx.Err() != nil
		return cut
	})
	if !cut {
		return
	}
	for i := range rep.Findings {
		rep.Findings[i].Minimized, rep.Findings[i].MinimizedWeights, rep.Findings[i].MinimizeStopped = before[i].graph, before[i].weights, before[i].stopped
		rep.Findings[i].notShrunk = before[i].notShrunk
		rep.Findings[i].MinimizeSkipped = "" // the resume minimizes them
	}
	rep.Incomplete = c.interruption(true, done, 0)
	rep.Incomplete.Reason += " while minimizing"
	rep.Incomplete.Planned = max(planned, 0)
}
