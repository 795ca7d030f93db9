// Command variantstruct is a test-only structurizer speaking protocol v1
// (v2 with --declare) that answers in the func form with output that is
// valid SPIR-V and runs like the graph, but is laid out with other choices
// than cfgfuzz's own structurizer makes: it runs this tree's structurizer
// and rewrites its function with the variants named by --variants (a
// comma-separated list, or "all"):
//
//	reorder      blocks in another valid order: a preorder of the dominator
//	             tree visiting later children first
//	byid         blocks in a preorder of the dominator tree whose children
//	             go by the original id they report (a decompiler's address
//	             order); synthetic blocks after them
//	vars         route variables renamed, started at a non-zero value, every
//	             value stored or compared XORed with it; one unused variable
//	switch2      a selection on a route variable (test) becomes a switch with
//	             one case; a two-way choice becomes a block storing the choice
//	             and a switch with one case on it
//	contsep      every loop gets a continue target of its own: an empty block
//	             in front of the one it had
//	forward      an empty forwarding block on each arm of a two-way selection
//	             that does not go to a loop header
//	unreach      a selection none of whose arms reaches its merge declares an
//	             OpUnreachable block of its own as merge
//	latemerge    a selection whose merge only branches on declares the block
//	             after it as merge
//	clone        a return block of at most 16 words with several predecessors
//	             gets a copy for each predecessor past the first (at most 64
//	             words copied a function)
//	dispatch     graphs of an odd number of blocks are laid out as a dispatch
//	             loop (without saying so in stats.strategy)
//	mergebreak   a conditional that leaves its construct on one arm (a break
//	             or continue, which needs no merge) declares a selection merge:
//	             the other arm, or an OpUnreachable block of its own when both
//	             arms leave
//	loophead     a loop whose header tests gets an empty header block of its
//	             own in front: the test moves into the loop body
//	caseorder    a switch whose cases do not fall through lists them in the
//	             reverse order
//	samearm      a conditional or switch whose targets are all one block
//	             branches there (it still reads its decision)
//	retmerge     a merge no path reaches returns instead of OpUnreachable
//
// and, answering with a module it rewrote itself (these are not in "all"):
//
//	mainfirst    the entry point's function before the helpers
//	notcond      every conditional branch tests the negated condition with
//	             its labels swapped
//	sfill        filler additions, XORs and multiplications by way of
//	             OpSNegate, OpShiftRightArithmetic and OpSDiv, each a no-op
//	             (a - -k, x >> 0 arithmetic, x / 1 signed)
//	nonames      no OpName
//	debug        debug information: an OpSource with 2 KiB of source text
//	             and an OpLine before every terminator
//	noguard      no return of the lanes past the workgroup
//	controls     loops DontUnroll, selections DontFlatten
//	inline       every call of a helper without blocks of its own (the
//	             convention's append and next-decision helpers) inlined into
//	             the entry point, its value passed on by OpCopyObject
//	polarity     a conditional branch whose true label reports a higher
//	             original id than its false label tests the negated
//	             condition with its labels swapped (a decompiler's
//	             fall-through to the lower address): a choice that
//	             follows the numbering
//
// cmd/cfgfuzz's tests build it (variants_test.go). Every variant keeps the
// module valid (spirv-val and the structured rules) and its runs those of
// the graph; --log FILE records how often each changed an answer (unreach
// rarely does: cfgfuzz's own structurizer already merges such selections
// at an OpUnreachable block).
package main

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/emit"
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/fuzz/proto"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

var (
	allVariants    = []string{"reorder", "byid", "vars", "switch2", "contsep", "forward", "unreach", "latemerge", "clone", "dispatch", "mergebreak", "loophead", "caseorder", "samearm", "retmerge"}
	moduleVariants = []string{"mainfirst", "notcond", "sfill", "nonames", "noguard", "debug", "controls", "polarity", "inline"}
)

func main() {
	variants := flag.String("variants", "all", "variants to apply: all, none, or a comma-separated list of "+strings.Join(allVariants, ", "))
	form := flag.String("form", "func", "func or module")
	declare := flag.Bool("declare", false, "serve protocol v2, declaring determinism and renumbering invariance (but with byid)")
	idempotent := flag.Bool("idempotent", false, "with --declare: declare idempotence too")
	logFile := flag.String("log", "", "append a line to FILE for each answer: how often each variant changed the function")
	flag.Parse()
	if *logFile != "" {
		lf, err := os.OpenFile(*logFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "variantstruct:", err)
			os.Exit(2)
		}
		applied = map[string]int{}
		defer lf.Close()
		logTo = lf
	}
	on := map[string]bool{}
	switch *variants {
	case "all":
		for _, v := range allVariants {
			on[v] = true
		}
	case "none", "":
	default:
		for _, v := range strings.Split(*variants, ",") {
			if !slices.Contains(allVariants, v) && !slices.Contains(moduleVariants, v) {
				fmt.Fprintf(os.Stderr, "variantstruct: unknown variant %q (have %s)\n", v, strings.Join(append(allVariants, moduleVariants...), ", "))
				os.Exit(2)
			}
			on[v] = true
		}
	}
	module := *form == "module"
	for _, v := range moduleVariants {
		module = module || on[v]
	}
	h := handler(on, module)
	var err error
	if *declare {
		err = proto.ServeDeclared(os.Stdin, os.Stdout, h, func(proto.Options) proto.HelloAnswer {
			return proto.HelloAnswer{V: 2, Name: "variantstruct", Promises: proto.Promises{
				Deterministic: true, RenumberingInvariant: !on["byid"], Idempotent: *idempotent, Switches: true, Irreducible: true, MaxCloneWords: 16,
			}}
		})
	} else {
		err = proto.Serve(os.Stdin, os.Stdout, h)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "variantstruct:", err)
		os.Exit(1)
	}
}

