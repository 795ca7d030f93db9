// structgen_test.go: random structured programs as SPIR-V assembly, in the
// shape of testdata/template-module.spvasm: nested selections
// (with and without else), loops with multi-block continue constructs,
// switches with fall-through and default, and the structured exits (break
// and continue from nested selections, switch break, return outside
// continue constructs). Every generated module is valid; they seed the
// mutation test and check the rules checker for false positives.
package oracle

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// progGen writes one main function body.
type progGen struct {
	r      *rand.Rand
	b      strings.Builder
	labels int
	blocks int
}

// genCtx is where a region sits: the nearest loop's merge and continue
// target, the nearest switch's merge with no loop in between, and whether
// it is inside a continue construct.
type genCtx struct {
	loopMerge, loopCont string
	switchMerge         string
	inContinue          bool
}

func (p *progGen) label() string {
	p.labels++
	return fmt.Sprintf("%%L%d", p.labels)
}

func (p *progGen) open(l string) {
	p.blocks++
	fmt.Fprintf(&p.b, "%s = OpLabel\n", l)
}

func (p *progGen) line(format string, args ...any) {
	fmt.Fprintf(&p.b, format+"\n", args...)
}

// region writes blocks starting at entry that end by branching to exit.
func (p *progGen) region(ctx genCtx, depth int, entry, exit string) {
	kinds := []string{"plain", "if", "ifelse", "loop", "switch", "exit"}
	switch {
	case depth <= 0:
		kinds = []string{"plain"}
	case p.blocks > 60:
		kinds = []string{"plain", "exit"}
	}
	switch kinds[p.r.IntN(len(kinds))] {
	case "plain":
		p.open(entry)
		p.line("OpBranch %s", exit)
	case "if", "ifelse":
		m, a := p.label(), p.label()
		p.open(entry)
		p.line("OpSelectionMerge %s None", m)
		if p.r.IntN(2) == 0 {
			p.line("OpBranchConditional %%t %s %s", a, m)
			p.region(ctx, depth-1, a, m)
		} else {
			e := p.label()
			p.line("OpBranchConditional %%t %s %s", a, e)
			p.region(ctx, depth-1, a, m)
			p.region(ctx, depth-1, e, m)
		}
		p.region(ctx, depth-1, m, exit)
	case "loop":
		h, body, ct, lm := p.label(), p.label(), p.label(), p.label()
		p.open(entry)
		p.line("OpBranch %s", h)
		p.open(h)
		p.line("OpLoopMerge %s %s None", lm, ct)
		p.line("OpBranch %s", body)
		inner := genCtx{loopMerge: lm, loopCont: ct}
		p.region(inner, depth-1, body, ct)
		latch := p.label()
		p.region(genCtx{inContinue: true}, min(depth-1, 1), ct, latch)
		p.open(latch)
		p.line("OpBranchConditional %%t %s %s", h, lm)
		p.region(ctx, depth-1, lm, exit)
	case "switch":
		sm := p.label()
		n := 1 + p.r.IntN(3)
		cases := make([]string, n)
		for i := range cases {
			cases[i] = p.label()
		}
		def := sm
		if p.r.IntN(2) == 0 {
			def = p.label()
		}
		p.open(entry)
		p.line("OpSelectionMerge %s None", sm)
		sw := "OpSwitch %u0 " + def
		for i, c := range cases {
			sw += fmt.Sprintf(" %d %s", i+1, c)
		}
		p.line("%s", sw)
		inner := ctx
		inner.switchMerge = sm
		for i, c := range cases {
			next := sm
			if i+1 < n && p.r.IntN(3) == 0 {
				next = cases[i+1] // fall through to the next case in the list
			}
			p.region(inner, depth-1, c, next)
		}
		if def != sm {
			p.region(inner, depth-1, def, sm)
		}
		p.region(ctx, depth-1, sm, exit)
	case "exit":
		p.exitFrom(ctx, depth, entry, exit)
	}
}

// exitFrom writes a selection with one arm leaving by a structured exit.
func (p *progGen) exitFrom(ctx genCtx, depth int, entry, exit string) {
	var targets []string
	if ctx.loopMerge != "" {
		targets = append(targets, ctx.loopMerge, ctx.loopCont)
	}
	if ctx.switchMerge != "" {
		targets = append(targets, ctx.switchMerge)
	}
	if !ctx.inContinue {
		targets = append(targets, "return")
	}
	if len(targets) == 0 {
		p.open(entry)
		p.line("OpBranch %s", exit)
		return
	}
	to := targets[p.r.IntN(len(targets))]
	m, a := p.label(), p.label()
	p.open(entry)
	p.line("OpSelectionMerge %s None", m)
	if to == "return" {
		ret := p.label()
		p.line("OpBranchConditional %%t %s %s", ret, a)
		p.open(ret)
		p.line("OpReturn")
	} else {
		p.line("OpBranchConditional %%t %s %s", to, a)
	}
	p.region(ctx, depth-1, a, m)
	p.region(ctx, depth-1, m, exit)
}

// structuredProgram returns a random main body (for the rule cases'
// preamble).
func structuredProgram(r *rand.Rand) []byte {
	p := &progGen{r: r}
	p.open("%entry")
	first := p.label()
	p.line("OpBranch %s", first)
	exit := p.label()
	p.region(genCtx{}, 2+r.IntN(3), first, exit)
	p.open(exit)
	p.line("OpReturn")
	return []byte(p.b.String())
}
