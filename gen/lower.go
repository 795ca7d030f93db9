// lower.go: lowering a structured program to a graph, and its text.
//
// The lowering is the textbook one (Aho, Sethi and Ullman's translation of
// control statements with backpatching): forward targets are labels whose
// block is created when the label is placed, in program order, so block
// ids follow the text. A label that nothing jumps to and that control
// cannot fall into is never placed, so no block is unreachable. Costs in
// blocks, besides those of the bodies (the generator spends its budget
// with them):
//
//	if c { S }              then block, join                       2
//	if c { break }          (jump arm) join                        1
//	if c { S } else { T }   then, else, join                       3
//	while c { S }           header (holds c), body block, exit     3
//	do { S } while c        header (first body block), exit        2
//	                        and a condition block once a continue needs one
//	loop { S }              header, exit                           2
//	switch { m bodies }     one block per body, join             m+1
//	break, continue, return nothing: they end the current block
//
// A return ends its block (a returning block), or jumps to the program's
// one shared exit block when the program has one (marked "(shared exit)"
// in the text). Every loop is entered
// from outside only through its header and exits go forward, so lowered
// programs are reducible (tested with cfg.RefReducible).
//
// Block ids follow the text except for the first blocks of a switch's case
// bodies: a switch drawn with an id order (stmt.ids) numbers them in that
// order among themselves, so a case falls into the next in every order of
// ids, not only into a higher one (renumber).
//
// The text marks where each block begins with a line "bN", and names the
// block whose decision a condition is: `if b3 {` branches at the end of
// block 3; `while b4 {` tests in header 4; `do b5 { ... } while b7`;
// `if !b3` takes the false arm first; `switch b2 {` switches at the end of
// block 2, its default going past the switch unless a case lists it.

package gen

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// loopLabels are an enclosing loop's jump targets during lowering.
type loopLabels struct {
	cont, brk int  // labels; cont is -1 for a do-while until a continue needs it
	doWhile   bool // continue goes to the condition block
	continued bool // a continue goes to it
}

type lowerer struct {
	succs  [][]int // targets are labels until finish
	label  []int   // label -> block, -1 until placed
	refs   []int   // label -> edges to it so far
	cur    int     // the open block, -1 when control cannot reach here
	loops  []loopLabels
	exit   int // shared exit label, -1 when returns end their block
	depth  int // enclosing constructs
	text   strings.Builder
	indent int
	cons   Constructs
	// bodyIDs are the switches' case-body labels with the order their
	// blocks take ids in (stmt.ids), applied by renumber.
	bodyIDs []bodyOrder
}

// bodyOrder is one switch's case-body labels and their id order.
type bodyOrder struct{ labels, ids []int }

// lowerProgram sets prog.graph, prog.text and prog.constructs.
func lowerProgram(prog *program) {
	l := &lowerer{exit: -1}
	l.cur = l.newBlock(l.newLabel())
	l.line("b0")
	if prog.sharedExit {
		l.exit = l.newLabel()
		l.cons.Count[ConstructSharedExit]++
	}
	l.seq(prog.stmts)
	if l.exit >= 0 && l.place(l.exit, false) {
		l.line("b%d (shared exit)", l.cur)
	}
	if l.cur >= 0 {
		l.line("return")
	}
	prog.graph = l.finish()
	prog.text = strings.TrimSuffix(l.text.String(), "\n")
	prog.constructs = l.cons
	if ren := l.renumbering(); ren != nil {
		prog.graph, prog.text = renumber(prog.graph, prog.text, ren)
	}
}

// renumbering maps each block to its id after the switches' body orders
// (nil: every id stays).
func (l *lowerer) renumbering() []int {
	var ren []int
	for _, bo := range l.bodyIDs {
		var blocks, order []int
		for i, lbl := range bo.labels {
			if b := l.label[lbl]; b >= 0 {
				blocks, order = append(blocks, b), append(order, bo.ids[i])
			}
		}
		if len(blocks) < 2 {
			continue
		}
		if ren == nil {
			ren = make([]int, len(l.succs))
			for b := range ren {
				ren[b] = b
			}
		}
		sorted := slices.Clone(blocks)
		slices.Sort(sorted)
		// Body i takes the rank of its order among the placed bodies.
		rank := slices.Clone(order)
		slices.Sort(rank)
		for i, b := range blocks {
			ren[b] = sorted[slices.Index(rank, order[i])]
		}
	}
	return ren
}

// renumber gives block b of g (and of the text) the id ren[b].
func renumber(g *cfg.Graph, text string, ren []int) (*cfg.Graph, string) {
	out := cfg.New(g.Len())
	for b, succ := range g.Succs {
		to := make([]int, len(succ))
		for i, t := range succ {
			to[i] = ren[t]
		}
		out.Succs[ren[b]] = to
	}
	text = blockRef.ReplaceAllStringFunc(text, func(m string) string {
		n, _ := strconv.Atoi(m[1:])
		return "b" + strconv.Itoa(ren[n])
	})
	return out, text
}