// applied counts, for --log, how often each variant changed the function
// being answered; nil without --log.
var (
	applied map[string]int
	logTo   *os.File
)

func note(variant string) {
	if applied != nil {
		applied[variant]++
	}
}

func handler(on map[string]bool, module bool) proto.Handler {
	return func(req proto.Request) proto.Response {
		g, err := cfg.ParseCompact(req.Graph, cfg.Limits{})
		if err != nil {
			return proto.Response{Outcome: proto.Error, Reason: proto.RequestError + "graph: " + err.Error()}
		}
		if req.Weights != nil {
			if len(req.Weights) != g.Len() {
				return proto.Response{Outcome: proto.Error, Reason: fmt.Sprintf(proto.RequestError+"weights: %d for %d blocks", len(req.Weights), g.Len())}
			}
			g.Weights = append([]int(nil), req.Weights...)
		}
		strategy := ""
		if on["dispatch"] && g.Len()%2 == 1 {
			strategy = "dispatch"
		}
		res, err := structurizer.Structurize(g, structurizer.Options{Strategy: strategy})
		if err != nil {
			return proto.Response{Outcome: proto.Error, Reason: err.Error()}
		}
		f := res.Func
		if strategy == "dispatch" {
			note("dispatch")
		}
		rewrite(f, on)
		if logTo != nil {
			keys := slices.Sorted(maps.Keys(applied))
			line := req.Graph
			for _, k := range keys {
				line += fmt.Sprintf(" %s=%d", k, applied[k])
			}
			fmt.Fprintln(logTo, line)
			clear(applied)
		}
		if err := f.Validate(); err != nil {
			return proto.Response{Outcome: proto.Error, Reason: "variant produced a malformed function: " + err.Error()}
		}
		st := res.Stats
		st.Count(f)
		st.Strategy = "variant" // says nothing about dispatch
		resp := proto.Response{Outcome: proto.OK, Stats: &st}
		if !module {
			resp.Func = f
			return resp
		}
		m, err := emit.Module(f, emit.Options{Registers: req.Options.Registers, NoNames: on["nonames"], NoLaneGuard: on["noguard"]})
		if err != nil {
			return proto.Response{Outcome: proto.Error, Reason: "emit: " + err.Error()}
		}
		rewriteModule(m, on)
		resp.Module = m.Bytes()
		return resp
	}
}

// rewrite applies the variants in a fixed order, then lays the blocks out.
func rewrite(f *structurizer.Func, on map[string]bool) {
	if on["vars"] {
		varsVariant(f)
	}
	if on["clone"] {
		cloneVariant(f)
	}
	if on["unreach"] {
		unreachVariant(f)
	}
	if on["latemerge"] {
		lateMergeVariant(f)
	}
	if on["mergebreak"] {
		mergeBreakVariant(f)
	}
	if on["loophead"] {
		loopHeadVariant(f)
	}
	if on["caseorder"] {
		caseOrderVariant(f)
	}
	if on["samearm"] {
		sameArmVariant(f)
	}
	if on["retmerge"] {
		for b := range f.Blocks {
			if t := &f.Blocks[b].Term; t.Kind == structurizer.Unreachable {
				note("retmerge")
				t.Kind = structurizer.Return
			}
		}
	}
	if on["forward"] {
		forwardVariant(f)
	}
	if on["contsep"] {
		contSepVariant(f)
	}
	if on["switch2"] {
		switch2Variant(f)
	}
	mode := "stable"
	switch {
	case on["byid"]:
		mode = "byid"
	case on["reorder"]:
		mode = "reverse"
	}
	layout(f, mode)
}

// --- graph helpers -------------------------------------------------------

// branchSuccs is every block's distinct branch targets.
func branchSuccs(f *structurizer.Func) [][]int {
	s := make([][]int, len(f.Blocks))
	for b := range f.Blocks {
		for _, t := range f.Blocks[b].Term.To {
			if !slices.Contains(s[b], t) {
				s[b] = append(s[b], t)
			}
		}
	}
	return s
}

// structSuccs is branchSuccs with merge and continue targets.
func structSuccs(f *structurizer.Func) [][]int {
	s := branchSuccs(f)
	for b := range f.Blocks {
		m := f.Blocks[b].Merge
		add := func(t int) {
			if !slices.Contains(s[b], t) {
				s[b] = append(s[b], t)
			}
		}
		switch m.Kind {
		case structurizer.SelectionMerge:
			add(m.Merge)
		case structurizer.LoopMerge:
			add(m.Merge)
			add(m.Continue)
		}
	}
	return s
}

