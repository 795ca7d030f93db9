// program.go: random structured programs, the second generator the
// field's campaigns used, extended with every construct they lacked.
//
// A program is a tree of statements in a small language, generated top
// down the way grammar-based fuzzers do (Csmith's "generate, then only
// keep what the rules allow" is replaced by only generating what they
// allow). Blocks are the only payload, so there are no expressions: a
// condition is the decision of the block that ends in it.
//
//	if c { ... }               if c { ... } else { ... }
//	while c { ... }            do { ... } while c
//	loop { ... }               an endless loop, always left by a break
//	break N, continue N        N loops out, 1 (written without N) the innermost
//	return
//	switch { case 1, 3: ... fallthrough  case 2, default: ... }
//
// Rules that keep every statement reachable, so the lowered graph has no
// unreachable block and every block reaches a return: a sequence ends at
// the first statement that never falls through; an endless loop without a
// break gets `if c { break }` before its first statement that does not
// fall through; a do-while body, and the else arm of an if whose then arm
// does not fall through when the if must, always fall through; every case
// body has a case value of its own. Jumps (break, continue, return) only
// appear nested in some construct. Block costs are exact (lower.go), so a
// program is drawn for a block count in the configured range and redrawn
// on the rare miss (a draw lowers to fewer blocks when its outermost
// sequence ends early); after programDraws misses, as a range of one large
// count gives, the last draw is padded to its count with statements that
// fall through (padProgram), so every range the config accepts is met.
//
// Choice weights per statement: a switch with probability 2 x SwitchProb
// (programSwitchBoost; when affordable), else if 3, if/else 2, while 1.5,
// do-while 1, loop 1 (the loops 2.5 times that inside a loop, so they
// nest), and, nested, break 1.2 and continue 1 inside loops, return 0.8. A
// jump sits alone in an if arm 30% of the time, and then the branch goes
// straight to its target half of those times (the "jump arm"). Break and
// continue go 2 or more loops out 60% of the time when they can; a switch
// has 1-3 bodies (2 or 3 for 90% of those drawn with one, when the budget
// allows) and 2-4 case values, its default goes to a body half the time, a
// body that can falls into the next 80% of the time, and the bodies' first
// blocks are numbered in a random order among themselves, so a case falls
// into the next at a lower or a higher id, listed before or after it; a
// `loop` whose body falls through ends in a break 30% of the time (its
// body always breaks: lowered, no back edge, so a break out of nested
// ifs in it jumps past their joins); 30%
// of programs send every return through one shared exit block; 30% of
// conditions are negated (the false arm first). Nested sequences stop
// after each statement with probability 0.4 and start empty with 0.25 (an
// empty do-while body is a self-loop). Measured over 10,000 programs of
// the default config (`cfgfuzz gen --kind program --count 10000 --stats`;
// shapes.go names the shapes):
//
//	blocks                5: 20%  6: 24%  7: 23%  8: 22%  9: 11% (a draw
//	                      that lowers to fewer blocks than aimed at is kept)
//	graphs with a loop    52.0%  (nesting 2+: 9.8%; self-loop: 19.2%)
//	exit targets per loop 1: 85.4%  2+: 14.6%
//	programs with         if 69.9%  if/else 31.4%  while 28.2%  do-while 28.1%
//	                      loop+break 19.6%  break 28.4%  break outer 1.5%
//	                      continue 11.4%  continue outer 0.9%  return 60.3%
//	                      return in loop 10.6%  return at depth 3+ 5.2%
//	                      switch 22.4%  fallthrough 8.5%  duplicate case 19.2%
//	                      jump arm 18.7%  shared exit 29.0%
//	shapes                fall-through 6.9%: to a lower id 2.8%, to a case
//	                      listed before it 4.8%, both (reversed) 1.5%;
//	                      a switch of 5+ successors 8.4% (17+: 0.9%)
//
// The rare ones need room: at 10-40 blocks, 29% of programs break out of
// an outer loop, 23% continue one, 40% fall through a case (6.4%
// reversed) and 62% return from depth 3 or more. TestProgramConstructs
// checks that every construct appears within 1,000 programs of the
// default config, TestProgramRates that every construct and every
// fall-through order is in at least one program of 200.

