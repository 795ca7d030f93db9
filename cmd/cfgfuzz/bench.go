// bench.go: `cfgfuzz bench --driver`: what the layouts cost on a real
// Vulkan driver. Over random reducible graphs of the asked sizes and the
// regression corpus, each graph is structurized with every asked strategy,
// emitted with a fresh salt (so no driver cache can answer), and timed by
// oracle/gpu in a driver process (gpu.Pool, as the gpu check; one kept
// from module to module until a module breaks it): compile = shader
// module and pipeline creation plus first dispatch (lavapipe compiles at the first dispatch),
// run = median dispatch after warm-up. A module that crashes the driver or
// outlives --module-limit fails alone.
// Strategies alternate which goes first per graph, and every first
// dispatch's traces are checked against the graph's walks. --registers
// repeats every set with modules carrying the register-file workload of
// each asked size (emit/CONVENTION.md): values live across blocks, which
// the dispatch loop keeps live around its one loop. --structurizer SPEC
// times the modules of any structurizer speaking fuzz/PROTOCOL.md as a
// column of its own, "ext", first (its modules as it answers them, not
// salted: the shader caches are off). The table gives each column's
// medians over the modules it timed, the ratios of the first column's
// medians to each other column's, and, per column, how many of the set's
// graphs are in its figures and why the others are not (no module, a
// driver failure, traces that disagree with the walks); a line under it
// says, per column, for how many of those modules the filler's results
// were compared with the interpreter's (gpu.CompareSinks).

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func init() {
	register(command{name: "bench", summary: "measure the layouts on a Vulkan driver (--driver): compile and run time", run: runBench})
}

// benchFlags are the bench's settings; see runBench for their defaults.
type benchFlags struct {
	driver                  bool
	device, sizes, corpus   string
	registers               string
	strategies              string
	structurizer            string
	proc                    processFlags
	project                 projectFlags
	graphs, warmup, repeats int
	words                   int
	seed                    uint64
	// timeout bounds each structurizer call (--structurizer), as check's
	// --timeout; fenceTimeout each dispatch's fence wait on the driver.
	timeout, fenceTimeout, moduleLimit time.Duration
	verbose                            bool
}

// benchDriver times modules in driver processes (gpu.Pool), one at a
// time: a module that crashes the driver, or keeps it compiling past the
// module limit, ends that process and fails that module alone, and the
// next module gets a fresh process.
type benchDriver struct {
	pool  *gpu.Pool
	limit time.Duration
	info  gpu.DeviceInfo
}

// openBenchDriver starts the first driver process and opens bf's device
// in it.
func openBenchDriver(bf *benchFlags) (*benchDriver, error) {
	d := &benchDriver{pool: gpu.NewPool(gpu.Options{Device: bf.device, Timeout: bf.fenceTimeout}, nil), limit: bf.moduleLimit}
	r, err := d.pool.Get(d.limit)
	if err != nil {
		d.pool.Close()
		return nil, err
	}
	d.info = r.Info()
	d.pool.Put(r)
	return d, nil
}

// time is gpu.Executor.Time in a driver process.
func (d *benchDriver) time(mod []byte, batch *spirv.Batch, walks int, opt gpu.TimeOptions) (gpu.Timing, []spirv.Observed, error) {
	r, err := d.pool.Get(d.limit)
	if err != nil {
		return gpu.Timing{}, nil, err
	}
	defer d.pool.Put(r)
	return r.Time(mod, batch, walks, opt)
}

// benchSet is one row's graphs: generated ones of one size, or the corpus,
// with a register file of registers values (0: none).
type benchSet struct {
	name      string
	graphs    []*cfg.Graph
	registers int
}

// benchTotals accumulates one column's figures over one set (CPU time:
// the process's, meaningful on lavapipe).
type benchTotals struct {
	graphs int   // the set's graphs this column was given
	timed  []int // those whose module is in the figures, by index in the set
	// sinksCompared counts the modules in the figures whose filler's
	// results were compared with the interpreter's (the others' the
	// interpreter could not vouch for).
	sinksCompared int
	words         int
	fallbacks     int // segments laid out as a dispatch loop
	routeVars     int
	// left counts the graphs whose module is not in the figures, by why
	// (benchLeft...): the structurizer gave none, the driver failed on it,
	// or its traces disagree with the graph's walks.
	left map[string]int
	// Each module's compile and run times (wall and CPU), for the medians.
	compiles, runs, compileCPUs, runCPUs []time.Duration
}

