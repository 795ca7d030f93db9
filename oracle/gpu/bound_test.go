// bound_test.go: Bound keeps modules valid and structured, changes nothing
// a walk that returns can see, and makes every invocation finish. These
// tests need no driver: the interpreter runs the bounded modules.
package gpu_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// TestBoundPopulation: the mixed population of TestCheckGenerated and
// every generator of package gen, both layouts: every module can be
// bounded, the bounded module passes spirv-val and the structured rules,
// and the interpreter observes the same on every walk that returns, and
// passes the capped walks. CFGFUZZ_BOUND_GRAPHS sets the number of mixed
// graphs (default 400; a quarter as many of each generator).
func TestBoundPopulation(t *testing.T) {
	o, err := oracle.New(oracle.Options{Checks: []string{"rules", "spirv-val"}})
	if err != nil {
		t.Skip(err)
	}
	n := 400
	if testing.Short() {
		n = 80
	}
	if v, err := strconv.Atoi(os.Getenv("CFGFUZZ_BOUND_GRAPHS")); err == nil && v > 0 {
		n = v
	}
	const seed = 3
	t.Logf("seed %d, %d mixed graphs and %d of each generator per layout", seed, n, n/4)
	var graphs []*cfg.Graph
	var names []string
	for i := range n {
		name, g := mixed(seed, i)
		graphs, names = append(graphs, g), append(names, name)
	}
	for _, k := range gen.Kinds() {
		c := gen.Config{Kind: k, MinBlocks: 5, MaxBlocks: 16, Words: 16}
		for i := range n / 4 {
			it, err := gen.Generate(c, gen.SeedFor(k, seed, i))
			if err != nil {
				t.Fatal(err)
			}
			graphs, names = append(graphs, it.Graph), append(names, fmt.Sprintf("%s(%d)", k, it.Seed))
		}
	}
	loops := 0
	for _, strat := range []string{"structured", "dispatch"} {
		for i, g := range graphs {
			name := names[i]
			m := module(t, g, structurizer.Options{Strategy: strat})
			bm, err := gpu.Bound(m, gpu.BackEdgeLimit)
			if err != nil {
				t.Fatalf("%s %s %s: %v", strat, name, cfg.FormatCompact(g), err)
			}
			if !bytes.Equal(bm, m) {
				loops++
			}
			if v := oracle.Failed(o.Check(&oracle.Subject{Graph: g, Module: bm})); v != nil {
				t.Fatalf("%s %s %s: bounded module fails %s: %s %s", strat, name, cfg.FormatCompact(g), v.Check, v.Signature, v.Detail)
			}
			walks := oracle.Walks(g, oracle.WalkOptions{Seed: uint64(i)})
			// A bounded module is outside the convention on purpose: its
			// step counter is a Private store after a block's append, which
			// the interpreter's sink check takes for a second sink.
			if r := oracle.CompareWalks(oracle.Interpreter{}, bm, walks); (r.Signature != "" && r.Signature != oracle.SigSink) || r.Harness != nil {
				t.Fatalf("%s %s %s: interpreter on the bounded module: %s %s %v", strat, name, cfg.FormatCompact(g), r.Signature, r.Detail, r.Harness)
			}
		}
	}
	if loops == 0 {
		t.Fatal("no module had a loop to bound")
	}
	t.Logf("%d of %d modules had loops and were rewritten", loops, 2*len(graphs))
}

