// check.go: `cfgfuzz check`: structurize every graph of the input on the
// structurizer under test (--structurizer SPEC, fuzz.Spec: this tree's by
// default, or any program speaking the protocol) within a per-graph time
// limit, and run the oracle's checks on its module (every check by
// default; --checks selects, "+name" adds to the defaults). One line per
// graph (`ok ...` or `FAIL <check>:<signature> ...`), or one JSON object
// per graph. The graph goes through a fuzz.Side and corpus.Judge, as in a
// campaign, so an external structurizer is checked like ours and a
// campaign's replay command reproduces its finding; a file whose header
// records how it was judged is judged so for the flags left out
// (check_recorded.go).

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func init() {
	register(command{name: "check", summary: "structurize graphs and check every module with the oracle", run: runCheck})
}

// checkRecord is one graph's result in --json output.
type checkRecord struct {
	Schema  string           `json:"schema"`            // checkSchema
	Source  string           `json:"source"`            // file:line:col of the graph
	Graph   string           `json:"graph"`             // compact notation
	Weights []int            `json:"weights,omitempty"` // the blocks' weights when any is not 0 (the compact notation has none)
	Outcome string           `json:"outcome"`
	Reason  string           `json:"reason,omitempty"`
	Checks  []oracle.Verdict `json:"checks"`
	// Unchecked is what of the checks could not judge the module of a
	// graph that passed (oracle.Unchecked): an incomplete verdict, exit
	// status 2.
	Unchecked []string            `json:"unchecked,omitempty"`
	Stats     *structurizer.Stats `json:"stats,omitempty"`
	// ModuleBlocks and ModuleWords are the module's size as compare's
	// sizes count it (oracle.Subject.Size), whatever Stats declares;
	// absent when no module was emitted or it could not be read.
	ModuleBlocks int    `json:"module_blocks,omitempty"`
	ModuleWords  int    `json:"module_words,omitempty"`
	Strategy     string `json:"strategy"`
	// Structurizer is the spec of the structurizer under test.
	Structurizer string `json:"structurizer"`
	// FromHeader is the judging taken from the header of the graph's
	// file for the flags left out (check_recorded.go), by flag name:
	// "inject", "strategy", "registers", "walks" and "seed", "checks",
	// "timeout", "check-timeout", "growth-time", "target-env",
	// "rules-compat" (recordedFields); absent when nothing was taken.
	FromHeader map[string]any `json:"from_header,omitempty"`
	// Judgements, with --repeat N, counts the graph's judgements that
	// ended as this record did (Alike) among those that gave a verdict
	// (Judged): fewer than Judged means they disagreed; and those not run
	// after one that got no answer (NotRun, check_repeat.go).
	Judgements *judgements `json:"judgements,omitempty"`
	// notStarted marks an error of a structurizer server that answered
	// nothing, not even the protocol's hello (fuzz.NotStarted): check
	// stops after the first graphs all end so (fuzz.UnstartedStop).
	notStarted bool
}

// checkSchema names the format of a --json line (the JSON Schema
// fuzz/schema/check-v1.json).
const checkSchema = "cfgfuzz-check/v1"

// Outcomes of one graph.
const (
	outcomeOK      = "ok"
	outcomeFail    = "fail"    // a check failed: a finding
	outcomeRefused = "refused" // the strategy refused the graph
	outcomeError   = "error"   // the harness failed
	// outcomeUnsupported: the structurizer declared it does not serve
	// the graph (protocol v2; not sent), or the emitter cannot encode its
	// function (emit.UnsupportedError, emit/CONVENTION.md "Limits"): not
	// a finding, no verdict.
	outcomeUnsupported = "unsupported"
)

