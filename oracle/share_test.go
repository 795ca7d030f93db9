// share_test.go: every check says what its verdict depends on and New
// refuses one that does not; CheckShared lends a byte-identical module's
// OnModule verdicts (those checks run once) and runs every OnSide check
// against the second subject's own seam and info, and shares nothing for
// another graph or module, nor a harness error.
package oracle

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func TestEveryCheckSaysWhatItDependsOn(t *testing.T) {
	want := map[string]Depends{"pdom": OnModule, "rules": OnModule, "spirv-val": OnModule, "exec": OnModule, "growth": OnSide, "meta": OnSide}
	for _, c := range checkTable {
		if err := c.depends.valid(); err != nil {
			t.Errorf("check %s: %v", c.name, err)
		}
		if w, ok := want[c.name]; ok && c.depends != w {
			t.Errorf("check %s depends on the %v, want the %v", c.name, c.depends, w)
		}
	}
	if d, ok := DependsOn("meta"); !ok || d != OnSide {
		t.Errorf("DependsOn(meta) = %v, %v", d, ok)
	}
	if _, ok := DependsOn("no-such-check"); ok {
		t.Error("DependsOn of an unknown check says ok")
	}
}

// withCheck runs f with c appended to the check table.
func withCheck(t *testing.T, c check, f func()) {
	t.Helper()
	saved := checkTable
	checkTable = append(slices.Clone(checkTable), c)
	defer func() { checkTable = saved }()
	f()
}

func TestNewRefusesACheckThatDoesNotSayWhatItDependsOn(t *testing.T) {
	pass := func(*Oracle, *Subject) Verdict { return Verdict{Status: Pass} }
	withCheck(t, check{name: "silent", run: pass}, func() {
		if _, err := New(Options{Checks: []string{"silent"}}); err == nil || !strings.Contains(err.Error(), "depends on") {
			t.Errorf("New with a check of no Depends: %v", err)
		}
	})
	withCheck(t, check{name: "said", depends: OnModule, run: pass}, func() {
		if _, err := New(Options{Checks: []string{"said"}}); err != nil {
			t.Errorf("New with an OnModule check: %v", err)
		}
	})
}

// countingChecks are one OnModule and one OnSide check that count their
// runs, for CheckShared.
func countingChecks(t *testing.T, f func(o *Oracle, mod, side *int)) {
	var mod, side int
	m := check{name: "count-module", depends: OnModule, run: func(*Oracle, *Subject) Verdict { mod++; return Verdict{Status: Pass} }}
	s := check{name: "count-side", depends: OnSide, run: func(*Oracle, *Subject) Verdict { side++; return Verdict{Status: Pass} }}
	withCheck(t, m, func() {
		withCheck(t, s, func() {
			o, err := New(Options{Checks: []string{"count-module", "count-side", "growth", "meta"}})
			if err != nil {
				t.Fatal(err)
			}
			f(o, &mod, &side)
		})
	})
}

func TestCheckSharedRunsModuleChecksOnceAndSideChecksOnEachSide(t *testing.T) {
	countingChecks(t, func(o *Oracle, mod, side *int) {
		a := subjectOf(t, loopGraph, dispatchSeam("structured"))
		va := o.Check(a)
		if Failed(va) != nil || Errored(va) != nil {
			t.Fatalf("first side: %+v", va)
		}
		// The second side made the same module but re-runs fail, and it
		// reports a slow run: meta and growth must fail on it.
		b := &Subject{Graph: a.Graph.Clone(), Module: slices.Clone(a.Module), Info: a.Info,
			Structurize: func(*cfg.Graph) ([]byte, ResultInfo, error) { return nil, ResultInfo{}, errors.New("boom") }}
		b.Info.Duration = time.Hour
		vb := o.CheckShared(b, Share(a, va))
		if *mod != 1 || *side != 2 {
			t.Errorf("module check ran %d times, side check %d times; want 1 and 2", *mod, *side)
		}
		for _, c := range []struct{ check, sig string }{{"meta", "meta:" + SigRerunFailed}, {"growth", "growth:" + SigGrowthTime}} {
			i := slices.IndexFunc(vb, func(v Verdict) bool { return v.Check == c.check })
			if i < 0 || vb[i].Status != Fail || vb[i].Signature != c.sig {
				t.Errorf("%s on the second side: %+v, want %s", c.check, vb, c.sig)
			}
		}
	})
}

func TestCheckSharedSharesNothingForAnotherModuleOrGraph(t *testing.T) {
	countingChecks(t, func(o *Oracle, mod, side *int) {
		a := subjectOf(t, loopGraph, dispatchSeam("structured"))
		sh := Share(a, o.Check(a))
		other := subjectOf(t, loopGraph, dispatchSeam("dispatch"))
		o.CheckShared(other, sh)
		if *mod != 2 {
			t.Errorf("another module: module check ran %d times, want 2", *mod)
		}
		g := a.Graph.Clone()
		g.Weights = make([]int, g.Len())
		g.Weights[1] = 7
		o.CheckShared(&Subject{Graph: g, Module: a.Module, Info: a.Info, Structurize: a.Structurize}, sh)
		if *mod != 3 {
			t.Errorf("another graph: module check ran %d times, want 3", *mod)
		}
		o.CheckShared(a, nil)
		if *mod != 4 {
			t.Errorf("nothing shared: module check ran %d times, want 4", *mod)
		}
	})
}

func TestCheckSharedAsksAHarnessErrorAgain(t *testing.T) {
	runs := 0
	flaky := check{name: "flaky", depends: OnModule, run: func(*Oracle, *Subject) Verdict {
		runs++
		if runs == 1 {
			return Verdict{Status: Error, Detail: "tool missing"}
		}
		return Verdict{Status: Pass}
	}}
	withCheck(t, flaky, func() {
		o, err := New(Options{Checks: []string{"flaky"}})
		if err != nil {
			t.Fatal(err)
		}
		a := subjectOf(t, loopGraph, dispatchSeam("structured"))
		vb := o.CheckShared(a, Share(a, o.Check(a)))
		if runs != 2 || Errored(vb) != nil {
			t.Errorf("flaky ran %d times, second verdicts %+v", runs, vb)
		}
	})
}