func preds(succs [][]int) [][]int {
	p := make([][]int, len(succs))
	for b, s := range succs {
		for _, t := range s {
			p[t] = append(p[t], b)
		}
	}
	return p
}

// declared counts how many declarations name each block (merge or continue).
func declared(f *structurizer.Func) []int {
	d := make([]int, len(f.Blocks))
	for _, b := range f.Blocks {
		switch b.Merge.Kind {
		case structurizer.SelectionMerge:
			d[b.Merge.Merge]++
		case structurizer.LoopMerge:
			d[b.Merge.Merge]++
			d[b.Merge.Continue]++
		}
	}
	return d
}

func isLoopHeader(f *structurizer.Func, b int) bool {
	return f.Blocks[b].Merge.Kind == structurizer.LoopMerge
}

// isSelection reports a two-way selection header (not a switch).
func isSelection(blk *structurizer.Block) bool {
	if blk.Merge.Kind != structurizer.SelectionMerge {
		return false
	}
	t := blk.Term
	return t.Kind == structurizer.Test || t.Kind == structurizer.Choose && blk.Arity == 2
}

func synthetic(name string, t structurizer.Term) structurizer.Block {
	return structurizer.Block{Name: name, Kind: structurizer.Synthetic, Orig: -1, Term: t}
}

func branchTo(t int) structurizer.Term {
	return structurizer.Term{Kind: structurizer.Branch, To: []int{t}}
}

func retarget(t *structurizer.Term, from, to int) {
	for i, x := range t.To {
		if x == from {
			t.To[i] = to
		}
	}
}

// inContinue marks the blocks structurally dominated by a loop's continue
// target other than its header (the continue constructs and what follows
// them inside the loop).
func inContinue(f *structurizer.Func) []bool {
	dom := cfg.Dominators(cfg.FromSuccs(structSuccs(f)))
	in := make([]bool, len(f.Blocks))
	for h, blk := range f.Blocks {
		if blk.Merge.Kind != structurizer.LoopMerge {
			continue
		}
		c := blk.Merge.Continue
		for b := range f.Blocks {
			if c == h && b == h || c != h && dom.Dominates(c, b) {
				in[b] = true
			}
		}
	}
	return in
}

// --- variants ------------------------------------------------------------

// varsVariant renames the route variables, starts each at a non-zero
// value k and XORs every value stored to it or compared with it by k: an
// equality holds after the change exactly when it held before.
func varsVariant(f *structurizer.Func) {
	keys := make([]uint32, len(f.Vars))
	for i := range f.Vars {
		note("vars")
		keys[i] = 0x5a5a0000 + uint32(i)*0x101
		f.Vars[i].Name = fmt.Sprintf("state_%d", i)
		f.Vars[i].Init ^= keys[i]
	}
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		for i := range blk.Stores {
			s := &blk.Stores[i]
			if s.PerChoice != nil {
				pc := slices.Clone(s.PerChoice)
				for j := range pc {
					pc[j] ^= keys[s.Var]
				}
				s.PerChoice = pc
			} else {
				s.Value ^= keys[s.Var]
			}
		}
		if t := &blk.Term; t.Kind == structurizer.Test || t.Kind == structurizer.Route {
			vals := slices.Clone(t.Values)
			for j := range vals {
				vals[j] ^= keys[t.Var]
			}
			t.Values = vals
		}
	}
	f.Vars = append(f.Vars, structurizer.Var{Name: "unused", Init: 7})
}

// switch2Variant turns two-way selections into switches of one case,
// where a switch may stand: the header dominates both targets but its
// merge (a switch's case cannot be an enclosing loop's continue target or
// merge), every block of its construct lies in a case (no arms join
// before the merge), and nothing in its construct leaves for an enclosing
// switch's merge (a switch construct may not).
func switch2Variant(f *structurizer.Func) {
	n := len(f.Blocks)
	dom := cfg.Dominators(cfg.FromSuccs(structSuccs(f)))
	switchMerge := make([]bool, n)
	for _, blk := range f.Blocks {
		if blk.Merge.Kind == structurizer.SelectionMerge && !isSelection(&blk) {
			switchMerge[blk.Merge.Merge] = true
		}
	}
	canSwitch := func(h int) bool {
		m := f.Blocks[h].Merge.Merge
		for _, t := range f.Blocks[h].Term.To {
			if t != m && !dom.StrictlyDominates(h, t) {
				return false
			}
		}
		for x := range n {
			if !dom.Dominates(h, x) || dom.Dominates(m, x) || x == h {
				continue
			}
			inCase := false
			for _, t := range f.Blocks[h].Term.To {
				inCase = inCase || t != m && dom.Dominates(t, x)
			}
			if !inCase {
				return false // a join inside the construct: no case's
			}
			for _, t := range f.Blocks[x].Term.To {
				if t != m && switchMerge[t] && !dom.Dominates(h, t) {
					return false
				}
			}
		}
		return true
	}
	choice := -1 // the variable holding a conditional's choice, made on first use
	for b := range n {
		blk := &f.Blocks[b]
		if !isSelection(blk) || !canSwitch(b) {
			continue
		}
		t := blk.Term
		note("switch2")
		switch {
		case t.Kind == structurizer.Test:
			blk.Term = structurizer.Term{Kind: structurizer.Route, Var: t.Var, Values: []uint32{t.Values[0]}, To: []int{t.To[1], t.To[0]}}
		case t.Kind == structurizer.Choose && blk.Arity == 2:
			if choice < 0 {
				choice = len(f.Vars)
				f.Vars = append(f.Vars, structurizer.Var{Name: "choice"})
			}
			sw := synthetic("switch", structurizer.Term{Kind: structurizer.Route, Var: choice, Values: []uint32{1}, To: []int{t.To[0], t.To[1]}})
			sw.Merge = blk.Merge
			blk.Stores = append(slices.Clone(blk.Stores), structurizer.Store{Var: choice, PerChoice: []uint32{0, 1}})
			blk.Merge = structurizer.Merge{}
			blk.Term = branchTo(len(f.Blocks))
			f.Blocks = append(f.Blocks, sw)
		}
	}
}