// blockRef is a block's name in the program text.
var blockRef = regexp.MustCompile(`\bb(\d+)\b`)

func (l *lowerer) line(format string, args ...any) {
	l.text.WriteString(strings.Repeat("  ", l.indent))
	fmt.Fprintf(&l.text, format, args...)
	l.text.WriteByte('\n')
}

func (l *lowerer) newLabel() int {
	l.label = append(l.label, -1)
	l.refs = append(l.refs, 0)
	return len(l.label) - 1
}

func (l *lowerer) newBlock(lbl int) int {
	b := len(l.succs)
	l.succs = append(l.succs, nil)
	l.label[lbl] = b
	return b
}

func (l *lowerer) edge(from, lbl int) {
	l.succs[from] = append(l.succs[from], lbl)
	l.refs[lbl]++
}

// place starts the block of lbl (control falls into it from the open
// block) and reports whether it exists: a label that nothing reaches gets
// no block. mark writes the "bN" line.
func (l *lowerer) place(lbl int, mark bool) bool {
	if l.cur >= 0 {
		l.edge(l.cur, lbl)
	}
	if l.refs[lbl] == 0 {
		return false
	}
	l.cur = l.newBlock(lbl)
	if mark {
		l.line("b%d", l.cur)
	}
	return true
}

// jump ends the open block with a branch to lbl.
func (l *lowerer) jump(lbl int) {
	if l.cur >= 0 {
		l.edge(l.cur, lbl)
		l.cur = -1
	}
}

// branch ends the open block with a conditional: yes when the decision is
// non-zero, unless neg swaps the arms.
func (l *lowerer) branch(yes, no int, neg bool) int {
	h := l.cur
	if neg {
		yes, no = no, yes
	}
	l.edge(h, yes)
	l.edge(h, no)
	l.cur = -1
	return h
}

func not(neg bool) string {
	if neg {
		return "!"
	}
	return ""
}

// finish resolves labels to blocks.
func (l *lowerer) finish() *cfg.Graph {
	g := cfg.New(len(l.succs))
	for b, s := range l.succs {
		g.Succs[b] = make([]int, len(s))
		for i, lbl := range s {
			if l.label[lbl] < 0 {
				panic("gen: lowering left a label unplaced") // a bug in lower.go
			}
			g.Succs[b][i] = l.label[lbl]
		}
	}
	return g
}

func (l *lowerer) seq(ss []stmt) {
	for i := range ss {
		l.stmt(&ss[i])
	}
}

func (l *lowerer) stmt(s *stmt) {
	if l.cur < 0 {
		panic("gen: program statement is unreachable") // the generator's rules broke
	}
	switch s.op {
	case opIf:
		l.lowerIf(s)
	case opIfElse:
		l.lowerIfElse(s)
	case opWhile:
		l.lowerWhile(s)
	case opDoWhile:
		l.lowerDoWhile(s)
	case opLoop:
		l.lowerLoop(s)
	case opSwitch:
		l.lowerSwitch(s)
	default:
		l.line("%s", l.lowerJump(s))
	}
}

// jumpTarget returns the label a break, continue or return goes to (-1: a
// return that ends its block) and counts the construct.
func (l *lowerer) jumpTarget(s *stmt) int {
	switch s.op {
	case opBreak:
		l.count(ConstructBreak, ConstructBreakOuter, s.depth)
		return l.loops[len(l.loops)-s.depth].brk
	case opContinue:
		l.count(ConstructContinue, ConstructContinueOuter, s.depth)
		lp := &l.loops[len(l.loops)-s.depth]
		lp.continued = true
		if lp.cont < 0 {
			lp.cont = l.newLabel()
		}
		return lp.cont
	}
	l.cons.Count[ConstructReturn]++
	if len(l.loops) > 0 {
		l.cons.Count[ConstructReturnInLoop]++
	}
	if l.depth >= 3 {
		l.cons.Count[ConstructReturnDeep]++
	}
	l.cons.ReturnDepth = max(l.cons.ReturnDepth, l.depth)
	return l.exit
}

func (l *lowerer) count(inner, outer Construct, depth int) {
	if depth > 1 {
		l.cons.Count[outer]++
	} else {
		l.cons.Count[inner]++
	}
}

// lowerJump ends the open block with a break, continue or return and
// returns its text.
func (l *lowerer) lowerJump(s *stmt) string {
	if t := l.jumpTarget(s); t >= 0 {
		l.jump(t)
	} else {
		l.cur = -1 // the block returns
	}
	return jumpText(s)
}

func jumpText(s *stmt) string {
	word := map[op]string{opBreak: "break", opContinue: "continue", opReturn: "return"}[s.op]
	if s.depth > 1 {
		return fmt.Sprintf("%s %d", word, s.depth)
	}
	return word
}

