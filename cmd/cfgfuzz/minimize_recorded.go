// minimize_recorded.go: minimize judges a graph file whose header records
// how it was judged (a finding's graph.cfg or min.cfg, a regression file:
// corpus.Header) under that judging, flag by flag, wherever the command
// line leaves the flag out: the faults, strategy, register file, walks and
// their seed, checks, limits, target environment and rules reading. So a
// finding taken from a findings store is searched, written and saved as a
// regression under the judging it failed under, and regress replays it
// so. A flag given is a choice and wins (recorded.go notes where it
// differs from the header); the structurizer is never taken from the
// header (a note names it instead: --structurizer is what is tested).

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
)

// adoptRecorded sets each judging flag left out of the command line to
// what the header of the file at path records, and says which it set on
// stderr; nothing for standard input or a file without a header.
func (mf *minimizeFlags) adoptRecorded(path string, stderr io.Writer) {
	if path == "" || path == "-" {
		return
	}
	r, err := corpus.ReadRegression(path)
	if err != nil {
		return // not one graph under a header: judged under the flags alone
	}
	if taken := mf.takeHeader(r.Header); len(taken) > 0 {
		fmt.Fprintf(stderr, "minimize: note: judging %s as its header records: %s (a flag given instead wins)\n", path, strings.Join(taken, " "))
	}
}

// takeHeader sets the flags not in mf.set from h where h records a value
// other than the default, and returns them as flags.
func (mf *minimizeFlags) takeHeader(h corpus.Header) []string {
	var taken []string
	free := func(names ...string) bool {
		for _, n := range names {
			if mf.set[n] {
				return false
			}
		}
		return true
	}
	if h.Fault != "" && free("inject") {
		mf.inject = h.Fault
		taken = append(taken, "--inject "+fuzz.ShellQuote(h.Fault))
	}
	if h.Strategy != "" && free("strategy") {
		mf.strategy = h.Strategy
		taken = append(taken, "--strategy "+h.Strategy)
	}
	if h.Registers != 0 && free("registers") {
		mf.registers = h.Registers
		taken = append(taken, fmt.Sprintf("--registers %d", h.Registers))
	}
	if h.Walks != nil && free("walks", "seed") {
		mf.walks, mf.seed = h.Walks.Random, h.Walks.Seed
		taken = append(taken, fmt.Sprintf("--walks %d --seed %d", h.Walks.Random, h.Walks.Seed))
	}
	if h.Checks != "" && free("checks", "allow-fallbacks") {
		mf.checks = h.Checks
		taken = append(taken, "--checks "+fuzz.ShellQuote(h.Checks))
	}
	if h.Timeout != 0 && free("timeout", "graph-timeout") {
		mf.callTimeout = h.Timeout
		taken = append(taken, "--timeout "+h.Timeout.String())
	}
	if h.CheckTimeout != 0 && free("check-timeout") {
		mf.judge.checkTimeout = h.CheckTimeout
		taken = append(taken, "--check-timeout "+h.CheckTimeout.String())
	}
	if h.GrowthTime != 0 && free("growth-time") {
		mf.judge.growthTime = h.GrowthTime
		taken = append(taken, "--growth-time "+h.GrowthTime.String())
	}
	if h.TargetEnv != "" && free("target-env") {
		mf.judge.targetEnv = h.TargetEnv
		taken = append(taken, "--target-env "+fuzz.ShellQuote(h.TargetEnv))
	}
	if h.RulesCompat != "" && free("rules-compat") {
		mf.judge.rulesCompat = h.RulesCompat
		taken = append(taken, "--rules-compat "+fuzz.ShellQuote(h.RulesCompat))
	}
	return taken
}
