// modmut_test.go: the oracle judged by faults nobody planted, with the
// driver as ground truth. Modules this tree emits (both strategies, some
// weighted, some with a register file) are mutated at the SPIR-V level
// (modmut_ops_test.go: a conditional's labels swapped, a constant, a case
// literal, a branch, a merge target, a comparison, a store, a call, a
// block's place changed, ...); each mutant is judged by the checks that
// apply to a module without its structurizer (rules, spirv-val, exec,
// filler, growth) and run on the driver (the gpu check, and the
// interpreter's and the driver's observations compared word for word on
// the same batch). Every mutant is classed:
//
//   - killed: a check fails;
//   - equivalent: every check passes and the driver runs the graph's walks;
//   - survived: every check passes, the driver does not run the graph's walks;
//   - disagreement: spirv-val and the rules accept the module and the
//     interpreter and the driver observe different things (a bug of the
//     interpreter, of the gpu harness or of the driver).
//
// It runs only when asked (lavapipe compiles every mutant cold):
//
//	CFGFUZZ_MODMUT=40 go test -tags vulkan ./oracle/gpu -run TestModuleMutants -v
//
// CFGFUZZ_MODMUT is the number of graphs (each gives two modules and a few
// mutants per operator); CFGFUZZ_SEED the seed (default 1, logged);
// CFGFUZZ_MODMUT_OUT a directory where the modules of every survivor and
// disagreement are written (with CFGFUZZ_MODMUT_EQUIVALENT=1 every
// equivalent mutant too, under equivalent/, each logged with its edit, for
// a reader to judge: a mutant every check and the driver accept may still
// break a rule no validator checks).
package gpu_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/gen"
	"github.com/cfgfuzz/cfgfuzz/oracle"
	"github.com/cfgfuzz/cfgfuzz/oracle/gpu"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// mutantChecks are the oracle's checks that judge a module without its
// structurizer (meta re-runs the structurizer; fallback reads its report).
var mutantChecks = []string{"rules", "spirv-val", "exec", "filler", "growth"}

// Classes of a mutant.
const (
	classKilled       = "killed"
	classEquivalent   = "equivalent"
	classSurvived     = "survived"
	classDisagreement = "disagreement"
)

// mutantSubject is one module to mutate and what judges it.
type mutantSubject struct {
	name     string
	g        *cfg.Graph
	strategy string
	module   []byte
	walkOpt  oracle.WalkOptions
}

// mutantSubjects are the modules of graph i: both strategies, the graph
// drawn by package gen from the seed.
func mutantSubjects(t *testing.T, seed uint64, i int) []mutantSubject {
	kinds := []gen.Kind{gen.Reducible, gen.Program, gen.Irreducible, gen.NonTerminating}
	k := kinds[i%len(kinds)]
	c := gen.Config{Kind: k, MinBlocks: 3, MaxBlocks: 10, SwitchProb: 0.2}
	if i%3 == 1 {
		c.WordsUpTo = 24
	}
	gs := gen.SeedFor(k, seed, i)
	it, err := gen.Generate(c, gs)
	if err != nil {
		t.Fatalf("gen %s %d: %v", k, gs, err)
	}
	regs := 0
	if i%5 == 2 {
		regs = 4
	}
	var out []mutantSubject
	for _, strat := range []string{"structured", "dispatch"} {
		if !slices.Contains(structurizer.Strategies(), strat) {
			continue
		}
		res, err := structurizer.Structurize(it.Graph, structurizer.Options{Strategy: strat})
		if err != nil {
			t.Logf("graph %d %s: structurize %s: %v (skipped)", i, it.Graph, strat, err)
			continue
		}
		m, err := emit.Bytes(res.Func, emit.Options{Registers: regs})
		if err != nil {
			t.Logf("graph %d %s: emit %s: %v (skipped)", i, it.Graph, strat, err)
			continue
		}
		out = append(out, mutantSubject{
			name:     fmt.Sprintf("graph %d (%s seed %d, %s, registers %d) %s", i, k, gs, strat, regs, it.Graph),
			g:        it.Graph,
			strategy: strat,
			module:   m,
			walkOpt:  oracle.WalkOptions{Seed: gs, Registers: regs},
		})
	}
	return out
}

// mutantVerdict is what the oracle and the driver said of one mutant.
type mutantVerdict struct {
	class  string
	killer string // the first failing check's signature (killed)
	detail string
}