type checkFlags struct {
	strategy, checks, inject     string
	gpuDevice, structurizer      string
	proc                         processFlags
	project                      projectFlags
	json, listChecks, listFaults bool
	walks, registers, repeat     int
	seed                         uint64
	judge                        judgeFlags
	set                          map[string]bool // flags given
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	var cf checkFlags
	var lim checkLimits
	fs := checkFlagSet(&cf, &lim, stderr)
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	cf.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { cf.set[f.Name] = true })
	if cf.listFaults {
		printFaults(stdout)
		return exitOK
	}
	if cf.listChecks {
		printChecks(stdout)
		return exitOK
	}
	if msg := cf.usageError(fs.Name()); msg != "" {
		fmt.Fprintln(stderr, msg)
		return exitUsage
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"} // standard input, as readInputs reads it
	}
	items, datas, err := readInputs(files, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz check:", err)
		return exitUsage
	}
	noteEntryNames(stderr, "cfgfuzz check: ", items, datas)
	if err := gpuDeviceFlag("check", cf.gpuDevice, true, stderr); err != nil { // its note once the files' judgings are known
		fmt.Fprintln(stderr, "cfgfuzz check:", err)
		return exitUsage
	}
	flagsJudging, err := newCheckJudging(cf.used(lim.timeout), cf.gpuDevice)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz check:", err)
		return exitUsage
	}
	if err := proto.CheckOptions(proto.Options{Registers: cf.registers}); err != nil {
		fmt.Fprintln(stderr, "cfgfuzz check: --registers:", err)
		return exitUsage
	}
	judgings, err := recordedJudgings(files, datas, cf.used(lim.timeout), cf.set, cf.gpuDevice)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz check:", err)
		return exitUsage
	}
	_ = gpuDeviceFlag("check", cf.gpuDevice, runsGPU(items, flagsJudging, judgings), stderr)
	cf.proc.stop = builds
	opener, err := resolveSide(cf.proc.builds(nil, stderr), cf.structurizer, cf.project.project(), cf.proc.options())
	var side fuzz.Side
	if err == nil {
		side, err = opener.open()
	}
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz check:", err)
		cf.noteUnresolved(files, datas, stderr)
		return exitUsage
	}
	var sides []fuzz.Side // the first and those renewed
	defer func() {
		for _, s := range sides {
			s.Close()
		}
	}()
	sides = append(sides, side)
	run := checkRun{side: side, spec: opener.spec, flags: flagsJudging, judgings: judgings, json: cf.json, stdout: stdout, stderr: stderr, repeat: cf.repeat}
	run.use(flagsJudging)
	run.fresh = func() (corpus.StructurizeFunc, func(), error) {
		s, err := opener.open() // a fresh process of the same build
		if err != nil {
			return nil, nil, err
		}
		return fuzz.SideStructurizer(s, run.cur.popt, run.cur.timeout), func() { s.Close() }, nil
	}
	run.renew = func() (fuzz.Side, error) {
		s, err := opener.open()
		if err == nil {
			sides = append(sides, s)
		}
		return s, err
	}
	if !cf.json {
		run.announce(len(items), cf)
	}
	noteRecorded(stderr, files, datas, run.spec, flagsJudging, judgings)
	return run.all(items)
}

// usageError is the first of check's flags cf that does not hold, as
// its line on stderr (name the flag set's); "" when they all hold. The
// faults and strategy are checked before any graph is read, as run does.
func (cf *checkFlags) usageError(name string) string {
	if err := cf.judge.validate(); err != nil {
		return flagError(name, err)
	}
	if err := cf.project.needRepo(cf.structurizer); err != nil {
		return flagError(name, err)
	}
	if cf.repeat < 1 {
		return fmt.Sprintf("cfgfuzz check: --repeat %d: want 1 or more judgements a graph", cf.repeat)
	}
	if err := validateOptions(cf.strategy, splitList(cf.inject)); err != nil {
		return "cfgfuzz check: " + err.Error()
	}
	return ""
}

// noteUnresolved notes, once per file of files (datas: their bytes as
// read, readInputs), the --build and --serve its header records for the
// structurizer given, which did not resolve, where the flags given lack
// them (unresolvedProjectNote).
func (cf *checkFlags) noteUnresolved(files []string, datas [][]byte, stderr io.Writer) {
	noted := map[string]bool{}
	for i, f := range files {
		if note := unresolvedProjectNote(inputName(f), datas[i], cf.structurizer, cf.project.project()); note != "" && !noted[f] {
			noted[f] = true
			fmt.Fprintln(stderr, "cfgfuzz check: note:", note)
		}
	}
}