// Why a graph's module is not in its column's figures, besides the
// structurizer's outcome (refused, timeout, crash, error, unsupported,
// harness error; benchNoModule).
const (
	benchLeftNoModule = "no module" // cfgfuzz's own strategy gave none
	benchLeftDriver   = "driver failure"
	benchLeftRejected = "rejected" // its traces disagree with the walks, or its sinks with the interpreter's
	benchLeftHarness  = "harness error"
)

// benchRow is one set's line of the table.
type benchRow struct {
	name   string
	graphs int // graphs timed: those with a walk that returns
	blocks int // their blocks, in all
	noWalk int // graphs left out: no walk returns
	cols   []benchTotals
}

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer, builds *fuzz.BuildStop) int {
	bf, fs := benchFlagSet(stderr)
	bf.proc.stop = builds
	if code, done := parseCommandLine(fs, args, stdout); done {
		return code
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if err := checkBenchFlags(bf, given, stdout); err != nil {
		fmt.Fprintln(stderr, "cfgfuzz bench:", err)
		return exitUsage
	}
	progress := &benchProgress{}
	stopSays.Store(stopNote{"bench", progress.stopped})
	defer stopSays.Store(stopNote{})
	sides, closeSides, err := benchSides(bf, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz bench:", err)
		return exitUsage
	}
	defer closeSides()
	sets, err := benchSets(bf)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz bench:", err)
		return exitUsage
	}
	drv, err := openBenchDriver(bf)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz bench:", err)
		return exitUsage
	}
	defer drv.pool.Close()
	printBenchHeader(stdout, drv.info, bf, sideNames(sides))
	rows := progress.run(drv, sets, sides, bf, stderr)
	printBenchTable(stdout, sideNames(sides), rows)
	return benchStatus(rows, stderr)
}

// benchStatus is bench's exit status for rows: 2 when a structurizer's
// answer was a harness error (the request, not the graph, failed, as in
// check and run: the figures are incomplete for a reason outside the
// structurizer's answer), said on stderr; else 1 when a column left a
// graph out of its figures; else 0.
func benchStatus(rows []benchRow, stderr io.Writer) int {
	harness, left := 0, false
	for _, r := range rows {
		for _, t := range r.cols {
			harness += t.left[benchLeftHarness]
			left = left || len(t.left) > 0
		}
	}
	switch {
	case harness > 0:
		fmt.Fprintf(stderr, "cfgfuzz bench: %s no module for a harness error (the request failed, not the graph): the figures are incomplete\n", fuzz.Plural(harness, "graph")+" got")
		return exitUsage
	case left:
		return exitFail
	}
	return exitOK
}

// checkBenchFlags checks bf's flags (given: those on the command line)
// before anything starts, and sets the default strategies.
func checkBenchFlags(bf *benchFlags, given map[string]bool, stdout io.Writer) error {
	if !bf.driver {
		return errors.New("only --driver is implemented (structurizer and oracle benchmarks: go test -bench)")
	}
	if given["timeout"] && bf.structurizer == "" {
		return errors.New("--timeout is the limit on each structurizer call, as in check and run, and no --structurizer is given; the fence timeout per dispatch is --fence-timeout")
	}
	if bf.structurizer != "" && !given["strategies"] {
		bf.strategies = fuzz.DispatchStrategy // the external structurizer against the dispatch loop
	}
	for _, s := range splitList(bf.strategies) {
		if !slices.Contains(structurizer.Strategies(), s) {
			return fmt.Errorf("unknown strategy %q (have %v)", s, structurizer.Strategies())
		}
	}
	if bf.structurizer == "" && len(splitList(bf.strategies)) == 0 {
		return errors.New("--strategies names no strategy and no --structurizer is given: the table would have no column")
	}
	if err := bf.project.needRepo(bf.structurizer); err != nil {
		return err
	}
	return checkBenchCorpus(bf, given["corpus"], stdout)
}

