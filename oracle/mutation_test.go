// mutation_test.go: lint against spirv-val on mutants of valid modules.
// Valid seeds: dispatch layouts of random graphs (structurizer + emit; the
// "structured" strategy too when it exists), the template module
// (testdata/template-module.spvasm) and random structured programs of its shape
// (structgen_test.go), and the mended hand-written rule cases. Each mutant applies one or two random structural mutations
// (retarget a branch, drop or move a merge, move a continue target, swap
// continue and merge, add a selection merge, swap conditional arms, turn a
// loop merge into a selection merge, end a block early, move a block).
// Agreement means both accept or both reject; a mutant spirv-val rejects for
// a reason outside structured control flow while rules accepts it is
// counted apart (no verdict on structure to compare); each kind of
// disagreement is counted by its signature (DISAGREEMENTS.md lists them
// with the side the specification takes).
//
// go test ./oracle runs 2,000 mutants; CFGFUZZ_MUTANTS=10000 runs more.
// The seed is logged; CFGFUZZ_SEED replays one.
package oracle

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

func envInt(name string, def uint64) uint64 {
	if s := os.Getenv(name); s != "" {
		if v, err := strconv.ParseUint(s, 10, 64); err == nil {
			return v
		}
	}
	return def
}

// seededRand is a random source on stream of the seed CFGFUZZ_SEED gives
// (the clock's when unset), which it logs so a failure replays.
func seededRand(t *testing.T, stream uint64) *rand.Rand {
	t.Helper()
	seed := envInt("CFGFUZZ_SEED", uint64(time.Now().UnixNano()))
	t.Logf("seed %d (CFGFUZZ_SEED=%d replays)", seed, seed)
	return rand.New(rand.NewPCG(seed, stream))
}

// randomGraph returns an arbitrary graph with out-degrees up to 4.
func randomGraph(r *rand.Rand, n int) *cfg.Graph {
	g := cfg.New(n)
	for b := range n {
		for range r.IntN(5) {
			g.Succs[b] = append(g.Succs[b], r.IntN(n))
		}
	}
	return g
}

// seedModules returns valid modules to mutate.
func seedModules(t *testing.T, r *rand.Rand) [][]byte {
	var seeds [][]byte
	strategies := []string{"dispatch"}
	if slices.Contains(structurizer.Strategies(), "structured") {
		strategies = append(strategies, "structured")
	}
	for i := range 60 {
		g := randomGraph(r, 2+i%12)
		for _, s := range strategies {
			res, err := structurizer.Structurize(g, structurizer.Options{Strategy: s})
			if err != nil {
				continue
			}
			mod, err := emit.Bytes(res.Func, emit.Options{})
			if err != nil {
				t.Fatal(err)
			}
			seeds = append(seeds, mod)
		}
	}
	tmpl, err := os.ReadFile("testdata/template-module.spvasm")
	if err != nil {
		t.Fatal(err)
	}
	seeds = append(seeds, assembleText(t, tmpl))
	for range 40 {
		seeds = append(seeds, assemble(t, structuredProgram(r), ""))
	}
	for _, c := range ruleCases {
		if c.asEnv != "" {
			continue
		}
		body, err := os.ReadFile("testdata/rules/" + c.stem + ".good")
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, assemble(t, body, ""))
	}
	return seeds
}

// assembleText assembles a whole module text.
func assembleText(t testing.TB, text []byte) []byte {
	t.Helper()
	return assembleWhole(t, text)
}

// funcShape locates the blocks of the entry-point function: the index of
// each OpLabel, merge instruction and terminator.
type funcShape struct {
	labels []int // instruction index of each OpLabel
	terms  []int // instruction index of each terminator
	merges []int // instruction index of the merge instruction, -1
}

func shapeOf(m *spirv.Module) funcShape {
	var s funcShape
	entry := uint32(0)
	for _, in := range m.Insts {
		if in.Op == spirv.OpEntryPoint {
			entry = in.Operands[1]
			break
		}
	}
	inEntry := false
	for i, in := range m.Insts {
		switch {
		case in.Op == spirv.OpFunction:
			inEntry = in.Operands[1] == entry
		case !inEntry:
		case in.Op == spirv.OpLabel:
			s.labels = append(s.labels, i)
			s.merges = append(s.merges, -1)
		case in.Op == spirv.OpSelectionMerge || in.Op == spirv.OpLoopMerge:
			s.merges[len(s.merges)-1] = i
		case spirv.IsTerminator(in.Op):
			s.terms = append(s.terms, i)
		}
	}
	return s
}