// checkFlagSet is check's flag set over cf and lim, with its usage.
func checkFlagSet(cf *checkFlags, lim *checkLimits, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cf.strategy, "strategy", "", "structurizer strategy: "+strings.Join(structurizer.Strategies(), ", ")+" (default "+structurizer.DefaultStrategy+")")
	fs.StringVar(&cf.checks, "checks", "", "comma-separated checks to run (default: all of "+strings.Join(oracle.DefaultChecks, ",")+"); +NAME adds to the defaults (+gpu the driver check, which none of them is), -NAME removes")
	fs.StringVar(&cf.inject, "inject", "", "comma-separated faults to plant: "+strings.Join(structurizer.FaultNames(), ", "))
	fs.BoolVar(&cf.json, "json", false, "print one JSON object per graph (fuzz/schema/check-v1.json): its from_header names, by flag, what was taken from its file's header")
	fs.BoolVar(&cf.listChecks, "list-checks", false, "list the checks and exit")
	fs.IntVar(&cf.registers, "registers", 0, "every module carries a register file of `N` values that its blocks read and write, checked by exec and gpu (emit/CONVENTION.md); cfgfuzz writes the file into a func answer itself, so only a structurizer answering with module has its own register code tested (fuzz/ADAPTERS.md, \"The register file\"); 0 none (default: what the file's header records, else none)")
	fs.BoolVar(&cf.listFaults, "list-faults", false, listFaultsUsage)
	fs.IntVar(&cf.walks, "walks", 16, "random walks drawn per graph, on top of the edge-covering walks (a draw repeating an earlier walk is dropped)")
	fs.StringVar(&cf.gpuDevice, "gpu-device", "", "Vulkan device of the gpu check: cpu (lavapipe, the default), gpu, any")
	fs.Uint64Var(&cf.seed, "seed", 1, "seed of the random walks (default: what the file's header records, else 1)")
	fs.IntVar(&cf.repeat, "repeat", 1, "judge every graph `N` times, each judgement after the first on a structurizer of its own (a new process for cmd:), and say how many ended alike: a structurizer whose answers depend on chance shows as judgements that disagree. A judgement that times out (or whose server does not answer the protocol's hello) ends the graph's: the others are not run, and the line says how many")
	fs.StringVar(&cf.structurizer, "structurizer", fuzz.SpecSelf, "the structurizer under test: self, isolated, rev:REV, cmd:CMD (a program speaking fuzz/PROTOCOL.md) or repo:DIR@REV")
	cf.proc.define(fs)
	cf.project.define(fs)
	lim.register(fs)
	cf.judge.define(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz check [flags] [FILE...|-]")
		fmt.Fprintln(fs.Output(), "\nStructurize every graph in the files (compact notation, block 0 the entry, or line notation, the first")
		fmt.Fprintln(fs.Output(), "block line the entry, whatever its name: README.md, \"Graph notations\"; - or no file: standard input)")
		fmt.Fprintln(fs.Output(), "on the structurizer under test (--structurizer: this tree's, or any program speaking")
		fmt.Fprintln(fs.Output(), "fuzz/PROTOCOL.md, e.g. --structurizer 'cmd:./my-adapter') and check each module.")
		fmt.Fprintln(fs.Output(), "Prints `ok ...` or `FAIL <check>:<signature> ...` per graph.")
		fmt.Fprintln(fs.Output(), "A file whose header records how it was judged (a finding's graph.cfg or min.cfg, a regression file)")
		fmt.Fprintln(fs.Output(), "is judged under its '# fault:', '# strategy:', '# registers:', '# walks:', '# checks:', '# timeout:',")
		fmt.Fprintln(fs.Output(), "'# check-timeout:', '# growth-time:', '# target-env:' and '# rules-compat:' unless --inject, --strategy,")
		fmt.Fprintln(fs.Output(), "--registers, --walks, --seed, --checks or --allow-fallbacks, --timeout, --check-timeout, --growth-time,")
		fmt.Fprintln(fs.Output(), "--target-env or --rules-compat is given, each file under its own, as minimize does; its '# structurizer:'")
		fmt.Fprintln(fs.Output(), "(with its '# build:' and '# serve:') is never taken (a note names it). A header that records a judging and does not read")
		fmt.Fprintln(fs.Output(), "is an error (exit 2). Standard input's header is never taken (a note names the judging it records where the flags differ).")
		fmt.Fprintln(fs.Output(), "Exit status: 0 all pass, 1 a check failed or a graph was refused or unsupported, 2 usage or input error\nor an incomplete verdict (--check-timeout, a check that could not judge a module: `not judged`, or a structurizer\nwhose servers did not start: after the first 2 graphs whose servers answered nothing, not even the protocol's hello,\nwithin --timeout and --start-timeout, the graphs left are not judged, as a campaign stops).\n\nflags:")
		fs.PrintDefaults()
	}
	return fs
}