// benchSides are the table's columns: the --structurizer's, started and
// named on stdout, then cfgfuzz's own strategies; closing ends the
// structurizer's.
func benchSides(bf *benchFlags, stdout, stderr io.Writer) (sides []benchSide, closing func(), err error) {
	closing = func() {}
	if bf.structurizer != "" {
		side, spec, err := openSide(bf.proc.builds(nil, stderr), bf.structurizer, bf.project.project(), bf.proc.options())
		if err != nil {
			return nil, nil, err
		}
		closing = func() { side.Close() }
		fmt.Fprintf(stdout, "ext: %s (each call within %v, --timeout)\n", spec, bf.timeout)
		sides = append(sides, externalSide(side, bf.timeout))
	}
	for _, s := range splitList(bf.strategies) {
		sides = append(sides, ownSide(s))
	}
	return sides, closing, nil
}

// benchProgress is the table as the bench fills it, under mu: the stop
// note (stopped), which a stop signal prints, reads it.
type benchProgress struct {
	mu    sync.Mutex
	names []string
	rows  []benchRow // the sets begun
	sets  int        // the sets in all
	whole bool       // every set is done
}

// run times every set with every column and returns the rows.
func (p *benchProgress) run(drv *benchDriver, sets []benchSet, sides []benchSide, bf *benchFlags, stderr io.Writer) []benchRow {
	p.mu.Lock()
	p.names, p.sets = sideNames(sides), len(sets)
	p.mu.Unlock()
	for _, set := range sets {
		p.mu.Lock()
		p.rows = append(p.rows, benchRow{name: set.name, cols: make([]benchTotals, len(sides))})
		row := &p.rows[len(p.rows)-1]
		p.mu.Unlock()
		benchOne(drv, set, sides, bf, stderr, row, &p.mu)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.whole = true
	return p.rows
}

// stopped is what a stop signal says of the bench: where it stopped and
// the table of what was measured so far.
func (p *benchProgress) stopped() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.rows) == 0 {
		return "stopped before any module was timed"
	}
	rows := slices.Clone(p.rows)
	where := "after every set was timed; the table:"
	if !p.whole {
		last := &rows[len(rows)-1]
		where = fmt.Sprintf("in set %d of %d, %s; what was measured so far (the row marked stopped counts the graphs begun, "+
			"the module in progress not timed):", len(rows), p.sets, last.name)
		last.name += " (stopped)"
	}
	var b strings.Builder
	printBenchTable(&b, p.names, rows)
	return "stopped " + where + "\n\n" + strings.TrimSuffix(b.String(), "\n")
}

// printBenchHeader says what the table's figures are: the device, the
// dispatches and which columns the ratios divide.
func printBenchHeader(w io.Writer, info gpu.DeviceInfo, bf *benchFlags, names []string) {
	driver := info.Driver
	if driver == "" {
		driver = fmt.Sprintf("0x%x", info.DriverVersion)
	}
	fmt.Fprintf(w, "device: %s (%s, Vulkan %s, vendor 0x%x, driver %s); shader caches off, cfgfuzz's own modules salted\n",
		info.Name, info.Type, info.APIVersion, info.VendorID, driver)
	var pairs []string
	for _, n := range names[min(1, len(names)):] {
		pairs = append(pairs, names[0]+"/"+n)
	}
	ratios := "no ratio (one column)"
	switch len(pairs) {
	case 0:
	case 1:
		ratios = "ratio = " + pairs[0]
	default:
		ratios = "ratios = " + strings.Join(pairs, ", ")
	}
	fmt.Fprintf(w, "compile = shader module and pipeline creation + first dispatch; run = median of %d dispatches after %d warm-up; %s\n",
		bf.repeats, bf.warmup, ratios)
	fmt.Fprintf(w, "each dispatch within the fence timeout %v (--fence-timeout), each module within %v (--module-limit)\n\n", bf.fenceTimeout, bf.moduleLimit)
}