// contSepVariant gives every loop an empty continue target of its own in
// front of the one it had.
func contSepVariant(f *structurizer.Func) {
	n := len(f.Blocks)
	decl := declared(f)
	for h := range n {
		m := f.Blocks[h].Merge
		if m.Kind != structurizer.LoopMerge {
			continue
		}
		c := m.Continue
		cNew := len(f.Blocks)
		if c == h {
			note("contsep")
			// The header is its own continue target and back-edge block.
			retarget(&f.Blocks[h].Term, h, cNew)
			f.Blocks = append(f.Blocks, synthetic("continue", branchTo(h)))
			f.Blocks[h].Merge.Continue = cNew
			continue
		}
		if decl[c] != 1 {
			continue
		}
		note("contsep")
		for b := range f.Blocks {
			retarget(&f.Blocks[b].Term, c, cNew)
		}
		f.Blocks = append(f.Blocks, synthetic("continue", branchTo(c)))
		f.Blocks[h].Merge.Continue = cNew
	}
}

// forwardVariant puts an empty block on each arm of a two-way selection
// header that does not lie in a continue construct and whose arm does not
// go to a loop header.
func forwardVariant(f *structurizer.Func) {
	n := len(f.Blocks)
	cont := inContinue(f)
	for b := range n {
		blk := &f.Blocks[b]
		if !isSelection(blk) || cont[b] || blk.Term.To[0] == blk.Term.To[1] {
			continue
		}
		to := slices.Clone(blk.Term.To)
		for i, t := range to {
			if isLoopHeader(f, t) || t == b {
				continue
			}
			to[i] = len(f.Blocks)
			note("forward")
			f.Blocks = append(f.Blocks, synthetic("forward", branchTo(t)))
			blk = &f.Blocks[b]
		}
		blk.Term.To = to
	}
}

// unreachVariant gives a selection whose construct never branches to its
// merge an OpUnreachable merge of its own, when the old merge is reached
// from a block the header does not dominate.
func unreachVariant(f *structurizer.Func) {
	n := len(f.Blocks)
	ss := structSuccs(f)
	dom := cfg.Dominators(cfg.FromSuccs(ss))
	bp := preds(branchSuccs(f))
	for h := range n {
		blk := f.Blocks[h]
		if blk.Merge.Kind != structurizer.SelectionMerge {
			continue
		}
		m := blk.Merge.Merge
		if f.Blocks[m].Term.Kind == structurizer.Unreachable {
			continue
		}
		inside, outside := false, false
		for _, p := range bp[m] {
			if dom.Dominates(h, p) && !dom.Dominates(m, p) {
				inside = true
			}
			if !dom.Dominates(h, p) {
				outside = true
			}
		}
		if inside || !outside {
			continue
		}
		note("unreach")
		f.Blocks[h].Merge.Merge = len(f.Blocks)
		f.Blocks = append(f.Blocks, synthetic("unreachable", structurizer.Term{Kind: structurizer.Unreachable}))
	}
}

// lateMergeVariant moves a two-way selection's merge m one block on, to
// the block m branches to, when m declares nothing and is the only way
// there, and nothing declares that block.
func lateMergeVariant(f *structurizer.Func) {
	decl := declared(f)
	bp := preds(branchSuccs(f))
	for h := range f.Blocks {
		blk := &f.Blocks[h]
		if !isSelection(blk) {
			continue
		}
		m := blk.Merge.Merge
		mb := f.Blocks[m]
		if decl[m] != 1 || mb.Merge.Kind != structurizer.NoMerge || mb.Term.Kind != structurizer.Branch {
			continue
		}
		m2 := mb.Term.To[0]
		if m2 == m || decl[m2] != 0 || len(bp[m2]) != 1 || isLoopHeader(f, m2) || m2 == 0 {
			continue
		}
		note("latemerge")
		blk.Merge.Merge = m2
		decl[m]--
		decl[m2]++
	}
}

// cloneVariant copies light return blocks reached from several blocks, one
// copy for each predecessor past the first, within 64 words a function.
func cloneVariant(f *structurizer.Func) {
	const maxWeight, budget = 16, 64
	n := len(f.Blocks)
	decl := declared(f)
	bp := preds(branchSuccs(f))
	cont := inContinue(f)
	spent := 0
	for r := range n {
		blk := f.Blocks[r]
		if blk.Kind != structurizer.Original || blk.Term.Kind != structurizer.Return || blk.Weight > maxWeight || decl[r] != 0 || len(bp[r]) < 2 || cont[r] || r == 0 {
			continue
		}
		for _, p := range bp[r][1:] {
			if spent+blk.Weight > budget || p == r {
				continue
			}
			spent += blk.Weight
			note("clone")
			c := blk
			c.Kind = structurizer.Clone
			c.Name = "clone"
			c.Stores = slices.Clone(blk.Stores)
			retarget(&f.Blocks[p].Term, r, len(f.Blocks))
			f.Blocks = append(f.Blocks, c)
		}
	}
}

