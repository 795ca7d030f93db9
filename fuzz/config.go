// config.go defines a campaign's configuration: Settings, the serializable
// part that report.json records and --resume reloads (everything a result
// depends on), and Config, which adds how to run it (workers, sides,
// progress, output directory) without changing what it finds.

package fuzz

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Defaults for zero values.
const (
	DefaultTimeout = 10 * time.Second
	// DefaultCheckTimeout bounds one side's checks of one graph. spirv-val,
	// the costliest check on large modules, takes 5.2 s on a structured
	// module of a 4,000-block reducible graph and grows faster than
	// linearly (BenchmarkSpirvValGrowth, oracle/README.md), so two minutes
	// checks such graphs rather than timing them out.
	DefaultCheckTimeout = 2 * time.Minute
	// DefaultGrowthTime is the fixed part of the growth check's time
	// limit (Settings.GrowthTime).
	DefaultGrowthTime = oracle.DefaultGrowthTime
)

// Stream is one generator at one weight setting; a campaign interleaves its
// streams: graph index i belongs to stream i mod len(Streams), and the
// streams of one generator take turns over its graphs (Settings.Place), so
// each graph runs at one weight setting.
type Stream struct {
	Kind    string `json:"kind"`    // generator name, e.g. "reducible"
	Weights string `json:"weights"` // weight setting name, e.g. "w16+heavy"
	// Blocks is the block range "MIN-MAX" of every graph of the stream
	// (run --blocks); "" the campaign's own mix (the source's choice).
	Blocks string `json:"blocks,omitempty"`
}

// GraftKind and GraftWeights are the stream label (GraftStream) of a
// guided campaign's mutant (Record.Mutant): a corpus graph's mutant
// grafted onto the index's fresh graph, or a corpus graph's mutant
// alone, whose part from the corpus keeps its parent's kind and weights.
// No stream's kind and weights name such a graph, so it is labelled
// graft/mixed, and its replay prints the graph itself (replayCommand).
const (
	GraftKind    = "graft"
	GraftWeights = "mixed"
)

// GraftStream is the stream label of a guided campaign's mutant.
func GraftStream() Stream { return Stream{Kind: GraftKind, Weights: GraftWeights} }

func (s Stream) String() string {
	if s.Blocks != "" {
		return s.Kind + "/" + s.Weights + "@" + s.Blocks
	}
	return s.Kind + "/" + s.Weights
}

// Item is one generated graph.
type Item struct {
	Graph   *cfg.Graph
	Seed    uint64 // the graph's own seed, for replay
	Program string // source program text, when the generator has one
}

// Source generates a campaign's graphs. It must be a pure function of its
// arguments: that is what makes a campaign reproducible from its seed.
type Source interface {
	// Item returns graph number j of stream s's generator, at s's weight
	// setting, in a campaign seeded with run.
	Item(s Stream, run uint64, j int) (Item, error)
	// Replay is a shell command that prints the graph of stream s with the
	// given own seed, e.g. "cfgfuzz gen --kind reducible --seed 7 --count 1".
	Replay(s Stream, seed uint64) string
}

// Shard selects graph indices i with i mod N == I. The zero value (N 0)
// selects every index.
type Shard struct {
	I int `json:"i"`
	N int `json:"n"`
}

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("bad shard %q: %s", s, ShardWant(s))
	}
	return Shard{I: i, N: n}, nil
}

// ShardWant says what a shard i/n must be, for the error of s, a value
// that is none: shards are numbered from 0, with the shards of s's n (2
// when s gives no n above 1) as the example; `--shard 2/2` is the usual
// slip.
func ShardWant(s string) string {
	n := 2
	if _, b, ok := strings.Cut(s, "/"); ok {
		if m, err := strconv.Atoi(b); err == nil && m > 1 {
			n = m
		}
	}
	shards := fmt.Sprintf("0/%d and 1/%d", n, n)
	if n > 2 {
		shards = fmt.Sprintf("0/%d to %d/%d", n, n-1, n)
	}
	return fmt.Sprintf("want i/n with 0 <= i < n (shards are numbered from 0: for %d shards give %s)", n, shards)
}

func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// has reports whether the shard includes graph index i.
func (s Shard) has(i int) bool { return s.N <= 1 || i%s.N == s.I }