func benchFlagSet(stderr io.Writer) (*benchFlags, *flag.FlagSet) {
	bf := &benchFlags{}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&bf.driver, "driver", false, "time modules on a Vulkan driver (the only mode)")
	fs.StringVar(&bf.device, "device", "cpu", "Vulkan device: cpu (lavapipe), gpu, any")
	fs.StringVar(&bf.device, "gpu-device", "cpu", "the same as --device, by the name the other commands give it")
	fs.StringVar(&bf.sizes, "sizes", "50,200,400", "block counts `N,...` of the random reducible graphs (structured programs of N blocks, N+1 when an early return needs a block of its own; the table shows the mean)")
	fs.StringVar(&bf.registers, "registers", "0", "register-file sizes, a comma-separated `list`: every set is timed with modules carrying each (emit/CONVENTION.md, \"Register file\"); 0 none")
	fs.IntVar(&bf.graphs, "graphs", 3, "graphs per size")
	fs.IntVar(&bf.words, "words", 0, "weight in SPIR-V words of every generated block (filler code; recompilers' published campaigns used 0, 16 and 1000)")
	fs.StringVar(&bf.corpus, "corpus", "corpus/testdata/regressions", "directory of regression graphs (*.cfg), timed as a set of its own; \"\" for none. A DIR given that is missing or holds no *.cfg is an error; the default, relative to the working directory, is skipped with a note where it is missing")
	fs.StringVar(&bf.strategies, "strategies", "structured,dispatch", "cfgfuzz's own strategies to compare; the ratios are the first column over each other one (with --structurizer: default dispatch)")
	fs.StringVar(&bf.structurizer, "structurizer", "", "also time the modules of this structurizer `SPEC` (as for check: cmd:PROGRAM ARGS, repo:DIR@REV, ...): its layout is timed as the first column, named ext")
	bf.proc.define(fs)
	bf.project.define(fs)
	fs.IntVar(&bf.warmup, "warmup", 5, "untimed dispatches before the timed ones")
	fs.IntVar(&bf.repeats, "repeats", 20, "timed dispatches (the median is reported)")
	fs.Uint64Var(&bf.seed, "seed", 1, "seed of the graphs and walks")
	fs.DurationVar(&bf.timeout, "timeout", fuzz.DefaultTimeout, "per-graph limit on each call of the --structurizer, as check's --timeout: past it the graph has no ext module (timeout); given without --structurizer it is an error")
	fs.DurationVar(&bf.fenceTimeout, "fence-timeout", gpu.DefaultTimeout, "the driver's fence timeout, the longest wait for one dispatch (the first one includes lavapipe's compile)")
	fs.DurationVar(&bf.moduleLimit, "module-limit", time.Hour, "the most one module's compile, warm-up and timed dispatches may take: past it the driver process timing it is killed and the module counted as a driver failure")
	fs.BoolVar(&bf.verbose, "v", false, "print every module's figures on standard error")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cfgfuzz bench --driver [flags]")
		fmt.Fprintln(fs.Output(), "\nTime the structured and dispatch layouts of the same graphs on a Vulkan driver (needs a")
		fmt.Fprintln(fs.Output(), "binary built with -tags vulkan), or your structurizer's (--structurizer SPEC) against the")
		fmt.Fprintln(fs.Output(), "dispatch loop, each of its calls within --timeout as in check and run (the driver's wait for one")
		fmt.Fprintln(fs.Output(), "dispatch is --fence-timeout). Modules run in driver processes cfgfuzz starts, so a module that crashes the")
		fmt.Fprintln(fs.Output(), "driver or outlasts --module-limit fails alone. Exit status 1 if a driver run disagrees with a")
		fmt.Fprintln(fs.Output(), "walk, a module fails on the driver, or a structurizer gives no module; 2 if a structurizer's answer")
		fmt.Fprintln(fs.Output(), "is a harness error (the request failed, not the graph: the figures are incomplete).\n\nflags:")
		fs.PrintDefaults()
	}
	return bf, fs
}

// benchSets builds one set per size and one for the corpus, if present,
// each once per register-file size.
func benchSets(bf *benchFlags) ([]benchSet, error) {
	var regs []int
	for _, s := range splitList(bf.registers) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > emit.MaxRegisters {
			return nil, fmt.Errorf("bad register count %q: want 0..%d", s, emit.MaxRegisters)
		}
		regs = append(regs, n)
	}
	if len(regs) == 0 {
		regs = []int{0}
	}
	base, err := benchGraphSets(bf)
	if err != nil {
		return nil, err
	}
	var sets []benchSet
	for _, set := range base {
		for _, n := range regs {
			s := set
			s.registers = n
			if n > 0 {
				s.name += fmt.Sprintf(" r=%d", n)
			}
			sets = append(sets, s)
		}
	}
	return sets, nil
}