// TestBoundTerminates: with a small limit, modules of graphs that never
// return finish on the interpreter without any step cap, having recorded
// about limit ids. (Whether the cut invocation then reports a return
// depends on the layout: the dispatch loop's merge is its return path;
// the capped-walk comparison accepts either once the walk is recorded.)
func TestBoundTerminates(t *testing.T) {
	const limit = 50
	for _, succs := range [][][]int{{{0}}, {{1}, {0}}, {{1, 2}, {0}, {3}, {2}}, {{1, 2}, {1, 0}, {3}, {2, 3}}, {{0, 1}, {1}}} {
		g := cfg.FromSuccs(succs)
		for _, strat := range []string{"structured", "dispatch"} {
			bm, err := gpu.Bound(module(t, g, structurizer.Options{Strategy: strat}), limit)
			if err != nil {
				t.Fatalf("%v %s: %v", succs, strat, err)
			}
			// The all-zero and all-one walks: every conditional takes its
			// second arm, or its first.
			zeros, ones := make([]uint32, 4*limit), make([]uint32, 4*limit)
			for i := range ones {
				ones[i] = 1
			}
			for _, decs := range [][]uint32{zeros, ones} {
				batch := spirv.NewBatch([][]uint32{decs}, 8*limit)
				mod, err := spirv.Decode(bm)
				if err != nil {
					t.Fatal(err)
				}
				p, err := oracle.Load(mod)
				if err != nil {
					t.Fatal(err)
				}
				trace := make([]uint32, batch.TraceWords)
				mach := oracle.NewMachine(p, map[uint32][]uint32{spirv.BindingDecisions: batch.Decisions, spirv.BindingTrace: trace})
				if err := mach.Run(0); err != nil {
					t.Fatalf("%v %s: %v", succs, strat, err)
				}
				obs := batch.Read(trace, 0)
				if obs.Count < limit/2 || obs.Count > 4*limit {
					t.Errorf("%v %s decisions %v: %+v, want about %d ids", succs, strat, decs[:4], obs, limit)
				}
			}
		}
	}
}

// TestBoundForms: both conditional latch orders and the unconditional one
// are rewritten, a loop-free module comes back unchanged, and a module
// that is not SPIR-V is an error, not a panic.
func TestBoundForms(t *testing.T) {
	g := cfg.FromSuccs([][]int{{1, 2}, {}, {}})
	m := module(t, g, structurizer.Options{})
	if bm, err := gpu.Bound(m, 10); err != nil || !bytes.Equal(bm, m) {
		t.Fatalf("loop-free module: changed %v, err %v", !bytes.Equal(bm, m), err)
	}
	if _, err := gpu.Bound([]byte{1, 2, 3}, 10); err == nil {
		t.Fatal("garbage accepted")
	}
	// {{1, 0}, {2, 1}, {}}: loops whose conditional leaves on non-zero;
	// {{0, 1}, {1, 2}, {}}: on zero; {{1}, {0}}-style unconditional latches
	// come from the dispatch layout.
	for _, succs := range [][][]int{{{1, 0}, {2, 1}, {}}, {{0, 1}, {1, 2}, {}}, {{1}, {2, 0}, {}}} {
		g := cfg.FromSuccs(succs)
		for _, strat := range []string{"structured", "dispatch"} {
			m := module(t, g, structurizer.Options{Strategy: strat})
			bm, err := gpu.Bound(m, gpu.BackEdgeLimit)
			if err != nil {
				t.Fatalf("%v %s: %v", succs, strat, err)
			}
			if bytes.Equal(bm, m) {
				t.Fatalf("%v %s: module with loops unchanged", succs, strat)
			}
			walks := oracle.Walks(g, oracle.WalkOptions{})
			if r := oracle.CompareWalks(oracle.Interpreter{}, bm, walks); r.Signature != "" && r.Signature != oracle.SigSink { // see TestBoundPopulation
				t.Fatalf("%v %s: %s %s", succs, strat, r.Signature, r.Detail)
			}
		}
	}
}

// TestBoundRefuses: a back edge taken by an OpSwitch is not rewritten, and
// the error says so (ErrUnbounded), so Check falls back to returning walks.
func TestBoundRefuses(t *testing.T) {
	m, err := spirv.Decode(module(t, cfg.FromSuccs([][]int{{0}}), structurizer.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	headers := map[uint32]bool{}
	var label, constant uint32
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpLabel:
			label = in.Operands[0]
		case spirv.OpLoopMerge:
			headers[label] = true
		case spirv.OpConstant:
			constant = in.Operands[1]
		}
	}
	changed := false
	for i, in := range m.Insts {
		if in.Op == spirv.OpBranch && headers[in.Operands[0]] && i > 0 && m.Insts[i-1].Op != spirv.OpLoopMerge {
			m.Insts[i] = spirv.Instruction{Op: spirv.OpSwitch, Operands: []uint32{constant, in.Operands[0]}}
			changed = true
		}
	}
	if !changed {
		t.Fatal("no back edge to turn into a switch")
	}
	_, err = gpu.Bound(m.Bytes(), 10)
	if !errors.Is(err, gpu.ErrUnbounded) {
		t.Fatalf("back edge by OpSwitch: err %v, want ErrUnbounded", err)
	}
	t.Log(err)
}

