// share.go defines what a check's verdict depends on (Depends) and the one
// reuse that allows: when two structurizers (the two sides of a
// comparison) made byte-identical modules of one graph, every check that
// reads only the graph and the module (OnModule) gives both the same
// verdict, so it runs once; a check that re-runs the structurizer or reads
// what its run reported (OnSide: meta's re-runs, growth's time) runs on
// each side against that side's own structurizer. The property belongs to
// the check (its table entry, or RegisterCheck's argument), so no caller
// keeps a list of checks that may be shared.

package oracle

import (
	"bytes"
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Depends says what a check's verdict depends on. The zero value says
// nothing, and New refuses a check that has it: every check must choose.
type Depends int

const (
	dependsUnset Depends = iota
	// OnModule: the verdict is a function of Subject.Graph and
	// Subject.Module alone (pdom, rules, spirv-val, exec, gpu).
	OnModule
	// OnSide: the verdict also depends on the structurizer that made the
	// module: it calls Subject.Structurize or reads Subject.Info (meta,
	// growth).
	OnSide
)

func (d Depends) String() string {
	switch d {
	case OnModule:
		return "module"
	case OnSide:
		return "side"
	}
	return fmt.Sprintf("Depends(%d)", int(d))
}

// valid refuses a check that does not say what it depends on.
func (d Depends) valid() error {
	if d != OnModule && d != OnSide {
		return fmt.Errorf("does not say what its verdict depends on (oracle.OnModule or oracle.OnSide), has %v", d)
	}
	return nil
}

// DependsOn returns what check name's verdict depends on; ok is false for
// a name not in the table.
func DependsOn(name string) (d Depends, ok bool) {
	for _, c := range checkTable {
		if c.name == name {
			return c.depends, true
		}
	}
	return dependsUnset, false
}

// Shared is one Check's verdicts kept for a second subject: the graph and
// module they were computed on, and the verdicts.
type Shared struct {
	graph    *cfg.Graph
	module   []byte
	verdicts []Verdict
}

// Share keeps what Check(s) returned for CheckShared. s's graph and module
// must not change afterwards.
func Share(s *Subject, vs []Verdict) *Shared {
	return &Shared{graph: s.Graph, module: s.Module, verdicts: vs}
}

// CheckShared is Check on s, except that each OnModule check takes its
// verdict from sh when sh was computed on an equal graph and a
// byte-identical module and that verdict is not a harness error (which is
// asked again). OnSide checks always run on s. A nil sh, or one of another
// graph or module, shares nothing.
func (o *Oracle) CheckShared(s *Subject, sh *Shared) []Verdict {
	share := sh.matches(s)
	out := make([]Verdict, 0, len(o.checks)+1)
	s.reset()
	s.decoder = o.decoder
	defer func() { s.reset(); s.decoder = nil }()
	s.Copied, s.CopiedKnown = Copies{}, false
	s.size, s.sizeKnown = moduleSize{}, false
	defer o.setRunning(nil)
	for i, c := range o.checks {
		if share && c.depends == OnModule {
			if v, ok := sh.verdict(c.name); ok {
				out = append(out, v)
				continue
			}
		}
		if o.decisive && c.name == "meta" && Failed(out) != nil {
			continue
		}
		o.setRunning(&o.checks[i].name)
		v := c.runRecovered(o, s)
		v.Check = c.name
		out = append(out, v)
	}
	if d, ok := Disagreement(out); ok {
		out = append([]Verdict{d}, out...)
	}
	return out
}

// matches reports whether sh was computed on s's graph and module.
func (sh *Shared) matches(s *Subject) bool {
	return sh != nil && s.Graph != nil && sh.graph != nil && s.Graph.Equal(sh.graph) && bytes.Equal(s.Module, sh.module)
}

// verdict is the shared verdict of check name, unless it is missing or a
// harness error.
func (sh *Shared) verdict(name string) (Verdict, bool) {
	for _, v := range sh.verdicts {
		if v.Check == name && v.Status != Error {
			return v, true
		}
	}
	return Verdict{}, false
}