// checkBenchCorpus checks bf's corpus directory: given (on the command
// line), it must be a directory holding a *.cfg file; the default,
// missing, is said on w and dropped.
func checkBenchCorpus(bf *benchFlags, given bool, w io.Writer) error {
	if bf.corpus == "" {
		return nil
	}
	fi, err := os.Stat(bf.corpus)
	switch {
	case err != nil && !given && errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(w, "corpus: %s (the default) is not in this directory: no corpus row (--corpus DIR names one, --corpus \"\" none)\n", bf.corpus)
		bf.corpus = ""
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--corpus %s: no such directory", bf.corpus)
	case err != nil:
		return fmt.Errorf("--corpus: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("--corpus %s: not a directory", bf.corpus)
	}
	if files, _ := filepath.Glob(filepath.Join(bf.corpus, "*.cfg")); len(files) == 0 {
		return fmt.Errorf("--corpus %s: no *.cfg file in it", bf.corpus)
	}
	return nil
}

// benchGraphSets builds one set per size and one for the corpus, if
// present, without registers.
func benchGraphSets(bf *benchFlags) ([]benchSet, error) {
	var sets []benchSet
	for _, s := range splitList(bf.sizes) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad size %q", s)
		}
		set := benchSet{name: fmt.Sprintf("reducible %d", n)}
		if bf.words > 0 {
			set.name += fmt.Sprintf(" w=%d", bf.words)
		}
		for k := range bf.graphs {
			g := gpu.StructuredGraph(bf.seed*1000003+uint64(n)*7919+uint64(k), n)
			for b := range g.Weights {
				g.Weights[b] = bf.words
			}
			set.graphs = append(set.graphs, g)
		}
		sets = append(sets, set)
	}
	if bf.corpus == "" {
		return sets, nil
	}
	files, _ := filepath.Glob(filepath.Join(bf.corpus, "*.cfg"))
	set := benchSet{name: "corpus"}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		items, err := cfg.Parse(f, data, cfg.Limits{})
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			set.graphs = append(set.graphs, it.Graph)
		}
	}
	if len(set.graphs) > 0 {
		sets = append(sets, set)
	}
	return sets, nil
}

// benchOne times every graph of set with every column into row, under
// mu, but the graphs none of whose walks returns.
func benchOne(drv *benchDriver, set benchSet, sides []benchSide, bf *benchFlags, stderr io.Writer, row *benchRow, mu *sync.Mutex) {
	for gi, g := range set.graphs {
		walks := returnedOnly(oracle.Walks(g, oracle.WalkOptions{Seed: bf.seed + uint64(gi), Registers: set.registers}))
		mu.Lock()
		if len(walks) == 0 {
			row.noWalk++
		} else {
			row.graphs++
			row.blocks += g.Len()
		}
		mu.Unlock()
		if len(walks) == 0 {
			continue
		}
		for k := range sides {
			si := (k + gi) % len(sides) // alternate which column goes first
			r := benchModule(drv, g, walks, sides[si], set.registers, bf, stderr, fmt.Sprintf("%s #%d", set.name, gi))
			mu.Lock()
			row.cols[si].add(gi, r)
			mu.Unlock()
		}
	}
}

// benchResult is one module's figures, or why it has none (left), and
// whether its sinks were compared with the interpreter's.
type benchResult struct {
	left          string
	words         int
	stats         *structurizer.Stats
	tm            gpu.Timing
	sinksCompared bool
}

// add counts graph gi's result r.
func (t *benchTotals) add(gi int, r benchResult) {
	t.graphs++
	if r.left != "" {
		if t.left == nil {
			t.left = map[string]int{}
		}
		t.left[r.left]++
		return
	}
	t.timed = append(t.timed, gi)
	if r.sinksCompared {
		t.sinksCompared++
	}
	t.words += r.words
	if r.stats != nil {
		t.fallbacks += r.stats.Fallbacks
		t.routeVars += r.stats.RouteVars
	}
	t.compiles, t.runs = append(t.compiles, r.tm.Compile()), append(t.runs, r.tm.Run)
	t.compileCPUs, t.runCPUs = append(t.compileCPUs, r.tm.CompileCPU()), append(t.runCPUs, r.tm.RunCPU)
}