package gen

import (
	"fmt"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Construct is a language construct a program can contain.
type Construct int

// The constructs, as counted in the lowered graph.
const (
	ConstructIf            Construct = iota // if without else
	ConstructIfElse                         // if with else
	ConstructWhile                          // while c { }
	ConstructDoWhile                        // do { } while c
	ConstructLoop                           // loop { }, left by break
	ConstructBreak                          // break of the innermost loop
	ConstructBreakOuter                     // break 2 or more loops out
	ConstructContinue                       // continue of the innermost loop
	ConstructContinueOuter                  // continue 2 or more loops out
	ConstructReturn                         // an early return statement
	ConstructReturnInLoop                   // a return inside a loop
	ConstructReturnDeep                     // a return inside 3 or more constructs
	ConstructSwitch                         // switch
	ConstructFallthrough                    // a case falling into the next
	ConstructDuplicateCase                  // two case values (or default) with one body
	ConstructJumpArm                        // a branch straight to a break/continue/return target
	ConstructSharedExit                     // returns meeting in one exit block
	ConstructLoopOnce                       // a loop { } whose body always breaks (no back edge)
	NumConstructs          = iota
)

var constructNames = [NumConstructs]string{
	"if", "if/else", "while", "do-while", "loop+break", "break", "break outer",
	"continue", "continue outer", "return", "return in loop", "return at depth 3+",
	"switch", "fallthrough", "duplicate case", "jump arm", "shared exit", "loop always broken",
}

func (c Construct) String() string {
	if c < 0 || c >= NumConstructs {
		return fmt.Sprintf("Construct(%d)", int(c))
	}
	return constructNames[c]
}

// Constructs counts a program's constructs.
type Constructs struct {
	Count [NumConstructs]int
	// ReturnDepth is the deepest nesting (enclosing ifs, loops and
	// switches) of a return statement; 0 when there is none.
	ReturnDepth int
}

type op uint8

const (
	opIf op = iota
	opIfElse
	opWhile
	opDoWhile
	opLoop
	opBreak
	opContinue
	opReturn
	opSwitch
)

// stmt is one statement. Only the fields of its op are set.
type stmt struct {
	op     op
	neg    bool // conditionals: the false arm is the first successor
	direct bool // opIf whose body is one jump: branch straight to its target
	depth  int  // break, continue: loops out, 1 = innermost
	body   []stmt
	els    []stmt
	cases  []switchCase
	deflt  int // opSwitch: case the default goes to, -1: past the switch
	nvals  int // opSwitch: case values 1..nvals
	// ids, opSwitch: the case bodies' first blocks take their ids in this
	// order among themselves (body i gets the ids[i]-th smallest); nil
	// keeps text order.
	ids []int
}

type switchCase struct {
	values    []int
	body      []stmt
	fallsInto bool
}

// progParams are the generator's weights; progParamsFor documents them.
type progParams struct {
	switchProb, wideProb                float64
	wIf, wIfElse, wWhile, wDo, wLoop    float64
	wBreak, wContinue, wReturn          float64
	loneJump, direct, outer, sharedExit float64
	negate, stop, empty, loopInLoop     float64
	fallsInto, multiCase, loopOnce      float64
	maxLoops, maxDepth                  int
}

// programSwitchBoost multiplies Config.SwitchProb for program statements:
// a switch spends blocks a 5-9 block program rarely has left, and the
// fall-through orders need switches of two or more bodies often enough.
const programSwitchBoost = 2

func progParamsFor(c Config) progParams {
	return progParams{
		switchProb: min(1, programSwitchBoost*c.SwitchProb),
		wideProb:   c.WideSwitchProb,
		wIf:        3, wIfElse: 2, wWhile: 1.5, wDo: 1, wLoop: 1,
		wBreak: 1.2, wContinue: 1, wReturn: 0.8,
		loneJump: 0.3, direct: 0.5, outer: 0.6, sharedExit: 0.3,
		negate: 0.3, stop: 0.4, empty: 0.25, loopInLoop: 2.5, fallsInto: 0.8, multiCase: 0.9, loopOnce: 0.3,
		maxLoops: 4, maxDepth: 6,
	}
}

// genLoop is an enclosing loop during generation.
type genLoop struct {
	op     op
	broken bool // a break leaves it
	latch  bool // do-while: a continue needs its condition block
}

// progGen draws one program.
type progGen struct {
	r          *rng
	wide       *rng // a switch's extra case values (widen.go)
	p          progParams
	budget     int // blocks left to spend
	loops      []genLoop
	depth      int // enclosing constructs
	sharedExit bool
}

// program is a generated, lowered program.
type program struct {
	stmts      []stmt
	sharedExit bool
	graph      *cfg.Graph
	text       string
	constructs Constructs
}

// programDraws is how many programs randomProgram draws for a block
// count in range before it pads the last one to its count (padProgram).
// A draw lowers to fewer blocks than aimed at when its outermost sequence
// ends at a statement that does not fall through, or a label is never
// placed: within a wide range that is rarely below it (at 5-9 blocks 11%
// of seeds draw twice, none more than 4 times in 2,000), but a range of
// one large count (2000-2000) is missed by nearly every draw.
const programDraws = 16

// randomProgram draws programs until one lowers to a block count in
// range, and pads the last draw to the count it aimed at when
// programDraws draws all fell short.
func randomProgram(r, wide *rng, c Config) (*program, error) {
	p := progParamsFor(c)
	var prog *program
	target := 0
	for range programDraws {
		target = r.between(c.MinBlocks, c.MaxBlocks)
		g := &progGen{r: r, wide: wide, p: p, budget: target - 1}
		if g.budget >= 1 && r.chance(p.sharedExit) {
			g.sharedExit = true
			g.budget--
		}
		prog = &program{sharedExit: g.sharedExit}
		prog.stmts, _ = g.seq(true, false)
		lowerProgram(prog)
		if n := prog.graph.Len(); n >= c.MinBlocks && n <= c.MaxBlocks {
			return prog, nil
		}
	}
	padProgram(prog, r, wide, p, target)
	if n := prog.graph.Len(); n != target {
		return nil, fmt.Errorf("%w: a program padded to %d blocks has %d", ErrConfig, target, n) // a bug in padProgram
	}
	return prog, nil
}

// padDrawn is the fewest missing blocks padProgram draws statements for;
// below it, it adds empty ifs.
const padDrawn = 8

// padProgram brings prog, which lowers to fewer blocks than target, to
// exactly target blocks, keeping it a program of the language whose
// every block is reachable and can return. Statements that fall through
// are inserted into the outermost sequence, before its last statement
// when that one does not fall through: first drawn as the generator
// draws them (every construct, break, continue and return nested in
// them) for the budget missing, while padDrawn or more blocks are
// missing, then `if c { }` (2 blocks each). An odd count missing is made
// even by one block more: the shared exit block, when the program has
// none; a jump arm made a then block holding its jump; else one block
// less, the shared exit block given up (the program then has no jump arm
// that needs it).
func padProgram(prog *program, r, wide *rng, p progParams, target int) {
	for range 16 {
		missing := target - prog.graph.Len()
		if missing < padDrawn {
			break
		}
		g := &progGen{r: r, wide: wide, p: p, budget: missing, sharedExit: prog.sharedExit}
		filler, _ := g.seq(true, true)
		insertTop(prog, r, filler...)
		lowerProgram(prog)
	}
	missing := target - prog.graph.Len()
	if missing%2 == 1 {
		switch {
		case !prog.sharedExit:
			prog.sharedExit = true
			missing--
		case undirect(prog.stmts):
			missing--
		default:
			prog.sharedExit = false
			missing++
		}
	}
	for range missing / 2 {
		insertTop(prog, r, stmt{op: opIf, neg: r.chance(p.negate)})
	}
	lowerProgram(prog)
}

// insertTop inserts ss, statements that fall through, into prog's
// outermost sequence at a random place before its first statement that
// does not fall through (its last, if any), so they are reachable and
// leave what follows reachable.
func insertTop(prog *program, r *rng, ss ...stmt) {
	if len(ss) == 0 {
		return
	}
	limit := len(prog.stmts)
	if !seqFalls(prog.stmts) {
		limit--
	}
	at := r.intn(limit + 1)
	prog.stmts = slices.Insert(prog.stmts, at, ss...)
}

// undirect makes the first jump arm of ss (an if branching straight to
// its jump's target) an if whose then block holds the jump, one block
// more, and reports whether there was one.
func undirect(ss []stmt) bool {
	for i := range ss {
		s := &ss[i]
		if s.op == opIf && s.direct {
			s.direct = false
			return true
		}
		if undirect(s.body) || undirect(s.els) {
			return true
		}
		for j := range s.cases {
			if undirect(s.cases[j].body) {
				return true
			}
		}
	}
	return false
}

// seq draws a statement sequence. top: the program's outermost sequence,
// which spends the whole budget and holds no jumps; mustFall: the
// sequence must fall through its end.
func (g *progGen) seq(top, mustFall bool) ([]stmt, bool) {
	var out []stmt
	if !top && g.r.chance(g.p.empty) {
		return nil, true
	}
	for {
		if !top && len(out) > 0 && g.r.chance(g.p.stop) {
			return out, true
		}
		s, falls, ok := g.stmt(mustFall)
		if !ok {
			return out, true
		}
		out = append(out, s)
		if !falls {
			return out, false
		}
	}
}

// stmt draws one statement within the budget; ok is false when nothing
// fits.
func (g *progGen) stmt(mustFall bool) (s stmt, falls, ok bool) {
	if g.p.switchProb > 0 && g.budget >= 2 && g.depth < g.p.maxDepth && g.r.chance(g.p.switchProb) {
		s, falls = g.switchStmt(mustFall)
		return s, falls, true
	}
	inLoop := len(g.loops) > 0
	nested := g.depth > 0
	canNest := g.depth < g.p.maxDepth
	canLoop := canNest && len(g.loops) < g.p.maxLoops
	w := []float64{
		opIf:       g.weight(g.p.wIf, canNest && g.budget >= 1),
		opIfElse:   g.weight(g.p.wIfElse, canNest && g.budget >= 3),
		opWhile:    g.weight(g.p.wWhile*g.nestBoost(), canLoop && g.budget >= 3),
		opDoWhile:  g.weight(g.p.wDo*g.nestBoost(), canLoop && g.budget >= 2),
		opLoop:     g.weight(g.p.wLoop*g.nestBoost(), canLoop && g.budget >= 3),
		opBreak:    g.weight(g.p.wBreak, inLoop && !mustFall),
		opContinue: g.weight(g.p.wContinue, inLoop && !mustFall && g.canContinue()),
		opReturn:   g.weight(g.p.wReturn, nested && !mustFall),
	}
	k := g.r.pick(w)
	if k < 0 {
		return stmt{}, false, false
	}
	switch op(k) {
	case opIf:
		s, falls, ok = g.ifStmt()
	case opIfElse:
		s, falls = g.ifElseStmt(mustFall)
		ok = true
	case opWhile, opDoWhile, opLoop:
		s, falls, ok = g.loopStmt(op(k)), true, true
	default:
		s, falls, ok = g.jump(op(k)), false, true
	}
	return s, falls, ok
}

// nestBoost multiplies the loop weights inside a loop, so that loops nest
// often enough for break and continue to leave more than one.
func (g *progGen) nestBoost() float64 {
	if len(g.loops) > 0 {
		return g.p.loopInLoop
	}
	return 1
}

func (g *progGen) weight(w float64, allowed bool) float64 {
	if allowed {
		return w
	}
	return 0
}

// canContinue reports whether some continue fits the budget: a do-while
// needs a block for its condition on the first continue.
func (g *progGen) canContinue() bool {
	l := g.loops[len(g.loops)-1]
	return l.op != opDoWhile || l.latch || g.budget >= 1
}

// jumpDepth draws how many loops out a break or continue goes.
func (g *progGen) jumpDepth() int {
	if len(g.loops) >= 2 && g.r.chance(g.p.outer) {
		return 2 + g.r.intn(len(g.loops)-1)
	}
	return 1
}

// jump draws a break, continue or return and records what it leaves.
func (g *progGen) jump(o op) stmt {
	s := stmt{op: o}
	if o == opReturn {
		return s
	}
	s.depth = g.jumpDepth()
	l := &g.loops[len(g.loops)-s.depth]
	if o == opBreak {
		l.broken = true
	}
	if o == opContinue && l.op == opDoWhile && !l.latch {
		if g.budget < 1 {
			s.depth = 1 // only the innermost is known to fit
			l = &g.loops[len(g.loops)-1]
		}
		if l.op == opDoWhile && !l.latch {
			l.latch = true
			g.budget--
		}
	}
	return s
}

// jumpAllowed reports whether a jump of op o can be drawn here.
func (g *progGen) jumpAllowed(o op) bool {
	switch o {
	case opBreak:
		return len(g.loops) > 0
	case opContinue:
		return len(g.loops) > 0 && g.canContinue()
	}
	return true
}

func (g *progGen) ifStmt() (stmt, bool, bool) {
	s := stmt{op: opIf, neg: g.r.chance(g.p.negate)}
	if g.r.chance(g.p.loneJump) {
		o := []op{opBreak, opContinue, opReturn}[g.r.intn(3)]
		direct := g.r.chance(g.p.direct) && (o != opReturn || g.sharedExit)
		cost := 2
		if direct {
			cost = 1
		}
		if g.jumpAllowed(o) && g.budget >= cost {
			g.budget -= cost
			s.direct = direct
			g.depth++
			s.body = []stmt{g.jump(o)}
			g.depth--
			return s, true, true
		}
	}
	if g.budget < 2 {
		return stmt{}, false, false
	}
	g.budget -= 2
	g.depth++
	s.body, _ = g.seq(false, false)
	g.depth--
	return s, true, true
}

func (g *progGen) ifElseStmt(mustFall bool) (stmt, bool) {
	s := stmt{op: opIfElse, neg: g.r.chance(g.p.negate)}
	g.budget -= 3
	g.depth++
	var fThen, fElse bool
	s.body, fThen = g.seq(false, false)
	s.els, fElse = g.seq(false, mustFall && !fThen)
	g.depth--
	return s, fThen || fElse
}

func (g *progGen) loopStmt(o op) stmt {
	s := stmt{op: o, neg: g.r.chance(g.p.negate)}
	g.budget -= loopCost(o)
	g.loops = append(g.loops, genLoop{op: o})
	g.depth++
	s.body, _ = g.seq(false, o == opDoWhile)
	g.depth--
	l := g.loops[len(g.loops)-1]
	g.loops = g.loops[:len(g.loops)-1]
	if o == opLoop && g.r.chance(g.p.loopOnce) && seqFalls(s.body) {
		// The body always breaks: its end leaves the loop, so the
		// lowered loop has no back edge unless a continue makes one.
		s.body = append(s.body, stmt{op: opBreak, depth: 1})
		l.broken = true
	}
	if o == opLoop {
		if l.broken {
			g.budget++ // the block reserved for a break is not needed
		} else {
			s.body = insertBreak(g.r, s.body)
		}
	}
	return s
}

// loopCost is the blocks a loop adds besides its body's: a header, a
// body block (while) and an exit; a loop also reserves one for the
// `if c { break }` it may need.
func loopCost(o op) int {
	if o == opDoWhile {
		return 2
	}
	return 3
}

// insertBreak puts `if c { break }` (branching straight to the loop's
// exit) at a random place before the first statement of body that does
// not fall through, so it is reachable.
func insertBreak(r *rng, body []stmt) []stmt {
	limit := len(body)
	for i := range body {
		if !fallsThrough(&body[i]) {
			limit = i
			break
		}
	}
	at := r.intn(limit + 1)
	brk := stmt{op: opIf, direct: true, body: []stmt{{op: opBreak, depth: 1}}}
	out := make([]stmt, 0, len(body)+1)
	out = append(out, body[:at]...)
	out = append(out, brk)
	return append(out, body[at:]...)
}

// fallsThrough reports whether control can leave s at its end. It relies
// on the generation rules (every loop has an exit, every do-while body
// falls through).
func fallsThrough(s *stmt) bool {
	switch s.op {
	case opBreak, opContinue, opReturn:
		return false
	case opIfElse:
		return seqFalls(s.body) || seqFalls(s.els)
	case opSwitch:
		if s.deflt < 0 {
			return true
		}
		for i, c := range s.cases {
			if seqFalls(c.body) && (!c.fallsInto || i == len(s.cases)-1) {
				return true
			}
		}
		return false
	}
	return true
}

func seqFalls(ss []stmt) bool {
	for i := range ss {
		if !fallsThrough(&ss[i]) {
			return false
		}
	}
	return true
}

// switchStmt draws a switch of 1 to 3 case bodies (as the budget allows)
// and 2 to 4 case values, so some values share a body; widen may add
// values up to 299.
func (g *progGen) switchStmt(mustFall bool) (stmt, bool) {
	m := 1 + g.r.intn(min(3, g.budget-1))
	if g.budget >= 3 && m == 1 && g.r.chance(g.p.multiCase) {
		m = 2 + g.r.intn(min(2, g.budget-2))
	}
	g.budget -= m + 1
	s := stmt{op: opSwitch, nvals: max(2, m) + g.r.intn(2), deflt: -1}
	s.cases = make([]switchCase, m)
	for i, v := range g.r.perm(s.nvals) {
		c := i
		if i >= m {
			c = g.r.intn(m)
		}
		s.cases[c].values = append(s.cases[c].values, v+1)
	}
	for i := range s.cases {
		sortInts(s.cases[i].values)
	}
	g.widen(&s)
	if !mustFall && g.r.chance(0.5) {
		s.deflt = g.r.intn(m)
	}
	g.depth++
	for i := range s.cases {
		var falls bool
		s.cases[i].body, falls = g.seq(false, false)
		s.cases[i].fallsInto = falls && i < m-1 && g.r.chance(g.p.fallsInto)
	}
	g.depth--
	if m > 1 {
		s.ids = g.r.perm(m)
	}
	return s, fallsThrough(&s)
}

// widen gives switch s, with probability wideProb, the extra case values
// a widened switch of the random kinds gets (widen.go): values past
// nvals, each sharing a case body drawn from g.wide, up to switchWidth
// successors with the default.
func (g *progGen) widen(s *stmt) {
	if g.wide == nil || g.p.wideProb <= 0 || !g.wide.chance(g.p.wideProb) {
		return
	}
	w := switchWidth(g.wide)
	for v := s.nvals + 1; v < w; v++ {
		c := g.wide.intn(len(s.cases))
		s.cases[c].values = append(s.cases[c].values, v)
	}
	s.nvals = max(s.nvals, w-1)
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