// TestBoundSPIRV14: from SPIR-V 1.4 an entry point lists every global it
// uses; Bound adds its counter there, and the bounded module still
// validates (vulkan1.1spv1.4) and runs the same.
func TestBoundSPIRV14(t *testing.T) {
	v, g, m := twoLoops(t, "vulkan1.1spv1.4")
	m.Version = 0x00010400
	listed := map[uint32]bool{}
	entry := -1
	for i, in := range m.Insts {
		if in.Op == spirv.OpEntryPoint {
			entry = i
			_, n := spirv.ReadString(in.Operands[2:])
			for _, id := range in.Operands[2+n:] {
				listed[id] = true
			}
		}
	}
	for _, in := range m.Insts {
		if in.Op == spirv.OpFunction {
			break
		}
		if in.Op == spirv.OpVariable && !listed[in.Operands[1]] {
			m.Insts[entry].Operands = append(m.Insts[entry].Operands, in.Operands[1])
		}
	}
	m14 := m.Bytes()
	if ok, msg, err := v.Validate(m14); !ok || err != nil {
		t.Fatalf("the 1.4 module itself: %s %v", msg, err)
	}
	bm, err := gpu.Bound(m14, gpu.BackEdgeLimit)
	if err != nil {
		t.Fatal(err)
	}
	validAndSame(t, v, g, bm, "bounded 1.4 module")
}

// twoLoops returns the validator for env (skipping the test without one),
// the graph of two loops in a row and its structured module, decoded.
func twoLoops(t *testing.T, env string) (oracle.Validator, *cfg.Graph, *spirv.Module) {
	t.Helper()
	v, err := oracle.LookupValidator(env)
	if err != nil {
		t.Skip(err)
	}
	g := cfg.FromSuccs([][]int{{1, 0}, {2, 1}, {}})
	m, err := spirv.Decode(module(t, g, structurizer.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	return v, g, m
}

// validAndSame fails t unless v accepts module m and the interpreter runs
// g's walks on it as the graph does.
func validAndSame(t *testing.T, v oracle.Validator, g *cfg.Graph, m []byte, what string) {
	t.Helper()
	if ok, msg, err := v.Validate(m); !ok || err != nil {
		t.Fatalf("%s: %s %v", what, msg, err)
	}
	if r := oracle.CompareWalks(oracle.Interpreter{}, m, oracle.Walks(g, oracle.WalkOptions{})); r.Signature != "" {
		t.Fatalf("%s: %s %s", what, r.Signature, r.Detail)
	}
}

// TestBoundNeverPanics: modules with random words overwritten (ids,
// opcodes, operands) give an error or some module, never a panic, from
// Bound and from Guard: both read whatever a structurizer under test
// emitted.
func TestBoundNeverPanics(t *testing.T) {
	const seed = 11
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	var mods [][]byte
	for _, succs := range [][][]int{{{1, 0}, {2, 1}, {}}, {{1, 2}, {1, 0}, {3}, {2, 3}}, {{0}}, {{1, 2, 3}, {0}, {3, 1}, {}}} {
		for _, strat := range []string{"structured", "dispatch"} {
			mods = append(mods, module(t, cfg.FromSuccs(succs), structurizer.Options{Strategy: strat}))
		}
	}
	for i := range 3000 {
		m := bytes.Clone(mods[i%len(mods)])
		for range 1 + r.IntN(4) {
			w := 5 + r.IntN(len(m)/4-5) // past the header
			v := r.Uint32()
			if r.IntN(2) == 0 {
				v %= 300 // small: a plausible id or opcode word
			}
			binary.LittleEndian.PutUint32(m[4*w:], v)
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("mutation %d: panic %v", i, p)
				}
			}()
			gpu.Bound(m, 10)
			gpu.Guard(m)
		}()
	}
}