// benchSalt makes every compiled module distinct within and across runs.
var benchSalt = uint32(time.Now().UnixNano())

// benchSide is one column of the table: a way to get a graph's module.
type benchSide struct {
	name string
	// module is g's module under a register file of registers values,
	// with the structurizer's stats; an error when there is none.
	module func(g *cfg.Graph, registers int) ([]byte, *structurizer.Stats, error)
}

func sideNames(sides []benchSide) []string {
	var names []string
	for _, s := range sides {
		names = append(names, s.name)
	}
	return names
}

// ownSide is cfgfuzz's own strategy strat, its modules salted.
func ownSide(strat string) benchSide {
	return benchSide{name: strat, module: func(g *cfg.Graph, registers int) ([]byte, *structurizer.Stats, error) {
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strat})
		if err != nil {
			return nil, nil, err
		}
		benchSalt++
		mod, err := emit.Bytes(res.Func, emit.Options{NoNames: true, Salt: benchSalt | 1, Registers: registers})
		if err != nil {
			return nil, nil, fmt.Errorf("emit: %w", err)
		}
		return mod, &res.Stats, nil
	}}
}

// benchNoModule is why a column has no module for a graph: word names
// it in the table (benchTotals.left), err on standard error.
type benchNoModule struct {
	word string
	err  error
}

func (e benchNoModule) Error() string { return e.err.Error() }

// externalSide is the structurizer side serves, asked for its module of
// each graph within limit (the answer's module, or its function emitted).
func externalSide(side fuzz.Side, limit time.Duration) benchSide {
	return benchSide{name: "ext", module: func(g *cfg.Graph, registers int) ([]byte, *structurizer.Stats, error) {
		s := fuzz.SideStructurizer(side, proto.Options{Registers: registers}, limit)(g)
		switch {
		case s.Err != nil:
			return nil, nil, benchNoModule{benchLeftHarness, s.Err}
		case s.Module == nil && s.Unsupported:
			return nil, nil, benchNoModule{"unsupported", fmt.Errorf("not served: %s", s.Detail)}
		case s.Module == nil:
			return nil, nil, benchNoModule{benchOutcomeWord(s.Failure), errors.New(failureText(s.Failure, s.Detail))}
		}
		return s.Module, s.Stats, nil
	}}
}

// failureText is a structurizer's failure sig with its detail, the
// detail's start left out of sig where it repeats it
// ("structurize:crash:protocol: answer is not JSON" and the detail
// "protocol: answer is not JSON: first bytes ..." read once).
func failureText(sig, detail string) string {
	parts := strings.SplitN(sig, ":", 3)
	if len(parts) == 3 && parts[2] != "" && strings.HasPrefix(detail, parts[2]) {
		return parts[0] + ":" + parts[1] + ":" + detail
	}
	return sig + ": " + detail
}

// benchOutcomeWord is the table's word for a structurizer's failure
// signature: structurize:timeout is timeout, structurize:error:REASON
// error; another signature (emit's) is itself.
func benchOutcomeWord(sig string) string {
	rest, ok := strings.CutPrefix(sig, "structurize:")
	if !ok {
		return sig
	}
	word, _, _ := strings.Cut(rest, ":")
	return word
}