// printChecks lists the checks with their documentation, by name.
func printChecks(stdout io.Writer) {
	docs := oracle.CheckNames()
	names := make([]string, 0, len(docs))
	for name := range docs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(stdout, "%-10s %s\n", name, docs[name])
	}
}

// checkRun judges check's graphs one after another and prints a line (or
// a JSON object) for each.
type checkRun struct {
	side fuzz.Side
	spec fuzz.Spec
	// flags is the judging of the flags, judgings each file's whose
	// header records one the flags left out (check_recorded.go), by the
	// file's place among the inputs (sourced.Input), cur the one the
	// graph judged goes under; seam, asked, orc and limit are cur's on
	// side.
	flags    *checkJudging
	judgings map[int]*checkJudging
	cur      *checkJudging
	seam     corpus.StructurizeFunc
	asked    string
	orc      *oracle.Oracle
	limit    time.Duration
	json     bool
	stdout   io.Writer
	stderr   io.Writer
	repeat   int       // judgements a graph (--repeat)
	fresh    freshSide // a side for each judgement after the first
	// renew gives a side of their own to the graphs after one whose
	// judgement was abandoned, which still holds the other; nil: check
	// stops there.
	renew func() (fuzz.Side, error)
	// unstarted stops check, as a campaign stops, when the servers of
	// its first graphs all did not start.
	unstarted fuzz.UnstartedStop
}

// use judges the graphs after under j.
func (r *checkRun) use(j *checkJudging) {
	r.cur, r.orc, r.limit = j, j.orc, j.used.judge.checkTimeout
	r.seam = fuzz.SideStructurizer(r.side, j.popt, j.timeout)
	r.asked = askedStrategy(j.used.strategy, r.spec)
}

// useFor judges the graphs of the input-th input under its judging: its
// file's header's, or the flags'.
func (r *checkRun) useFor(input int) {
	j := r.judgings[input]
	if j == nil {
		j = r.flags
	}
	if j != r.cur {
		r.use(j)
	}
}

// renewAfter takes a new side (renew) and a new oracle of the judging
// in use for the graphs after an abandoned judgement, which holds both.
func (r *checkRun) renewAfter() error {
	if r.renew == nil {
		return errors.New("no new side to take")
	}
	orc, err := oracle.New(r.cur.opt)
	if err != nil {
		return err
	}
	side, err := r.renew()
	if err != nil {
		return err
	}
	r.side, r.cur.orc = side, orc
	r.use(r.cur)
	return nil
}

// announce says on stderr what is checked under the flags.
func (r *checkRun) announce(graphs int, cf checkFlags) {
	shown := r.asked
	if shown == "" {
		shown = "its own (none asked)"
	}
	fmt.Fprintf(r.stderr, "cfgfuzz check: %s, structurizer %s, strategy %s, checks %s\n", fuzz.Plural(graphs, "graph"), r.spec, shown, strings.Join(r.orc.Checks(), ","))
	if note := externalFaultsNote(r.spec, cf.inject); note != "" {
		fmt.Fprintln(r.stderr, "cfgfuzz check: note:", note)
	}
}

// externalFaultsNote says, for faults asked (--inject) of a cmd spec's
// server, that only cfgfuzz's own structurizer knows them: the server may
// ignore them, and then a pass says nothing of the faults. "" otherwise.
func externalFaultsNote(spec fuzz.Spec, inject string) string {
	if inject == "" || spec.Kind != fuzz.SpecCmd {
		return ""
	}
	return fmt.Sprintf("--inject %s is passed on to %s, which may ignore it (only cfgfuzz's own structurizer knows the faults: fuzz/PROTOCOL.md, options.inject); a pass then says nothing of the faults", inject, spec)
}

// errorCount is check's closing line's word on the graphs that did not
// pass when some of them are errors (no verdict: the structurizer did not
// start, a request it could not serve, a check that could not run): how
// many failed and how many have no verdict. "" when none is an error.
func errorCount(failed, errored int) string {
	if errored == 0 {
		return ""
	}
	return fmt.Sprintf(": %d failed, %s no verdict (ERROR: harness errors, not failures)", failed-errored, fuzz.HaveGraphs(errored))
}

