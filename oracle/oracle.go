// Package oracle judges one structurization result with independent checks:
// the module's execution against the original graph's walks (exec), and
// SPIRV-Tools' validator (spirv-val). Each check has a name, and each
// failure a stable signature "check:reason" for deduplication.
//
// The oracle never imports the structurizer: it judges any module that
// follows the module convention, including another revision's or another
// project's. It imports only the graph (structurizer/cfg) and the binary
// encoding (emit/spirv).
//
// oracle.go defines the check table, verdicts and the runner.
package oracle

import (
	"fmt"
	"slices"
	"strings"

	"cfgfuzz/structurizer/cfg"
)

// Subject is what the checks judge: the original graph and the module a
// structurizer made of it.
type Subject struct {
	Graph  *cfg.Graph
	Module []byte
}

// Status of one check on one subject.
type Status string

const (
	Pass  Status = "pass"
	Fail  Status = "fail"  // a finding
	Skip  Status = "skip"  // not applicable
	Error Status = "error" // the harness failed (not a finding)
)

// Verdict is one check's judgement.
type Verdict struct {
	Check     string `json:"check"`
	Status    Status `json:"status"`
	Signature string `json:"signature,omitempty"` // "check:reason", stable, no ids
	Detail    string `json:"detail,omitempty"`
}

// Options configures an Oracle. The zero value runs DefaultChecks with the
// spirv-val executable for vulkan1.1 and the interpreter.
type Options struct {
	Checks    []string    // check names; nil means DefaultChecks
	Walks     WalkOptions // walk selection for exec
	Validator Validator   // nil: LookupValidator(Env)
	Env       string      // validator target environment; "" vulkan1.1
	Executor  Executor    // nil: Interpreter{}
}

// check is one entry of the check table.
type check struct {
	name string
	doc  string
	run  func(o *Oracle, s *Subject) Verdict
}

// checkTable lists the checks in the order they run.
var checkTable = []check{
	{"exec", "the module's execution against the original graph's walks (interpreter)", (*Oracle).checkExec},
	{"spirv-val", "SPIRV-Tools' validator", (*Oracle).checkValidator},
}

// DefaultChecks are the checks run when Options.Checks is nil.
var DefaultChecks = []string{"exec", "spirv-val"}

// CheckNames lists every check with its description.
func CheckNames() map[string]string {
	m := map[string]string{}
	for _, c := range checkTable {
		m[c.name] = c.doc
	}
	return m
}

// Oracle runs checks. One Oracle per worker goroutine: it holds the
// validator's state.
type Oracle struct {
	opt    Options
	checks []check
}

// New prepares an oracle; it fails on unknown check names and when a
// selected check's tool is missing.
func New(opt Options) (*Oracle, error) {
	names := opt.Checks
	if names == nil {
		names = DefaultChecks
	}
	o := &Oracle{opt: opt}
	for _, n := range names {
		i := slices.IndexFunc(checkTable, func(c check) bool { return c.name == n })
		if i < 0 {
			var all []string
			for _, c := range checkTable {
				all = append(all, c.name)
			}
			return nil, fmt.Errorf("unknown check %q (have %s)", n, strings.Join(all, ", "))
		}
		o.checks = append(o.checks, checkTable[i])
	}
	if o.opt.Executor == nil {
		o.opt.Executor = Interpreter{}
	}
	if o.opt.Validator == nil && slices.Contains(names, "spirv-val") {
		v, err := LookupValidator(opt.Env)
		if err != nil {
			return nil, err
		}
		o.opt.Validator = v
	}
	return o, nil
}

// Checks lists the names of the checks this oracle runs.
func (o *Oracle) Checks() []string {
	var n []string
	for _, c := range o.checks {
		n = append(n, c.name)
	}
	return n
}

// Check runs every selected check on s.
func (o *Oracle) Check(s *Subject) []Verdict {
	out := make([]Verdict, 0, len(o.checks))
	for _, c := range o.checks {
		v := c.run(o, s)
		v.Check = c.name
		out = append(out, v)
	}
	return out
}

// Failed returns the first failing verdict, or nil.
func Failed(vs []Verdict) *Verdict {
	for i := range vs {
		if vs[i].Status == Fail {
			return &vs[i]
		}
	}
	return nil
}

// Errored returns the first harness error, or nil.
func Errored(vs []Verdict) *Verdict {
	for i := range vs {
		if vs[i].Status == Error {
			return &vs[i]
		}
	}
	return nil
}

func (o *Oracle) checkExec(s *Subject) Verdict {
	walks := Walks(s.Graph, o.opt.Walks)
	r := CompareWalks(o.opt.Executor, s.Module, walks)
	switch {
	case r.Harness != nil:
		return Verdict{Status: Error, Detail: r.Harness.Error()}
	case r.Signature == "":
		return Verdict{Status: Pass, Detail: fmt.Sprintf("%d walks", len(walks))}
	}
	return Verdict{Status: Fail, Signature: "exec:" + r.Signature, Detail: r.Detail}
}

func (o *Oracle) checkValidator(s *Subject) Verdict {
	ok, msg, err := o.opt.Validator.Validate(s.Module)
	switch {
	case err != nil:
		return Verdict{Status: Error, Detail: err.Error()}
	case ok:
		return Verdict{Status: Pass}
	}
	return Verdict{Status: Fail, Signature: "spirv-val:" + NormalizeValidatorMessage(msg), Detail: msg}
}