// benchModule times side's module of g on the driver and checks its
// traces against walks; label names it on standard error.
func benchModule(drv *benchDriver, g *cfg.Graph, walks []oracle.Walk, side benchSide, registers int, bf *benchFlags, stderr io.Writer, label string) benchResult {
	strat := side.name
	mod, stats, err := side.module(g, registers)
	if err != nil {
		fmt.Fprintf(stderr, "%s %s: %v (skipped)\n", label, strat, err)
		var nm benchNoModule
		if errors.As(err, &nm) {
			return benchResult{left: nm.word}
		}
		return benchResult{left: benchLeftNoModule}
	}
	batch, n := walkBatch(walks)
	tm, obs, err := drv.time(mod, batch, n, gpu.TimeOptions{Warmup: bf.warmup, Repeats: bf.repeats})
	if err != nil {
		fmt.Fprintf(stderr, "%s %s: %v\n", label, strat, err)
		return benchResult{left: benchLeftDriver}
	}
	if bf.verbose {
		fmt.Fprintf(stderr, "%s %-10s %4d blocks %7d words  pipeline %v (cpu %v)  first dispatch %v (cpu %v)  run %v (cpu %v)\n",
			label, strat, g.Len(), len(mod)/4, tm.Pipeline, tm.PipelineCPU, tm.FirstDispatch, tm.FirstDispatchCPU, tm.Run, tm.RunCPU)
	}
	if r := oracle.CompareWalks(gpu.Replay{Observed: obs, Device: "vulkan:" + drv.info.Name}, mod, walks); r.Signature != "" {
		fmt.Fprintf(stderr, "%s %s: driver disagrees with the graph: %s %s (left out of the figures)\n", label, strat, r.Signature, r.Detail)
		return benchResult{left: benchLeftRejected}
	}
	r := gpu.CompareSinks(mod, walks, obs)
	switch {
	case r.Signature != "":
		fmt.Fprintf(stderr, "%s %s: driver disagrees with the interpreter: %s %s (left out of the figures)\n", label, strat, r.Signature, r.Detail)
		return benchResult{left: benchLeftRejected}
	case r.Harness != nil:
		fmt.Fprintf(stderr, "%s %s: sinks not compared: %s (timed)\n", label, strat, gpu.Unprefixed(r.Harness))
	}
	return benchResult{words: len(mod) / 4, stats: stats, tm: tm, sinksCompared: r.Harness == nil}
}

// walkBatch lays out the walks' decisions as oracle.CompareWalks does.
func walkBatch(walks []oracle.Walk) (*spirv.Batch, int) {
	return oracle.WalkBatch(walks), len(walks)
}

// returnedOnly keeps the walks that return: a capped walk would run on in
// the driver (lavapipe cuts it, a GPU does not).
func returnedOnly(ws []oracle.Walk) []oracle.Walk {
	var out []oracle.Walk
	for _, w := range ws {
		if w.Returned {
			out = append(out, w)
		}
	}
	return out
}

// printBenchTable prints one Markdown row per set: per column the modules
// in its figures, their mean words, the fallbacks and route variables,
// and the median compile and run times (wall, and CPU time of the
// process); then the first column's medians over each other's.
func printBenchTable(w io.Writer, names []string, rows []benchRow) {
	fmt.Fprint(w, "| set | graphs | blocks (mean) |")
	for _, s := range names {
		fmt.Fprintf(w, " modules %[1]s | words %[1]s | fallbacks, routes %[1]s | compile %[1]s | compile cpu %[1]s | run %[1]s | run cpu %[1]s |", s)
	}
	for _, s := range names[min(1, len(names)):] {
		fmt.Fprintf(w, " compile %[1]s/%[2]s | compile cpu %[1]s/%[2]s | run %[1]s/%[2]s | run cpu %[1]s/%[2]s |", names[0], s)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "|"+strings.Repeat(" --- |", 3+7*len(names)+4*max(0, len(names)-1)))
	for _, r := range rows {
		printBenchRow(w, r)
	}
	fmt.Fprintln(w, "\n"+benchSinksLine(names, rows))
	fmt.Fprintln(w, "\ngraphs: the set's graphs timed, but those none of whose walks returns (their module would run on in a driver);")
	fmt.Fprintln(w, "modules COLUMN: the graphs whose module is in the column's figures; \"N of G (WHY n, ...)\": the others are left out of them:")
	fmt.Fprintln(w, "the structurizer gave no module (refused, timeout, crash, error, unsupported, harness error, no module), driver failure")
	fmt.Fprintln(w, "(the driver refused the module, crashed on it or it outlasted --module-limit; bench does not validate modules: an invalid one")
	fmt.Fprintln(w, "fails here, judge them with cfgfuzz check), rejected (its traces disagree with the graph's walks, or its filler's")
	fmt.Fprintln(w, "results with the interpreter's); - no figure;")
	fmt.Fprintln(w, "words are means per module, fallbacks and routes totals; times are medians over the column's modules, ratios of those medians,")
	fmt.Fprintln(w, "taken in this run (* : over different graphs, see the modules cells);")
	fmt.Fprintln(w, "r=N: every module carries a register file of N values (emit/CONVENTION.md); cpu = the driver process's CPU time over the same span")
	fmt.Fprintln(w, "(lavapipe compiles and runs in that process; on a GPU read wall clock)")
}