// notJudgedCount is check's closing line's word on the graphs an early
// stop left (fuzz.UnstartedStop), "" for none.
func notJudgedCount(notRun int) string {
	if notRun == 0 {
		return ""
	}
	return fmt.Sprintf("; %s not judged (stopped early: the structurizer's servers did not start)", fuzz.Plural(notRun, "graph"))
}

// all checks every item and returns check's exit status.
func (r *checkRun) all(items []sourced) int {
	code, failed, errored, unchecked := exitOK, 0, 0, 0
	notRun := 0            // the graphs left when check stopped early
	var notJudged []string // the unchecked keys of the graphs that passed
	enc := json.NewEncoder(r.stdout)
	for i, it := range items {
		r.useFor(it.Input)
		rec := r.judge(it)
		rec.Structurizer, rec.Schema, rec.FromHeader = r.spec.String(), checkSchema, r.cur.fromHeader
		if abandoned(rec) {
			// The abandoned judgement still holds the side and the
			// oracle: the graphs after it get their own.
			if !r.json {
				fmt.Fprintln(r.stdout, checkLine(rec))
			} else if err := enc.Encode(rec); err != nil {
				fmt.Fprintln(r.stderr, "cfgfuzz check:", err)
			}
			if i == len(items)-1 {
				fmt.Fprintf(r.stderr, "cfgfuzz check: graph %d of %d has no verdict: its checks ran past --check-timeout (incomplete)\n", i+1, len(items))
				return exitUsage
			}
			if err := r.renewAfter(); err != nil {
				fmt.Fprintf(r.stderr, "cfgfuzz check: stopped: graph %d of %d has no verdict (its checks ran past --check-timeout), and the %d after it were not checked: %v (incomplete)\n", i+1, len(items), len(items)-i-1, err)
				return exitUsage
			}
			fmt.Fprintf(r.stderr, "cfgfuzz check: graph %d of %d has no verdict (its checks ran past --check-timeout); the graphs after it go to a new structurizer side and oracle\n", i+1, len(items))
			code = exitUsage
			failed++
			errored++
			r.unstarted.Add(false)
			continue
		}
		if rec.Outcome == outcomeError {
			code = exitUsage
			errored++
		} else if rec.Outcome != outcomeOK && code == exitOK {
			code = exitFail
		}
		if rec.Outcome != outcomeOK {
			failed++
		} else if len(rec.Unchecked) > 0 {
			unchecked++
			notJudged = append(notJudged, rec.Unchecked...)
		}
		if r.json {
			if err := enc.Encode(rec); err != nil {
				fmt.Fprintln(r.stderr, "cfgfuzz check:", err)
				return exitUsage
			}
		} else {
			fmt.Fprintln(r.stdout, checkLine(rec))
			if names := namesLine(rec, it.Graph); names != "" {
				fmt.Fprintln(r.stdout, names)
			}
		}
		if r.unstarted.Add(rec.notStarted) && i < len(items)-1 {
			notRun = len(items) - i - 1
			fmt.Fprintf(r.stderr, "cfgfuzz check: %s: %s not judged (incomplete); %s shows whether the structurizer serves the protocol, and how it fails\n",
				fuzz.StoppedUnstarted, fuzz.Plural(notRun, "graph"), "`cfgfuzz selftest --structurizer "+fuzz.ShellQuote(r.spec.String())+"`")
			break
		}
	}
	if !r.json {
		fmt.Fprintf(r.stderr, "cfgfuzz check: %d of %d graphs passed%s%s\n", len(items)-failed-notRun, len(items), errorCount(failed, errored), notJudgedCount(notRun))
	}
	if unchecked > 0 {
		fmt.Fprintf(r.stderr, "cfgfuzz check: incomplete: %s passed, but some of their checks could not judge the module (\"not judged\" on the line, \"unchecked\" with --json); to leave those checks out: --checks %s\n", fuzz.Plural(unchecked, "graph"), fuzz.LeaveOut(notJudged))
		if code == exitOK {
			code = exitUsage
		}
	}
	return code
}

// resolveChecks is the --checks value with --allow-fallbacks applied; nil
// means the oracle's defaults.
func resolveChecks(spec string, allowFallbacks bool) []string {
	if allowFallbacks {
		spec += ",-fallback"
	}
	if spec == "" {
		return nil
	}
	return oracle.ResolveChecks(spec)
}