// judgeMutant runs the oracle's module checks and the driver on m.
func judgeMutant(o *oracle.Oracle, ex *gpu.Executor, s mutantSubject, m []byte) mutantVerdict {
	vs := o.Check(&oracle.Subject{Graph: s.g, Module: m})
	status := map[string]oracle.Status{}
	for _, v := range vs {
		status[v.Check] = v.Status
	}
	if status["spirv-val"] != oracle.Pass {
		// Never hand a driver a module the validator refuses.
		f := oracle.Failed(vs)
		if f == nil {
			return mutantVerdict{class: "error", detail: fmt.Sprintf("spirv-val %s", status["spirv-val"])}
		}
		return mutantVerdict{class: classKilled, killer: f.Signature}
	}
	if e := oracle.Errored(vs); e != nil {
		return mutantVerdict{class: "error", detail: e.Check + ": " + e.Detail}
	}
	gv := gpu.Check(ex, s.g, m, s.walkOpt)
	if gv.Status == oracle.Error {
		return mutantVerdict{class: "error", detail: "gpu: " + gv.Detail}
	}
	diff := observationDiff(ex, s, m)
	f := oracle.Failed(vs)
	if diff == "" && status["rules"] == oracle.Pass {
		diff = verdictDiff(status["exec"], f, gv)
	}
	switch {
	case diff != "" && status["rules"] == oracle.Pass:
		sig := "exec pass"
		if f != nil {
			sig = f.Signature
		}
		return mutantVerdict{class: classDisagreement, detail: diff + "; " + sig + ", gpu " + string(gv.Status) + " " + gv.Signature}
	case f != nil:
		return mutantVerdict{class: classKilled, killer: f.Signature}
	case gv.Status == oracle.Fail:
		return mutantVerdict{class: classSurvived, detail: gv.Signature + ": " + gv.Detail}
	}
	return mutantVerdict{class: classEquivalent}
}

// execOnly are the exec signatures the gpu check does not judge (the sink,
// writes outside the slice) or whose module has no defined behaviour to
// compare (an undefined load, a trap).
var execOnly = []string{oracle.SigSink, oracle.SigOverflow, oracle.SigUndefined, oracle.SigTrap}

// verdictDiff names a difference between exec's and gpu's verdicts on the
// same walks, one passing and the other failing; "" when they agree or
// exec failed for what gpu does not judge.
func verdictDiff(exec oracle.Status, f *oracle.Verdict, gv oracle.Verdict) string {
	es := ""
	if exec == oracle.Fail {
		es = strings.TrimPrefix(f.Signature, "exec:")
		if slices.Contains(execOnly, es) {
			return ""
		}
	}
	gs := strings.TrimPrefix(gv.Signature, "gpu:")
	if (es == "") == (gs == "") || gv.Status == oracle.Skip {
		// Both pass, or both fail: a module that runs away ends
		// differently on each (the interpreter stops it when it appends
		// nothing for a while, the driver cuts its loops).
		return ""
	}
	return fmt.Sprintf("exec %q, gpu %q (%s)", es, gs, gv.Detail)
}

// observationDiff runs the walks the gpu check sends through the
// interpreter and the driver, on the module the driver runs, and names the
// first difference for a walk the interpreter saw return: every word (ids,
// count, decisions consumed, return flag, sink, checksum). A walk it
// stopped (a hang, the step cap) runs on on the driver, which may write
// any slot again: only the verdicts compare there (verdictDiff).
func observationDiff(ex *gpu.Executor, s mutantSubject, m []byte) string {
	run, capped := gpu.Prepare(ex, m)
	walks := oracle.Walks(s.g, s.walkOpt)
	if !capped {
		walks = slices.DeleteFunc(walks, func(w oracle.Walk) bool { return !w.Returned })
	}
	if len(walks) == 0 {
		return ""
	}
	batch := oracle.WalkBatch(walks)
	io, ierr := oracle.Interpreter{}.Execute(run, batch, len(walks))
	if io == nil {
		return ""
	}
	if ierr != nil {
		// A trap or an undefined load: the interpreter's observation past
		// it says nothing of what a driver must do.
		return ""
	}
	do, derr := ex.Execute(run, batch, len(walks))
	if derr != nil {
		return "driver: " + derr.Error()
	}
	for i := range walks {
		a, b := io[i], do[i]
		if a.Returned {
			if !slices.Equal(a.IDs, b.IDs) || a.Count != b.Count || a.Consumed != b.Consumed || a.Returned != b.Returned || a.Sink != b.Sink || a.Checksum != b.Checksum {
				return fmt.Sprintf("walk %d (decisions %v): interpreter %s, driver %s", i, walks[i].Decisions, obsString(a), obsString(b))
			}
		}
	}
	return ""
}

func obsString(o spirv.Observed) string {
	return fmt.Sprintf("{ids %v count %d consumed %d returned %t sink %#x checksum %#x}", o.IDs, o.Count, o.Consumed, o.Returned, o.Sink, o.Checksum)
}

// tally counts the classes of one operator's mutants.
type tally struct {
	n       map[string]int
	killers map[string]int
}

