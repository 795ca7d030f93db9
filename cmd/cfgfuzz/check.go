// check.go: `cfgfuzz check`: structurize every graph of the input and run
// the oracle's checks on the module (every check by default; --checks
// selects, "+name" adds to the defaults). One line per graph (`ok ...` or
// `FAIL <check>:<signature> ...`), or one JSON object per graph. This file
// wires the oracle's seams: Subject.Info and Subject.Structurize.
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

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func init() {
	register(command{name: "check", summary: "structurize graphs and check every module with the oracle", run: runCheck})
}

// checkRecord is one graph's result in --json output.
type checkRecord struct {
	Source   string              `json:"source"` // file:line:col of the graph
	Graph    string              `json:"graph"`  // compact notation
	Outcome  string              `json:"outcome"`
	Reason   string              `json:"reason,omitempty"`
	Checks   []oracle.Verdict    `json:"checks"`
	Stats    *structurizer.Stats `json:"stats,omitempty"`
	Strategy string              `json:"strategy"`
}

// Outcomes of one graph.
const (
	outcomeOK      = "ok"
	outcomeFail    = "fail"    // a check failed: a finding
	outcomeRefused = "refused" // the strategy refused the graph
	outcomeError   = "error"   // the harness failed
	// outcomeUnsupported: the emitter cannot encode the function
	// (emit.UnsupportedError, emit/CONVENTION.md "Limits"): no verdict.
	outcomeUnsupported = "unsupported"
)

type checkFlags struct {
	strategy, checks, inject, env string
	rulesCompat, gpuDevice        string
	json, listChecks              bool
	walks                         int
	seed                          uint64
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf checkFlags
	fs.StringVar(&cf.strategy, "strategy", "", "structurizer strategy: "+strings.Join(structurizer.Strategies(), ", ")+" (default "+structurizer.DefaultStrategy+")")
	fs.StringVar(&cf.checks, "checks", "", "comma-separated checks to run (default: all of "+strings.Join(oracle.DefaultChecks, ",")+"); +NAME adds to the defaults, -NAME removes")
	fs.StringVar(&cf.inject, "inject", "", "comma-separated faults to plant: "+strings.Join(structurizer.FaultNames(), ", "))
	fs.StringVar(&cf.env, "target-env", "vulkan1.1", "spirv-val target environment")
	fs.StringVar(&cf.rulesCompat, "rules-compat", "", "rules check: follow a validator's readings where they differ from the specification ("+oracle.CompatSPIRVTools2023+")")
	fs.BoolVar(&cf.json, "json", false, "print one JSON object per graph")
	fs.BoolVar(&cf.listChecks, "list-checks", false, "list the checks and exit")
	fs.IntVar(&cf.walks, "walks", 16, "random walks drawn per graph, on top of the edge-covering walks (a draw repeating an earlier walk is dropped)")
	fs.StringVar(&cf.gpuDevice, "gpu-device", "", "Vulkan device of the gpu check: cpu (lavapipe, the default), gpu, any")
	fs.Uint64Var(&cf.seed, "seed", 1, "seed of the random walks")
	var lim checkLimits
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cfgfuzz check [flags] [FILE...|-]")
		fmt.Fprintln(stderr, "\nStructurize every graph in the files (compact or line notation; - or no file: standard input)")
		fmt.Fprintln(stderr, "and check each module. Prints `ok ...` or `FAIL <check>:<signature> ...` per graph.")
		fmt.Fprintln(stderr, "Exit status: 0 all pass, 1 a check failed or a graph was refused or unsupported, 2 usage or input error\nor an incomplete verdict (--check-timeout).\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if cf.listChecks {
		docs := oracle.CheckNames()
		names := make([]string, 0, len(docs))
		for name := range docs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			fmt.Fprintf(stdout, "%-10s %s\n", name, docs[name])
		}
		return exitOK
	}
	items, err := readGraphs(fs.Args(), stdin)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz check:", err)
		return exitUsage
	}
	opt := oracle.Options{Env: cf.env, Walks: oracle.WalkOptions{Random: cf.walks, Seed: cf.seed}, Seed: cf.seed, RulesCompat: cf.rulesCompat, GPUDevice: cf.gpuDevice}
	if cf.walks == 0 {
		opt.Walks.Random = -1
	}
	if cf.checks != "" {
		opt.Checks = oracle.ResolveChecks(cf.checks)
	}
	orc, err := oracle.New(opt)
	if err != nil {
		fmt.Fprintln(stderr, "cfgfuzz check:", err)
		return exitUsage
	}
	sopt := structurizer.Options{Strategy: cf.strategy, Inject: splitList(cf.inject)}
	if !cf.json {
		fmt.Fprintf(stderr, "cfgfuzz check: %d graphs, strategy %s, checks %s\n", len(items), strategyName(cf.strategy), strings.Join(orc.Checks(), ","))
	}
	side := &fuzz.InProcess{}
	defer side.Close()
	seam := sideSeam(side, sopt, lim.timeout)
	code, failed := exitOK, 0
	enc := json.NewEncoder(stdout)
	for _, it := range items {
		rec := checkOne(it, sopt, seam, orc, lim.checks)
		if rec.Outcome == outcomeError {
			code = exitUsage
		} else if rec.Outcome != outcomeOK && code == exitOK {
			code = exitFail
		}
		if rec.Outcome != outcomeOK {
			failed++
		}
		if cf.json {
			if err := enc.Encode(rec); err != nil {
				fmt.Fprintln(stderr, "cfgfuzz check:", err)
				return exitUsage
			}
			continue
		}
		fmt.Fprintln(stdout, checkLine(rec))
	}
	if !cf.json {
		fmt.Fprintf(stderr, "cfgfuzz check: %d of %d graphs passed\n", len(items)-failed, len(items))
	}
	return code
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