// askedStrategy is the strategy a check asks of spec's structurizer:
// --strategy, else cfgfuzz's default for cfgfuzz's own (in-process,
// isolated, a revision); another program is asked none ("") and
// structurizes its own way.
func askedStrategy(s string, spec fuzz.Spec) string {
	if s == "" && !spec.IsSelf() && spec.Kind != fuzz.SpecRev {
		return ""
	}
	return strategyName(s)
}

func strategyName(s string) string {
	if s == "" {
		return structurizer.DefaultStrategy
	}
	return s
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// sourced is a parsed graph with the file it came from: File names it
// as a source shows it ("<stdin>" for standard input, which a file may
// be named too), Input is its place among the inputs (readGraphs'
// files), which tells any two apart.
type sourced struct {
	cfg.Item
	File  string
	Input int
}

// readGraphs parses every file (or standard input for none or "-"); a
// graph's Input is its file's index in files.
func readGraphs(files []string, stdin io.Reader) ([]sourced, error) {
	all, _, err := readInputs(files, stdin)
	return all, err
}

// readInputs is readGraphs, and also each file's bytes as it read them
// (standard input's too), by its index in files: a header is read from
// those, never by opening the file again, which a pipe would give empty.
func readInputs(files []string, stdin io.Reader) ([]sourced, [][]byte, error) {
	if len(files) == 0 {
		files = []string{"-"}
	}
	var all []sourced
	datas := make([][]byte, len(files))
	for i, f := range files {
		var data []byte
		var err error
		name := inputName(f)
		if f == "-" {
			data, err = cfg.ReadInput(name, stdin)
		} else {
			data, err = readFileBounded(f)
		}
		if err != nil {
			return nil, nil, err
		}
		items, err := cfg.Parse(name, data, cfg.Limits{})
		if err != nil {
			return nil, nil, err
		}
		for _, it := range items {
			all = append(all, sourced{Item: it, File: name, Input: i})
		}
		datas[i] = data
	}
	return all, datas, nil
}

// inputName is the name check gives the input f in what it prints: f,
// or "<stdin>" for standard input ("-").
func inputName(f string) string {
	if f == "-" {
		return "<stdin>"
	}
	return f
}

// readFileBounded reads the graph file f whole, as cfg.ReadInput bounds it.
func readFileBounded(f string) ([]byte, error) {
	in, err := os.Open(f)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return cfg.ReadInput(f, in)
}

// openSide resolves a structurizer spec (resolveSide) and starts a side
// of it.
func openSide(bo fuzz.BuildOptions, spec string, project fuzz.Project, popt fuzz.ProcessOptions) (fuzz.Side, fuzz.Spec, error) {
	o, err := resolveSide(bo, spec, project, popt)
	if err != nil {
		return nil, o.spec, err
	}
	side, err := o.open()
	return side, o.spec, err
}

// sideOpener starts sides of one resolved structurizer spec: a command
// that opens several (the minimizer's fresh processes) resolves, and
// builds or finds a revision's build, once.
type sideOpener struct {
	factory fuzz.SideFactory
	spec    fuzz.Spec
	popt    fuzz.ProcessOptions
}

// resolveSide resolves a structurizer spec (fuzz.Resolve: a revision is
// built once, as bo says: stopped when its context is done, within its
// time limit; a repo spec's with project's commands where set, else its
// .cfgfuzz.json's).
func resolveSide(bo fuzz.BuildOptions, spec string, project fuzz.Project, popt fuzz.ProcessOptions) (*sideOpener, error) {
	sp, err := fuzz.ParseSpec(spec)
	if err != nil {
		return &sideOpener{spec: sp}, err
	}
	f, sp, err := fuzz.Resolve(sp, fuzz.ResolveOptions{Build: bo, Project: project, Process: popt, HandOn: true})
	return &sideOpener{factory: f, spec: sp, popt: popt}, err
}

// open starts a side; the self spec escalates to isolated after a hang
// (fuzz.Escalating), as a campaign's workers do.
func (o *sideOpener) open() (fuzz.Side, error) {
	side, err := o.factory.New()
	if err != nil {
		return nil, fmt.Errorf("structurizer %s: %w", o.spec, err)
	}
	if o.spec.Kind == fuzz.SpecSelf {
		// A hung in-process call is abandoned once; the graphs after it
		// go to this tree's structurizer as a child process.
		iso, _, err := fuzz.Resolve(fuzz.Spec{Kind: fuzz.SpecIsolated}, fuzz.ResolveOptions{Process: o.popt})
		if err == nil {
			side = &fuzz.Escalating{Cur: side, Then: iso}
		}
	}
	return side, nil
}

// checkOne structurizes one graph through the seam and judges it
// (corpus.Judge): a panic, crash, timeout or error of the structurizer is
// a failure with its harness signature, never a crash of the tool; the
// whole judgement gets checkLimit (ok false past it: see judgeWithin).
func checkOne(it sourced, seam corpus.StructurizeFunc, strategy string, orc *oracle.Oracle, checkLimit time.Duration) checkRecord {
	rec := checkRecord{Source: fmt.Sprintf("%s:%d:%d", it.File, it.Line, it.Col), Graph: cfg.FormatCompact(it.Graph), Weights: it.Graph.WeightList(), Strategy: strategy}
	o, ok := judgeWithin(seam, it.Graph, orc, checkLimit)
	if !ok {
		rec.Outcome, rec.Reason = outcomeError, fmt.Sprintf("%s within %v (--check-timeout)%s: incomplete", noVerdict, checkLimit, oracle.StillRunning(orc))
		return rec
	}
	rec.Checks, rec.Stats = o.Verdicts, o.Stats
	if o.Module != nil {
		if blocks, words, err := (&oracle.Subject{Module: o.Module}).Size(); err == nil {
			rec.ModuleBlocks, rec.ModuleWords = blocks, words
		}
	}
	switch {
	case o.Err != nil:
		rec.Outcome, rec.Reason, rec.notStarted = outcomeError, o.Err.Error(), fuzz.NotStarted(o.Err)
	case o.Unsupported != "":
		rec.Outcome, rec.Reason = outcomeUnsupported, o.Unsupported
	case o.Signature == corpus.SigRefused:
		rec.Outcome, rec.Reason = outcomeRefused, o.Verdicts[0].Detail
	case o.Signature != "":
		rec.Outcome, rec.Reason = outcomeFail, o.Signature
	default:
		rec.Outcome, rec.Unchecked = outcomeOK, oracle.Unchecked(o.Verdicts)
	}
	return rec
}

// checkLine is the text form: ok or FAIL with the signature, the source and
// the stats, and with --repeat how many judgements ended alike. A long
// graph or detail is clipped (lineClip): a line is read by a person;
// --json keeps both whole.
func checkLine(r checkRecord) string {
	return verdictLine(r) + repeatNote(r)
}

// verdictLine is checkLine less the --repeat note.
func verdictLine(r checkRecord) string {
	r.Graph = clip(r.Graph, lineClip)
	switch r.Outcome {
	case outcomeOK:
		s := r.Stats
		if s == nil {
			s = &structurizer.Stats{}
		}
		line := fmt.Sprintf("ok %s %s blocks %d->%d words %d->%d routes %d clones %d fallbacks %d",
			r.Source, r.Graph, s.BlocksIn, s.BlocksOut, s.WordsIn, s.WordsOut, s.RouteVars, s.Clones, s.Fallbacks)
		if len(r.Unchecked) > 0 {
			line += fmt.Sprintf("; not judged: %s (%s)", strings.Join(r.Unchecked, ", "), clip(firstLine(oracle.UncheckedDetail(r.Checks)), lineClip))
		}
		return line
	case outcomeFail:
		v := oracle.Failed(r.Checks)
		detail := r.Reason
		if v != nil {
			detail = v.Detail
		}
		return fmt.Sprintf("FAIL %s %s %s: %s", r.Reason, r.Source, r.Graph, clip(firstLine(detail), lineClip))
	case outcomeRefused:
		return fmt.Sprintf("FAIL structurize:refused %s %s: %s", r.Source, r.Graph, r.Reason)
	case outcomeUnsupported:
		return fmt.Sprintf("UNSUPPORTED %s %s: %s", r.Source, r.Graph, r.Reason)
	}
	return fmt.Sprintf("ERROR %s %s: %s", r.Source, r.Graph, r.Reason)
}

// lineClip is the most bytes of a graph or a detail a text line shows.
const lineClip = 300

// clip is s, or its first n bytes (cut at a rune boundary) and how long
// it was.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes; --json has it whole)", s[:cut], len(s))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
