// exec_sink_test.go: a module that returns without publishing the filler's
// sink is caught by the execution check (exec_sink.go).
package oracle

import (
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// dropSinkPublish removes every store of a loaded sink variable through
// a pointer other than the variable itself (the returns' sink slot
// stores), and reports how many it removed.
func dropSinkPublish(m *spirv.Module) int {
	sinks := fillerSinks(m)
	loaded := map[uint32]bool{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpLoad && len(in.Operands) >= 3 && len(sinks) > 0 && in.Operands[2] == sinks[0] {
			loaded[in.Operands[1]] = true
		}
	}
	n := 0
	kept := m.Insts[:0]
	for _, in := range m.Insts {
		if in.Op == spirv.OpStore && len(in.Operands) >= 2 && loaded[in.Operands[1]] && in.Operands[0] != sinks[0] {
			n++
			continue
		}
		kept = append(kept, in)
	}
	m.Insts = kept
	return n
}

func TestExecSinkPublished(t *testing.T) {
	// 0 -> 1 or 2, both return; every block weighs 20 words.
	g := cfg.New(3)
	g.Succs[0] = []int{1, 2}
	for b := range g.Weights {
		g.Weights[b] = 20
	}
	m := dispatchModule(t, g)
	if v := execVerdict(g, m.Bytes()); v.Signature != "" || v.Harness != nil {
		t.Fatalf("the correct module: %s %s %v", v.Signature, v.Detail, v.Harness)
	}
	if sinks := fillerSinks(m); len(sinks) != 1 {
		t.Fatalf("the module's filler stores %d Private variables, want the one sink", len(sinks))
	}
	bad := clone(m)
	if n := dropSinkPublish(bad); n == 0 {
		t.Fatal("no sink slot store in the module")
	}
	v := execVerdict(g, bad.Bytes())
	if v.Signature != SigSink {
		t.Fatalf("sink not published: signature %q (%s), want %q", v.Signature, v.Detail, SigSink)
	}
	t.Log(v.Detail)
}

// TestExecSinkThroughTheOracle: the oracle's exec check reads the sinks
// from the subject's one reading of the filler (Subject.fills), whether the
// filler check ran first or not, and still finds the sink unpublished; and
// compareWalks takes the filler it is given, reading it once.
func TestExecSinkThroughTheOracle(t *testing.T) {
	g := cfg.New(3)
	g.Succs[0] = []int{1, 2}
	for b := range g.Weights {
		g.Weights[b] = 20
	}
	bad := clone(dispatchModule(t, g))
	if n := dropSinkPublish(bad); n == 0 {
		t.Fatal("no sink slot store in the module")
	}
	for _, checks := range [][]string{{"exec"}, {"filler", "exec"}} {
		o, err := New(Options{Checks: checks, Walks: WalkOptions{Seed: 7}})
		if err != nil {
			t.Fatal(err)
		}
		var exec *Verdict
		vs := o.Check(&Subject{Graph: g, Module: bad.Bytes()})
		for i := range vs {
			if vs[i].Check == "exec" {
				exec = &vs[i]
			}
		}
		if exec == nil || exec.Signature != "exec:"+SigSink {
			t.Fatalf("checks %v: exec verdict %+v, want exec:%s", checks, exec, SigSink)
		}
	}
	reads := 0
	decoded := func() (*spirv.Module, error) { return bad, nil }
	fills := func() ([]blockFill, error) { reads++; return blockFills(bad), nil }
	r := compareWalks(Interpreter{}, bad.Bytes(), decoded, fills, nil, Walks(g, WalkOptions{Seed: 7}))
	if r.Signature != SigSink || reads != 1 {
		t.Fatalf("compareWalks with the filler given: signature %q after %d readings, want %q after 1", r.Signature, reads, SigSink)
	}
	none := func() ([]blockFill, error) { return nil, nil } // a filler with no sink: nothing to check
	if r := compareWalks(Interpreter{}, bad.Bytes(), decoded, none, nil, Walks(g, WalkOptions{Seed: 7})); r.Signature != "" {
		t.Fatalf("compareWalks with a filler of no sink: signature %q, want none (the sinks come from the filler given)", r.Signature)
	}
}