// mutation names, in the order mutate picks them.
var mutationKinds = []string{"retarget", "drop-merge", "move-merge", "move-continue", "swap-continue-merge",
	"add-merge", "swap-arms", "loop-to-selection", "end-early", "move-block"}

// mutate applies one named mutation in place; false when it does not apply.
func mutate(r *rand.Rand, m *spirv.Module, kind string) bool {
	s := shapeOf(m)
	n := len(s.labels)
	if n < 2 {
		return false
	}
	label := func() uint32 { return m.Insts[s.labels[r.IntN(n)]].Operands[0] }
	b := r.IntN(n)
	term := &m.Insts[s.terms[b]]
	own := func(in *spirv.Instruction) { in.Operands = slices.Clone(in.Operands) }
	switch kind {
	case "retarget":
		var slots []int
		switch term.Op {
		case spirv.OpBranch:
			slots = []int{0}
		case spirv.OpBranchConditional:
			slots = []int{1, 2}
		case spirv.OpSwitch:
			for k := 1; k < len(term.Operands); k += 2 {
				slots = append(slots, k)
			}
		}
		if len(slots) == 0 {
			return false
		}
		own(term)
		term.Operands[slots[r.IntN(len(slots))]] = label()
	case "drop-merge", "move-merge", "move-continue", "swap-continue-merge", "loop-to-selection":
		mi := s.merges[b]
		if mi < 0 {
			return false
		}
		in := &m.Insts[mi]
		own(in)
		switch kind {
		case "drop-merge":
			m.Insts = slices.Delete(m.Insts, mi, mi+1)
		case "move-merge":
			in.Operands[0] = label()
		case "move-continue", "swap-continue-merge":
			if in.Op != spirv.OpLoopMerge {
				return false
			}
			if kind == "move-continue" {
				in.Operands[1] = label()
			} else {
				in.Operands[0], in.Operands[1] = in.Operands[1], in.Operands[0]
			}
		case "loop-to-selection":
			if in.Op != spirv.OpLoopMerge {
				return false
			}
			in.Op, in.Operands = spirv.OpSelectionMerge, []uint32{in.Operands[0], 0}
		}
	case "add-merge":
		if s.merges[b] >= 0 || (term.Op != spirv.OpBranchConditional && term.Op != spirv.OpSwitch) {
			return false
		}
		m.Insts = slices.Insert(m.Insts, s.terms[b], spirv.Instruction{Op: spirv.OpSelectionMerge, Operands: []uint32{label(), 0}})
	case "swap-arms":
		if term.Op != spirv.OpBranchConditional {
			return false
		}
		own(term)
		term.Operands[1], term.Operands[2] = term.Operands[2], term.Operands[1]
	case "end-early":
		if s.merges[b] >= 0 {
			m.Insts = slices.Delete(m.Insts, s.merges[b], s.terms[b]+1)
		} else {
			m.Insts = slices.Delete(m.Insts, s.terms[b], s.terms[b]+1)
		}
		at := s.labels[b] + 1
		for at < len(m.Insts) && m.Insts[at].Op == spirv.OpVariable {
			at++
		}
		// Keep the block's code up to its terminator out: return at once.
		end := at
		for end < len(m.Insts) && m.Insts[end].Op != spirv.OpLabel && m.Insts[end].Op != spirv.OpFunctionEnd {
			end++
		}
		m.Insts = slices.Delete(m.Insts, at, end)
		m.Insts = slices.Insert(m.Insts, at, spirv.Instruction{Op: []spirv.Op{spirv.OpReturn, spirv.OpUnreachable}[r.IntN(2)]})
	case "move-block":
		if b == 0 || n < 3 {
			return false
		}
		blk := slices.Clone(m.Insts[s.labels[b] : s.terms[b]+1])
		m.Insts = slices.Delete(m.Insts, s.labels[b], s.terms[b]+1)
		s2 := shapeOf(m)
		to := 1 + r.IntN(len(s2.labels)-1)
		m.Insts = slices.Insert(m.Insts, s2.labels[to], blk...)
	}
	return true
}

