// minimize_unsupported_test.go: a candidate the structurizer declared it
// does not serve (outcome unsupported, protocol v2) does not fail, and is
// no error of the minimizer or of check: corpus.Judge reads it through the
// side's seam as unsupported.
package main

import (
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/corpus"
	"github.com/cfgfuzz/cfgfuzz/fuzz"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// unsupportedSide answers every graph unsupported.
type unsupportedSide struct{}

func (unsupportedSide) Structurize(*cfg.Graph, proto.Options, time.Duration) fuzz.Answer {
	return fuzz.Answer{Outcome: fuzz.OutUnsupported, Reason: "unsupported: switches"}
}
func (unsupportedSide) Close() error { return nil }

func TestJudgeUnsupported(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2, 3}, {}, {}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	orc, err := oracle.New(oracle.Options{Checks: []string{"rules"}})
	if err != nil {
		t.Fatal(err)
	}
	o := corpus.Judge(fuzz.SideStructurizer(unsupportedSide{}, proto.Options{}, time.Second), g, orc)
	if o.Unsupported == "" || o.Signature != "" || o.Err != nil || o.Failed() {
		t.Errorf("unsupported: %+v; want unsupported, no signature, no error, not failed", o)
	}
	it := sourced{Item: cfg.Item{Graph: g, Line: 1, Col: 1}, File: "test"}
	if rec := checkOne(it, fuzz.SideStructurizer(unsupportedSide{}, proto.Options{}, time.Second), "structured", orc, time.Minute); rec.Outcome != outcomeUnsupported {
		t.Errorf("check: outcome %s (%s), want unsupported", rec.Outcome, rec.Reason)
	}
}

// TestBaselinePredicateUnsupported: on the baseline, a graph the
// structurizer does not serve is a decline (corpus.SigUnsupported), told
// from a pass, which the current side's predicate gives it.
func TestBaselinePredicateUnsupported(t *testing.T) {
	g, err := cfg.ParseCompact("{{1, 2, 3}, {}, {}, {}}", cfg.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	run, err := corpus.NewRunner(corpus.RunnerOptions{Checks: []string{"rules"}, Structurize: fuzz.SideStructurizer(unsupportedSide{}, proto.Options{}, time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if sig, err := run.BaselinePredicate()(g); sig != corpus.SigUnsupported || err != nil || !corpus.Declined(sig) {
		t.Errorf("baseline: %q, %v; want %s, a decline", sig, err, corpus.SigUnsupported)
	}
	if sig, err := run.Predicate()(g); sig != "" || err != nil {
		t.Errorf("current side: %q, %v; want a pass", sig, err)
	}
}
