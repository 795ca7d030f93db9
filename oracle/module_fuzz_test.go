// module_fuzz_test.go: the native fuzz target FuzzModule, the oracle on a
// module that came from outside: `cfgfuzz lint FILE.spv` (CheckRulesWith,
// which nothing recovers) and `cfgfuzz check` on a structurizer that
// answers with its own module (the checks that read the module, run the
// way Check runs them). Whatever the bytes, the rules checker returns
// violations or an error, never a panic, and no check of a module
// panics or allocates more than fuzzModuleAlloc. The seeds are the modules cfgfuzz emits for a few graphs on
// both strategies, in both byte orders; inputs the fuzzer found are kept
// under testdata/fuzz/FuzzModule and replay with every go test.
//
//	go test -run '^$' -fuzz '^FuzzModule$' -fuzztime 150s -parallel 1 ./oracle
package oracle

import (
	byteorder "encoding/binary"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// fuzzModuleGraph is the graph every fuzzed module is judged against: a
// loop around a diamond, so that walks take both arms and go round.
const fuzzModuleGraph = "{{1}, {2, 3}, {4}, {4}, {1, 5}, {}}"

// fuzzModuleChecks are the checks that read the module alone (meta needs a
// structurizer to re-run, spirv-val is SPIRV-Tools' own).
var fuzzModuleChecks = []string{"pdom", "rules", "exec", "filler", "growth"}

// fuzzModuleAlloc bounds what the checks of one fuzzed module (a few
// kilobytes at most) may allocate: the interpreter's tables of a module
// of sparse ids take up to some 200 MB (interp_bound.go).
const fuzzModuleAlloc = 512 << 20

func FuzzModule(f *testing.F) {
	for _, mod := range emittedSeeds(f, fuzzModuleGraph, "{{}}", "{{1, 2}, {3}, {3}, {}}", "{{1}, {0}}", "{{1, 2, 3}, {}, {0}, {1}}") {
		f.Add(mod)
		f.Add(swapWords(mod))
	}
	f.Add([]byte{})
	f.Add([]byte{0x03, 0x02, 0x23, 0x07})
	g, err := cfg.ParseCompact(fuzzModuleGraph, cfg.Limits{})
	if err != nil {
		f.Fatal(err)
	}
	o, err := New(Options{Checks: fuzzModuleChecks, Walks: WalkOptions{Random: 2}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, err := CheckRulesWith(data, RulesOptions{})
		if err != nil && vs != nil {
			t.Fatalf("CheckRulesWith gave both violations and the error %v", err)
		}
		if err != nil && strings.TrimSpace(err.Error()) == "" {
			t.Fatal("CheckRulesWith: an error without a message")
		}
		if _, derr := spirv.Decode(data); derr != nil && err == nil {
			t.Fatalf("CheckRulesWith accepted what Decode refuses: %v", derr)
		}
		checkWithoutPanicOrFlood(t, o, g, data)
	})
}

// swapWords is the module in the other byte order.
func swapWords(b []byte) []byte {
	out := make([]byte, len(b))
	for i := 0; i+4 <= len(b); i += 4 {
		byteorder.BigEndian.PutUint32(out[i:], byteorder.LittleEndian.Uint32(b[i:]))
	}
	return out
}

// FuzzModuleEdits is FuzzModule on modules that still decode: the
// fuzzer's bytes pick one of the emitted seed modules and edit its
// instructions, eight bytes an edit (instruction, what, operand, value):
// set an operand, set the opcode, drop the instruction, repeat it, or
// append an operand. Mutations of raw bytes mostly break the word
// counts and stop at the decoder; these reach the rules checker's and
// the interpreter's reading of functions, blocks, ids and merges.
//
//	go test -run '^$' -fuzz '^FuzzModuleEdits$' -fuzztime 150s -parallel 1 ./oracle
func FuzzModuleEdits(f *testing.F) {
	var seeds []*spirv.Module
	for _, mod := range emittedSeeds(f, fuzzModuleGraph, "{{1, 2}, {3}, {3}, {}}", "{{1, 2, 3}, {}, {0}, {1}}") {
		m, err := spirv.Decode(mod)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, m)
	}
	for i := range seeds {
		f.Add([]byte{byte(i)})
		f.Add([]byte{byte(i), 0, 40, 0, 0, 0x30, 0x30, 0x30, 0x30}) // an operand set to an id near 2^30
		f.Add([]byte{byte(i), 0, 60, 2, 0, 0, 0, 0, 0})             // an instruction dropped
	}
	g, err := cfg.ParseCompact(fuzzModuleGraph, cfg.Limits{})
	if err != nil {
		f.Fatal(err)
	}
	o, err := New(Options{Checks: fuzzModuleChecks, Walks: WalkOptions{Random: 2}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		m := editModule(seeds[int(data[0])%len(seeds)], data[1:])
		mod, err := m.Marshal()
		if err != nil {
			return
		}
		if _, err := CheckRulesWith(mod, RulesOptions{}); err != nil && strings.TrimSpace(err.Error()) == "" {
			t.Fatal("CheckRulesWith: an error without a message")
		}
		checkWithoutPanicOrFlood(t, o, g, mod)
	})
}