// CampaignGCPercent is the garbage collector's target (GOGC) that
// cmd/cfgfuzz runs with, unless GOGC is set, while the live heap is small
// (TuneGC lowers it as the heap grows). A short campaign's live heap is a
// few megabytes and it allocates fast (modules, decoded modules, walks),
// so at the default 100 the collector took about a quarter of the CPU;
// at 400, the throughput benchmark (then in package fuzz, on small test
// graphs) measured every check at 33% of spirv-val alone instead of 26%,
// and the engine alone at 92% instead of 69%, for a
// peak RSS of `cfgfuzz run --graphs 20000` of 83 MB (48 MB at 100), and
// that run took 34 s instead of 56 s on 2 cores.
const CampaignGCPercent = 400

// Settings is what a campaign's results depend on. The zero value is
// invalid: Streams must be set, and Graphs or Duration.
type Settings struct {
	Seed uint64 `json:"seed"`
	// Graphs is the number of graph indices (0..Graphs-1, before
	// sharding); 0 means no graph budget (Duration ends the campaign).
	Graphs int `json:"graphs"`
	// Duration is the time budget; 0 means none. With a duration, which
	// graphs get done depends on speed, so only a graph budget makes two
	// runs comparable.
	Duration Duration `json:"duration,omitempty"`
	// Timeout is the per-graph limit on the structurizer; 0 means 10 s.
	Timeout Duration `json:"timeout"`
	// CheckTimeout bounds one side's checks of one graph (worker.go,
	// checkWithin); past it the graph's outcome is error, without a
	// verdict. 0 means DefaultCheckTimeout.
	CheckTimeout Duration `json:"check_timeout,omitempty"`
	// GrowthTime is the fixed part of the growth check's time limit
	// (oracle.GrowthOptions.TimeLimit, --growth-time): an answer that
	// took longer than it and 1 ms a block of the graph is growth:time.
	// 0 means DefaultGrowthTime.
	GrowthTime Duration `json:"growth_time,omitempty"`
	// TargetEnv is spirv-val's target environment (oracle.Options.Env);
	// "" oracle.DefaultTargetEnv.
	TargetEnv string `json:"target_env,omitempty"`
	// RulesCompat is the rules check's reading (oracle.Options.RulesCompat);
	// "" the specification's.
	RulesCompat string   `json:"rules_compat,omitempty"`
	Streams     []Stream `json:"streams"`
	Strategy    string   `json:"strategy,omitempty"` // "" the structurizer's default
	// BaselineStrategy is the strategy asked of the baseline side when not
	// Strategy (compare --baseline-strategy: cfgfuzz's two strategies, or
	// two of a structurizer's, side by side); "" Strategy.
	BaselineStrategy string   `json:"baseline_strategy,omitempty"`
	Inject           []string `json:"inject,omitempty"` // faults planted on the current side
	Checks           []string `json:"checks,omitempty"` // oracle checks; nil the oracle's defaults
	Walks            int      `json:"walks"`            // random walks per graph for exec
	// Registers is the register-file workload's size in every module
	// (emit/CONVENTION.md, version 1.1; proto.Options.Registers); 0 none.
	Registers int `json:"registers,omitempty"`
	// GPUEvery, when positive, also runs the `gpu` check (the module on a
	// Vulkan driver; registered by cmd/cfgfuzz) on the current side of
	// every graph whose index is a multiple of it. 0 never does.
	GPUEvery int `json:"gpu_every,omitempty"`
	// GPUDevice is the gpu check's Vulkan device (cpu, gpu, any); "" the
	// CPU device (lavapipe).
	GPUDevice string `json:"gpu_device,omitempty"`
	// DispatchEvery, when positive, runs the dispatch strategy on every
	// side of about one graph index in DispatchEvery instead of Strategy
	// (the dispatch share, dispatch.go; GraphStrategy). 0 never does; so
	// does a Strategy of "dispatch".
	DispatchEvery int    `json:"dispatch_every,omitempty"`
	Current       string `json:"current"`            // the current side, described
	Baseline      string `json:"baseline,omitempty"` // the baseline side, described; "" none
	// CurrentRef and BaselineRef are the sides' revisions as the command
	// line named them before they were resolved to commits (v1.0, main,
	// HEAD+dirty), for the reports' names of the sides (NameSides); ""
	// for a side that is no revision.
	CurrentRef  string `json:"current_ref,omitempty"`
	BaselineRef string `json:"baseline_ref,omitempty"`
	// MaxGrowth is the most the current side's modules may grow, in
	// percent of the baseline's blocks, on the graphs both sides
	// structured validly (SizeDiff): past it the report says so and the
	// campaign fails. nil: no limit (with a baseline only).
	MaxGrowth *float64 `json:"max_growth,omitempty"`
	// Project is the build and serve commands given for repo specs
	// (--build, --serve); nil or empty fields take DIR/.cfgfuzz.json's.
	Project *Project `json:"project,omitempty"`
	Shard   Shard    `json:"shard,omitzero"`
	// Guided records each graph's behaviour features and grows a corpus
	// of the graphs that showed new ones (guide.go); false does neither.
	Guided bool `json:"guided,omitempty"`
	// Mutate is the share (0 to 1) of graph indices that are mutants of
	// a corpus graph rather than fresh (guided campaigns); 0 none.
	Mutate float64 `json:"mutate,omitempty"`
	// CorpusBatch is the number of graph indices after which the corpus
	// grows (guide.go); 0 keeps it frozen for the campaign.
	CorpusBatch int `json:"corpus_batch,omitempty"`
	// CorpusKeep is how the corpus admits graphs (guide.go): "" by
	// novelty, KeepRandom by a seeded draw, a control for measurements.
	CorpusKeep string `json:"corpus_keep,omitempty"`
	// Corpus names the corpus a guided campaign started from
	// (Corpus.Digest); "" none.
	Corpus string `json:"corpus,omitempty"`
	// MaxAnswer bounds one answer line of a structurizer process in
	// bytes (a longer one is a crash finding); 0 means DefaultMaxAnswer.
	MaxAnswer int `json:"max_answer,omitempty"`
	// StartTimeout is a structurizer process's start-up allowance
	// (ProcessOptions.StartTimeout); 0 means DefaultStartTimeout.
	StartTimeout Duration `json:"start_timeout,omitempty"`
	// Night is the date (YYYY-MM-DD) the state directory records the
	// night's findings under, and StateDigest the digest of the state read
	// (State.Digest); both "" without --state. The shards of a night share
	// them.
	Night       string `json:"night,omitempty"`
	StateDigest string `json:"state_digest,omitempty"`
	// ExhaustiveFrom is where the exhaustive generator's walk of the
	// growing order starts: the state's next position (State.ExhaustiveNext),
	// so a night goes on where the last one stopped; nil starts it at Seed.
	ExhaustiveFrom *uint64 `json:"exhaustive_from,omitempty"`
}