// mergeBreakVariant declares a selection merge on a two-way conditional
// without one (one of its arms leaves the construct it lies in, as a break
// or a continue may) outside continue constructs: the arm that stays (the
// one the header dominates) when nothing declares it, else a new
// OpUnreachable block when both arms leave; only where every other arm goes
// to a loop's merge or continue target or a switch's merge (a selection
// may leave for these, not for an enclosing selection's merge or a join).
func mergeBreakVariant(f *structurizer.Func) {
	n := len(f.Blocks)
	dom := cfg.Dominators(cfg.FromSuccs(structSuccs(f)))
	decl := declared(f)
	cont := inContinue(f)
	exit := make([]bool, n) // loop merges and continue targets, switch merges
	for _, o := range f.Blocks {
		switch {
		case o.Merge.Kind == structurizer.LoopMerge:
			exit[o.Merge.Merge], exit[o.Merge.Continue] = true, true
		case o.Merge.Kind == structurizer.SelectionMerge && !isSelection(&o):
			exit[o.Merge.Merge] = true
		}
	}
	for b := range n {
		blk := &f.Blocks[b]
		t := blk.Term
		if blk.Merge.Kind != structurizer.NoMerge || cont[b] || !(t.Kind == structurizer.Test || t.Kind == structurizer.Choose && blk.Arity == 2) {
			continue
		}
		var stay []int
		leaves := true
		for _, x := range t.To {
			switch {
			case dom.StrictlyDominates(b, x):
				if !slices.Contains(stay, x) {
					stay = append(stay, x)
				}
			case !exit[x]:
				leaves = false // a join of the construct b lies in
			}
		}
		if !leaves || len(stay) == 1 && decl[stay[0]] > 0 {
			continue
		}
		switch len(stay) {
		case 0:
			note("mergebreak")
			blk.Merge = structurizer.Merge{Kind: structurizer.SelectionMerge, Merge: len(f.Blocks)}
			f.Blocks = append(f.Blocks, synthetic("unreachable", structurizer.Term{Kind: structurizer.Unreachable}))
		case 1:
			if t.To[0] == t.To[1] {
				continue
			}
			note("mergebreak")
			blk.Merge = structurizer.Merge{Kind: structurizer.SelectionMerge, Merge: stay[0]}
			decl[stay[0]]++
		}
	}
}

// loopHeadVariant gives a loop whose header branches on (a test whose one
// arm leaves the loop, which needs no selection merge in the body) an empty
// header block of its own: every edge into the old header goes to the new
// one, which declares the loop and branches to the old.
func loopHeadVariant(f *structurizer.Func) {
	n := len(f.Blocks)
	decl := declared(f)
	for h := range n {
		blk := f.Blocks[h]
		m := blk.Merge
		if m.Kind != structurizer.LoopMerge || m.Continue == h || blk.Term.Kind == structurizer.Branch {
			continue
		}
		if !slices.Contains(blk.Term.To, m.Merge) && !slices.Contains(blk.Term.To, m.Continue) {
			continue
		}
		contOf := false
		for _, o := range f.Blocks {
			contOf = contOf || o.Merge.Kind == structurizer.LoopMerge && o.Merge.Continue == h
		}
		if contOf || decl[h] > 0 && !declaredOnlyAsMerge(f, h) {
			continue
		}
		note("loophead")
		H := len(f.Blocks)
		for b := range f.Blocks {
			retarget(&f.Blocks[b].Term, h, H)
			if o := &f.Blocks[b].Merge; o.Kind == structurizer.SelectionMerge && o.Merge == h || o.Kind == structurizer.LoopMerge && o.Merge == h {
				o.Merge = H
			}
		}
		head := synthetic("loop", branchTo(h))
		head.Merge = m
		f.Blocks[h].Merge = structurizer.Merge{}
		f.Blocks = append(f.Blocks, head)
	}
}

func declaredOnlyAsMerge(f *structurizer.Func, x int) bool {
	for _, o := range f.Blocks {
		if o.Merge.Kind == structurizer.LoopMerge && o.Merge.Continue == x {
			return false
		}
	}
	return true
}