// benchSinksLine says, per column over every row, for how many of the
// modules in its figures the filler's results were compared with the
// interpreter's: "sinks compared: structured 3 of 3 modules, dispatch 2
// of 3 (...)".
func benchSinksLine(names []string, rows []benchRow) string {
	var cols []string
	for c, name := range names {
		compared, timed := 0, 0
		for _, r := range rows {
			if c < len(r.cols) {
				compared += r.cols[c].sinksCompared
				timed += len(r.cols[c].timed)
			}
		}
		cols = append(cols, fmt.Sprintf("%s %d of %d", name, compared, timed))
	}
	return "sinks compared: " + strings.Join(cols, ", ") + " modules in the figures (the filler's results against the interpreter's; " +
		"where the interpreter cannot vouch for a module's, they are not compared, and standard error says why)"
}

// printBenchRow prints one set's row of printBenchTable.
func printBenchRow(w io.Writer, r benchRow) {
	graphs := strconv.Itoa(r.graphs)
	if r.noWalk > 0 {
		graphs += fmt.Sprintf(" (%d left out: no walk returns)", r.noWalk)
	}
	blocks := "-"
	if r.graphs > 0 {
		blocks = fmt.Sprintf("%.0f", benchMean(r.blocks, r.graphs))
	}
	fmt.Fprintf(w, "| %s | %s | %s |", r.name, graphs, blocks)
	for _, t := range r.cols {
		words, routes := "-", "-"
		if len(t.timed) > 0 {
			words, routes = fmt.Sprintf("%.0f", benchMean(t.words, len(t.timed))), fmt.Sprintf("%d, %d", t.fallbacks, t.routeVars)
		}
		fmt.Fprintf(w, " %s | %s | %s | %s | %s | %s | %s |", t.modulesCell(), words, routes, benchTime(benchMedian(t.compiles)),
			benchTime(benchMedian(t.compileCPUs)), benchTime(benchMedian(t.runs)), benchTime(benchMedian(t.runCPUs)))
	}
	a := &r.cols[0]
	for i := 1; i < len(r.cols); i++ {
		b := &r.cols[i]
		ratio := func(x, y []time.Duration) string {
			q := benchRatio(benchMedian(x), benchMedian(y))
			if q != "-" && !slices.Equal(a.timed, b.timed) {
				q += " *"
			}
			return q
		}
		fmt.Fprintf(w, " %s | %s | %s | %s |", ratio(a.compiles, b.compiles), ratio(a.compileCPUs, b.compileCPUs), ratio(a.runs, b.runs), ratio(a.runCPUs, b.runCPUs))
	}
	fmt.Fprintln(w)
}

// modulesCell is the count of t's modules in its figures, with the
// graphs left out and why: "1 of 3 (refused 1, timeout 1)".
func (t *benchTotals) modulesCell() string {
	if len(t.left) == 0 {
		return strconv.Itoa(len(t.timed))
	}
	var why []string
	for _, k := range slices.Sorted(maps.Keys(t.left)) {
		why = append(why, fmt.Sprintf("%s %d", k, t.left[k]))
	}
	return fmt.Sprintf("%d of %d (%s)", len(t.timed), t.graphs, strings.Join(why, ", "))
}

// benchMedian is the median of ds (the mean of the middle two for an even
// count), 0 for none.
func benchMedian(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

func benchMean(sum, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(sum) / float64(n)
}

// benchTime formats one duration; "-" for none.
func benchTime(m time.Duration) string {
	switch {
	case m == 0:
		return "-"
	case m >= time.Second:
		return fmt.Sprintf("%.2f s", m.Seconds())
	case m >= time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(m.Microseconds())/1000)
	}
	return fmt.Sprintf("%.1f us", float64(m.Nanoseconds())/1000)
}

func benchRatio(a, b time.Duration) string {
	if b == 0 || a == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", float64(a)/float64(b))
}