func TestModuleMutants(t *testing.T) {
	graphs, _ := strconv.Atoi(os.Getenv("CFGFUZZ_MODMUT"))
	if graphs <= 0 {
		t.Skip("CFGFUZZ_MODMUT=N (graphs) runs the module mutants on the driver")
	}
	seed := uint64(1)
	if v := os.Getenv("CFGFUZZ_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("CFGFUZZ_SEED=%q: %v", v, err)
		}
	}
	t.Logf("seed %d (CFGFUZZ_SEED=%d CFGFUZZ_MODMUT=%d replays)", seed, seed, graphs)
	outDir := os.Getenv("CFGFUZZ_MODMUT_OUT")
	if outDir != "" {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	equivDir := ""
	if outDir != "" && os.Getenv("CFGFUZZ_MODMUT_EQUIVALENT") != "" {
		equivDir = filepath.Join(outDir, "equivalent")
		if err := os.MkdirAll(equivDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ex := device(t)
	val, err := oracle.LookupValidator("")
	if err != nil {
		t.Fatal(err)
	}
	tallies := map[string]*tally{}
	for _, op := range mutationOps {
		tallies[op.name] = &tally{n: map[string]int{}, killers: map[string]int{}}
	}
	total := 0
	for i := range graphs {
		for _, s := range mutantSubjects(t, seed, i) {
			o, err := oracle.New(oracle.Options{Checks: mutantChecks, Walks: s.walkOpt, Validator: val})
			if err != nil {
				t.Fatal(err)
			}
			if v := judgeMutant(o, ex, s, s.module); v.class != classEquivalent {
				t.Errorf("%s: the unmutated module is %s (%s%s)", s.name, v.class, v.killer, v.detail)
				continue
			}
			base, err := spirv.Decode(s.module)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{string(s.module): true}
			for k, op := range mutationOps {
				r := rand.New(rand.NewPCG(seed, uint64(i)<<16|uint64(k)<<1|boolBit(s.strategy == "dispatch")))
				for range mutantsPerOp {
					mut, desc, ok := pickMutant(val, op, base, r)
					if !ok {
						break
					}
					b := mut.Bytes()
					if seen[string(b)] {
						continue
					}
					seen[string(b)] = true
					v := judgeMutant(o, ex, s, b)
					total++
					tl := tallies[op.name]
					tl.n[v.class]++
					if v.class == classKilled {
						tl.killers[checkOf(v.killer)]++
					}
					if v.class == classEquivalent && equivDir != "" {
						if err := os.WriteFile(filepath.Join(equivDir, fmt.Sprintf("%d-%s-%s-%d.spv", i, s.strategy, op.name, total)), b, 0o644); err != nil {
							t.Error(err)
						}
						_ = os.WriteFile(filepath.Join(equivDir, fmt.Sprintf("orig-%d-%s.spv", i, s.strategy)), s.module, 0o644)
						t.Logf("equivalent #%d: %s: %s %s", total, s.name, op.name, desc)
					}
					if v.class == classSurvived || v.class == classDisagreement || v.class == "error" {
						t.Logf("%s #%d: %s: %s %s: %s", v.class, total, s.name, op.name, desc, v.detail)
						if outDir != "" {
							name := fmt.Sprintf("%s-%d-%s-%s-%d.spv", v.class, i, s.strategy, op.name, total)
							if err := os.WriteFile(filepath.Join(outDir, name), b, 0o644); err != nil {
								t.Error(err)
							}
							_ = os.WriteFile(filepath.Join(outDir, fmt.Sprintf("orig-%d-%s.spv", i, s.strategy)), s.module, 0o644)
						}
					}
				}
			}
		}
		if (i+1)%10 == 0 {
			t.Logf("%d/%d graphs, %d mutants", i+1, graphs, total)
		}
	}
	t.Logf("seed %d, %d graphs, %d mutants\n%s", seed, graphs, total, mutantTable(tallies))
}

// mutantsPerOp is how many mutants each operator makes of each module.
const mutantsPerOp = 2

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// checkOf is the check a signature names ("exec" of "exec:trace-mismatch").
func checkOf(sig string) string {
	c, _, _ := strings.Cut(sig, ":")
	return c
}

// pickMutant draws up to 8 candidates of op and returns the first that
// spirv-val accepts, else the last drawn (the validator's to kill).
func pickMutant(val oracle.Validator, op mutationOp, base *spirv.Module, r *rand.Rand) (*spirv.Module, string, bool) {
	var last *spirv.Module
	var lastDesc string
	for range 8 {
		m := cloneModule(base)
		desc, ok := op.apply(m, r)
		if !ok {
			continue
		}
		last, lastDesc = m, desc
		if ok, _, err := val.Validate(m.Bytes()); ok && err == nil {
			return m, desc, true
		}
	}
	return last, lastDesc, last != nil
}

// mutantTable is the kill table, one row an operator.
func mutantTable(ts map[string]*tally) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| operator | mutants | killed | equivalent | survived | disagreement | error | killed by |\n|---|---|---|---|---|---|---|---|\n")
	sum := map[string]int{}
	for _, op := range mutationOps {
		tl := ts[op.name]
		n := 0
		for _, c := range tl.n {
			n += c
		}
		var ks []string
		for k, c := range tl.killers {
			ks = append(ks, fmt.Sprintf("%s %d", k, c))
		}
		sort.Strings(ks)
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %s |\n", op.name, n, tl.n[classKilled], tl.n[classEquivalent], tl.n[classSurvived], tl.n[classDisagreement], tl.n["error"], strings.Join(ks, ", "))
		sum["n"] += n
		for c, k := range tl.n {
			sum[c] += k
		}
	}
	fmt.Fprintf(&b, "| all | %d | %d | %d | %d | %d | %d | |\n", sum["n"], sum[classKilled], sum[classEquivalent], sum[classSurvived], sum[classDisagreement], sum["error"])
	return b.String()
}