// caseOrderVariant lists in reverse the cases of every switch none of
// whose cases falls through into another.
func caseOrderVariant(f *structurizer.Func) {
	dom := cfg.Dominators(cfg.FromSuccs(structSuccs(f)))
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		t := &blk.Term
		if blk.Merge.Kind != structurizer.SelectionMerge || !(t.Kind == structurizer.Route || t.Kind == structurizer.Choose && blk.Arity >= 3) {
			continue
		}
		order := t.Order
		if order == nil {
			order = structurizer.CaseOrder(t.To)
		}
		if slices.Contains(order, 0) {
			continue
		}
		m := blk.Merge.Merge
		falls := false
		for x := range f.Blocks {
			for _, c := range t.To {
				if c == m || !dom.Dominates(c, x) {
					continue
				}
				for _, y := range f.Blocks[x].Term.To {
					falls = falls || y != c && y != m && slices.Contains(t.To, y)
				}
			}
		}
		if falls {
			continue
		}
		// Reverse the runs of equal targets, keeping each run together.
		var runs [][]int
		for i, k := range order {
			if i > 0 && t.To[order[i-1]] == t.To[k] {
				runs[len(runs)-1] = append(runs[len(runs)-1], k)
				continue
			}
			runs = append(runs, []int{k})
		}
		slices.Reverse(runs)
		rev := slices.Concat(runs...)
		if !slices.Equal(rev, order) {
			note("caseorder")
			t.Order = rev
		}
	}
}

// sameArmVariant turns a choice among one target into a branch there: the
// block keeps its arity, so it still reads its decision. A selection whose
// arms all go to its merge, straight or through an empty block, branches
// to the merge and declares nothing (layout drops the empty blocks).
func sameArmVariant(f *structurizer.Func) {
	for b := range f.Blocks {
		blk := &f.Blocks[b]
		t := blk.Term
		if t.Kind != structurizer.Choose || blk.Merge.Kind == structurizer.LoopMerge {
			continue
		}
		to := t.To[0]
		if blk.Merge.Kind == structurizer.SelectionMerge {
			to = blk.Merge.Merge
		}
		same := true
		for _, x := range t.To {
			fx := f.Blocks[x]
			same = same && (x == to || fx.Kind == structurizer.Synthetic && len(fx.Stores) == 0 && fx.Merge.Kind == structurizer.NoMerge &&
				fx.Term.Kind == structurizer.Branch && fx.Term.To[0] == to)
		}
		if !same {
			continue
		}
		note("samearm")
		blk.Term = branchTo(to)
		blk.Merge = structurizer.Merge{}
	}
}

// --- layout --------------------------------------------------------------

// layout orders the blocks as a preorder of the dominator tree of the
// branch edges from the entry (every block after its dominator), the
// children of a block in the order mode says: "stable" (by index),
// "reverse" (by index, last first), "byid" (by original id, synthetic
// blocks last by index). Blocks the entry does not reach follow in index
// order; a synthetic one that is no merge or continue target of a block
// reached either is dropped.
func layout(f *structurizer.Func, mode string) {
	n := len(f.Blocks)
	g := cfg.FromSuccs(branchSuccs(f))
	dom := cfg.Dominators(g)
	kids := make([][]int, n)
	for b := 1; b < n; b++ {
		if d := dom.IDom[b]; d >= 0 {
			kids[d] = append(kids[d], b)
		}
	}
	key := func(b int) int {
		switch mode {
		case "reverse":
			return -b
		case "byid":
			if o := f.Blocks[b].Orig; f.Blocks[b].Kind != structurizer.Synthetic {
				return o*(n+1) + b
			}
			return 1<<40 + b
		}
		return b
	}
	order := make([]int, 0, n)
	seen := make([]bool, n)
	var visit func(b int)
	visit = func(b int) {
		seen[b] = true
		order = append(order, b)
		k := slices.Clone(kids[b])
		slices.SortFunc(k, func(x, y int) int { return key(x) - key(y) })
		for _, c := range k {
			visit(c)
		}
	}
	visit(0)
	// Blocks the entry does not reach by branches keep their index order;
	// synthetic ones that nothing reaches at all, not even as a merge or
	// continue target, are dropped.
	live := cfg.FromSuccs(structSuccs(f)).Reachable()
	for b := range n {
		if !seen[b] && (live[b] || f.Blocks[b].Kind != structurizer.Synthetic) {
			order = append(order, b)
		}
	}
	at := make([]int, n)
	for i, b := range order {
		at[b] = i
	}
	blocks := make([]structurizer.Block, len(order))
	for i, b := range order {
		blk := f.Blocks[b]
		blk.Term.To = slices.Clone(blk.Term.To)
		for j, t := range blk.Term.To {
			blk.Term.To[j] = at[t]
		}
		if blk.Merge.Kind != structurizer.NoMerge {
			blk.Merge.Merge = at[blk.Merge.Merge]
			if blk.Merge.Kind == structurizer.LoopMerge {
				blk.Merge.Continue = at[blk.Merge.Continue]
			}
		}
		blocks[i] = blk
	}
	f.Blocks = blocks
}

// --- module variants ----------------------------------------------------

// rewriteModule applies the module variants to m.
func rewriteModule(m *spirv.Module, on map[string]bool) {
	if on["notcond"] {
		notCond(m, nil)
	}
	if on["polarity"] {
		rep := reportedIDs(m)
		notCond(m, func(a, b uint32) bool {
			ra, oka := rep[a]
			rb, okb := rep[b]
			return oka && okb && ra > rb
		})
	}
	if on["sfill"] {
		signedFiller(m)
	}
	if on["inline"] {
		inlineCalls(m)
	}
	if on["mainfirst"] {
		mainFirst(m)
	}
	if on["debug"] {
		debugInfo(m)
	}
	if on["controls"] {
		for i := range m.Insts {
			in := &m.Insts[i]
			switch {
			case in.Op == spirv.OpLoopMerge && len(in.Operands) == 3:
				in.Operands = []uint32{in.Operands[0], in.Operands[1], 2} // DontUnroll
			case in.Op == spirv.OpSelectionMerge && len(in.Operands) == 2:
				in.Operands = []uint32{in.Operands[0], 2} // DontFlatten
			}
		}
	}
}