// sourced is a parsed graph with the file it came from.
type sourced struct {
	cfg.Item
	File string
}

// readGraphs parses every file (or standard input for none or "-").
func readGraphs(files []string, stdin io.Reader) ([]sourced, error) {
	if len(files) == 0 {
		files = []string{"-"}
	}
	var all []sourced
	for _, f := range files {
		var data []byte
		var err error
		name := f
		if f == "-" {
			name = "<stdin>"
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(f)
		}
		if err != nil {
			return nil, err
		}
		items, err := cfg.Parse(name, data, cfg.Limits{})
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			all = append(all, sourced{Item: it, File: name})
		}
	}
	return all, nil
}

// checkOne structurizes one graph, emits it and runs the oracle. A panic in
// the structurizer is a finding, not a crash of the tool.
func checkOne(it sourced, sopt structurizer.Options, seam structurizerSeam, orc *oracle.Oracle, checkLimit time.Duration) (rec checkRecord) {
	rec = checkRecord{Source: fmt.Sprintf("%s:%d:%d", it.File, it.Line, it.Col), Graph: cfg.FormatCompact(it.Graph), Strategy: strategyName(sopt.Strategy)}
	defer func() {
		if p := recover(); p != nil {
			rec.Outcome, rec.Reason = outcomeFail, fmt.Sprintf("panic: %v", p)
			rec.Checks = append(rec.Checks, oracle.Verdict{Check: "structurize", Status: oracle.Fail, Signature: "structurize:panic", Detail: fmt.Sprint(p)})
		}
	}()
	mod, info, err := seam(it.Graph)
	if err != nil {
		var emitErr *emitError
		var harnessErr *harnessError
		var unsupported *emit.UnsupportedError
		switch {
		case errors.As(err, &harnessErr):
			rec.Outcome, rec.Reason = outcomeFail, harnessErr.signature()
			rec.Checks = append(rec.Checks, oracle.Verdict{Check: "structurize", Status: oracle.Fail, Signature: harnessErr.signature(), Detail: harnessErr.Error()})
		case errors.As(err, &unsupported):
			rec.Outcome, rec.Reason = outcomeUnsupported, unsupported.Error()
		case errors.As(err, &emitErr):
			rec.Outcome, rec.Reason = outcomeFail, err.Error()
			rec.Checks = append(rec.Checks, oracle.Verdict{Check: "emit", Status: oracle.Fail, Signature: "emit:malformed-function", Detail: err.Error()})
		default:
			rec.Outcome, rec.Reason = outcomeRefused, err.Error()
			if _, ok := err.(*structurizer.Refusal); !ok {
				rec.Outcome = outcomeError
			}
		}
		return rec
	}
	rec.Stats = info.stats
	vs, ok := checkWithin(orc, &oracle.Subject{Graph: it.Graph, Module: mod, Info: info.ResultInfo, Structurize: seam.oracleFunc()}, checkLimit)
	if !ok {
		rec.Outcome, rec.Reason = outcomeError, fmt.Sprintf("checks: no verdict within %v (--check-timeout): incomplete", checkLimit)
		return rec
	}
	rec.Checks = vs
	rec.Outcome = outcomeOK
	if v := oracle.Failed(rec.Checks); v != nil {
		rec.Outcome, rec.Reason = outcomeFail, v.Signature
	} else if v := oracle.Errored(rec.Checks); v != nil {
		rec.Outcome, rec.Reason = outcomeError, v.Check+": "+v.Detail
	}
	return rec
}

// checkLine is the text form: ok or FAIL with the signature, the source and
// the stats.
func checkLine(r checkRecord) string {
	switch r.Outcome {
	case outcomeOK:
		s := r.Stats
		return fmt.Sprintf("ok %s %s blocks %d->%d words %d->%d routes %d clones %d fallbacks %d",
			r.Source, r.Graph, s.BlocksIn, s.BlocksOut, s.WordsIn, s.WordsOut, s.RouteVars, s.Clones, s.Fallbacks)
	case outcomeFail:
		v := oracle.Failed(r.Checks)
		detail := r.Reason
		if v != nil {
			detail = v.Detail
		}
		return fmt.Sprintf("FAIL %s %s %s: %s", r.Reason, r.Source, r.Graph, firstLine(detail))
	case outcomeRefused:
		return fmt.Sprintf("FAIL structurize:refused %s %s: %s", r.Source, r.Graph, r.Reason)
	case outcomeUnsupported:
		return fmt.Sprintf("UNSUPPORTED %s %s: %s", r.Source, r.Graph, r.Reason)
	}
	return fmt.Sprintf("ERROR %s %s: %s", r.Source, r.Graph, r.Reason)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// emitError is an emitter failure (a malformed structured function).
type emitError struct{ err error }

func (e *emitError) Error() string { return e.err.Error() }

// seamInfo is the oracle's ResultInfo with the structurizer's own stats.
type seamInfo struct {
	oracle.ResultInfo
	stats *structurizer.Stats
}

// structurizer is the seam between the structurizer and the oracle: graph
// in, module bytes and result info out.
type structurizerSeam func(g *cfg.Graph) ([]byte, seamInfo, error)

// oracleFunc adapts the seam to oracle.StructurizeFunc, containing panics
// (a panic on a re-run is an error of that run).
func (f structurizerSeam) oracleFunc() oracle.StructurizeFunc {
	return func(g *cfg.Graph) (mod []byte, info oracle.ResultInfo, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		mod, si, err := f(g)
		return mod, si.ResultInfo, err
	}
}