func TestMutantsLintAgreesWithSpirvVal(t *testing.T) {
	seed := envInt("CFGFUZZ_SEED", uint64(time.Now().UnixNano()))
	want := int(envInt("CFGFUZZ_MUTANTS", 2000))
	t.Logf("seed %d (CFGFUZZ_SEED=%d replays), %d mutants", seed, seed, want)
	r := rand.New(rand.NewPCG(seed, 1))
	val := testValidator(t, "")
	seeds := seedModules(t, r)
	// A seed both reject is a structurizer's bug (logged, dropped); a seed
	// they judge differently is a disagreement on a real module.
	seeds = slices.DeleteFunc(seeds, func(s []byte) bool {
		vs, err := CheckRules(s)
		if err != nil {
			t.Fatalf("seed module unreadable: %v", err)
		}
		ok, msg, _ := val.Validate(s)
		switch {
		case ok && len(vs) == 0:
			return false
		case !ok && len(vs) > 0:
			t.Logf("seed module dropped, invalid for both: %v; %s", vs[0], firstLine(msg))
		default:
			t.Errorf("seed module: rules %v, spirv-val ok=%v %s\n%s", vs, ok, msg, disassembleBytes(s))
		}
		return true
	})
	compatAgree := 0
	kinds := map[string]int{}
	examples := map[string]string{}
	agree, total, invalid, outside := 0, 0, 0, 0
	for total < want {
		m, err := spirv.Decode(seeds[r.IntN(len(seeds))])
		if err != nil {
			t.Fatal(err)
		}
		applied := ""
		for range 1 + r.IntN(2) {
			k := mutationKinds[r.IntN(len(mutationKinds))]
			if mutate(r, m, k) {
				applied += k + " "
			}
		}
		if applied == "" {
			continue
		}
		mod := m.Bytes()
		total++
		vs, err := CheckRules(mod)
		if err != nil {
			t.Fatalf("mutant (%s): rules cannot read it: %v", applied, err)
		}
		ok, msg, err := val.Validate(mod)
		if err != nil {
			t.Fatal(err)
		}
		rv := Verdict{Check: "rules", Status: Pass}
		if len(vs) > 0 {
			rv = (&Oracle{}).checkRules(&Subject{Module: mod})
		}
		vv := Verdict{Check: "spirv-val", Status: Pass}
		if !ok {
			invalid++
			vv = Verdict{Check: "spirv-val", Status: Fail, Signature: "spirv-val:" + NormalizeValidatorMessage(msg), Detail: msg}
		}
		compat, err := CheckRulesWith(mod, RulesOptions{Compat: CompatSPIRVTools2023})
		if err != nil {
			t.Fatal(err)
		}
		if (len(compat) == 0) == ok {
			compatAgree++
		}
		d, differ := Disagreement([]Verdict{rv, vv})
		if !differ && rv.Status == Pass && vv.Status == Fail {
			outside++ // spirv-val stopped at something other than structure
			continue
		}
		if !differ {
			agree++
			continue
		}
		if !KnownSignature(d.Signature) {
			t.Errorf("signature %q is not in the signature table", d.Signature)
		}
		kinds[d.Signature]++
		if _, seen := examples[d.Signature]; !seen {
			examples[d.Signature] = fmt.Sprintf("mutations %s\n%s\n%s", applied, d.Detail, spirv.Disassemble(m))
		}
	}
	var sigs []string
	for s := range kinds {
		sigs = append(sigs, s)
	}
	sort.Slice(sigs, func(i, j int) bool { return kinds[sigs[i]] > kinds[sigs[j]] })
	for _, s := range sigs {
		t.Logf("%6d  %s", kinds[s], s)
	}
	if os.Getenv("CFGFUZZ_EXAMPLES") != "" {
		for _, s := range sigs {
			t.Logf("example of %s:\n%s", s, examples[s])
		}
	}
	judged := total - outside
	pct := 100 * float64(agree) / float64(judged)
	cpct := 100 * float64(compatAgree) / float64(judged)
	t.Logf("%d mutants rejected by spirv-val outside structured control flow (valscope.go), which rules accepts: no verdict on structure to compare", outside)
	t.Logf("agreement, rules following the specification: %d/%d = %.2f%% (%d mutants invalid per spirv-val)", agree, judged, pct, invalid)
	t.Logf("agreement, rules with Compat %s: %d/%d = %.2f%%", CompatSPIRVTools2023, compatAgree, judged, cpct)
	if cpct < 99 {
		t.Errorf("lint (compat %s) and spirv-val agree on %.2f%% of mutants, want >= 99%%", CompatSPIRVTools2023, cpct)
	}
	if pct < 90 {
		t.Errorf("lint (specification) and spirv-val agree on %.2f%% of mutants, want >= 90%% (the rest documented)", pct)
	}
}

func disassembleBytes(b []byte) string {
	m, err := spirv.Decode(b)
	if err != nil {
		return err.Error()
	}
	return spirv.Disassemble(m)
}
