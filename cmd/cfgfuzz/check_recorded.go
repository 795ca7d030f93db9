// check_recorded.go: check judges each graph file whose header records how
// it was judged (a finding's graph.cfg or min.cfg, a regression file:
// corpus.Header) under that judging, flag by flag, wherever the command
// line leaves the flag out, as minimize does (recordedFields): the
// faults, strategy, register file, walks and their seed, checks, limits,
// target environment and rules reading. Files of one run may record
// different judgings: each file's graphs go to the same structurizer side
// with the file's own options (the protocol carries them with every
// request) and to an oracle of the file's own judging. A flag given wins;
// the structurizer is never taken from a header (a note names it: it is
// what --structurizer tests). Standard input's header is never taken; a
// note names the judging it records where the flags differ.

package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
)

// checkJudging is how check judges one file's graphs: the structurizer's
// options, the oracle and its options, the limit on a structurizer call
// and on a graph's checks, and the judging they come from.
type checkJudging struct {
	used  usedJudging
	taken []string // the flags taken from the file's header; nil none
	// fromHeader is taken's values by flag name (adoptedValues), each
	// --json record's from_header.
	fromHeader map[string]any
	popt       proto.Options
	opt        oracle.Options
	orc        *oracle.Oracle
	timeout    time.Duration
}

// used is the judging of check's flags, timeout its --timeout.
func (cf checkFlags) used(timeout time.Duration) usedJudging {
	return usedJudging{registers: cf.registers, strategy: cf.strategy, walks: corpus.Walks{Random: cf.walks, Seed: cf.seed},
		checks: cf.checks, timeout: timeout, judge: cf.judge, inject: cf.inject, plants: true, project: cf.project.project()}
}

// newCheckJudging makes the structurizer's options and the oracle of u,
// the --gpu-device of the flags beside it; an error is a usage error.
func newCheckJudging(u usedJudging, gpuDevice string) (*checkJudging, error) {
	opt := oracle.Options{Walks: oracle.WalkOptions{Random: u.walks.Random, Seed: u.walks.Seed, Registers: u.registers}, Seed: u.walks.Seed, GPUDevice: gpuDevice}
	if u.walks.Random == 0 {
		opt.Walks.Random = -1
	}
	u.judge.apply(&opt)
	opt.Checks = u.judge.checks(u.checks)
	orc, err := oracle.New(opt)
	if err != nil {
		return nil, err
	}
	return &checkJudging{used: u, opt: opt, orc: orc, timeout: u.timeout,
		popt: proto.Options{Strategy: u.strategy, Inject: splitList(u.inject), Registers: u.registers}}, nil
}

// recordedJudgings is the judging of each file whose header records one
// that the flags left out (given: the flags on the command line) take,
// by the file's index in files, as readGraphs places its graphs
// (sourced.Input): never by a name, which standard input's "<stdin>"
// shares with a file so named; the other files are judged under flags.
// Each header is read from datas[i], the bytes readInputs read of file i.
// A value taken that check cannot judge under (an unknown strategy,
// fault or check) is an error naming the file.
func recordedJudgings(files []string, datas [][]byte, flags usedJudging, given map[string]bool, gpuDevice string) (map[int]*checkJudging, error) {
	judgings := map[int]*checkJudging{}
	read := map[string]*checkJudging{} // by path: a file given twice has one judging
	for i, f := range files {
		if f == "-" {
			continue
		}
		if j, ok := read[f]; ok {
			if j != nil {
				judgings[i] = j
			}
			continue
		}
		read[f] = nil
		h, err := recordedIn(f, datas[i])
		if err != nil {
			return nil, fmt.Errorf("%w: its header records how it was judged, which check takes for the flags left out; correct the header, or judge the graph from a file without one", err)
		}
		if h == nil {
			continue // no judging recorded: judged under the flags alone
		}
		u := flags
		taken := u.adopt(*h, given)
		if len(taken) == 0 {
			continue
		}
		j, err := validJudging(u, gpuDevice)
		if err != nil {
			return nil, fmt.Errorf("%s, judged as its header records (%s): %w", f, strings.Join(taken, " "), err)
		}
		j.taken, j.fromHeader = taken, adoptedValues(*h, given)
		judgings[i], read[f] = j, j
	}
	return judgings, nil
}

// validJudging is newCheckJudging of u once its settings are checked as
// check's flags are.
func validJudging(u usedJudging, gpuDevice string) (*checkJudging, error) {
	if err := u.judge.validate(); err != nil {
		return nil, err
	}
	if err := validateOptions(u.strategy, splitList(u.inject)); err != nil {
		return nil, err
	}
	if err := proto.CheckOptions(proto.Options{Registers: u.registers}); err != nil {
		return nil, fmt.Errorf("--registers: %w", err)
	}
	return newCheckJudging(u, gpuDevice)
}

// noteRecorded says on w, for each file (datas: their bytes as read,
// readInputs), the judging check took from its header, the faults a cmd
// spec's server is asked for, and what of the header's judging it does
// not judge under (a flag given, the structurizer; standard input's
// header, which is never taken, all of it where the flags differ).
func noteRecorded(w io.Writer, files []string, datas [][]byte, spec fuzz.Spec, flags *checkJudging, judgings map[int]*checkJudging) {
	noted := map[string]bool{}
	for i, f := range files {
		if noted[f] {
			continue
		}
		noted[f] = true
		j := flags
		if fj := judgings[i]; fj != nil {
			j = fj
			fmt.Fprintf(w, "cfgfuzz check: note: judging %s as its header records: %s (a flag given instead wins)\n", f, strings.Join(fj.taken, " "))
			if note := externalFaultsNote(spec, j.used.inject); note != "" && j.used.inject != flags.used.inject {
				fmt.Fprintln(w, "cfgfuzz check: note:", note)
			}
		}
		u := j.used
		u.spec = spec
		if m := recordedMismatch(inputName(f), datas[i], u); m != "" {
			fmt.Fprintln(w, "cfgfuzz check: note:", m)
		}
	}
}

// runsGPU says whether the gpu check judges any of items: under its
// file's judging, or the flags' for a file that records none.
func runsGPU(items []sourced, flags *checkJudging, judgings map[int]*checkJudging) bool {
	for _, it := range items {
		j := judgings[it.Input]
		if j == nil {
			j = flags
		}
		if slices.Contains(j.opt.Checks, gpu.CheckName) {
			return true
		}
	}
	return false
}