func (l *lowerer) lowerIf(s *stmt) {
	l.cons.Count[ConstructIf]++
	join := l.newLabel()
	if s.direct {
		l.cons.Count[ConstructJumpArm]++
		l.depth++ // the jump sits in the if's arm, as when it has a block
		t := l.jumpTarget(&s.body[0])
		l.depth--
		h := l.branch(t, join, s.neg)
		l.line("if %sb%d { %s }", not(s.neg), h, jumpText(&s.body[0]))
		l.place(join, true)
		return
	}
	then := l.newLabel()
	h := l.branch(then, join, s.neg)
	l.line("if %sb%d {", not(s.neg), h)
	l.nest(then, s.body)
	l.line("}")
	l.place(join, true)
}

// nest lowers a body that starts at lbl, one level deeper.
func (l *lowerer) nest(lbl int, body []stmt) {
	l.indent++
	l.depth++
	l.place(lbl, true)
	l.seq(body)
	l.depth--
	l.indent--
}

func (l *lowerer) lowerIfElse(s *stmt) {
	l.cons.Count[ConstructIfElse]++
	then, els, join := l.newLabel(), l.newLabel(), l.newLabel()
	h := l.branch(then, els, s.neg)
	l.line("if %sb%d {", not(s.neg), h)
	l.nest(then, s.body)
	l.jump(join)
	l.line("} else {")
	l.nest(els, s.els)
	l.line("}")
	l.place(join, true)
}

func (l *lowerer) lowerWhile(s *stmt) {
	l.cons.Count[ConstructWhile]++
	head, body, exit := l.newLabel(), l.newLabel(), l.newLabel()
	l.place(head, false)
	h := l.branch(body, exit, s.neg)
	l.line("while %sb%d {", not(s.neg), h)
	l.loops = append(l.loops, loopLabels{cont: head, brk: exit})
	l.nest(body, s.body)
	l.jump(head)
	l.loops = l.loops[:len(l.loops)-1]
	l.line("}")
	l.place(exit, true)
}

func (l *lowerer) lowerDoWhile(s *stmt) {
	head, exit := l.newLabel(), l.newLabel()
	l.place(head, false)
	l.line("do b%d {", l.cur)
	l.loops = append(l.loops, loopLabels{cont: -1, brk: exit, doWhile: true})
	l.indent++
	l.depth++
	l.seq(s.body)
	lp := l.loops[len(l.loops)-1]
	if lp.cont >= 0 {
		l.place(lp.cont, true)
	}
	l.depth--
	l.indent--
	l.loops = l.loops[:len(l.loops)-1]
	if l.cur >= 0 {
		l.cons.Count[ConstructDoWhile]++
		h := l.branch(head, exit, s.neg)
		l.line("} while %sb%d", not(s.neg), h)
	} else {
		l.line("} while unreached")
	}
	l.place(exit, true)
}

func (l *lowerer) lowerLoop(s *stmt) {
	l.cons.Count[ConstructLoop]++
	head, exit := l.newLabel(), l.newLabel()
	l.place(head, false)
	l.line("loop b%d {", l.cur)
	l.loops = append(l.loops, loopLabels{cont: head, brk: exit})
	l.indent++
	l.depth++
	l.seq(s.body)
	if l.cur < 0 && !l.loops[len(l.loops)-1].continued {
		l.cons.Count[ConstructLoopOnce]++ // no back edge: lowered, no cycle
	}
	l.jump(head)
	l.depth--
	l.indent--
	l.loops = l.loops[:len(l.loops)-1]
	l.line("}")
	l.place(exit, true)
}

func (l *lowerer) lowerSwitch(s *stmt) {
	l.cons.Count[ConstructSwitch]++
	join := l.newLabel()
	bodies := make([]int, len(s.cases))
	for i := range bodies {
		bodies[i] = l.newLabel()
	}
	targets := make([]int, s.nvals+1) // [default, case 1, ..., case nvals]
	targets[0] = join
	if s.deflt >= 0 {
		targets[0] = bodies[s.deflt]
	}
	for i, c := range s.cases {
		for _, v := range c.values {
			targets[v] = bodies[i]
		}
	}
	if hasDuplicate(targets) {
		l.cons.Count[ConstructDuplicateCase]++
	}
	if s.ids != nil {
		l.bodyIDs = append(l.bodyIDs, bodyOrder{labels: bodies, ids: s.ids})
	}
	h := l.cur
	for _, t := range targets {
		l.edge(h, t)
	}
	l.cur = -1
	l.line("switch b%d {", h)
	for i, c := range s.cases {
		if i > 0 && !s.cases[i-1].fallsInto {
			l.jump(join)
		}
		l.line("%s:", caseLabel(c.values, s.deflt == i))
		l.nest(bodies[i], c.body)
		if c.fallsInto {
			l.cons.Count[ConstructFallthrough]++
			l.indent++
			l.line("fallthrough")
			l.indent--
		}
	}
	l.line("}")
	l.place(join, true)
}

func caseLabel(values []int, deflt bool) string {
	parts := make([]string, 0, len(values)+1)
	for _, v := range values {
		parts = append(parts, fmt.Sprint(v))
	}
	if deflt {
		parts = append(parts, "default")
	}
	return "case " + strings.Join(parts, ", ")
}