const (
	opString spirv.Op = 7
	opSource spirv.Op = 3
)

// debugInfo adds an OpString naming a file, an OpSource with 2 KiB of text
// after the execution modes, and an OpLine before every terminator.
func debugInfo(m *spirv.Module) {
	ids := idAlloc{m}
	file := ids.next()
	text := strings.Repeat("x = x * 3 + 1; // the function's source line\n", 48)
	at := 0
	for i, in := range m.Insts {
		if in.Op == spirv.OpExecutionMode || in.Op == spirv.OpEntryPoint {
			at = i + 1
		}
	}
	debug := []spirv.Instruction{
		{Op: opString, Operands: append([]uint32{file}, spirv.String("variant.src")...)},
		{Op: opSource, Operands: append([]uint32{0, 100, file}, spirv.String(text)...)},
	}
	var out []spirv.Instruction
	out = append(out, m.Insts[:at]...)
	out = append(out, debug...)
	line := uint32(1)
	for _, in := range m.Insts[at:] {
		if spirv.IsTerminator(in.Op) {
			l := spirv.Instruction{Op: spirv.OpLine, Operands: []uint32{file, line, 1}}
			line++
			if k := len(out) - 1; out[k].Op == spirv.OpSelectionMerge || out[k].Op == spirv.OpLoopMerge {
				out = slices.Insert(out, k, l) // the merge stays second to last
			} else {
				out = append(out, l)
			}
		}
		out = append(out, in)
	}
	m.Insts = out
}

func (r *idAlloc) next() uint32 { r.m.Bound++; return r.m.Bound - 1 }

type idAlloc struct{ m *spirv.Module }

// typeID finds the id of the first instruction op (a type) whose operands
// after the result id are rest.
func typeID(m *spirv.Module, op spirv.Op, rest ...uint32) uint32 {
	for _, in := range m.Insts {
		if in.Op == op && slices.Equal(in.Operands[1:], rest) {
			return in.Operands[0]
		}
	}
	return 0
}

// constID finds the id of the 32-bit constant v of type t.
func constID(m *spirv.Module, t, v uint32) uint32 {
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 && in.Operands[0] == t && in.Operands[2] == v {
			return in.Operands[1]
		}
	}
	return 0
}

// reportedIDs maps each block label of m to the original id its first call
// with a constant argument appends.
func reportedIDs(m *spirv.Module) map[uint32]uint32 {
	consts := map[uint32]uint32{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 {
			consts[in.Operands[1]] = in.Operands[2]
		}
	}
	out := map[uint32]uint32{}
	label, found := uint32(0), false
	for _, in := range m.Insts {
		switch {
		case in.Op == spirv.OpLabel:
			label, found = in.Operands[0], false
		case in.Op == spirv.OpFunctionCall && len(in.Operands) == 4 && !found:
			if v, ok := consts[in.Operands[3]]; ok {
				out[label], found = v, true
			}
		}
	}
	return out
}

// notCond: OpBranchConditional %c A B becomes %n = OpLogicalNot %bool %c;
// OpBranchConditional %n B A, for every conditional when swap is nil, else
// where swap(A, B) holds.
func notCond(m *spirv.Module, swap func(a, b uint32) bool) {
	boolT := typeID(m, spirv.OpTypeBool)
	ids := idAlloc{m}
	var out []spirv.Instruction
	for _, in := range m.Insts {
		if in.Op == spirv.OpBranchConditional && len(in.Operands) == 3 && (swap == nil || swap(in.Operands[1], in.Operands[2])) {
			n := ids.next()
			out = append(out, spirv.Instruction{Op: spirv.OpLogicalNot, Operands: []uint32{boolT, n, in.Operands[0]}})
			// A preceding merge instruction must stay second to last.
			if k := len(out) - 2; k >= 0 && (out[k].Op == spirv.OpSelectionMerge || out[k].Op == spirv.OpLoopMerge) {
				out[k], out[k+1] = out[k+1], out[k]
			}
			in = spirv.Instruction{Op: in.Op, Operands: []uint32{n, in.Operands[2], in.Operands[1]}}
		}
		out = append(out, in)
	}
	m.Insts = out
}

const (
	opSNegate              spirv.Op = 126
	opSDiv                 spirv.Op = 135
	opShiftRightArithmetic spirv.Op = 195
)