// editModule is a copy of m with the edits applied, eight bytes each:
// instruction (two bytes, modulo the count), what (modulo 5), operand,
// value (four bytes, little-endian).
func editModule(m *spirv.Module, edits []byte) *spirv.Module {
	c := *m
	c.Insts = make([]spirv.Instruction, len(m.Insts))
	for i, in := range m.Insts {
		c.Insts[i] = spirv.Instruction{Op: in.Op, Operands: slices.Clone(in.Operands)}
	}
	for ; len(edits) >= 8 && len(c.Insts) > 0; edits = edits[8:] {
		k := int(byteorder.LittleEndian.Uint16(edits)) % len(c.Insts)
		what, at, v := edits[2]%5, int(edits[3]), byteorder.LittleEndian.Uint32(edits[4:])
		in := &c.Insts[k]
		switch what {
		case 0:
			if len(in.Operands) > 0 {
				in.Operands[at%len(in.Operands)] = v
			}
		case 1:
			in.Op = spirv.Op(v)
		case 2:
			c.Insts = slices.Delete(c.Insts, k, k+1)
		case 3:
			c.Insts = slices.Insert(c.Insts, k, spirv.Instruction{Op: in.Op, Operands: slices.Clone(in.Operands)})
		case 4:
			in.Operands = append(in.Operands, v)
		}
	}
	return &c
}

// emittedSeeds is the module of each graph (compact notation) under the
// structured strategy and the dispatch loop, as the campaign emits them.
func emittedSeeds(f *testing.F, graphs ...string) [][]byte {
	var mods [][]byte
	for _, src := range graphs {
		g, err := cfg.ParseCompact(src, cfg.Limits{})
		if err != nil {
			f.Fatal(err)
		}
		for _, strategy := range []string{"", "dispatch"} {
			res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strategy})
			if err != nil {
				f.Fatal(err)
			}
			mod, err := emit.Bytes(res.Func, emit.Options{})
			if err != nil {
				f.Fatal(err)
			}
			mods = append(mods, mod)
		}
	}
	return mods
}

// checkWithoutPanicOrFlood runs every check of o on the module: none may
// panic, and together they may allocate at most fuzzModuleAlloc bytes.
func checkWithoutPanicOrFlood(t *testing.T, o *Oracle, g *cfg.Graph, mod []byte) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	verdicts := o.Check(&Subject{Graph: g, Module: mod})
	runtime.ReadMemStats(&after)
	for _, v := range verdicts {
		if v.Status == Error && strings.Contains(v.Detail, "panicked") {
			t.Fatalf("a check panicked: %s", v.Detail)
		}
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > fuzzModuleAlloc {
		t.Fatalf("the checks of a %d-byte module allocated %d MB", len(mod), n>>20)
	}
}