// ExhaustiveKind is the generator that walks every graph in order: the
// one stream whose run seed is a position (Settings.ExhaustiveFrom).
const ExhaustiveKind = string(gen.Exhaustive)

// runSeed is the run seed stream i's generator draws graph j from: Seed,
// or ExhaustiveFrom for the exhaustive generator when it is set.
func (s *Settings) runSeed(i int) uint64 {
	if i >= 0 && i < len(s.Streams) && s.Streams[i].Kind == ExhaustiveKind {
		return s.exhaustiveStart()
	}
	return s.Seed
}

// exhaustiveStart is the position the exhaustive generator's walk starts
// at, its streams' run seed: ExhaustiveFrom, or Seed when it is not set.
func (s *Settings) exhaustiveStart() uint64 {
	if s.ExhaustiveFrom != nil {
		return *s.ExhaustiveFrom
	}
	return s.Seed
}

// Duration is a time.Duration that reads and writes as "30s".
type Duration time.Duration

// MarshalText writes the duration as Go writes it.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText reads a Go duration.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}

// Config is a campaign to run. Zero values: Workers 0 means GOMAXPROCS; nil
// Progress prints nothing; nil Minimize keeps findings as found; nil
// Baseline.New runs no baseline.
type Config struct {
	Settings
	Source   Source
	Current  SideFactory
	Baseline SideFactory
	// Escalate, when set, replaces a worker's current side once that side
	// has abandoned a hung in-process call (InProcess.Leaked): the CLI
	// passes this binary as a protocol server, so after the first hang the
	// worker's graphs run in a child process that a timeout can kill, and
	// no more goroutines leak. The zero value keeps the in-process side.
	Escalate SideFactory
	// CutOnStop makes the campaign's stop (its context cancelled) cut the
	// structurizer requests in flight: a side's server process being
	// waited for, or re-run by meta, is killed with its process group,
	// no side is asked once the stop has come, and the graph is left
	// without a record for --resume, as one whose server is still
	// starting is. compare sets it. false: the graphs in flight are
	// judged to their end (a server still starting is cut all the same).
	// The in-process structurizer is never cut: its calls end within
	// Timeout.
	CutOnStop bool
	// Dir is the output directory: results.jsonl, campaign.json and the
	// reports. Required.
	Dir string
	// Resume continues the campaign in Dir instead of starting afresh.
	Resume bool
	// Writer is the cfgfuzz writing the campaign, recorded in
	// campaign.json; a resume of a log another writer started is refused
	// (WriterMismatch). The zero value is ThisWriter.
	Writer Writer
	// Force lets a new campaign replace the one Dir holds (its log,
	// settings, reports and findings); false refuses such a Dir.
	Force   bool
	Workers int
	// Progress receives the progress display; Terminal says whether it is
	// a terminal (a bar) or a log (a line every ProgressEvery, default 10 s).
	Progress      io.Writer
	Terminal      bool
	ProgressEvery time.Duration
	// Notes receives what is said whatever the progress display: a stale
	// lock of the directory or the state taken over, and a lock watched
	// until its heartbeat decides (LockDir); nil nowhere.
	Notes io.Writer
	// Oracle configures every worker's oracle; Settings.Checks and Walks
	// override its Checks and Walks.Random.
	Oracle oracle.Options
	// Minimize, when set, shrinks the first graph of each new finding's
	// signature before the report is written (the corpus package's hook).
	// It gets the graph, the signature and the strategy the finding's
	// graphs ran ("" Settings.Strategy; DispatchStrategy for the dispatch
	// share) and returns a smaller graph that still fails with it, or nil
	// (Minimizer); a finding it cannot reproduce says so
	// (Finding.NotReproduced), and so does one whose judgements disagreed
	// (Finding.Flaky).
	Minimize Minimizer
	// Corpus is the corpus a guided campaign starts from (its digest must
	// be Settings.Corpus); nil an empty one. Run does not change it.
	Corpus *Corpus
	// CorpusDir is the directory Corpus was read from, which the report
	// names (CorpusNote) as where the grown corpus is written back: by a
	// complete campaign that is not a shard, the caller writing
	// Outcome.Corpus there; "" none.
	CorpusDir string
	// State is the state directory as read at the start (--state,
	// state.go); nil runs without one: no graph is skipped as seen, no
	// signature is classed, nothing is carried to the next night.
	State *State
	// Mark is this night's mark in State's directory when the caller made
	// it before Run (MarkState), as a command does before it builds a
	// revision: Run neither marks the state again nor releases the mark,
	// which is the caller's to release. nil: Run marks the state itself
	// while it runs, when the campaign commits there.
	Mark *NightMark
	// StateNewStructurizer lets a fresh night take State over from another
	// structurizer than the one its store records (State.CheckNight);
	// false refuses such a night (--state-new-structurizer).
	StateNewStructurizer bool
	// Context cancels the campaign (Ctrl-C): work stops, the log is
	// flushed, the report covers what was done and says it is incomplete
	// (Report.Incomplete, with the context's cause as the reason when it
	// is not context.Canceled). nil means Background.
	Context context.Context
	// ResumeCommand is the shell command an interrupted report gives to
	// complete the campaign; "" gives none.
	ResumeCommand string
	// Stage, when set, is called as the campaign reaches each of its
	// stages: StageGraphs before the first graph is handed out,
	// StageGraphsDone once no graph runs any more (the last one finished,
	// or Context stopped the campaign), StageMinimize before
	// each finding's minimization, StageReport before the reports are
	// written. It is a seam for tests that stop a campaign (cancel
	// Context) at an exact point.
	Stage func(stage string)

	declared *declaredSink // the sides' v2 declarations, for the report (set by Run)
	// errorStop stops a run whose first graphs are all harness errors
	// (errorstop.go; set by Run).
	errorStop *errorStop
	checks    []string // the checks the workers' oracle runs, for the report (set by execute)
}