// signedFiller rewrites the filler's arithmetic on constants (in every
// function, each a no-op on the value): x + k becomes x - (-k) by
// OpSNegate; x ^ k becomes (x >> 0 arithmetic) ^ k; x * k becomes
// (x * k) / 1 signed.
func signedFiller(m *spirv.Module) {
	uintT := typeID(m, spirv.OpTypeInt, 32, 0)
	zero, one := constID(m, uintT, 0), constID(m, uintT, 1)
	if uintT == 0 || zero == 0 || one == 0 {
		return
	}
	consts := map[uint32]bool{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant {
			consts[in.Operands[1]] = true
		}
	}
	ids := idAlloc{m}
	var out []spirv.Instruction
	for _, in := range m.Insts {
		ops := in.Operands
		if len(ops) != 4 || ops[0] != uintT || !consts[ops[3]] || consts[ops[2]] {
			out = append(out, in)
			continue
		}
		switch in.Op {
		case spirv.OpIAdd:
			n := ids.next()
			out = append(out,
				spirv.Instruction{Op: opSNegate, Operands: []uint32{uintT, n, ops[3]}},
				spirv.Instruction{Op: spirv.OpISub, Operands: []uint32{uintT, ops[1], ops[2], n}})
		case spirv.OpBitwiseXor:
			n := ids.next()
			out = append(out,
				spirv.Instruction{Op: opShiftRightArithmetic, Operands: []uint32{uintT, n, ops[2], zero}},
				spirv.Instruction{Op: spirv.OpBitwiseXor, Operands: []uint32{uintT, ops[1], n, ops[3]}})
		case spirv.OpIMul:
			n := ids.next()
			out = append(out,
				spirv.Instruction{Op: spirv.OpIMul, Operands: []uint32{uintT, n, ops[2], ops[3]}},
				spirv.Instruction{Op: opSDiv, Operands: []uint32{uintT, ops[1], n, one}})
		default:
			out = append(out, in)
		}
	}
	m.Insts = out
}

// inlineCalls replaces every OpFunctionCall of a function of one block
// (parameters, straight-line code, OpReturn or OpReturnValue) by a copy of
// its code with fresh result ids; a returned value reaches the call's
// result through OpCopyObject.
func inlineCalls(m *spirv.Module) {
	type fn struct {
		params []uint32
		body   []spirv.Instruction // between the label and the return
		ret    uint32              // OpReturnValue's operand, 0 none
	}
	fns := map[uint32]*fn{}
	var cur *fn
	var curID uint32
	blocks := 0
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpFunction:
			cur, curID, blocks = &fn{}, in.Operands[1], 0
		case spirv.OpFunctionParameter:
			cur.params = append(cur.params, in.Operands[1])
		case spirv.OpLabel:
			blocks++
		case spirv.OpReturn, spirv.OpReturnValue:
			if in.Op == spirv.OpReturnValue {
				cur.ret = in.Operands[0]
			}
		case spirv.OpFunctionEnd:
			if blocks == 1 {
				fns[curID] = cur
			}
			cur = nil
		default:
			if cur != nil && blocks == 1 {
				if spirv.IsTerminator(in.Op) || in.Op == spirv.OpSelectionMerge || in.Op == spirv.OpLoopMerge || in.Op == spirv.OpVariable {
					blocks = 2 // not straight-line code
				}
				cur.body = append(cur.body, in)
			}
		}
	}
	ids := idAlloc{m}
	var out []spirv.Instruction
	for _, in := range m.Insts {
		f := fns[operand(in, 2)]
		if in.Op != spirv.OpFunctionCall || f == nil || len(in.Operands)-3 != len(f.params) {
			out = append(out, in)
			continue
		}
		sub := map[uint32]uint32{}
		for i, p := range f.params {
			sub[p] = in.Operands[3+i]
		}
		for _, b := range f.body {
			c := spirv.Instruction{Op: b.Op, Operands: slices.Clone(b.Operands)}
			if info := resultAt(b.Op); info >= 0 && info < len(c.Operands) {
				sub[c.Operands[info]] = ids.next()
			}
			for k, x := range c.Operands {
				if y, ok := sub[x]; ok { // parameters and the copy's own results
					c.Operands[k] = y
				}
			}
			out = append(out, c)
		}
		if f.ret != 0 {
			v := f.ret
			if y, ok := sub[v]; ok {
				v = y
			}
			out = append(out, spirv.Instruction{Op: spirv.OpCopyObject, Operands: []uint32{in.Operands[0], in.Operands[1], v}})
		}
	}
	m.Insts = out
}

func operand(in spirv.Instruction, i int) uint32 {
	if i < len(in.Operands) {
		return in.Operands[i]
	}
	return 0
}

// resultAt is the operand index of op's result id among the instructions
// the convention's helpers hold (1: after the result type), -1 none.
func resultAt(op spirv.Op) int {
	switch op {
	case spirv.OpStore:
		return -1
	}
	return 1
}

// mainFirst moves the entry point's function in front of every other.
func mainFirst(m *spirv.Module) {
	var entry uint32
	for _, in := range m.Insts {
		if in.Op == spirv.OpEntryPoint {
			entry = in.Operands[1]
			break
		}
	}
	first, start, end := -1, -1, -1
	for i, in := range m.Insts {
		switch {
		case in.Op == spirv.OpFunction && first < 0:
			first = i
		}
		if in.Op == spirv.OpFunction && in.Operands[1] == entry {
			start = i
		}
		if in.Op == spirv.OpFunctionEnd && start >= 0 && end < 0 {
			end = i + 1
		}
	}
	if first < 0 || start <= first || end < 0 {
		return
	}
	m.Insts = slices.Concat(m.Insts[:first], m.Insts[start:end], m.Insts[first:start], m.Insts[end:])
}
