// modmut_ops_test.go: the mutation operators of TestModuleMutants. Each
// makes one small edit to a decoded module (a copy) at a site drawn from
// the random source and describes it; none changes the module's header but
// for the id bound, which grows when an operator needs a new id.
package gpu_test

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
)

// mutationOp is one operator: apply edits m in place and says what it did,
// or returns false when m has no site for it.
type mutationOp struct {
	name  string
	apply func(m *spirv.Module, r *rand.Rand) (string, bool)
}

var mutationOps = []mutationOp{
	{"swap-cond", opSwapCond},
	{"cond-const", opCondConst},
	{"const", opConst},
	{"case-literal", opCaseLiteral},
	{"switch-target", opSwitchTarget},
	{"retarget", opRetarget},
	{"merge-target", opMergeTarget},
	{"cmp", opCmp},
	{"cmp-swap", opCmpSwap},
	{"select", opSelect},
	{"arith", opArith},
	{"drop-store", opDropStore},
	{"dup-store", opDupStore},
	{"swap-stores", opSwapStores},
	{"store-var", opStoreVar},
	{"load-var", opLoadVar},
	{"drop-call", opDropCall},
	{"dup-call", opDupCall},
	{"reorder", opReorder},
}

func cloneModule(m *spirv.Module) *spirv.Module {
	c := *m
	c.Insts = make([]spirv.Instruction, len(m.Insts))
	for i, in := range m.Insts {
		c.Insts[i] = spirv.Instruction{Op: in.Op, Operands: slices.Clone(in.Operands)}
	}
	return &c
}

// view is what the operators need to know of a module: where its
// functions and blocks are, and what each id is.
type view struct {
	m     *spirv.Module
	def   map[uint32]int    // result id -> instruction index
	typ   map[uint32]uint32 // result id -> its type
	funcs []funcView
}

type funcView struct {
	start, end int // OpFunction, OpFunctionEnd
	blocks     []blockView
}

// blockView is a block: its label's index, the index of its merge
// instruction (-1 for none) and of its terminator.
type blockView struct {
	label             uint32
	start, merge, end int
}

func newView(m *spirv.Module) *view {
	v := &view{m: m, def: map[uint32]int{}, typ: map[uint32]uint32{}}
	var f *funcView
	var b *blockView
	for i, in := range m.Insts {
		if id, ok := in.ResultID(); ok {
			v.def[id] = i
			if t, ok := in.ResultType(); ok {
				v.typ[id] = t
			}
		}
		switch in.Op {
		case spirv.OpFunction:
			v.funcs = append(v.funcs, funcView{start: i})
			f = &v.funcs[len(v.funcs)-1]
		case spirv.OpFunctionEnd:
			if f != nil {
				f.end = i
			}
			f = nil
		case spirv.OpLabel:
			if f != nil {
				f.blocks = append(f.blocks, blockView{label: in.Operands[0], start: i, merge: -1})
				b = &f.blocks[len(f.blocks)-1]
			}
		case spirv.OpSelectionMerge, spirv.OpLoopMerge:
			if b != nil {
				b.merge = i
			}
		case spirv.OpBranch, spirv.OpBranchConditional, spirv.OpSwitch, spirv.OpReturn, spirv.OpReturnValue, spirv.OpUnreachable, spirv.OpKill:
			if b != nil {
				b.end = i
			}
			b = nil
		}
	}
	return v
}

// funcOf is the function holding instruction i, or nil.
func (v *view) funcOf(i int) *funcView {
	for k := range v.funcs {
		if v.funcs[k].start <= i && i <= v.funcs[k].end {
			return &v.funcs[k]
		}
	}
	return nil
}

// blockOf is the block holding instruction i, or nil.
func (v *view) blockOf(i int) *blockView {
	f := v.funcOf(i)
	if f == nil {
		return nil
	}
	for k := range f.blocks {
		if f.blocks[k].start <= i && i <= f.blocks[k].end {
			return &f.blocks[k]
		}
	}
	return nil
}

// sites lists the indices of the instructions with one of the opcodes.
func (v *view) sites(ops ...spirv.Op) []int {
	var s []int
	for i, in := range v.m.Insts {
		if slices.Contains(ops, in.Op) {
			s = append(s, i)
		}
	}
	return s
}

func pick[T any](r *rand.Rand, s []T) (T, bool) {
	var zero T
	if len(s) == 0 {
		return zero, false
	}
	return s[r.IntN(len(s))], true
}

// otherLabel is a label of f other than not, drawn from r.
func otherLabel(f *funcView, not uint32, r *rand.Rand) (uint32, bool) {
	var ls []uint32
	for _, b := range f.blocks {
		if b.label != not {
			ls = append(ls, b.label)
		}
	}
	return pick(r, ls)
}

// newID takes the module's next id.
func newID(m *spirv.Module) uint32 {
	id := m.Bound
	m.Bound++
	return id
}

// insert puts in at index i.
func insert(m *spirv.Module, i int, in spirv.Instruction) {
	m.Insts = slices.Insert(m.Insts, i, in)
}

// firstFunction is the index of the first OpFunction (where new global
// declarations go).
func firstFunction(m *spirv.Module) int {
	for i, in := range m.Insts {
		if in.Op == spirv.OpFunction {
			return i
		}
	}
	return len(m.Insts)
}

// typeOf finds the id of a type instruction with these operands after its
// result id.
func typeOf(m *spirv.Module, op spirv.Op, operands ...uint32) (uint32, bool) {
	for _, in := range m.Insts {
		if in.Op == op && len(in.Operands) == 1+len(operands) && slices.Equal(in.Operands[1:], operands) {
			return in.Operands[0], true
		}
	}
	return 0, false
}

// constant returns a constant of type t with value x, declaring it when the
// module has none.
func constant(m *spirv.Module, t, x uint32) uint32 {
	for _, in := range m.Insts {
		if in.Op == spirv.OpConstant && len(in.Operands) == 3 && in.Operands[0] == t && in.Operands[2] == x {
			return in.Operands[1]
		}
	}
	id := newID(m)
	insert(m, firstFunction(m), spirv.Instruction{Op: spirv.OpConstant, Operands: []uint32{t, id, x}})
	return id
}

// boolConstant returns OpConstantTrue or OpConstantFalse's id.
func boolConstant(m *spirv.Module, val bool) (uint32, bool) {
	op := spirv.OpConstantFalse
	if val {
		op = spirv.OpConstantTrue
	}
	b, ok := typeOf(m, spirv.OpTypeBool)
	if !ok {
		return 0, false
	}
	for _, in := range m.Insts {
		if in.Op == op && in.Operands[0] == b {
			return in.Operands[1], true
		}
	}
	id := newID(m)
	insert(m, firstFunction(m), spirv.Instruction{Op: op, Operands: []uint32{b, id}})
	return id, true
}

func opSwapCond(m *spirv.Module, r *rand.Rand) (string, bool) {
	i, ok := pick(r, newView(m).sites(spirv.OpBranchConditional))
	if !ok {
		return "", false
	}
	o := m.Insts[i].Operands
	if o[1] == o[2] {
		return "", false
	}
	o[1], o[2] = o[2], o[1]
	return fmt.Sprintf("inst %d: targets %d and %d swapped", i, o[2], o[1]), true
}

func opCondConst(m *spirv.Module, r *rand.Rand) (string, bool) {
	i, ok := pick(r, newView(m).sites(spirv.OpBranchConditional))
	if !ok {
		return "", false
	}
	val := r.IntN(2) == 0
	before := len(m.Insts)
	c, ok := boolConstant(m, val)
	if !ok {
		return "", false
	}
	if len(m.Insts) > before {
		i++ // a declaration went in before it
	}
	m.Insts[i].Operands[0] = c
	return fmt.Sprintf("inst %d: condition always %t", i, val), true
}

// idOperandOps are opcodes whose operands are all ids (after the result
// type and result id, where they have them).
var idOperandOps = []spirv.Op{
	spirv.OpStore, spirv.OpFunctionCall, spirv.OpAccessChain, spirv.OpReturnValue,
	spirv.OpCopyObject, spirv.OpBitcast, spirv.OpSNegate, spirv.OpNot, spirv.OpSelect,
	spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpUDiv, spirv.OpSDiv, spirv.OpUMod, spirv.OpSRem, spirv.OpSMod,
	spirv.OpIEqual, spirv.OpINotEqual, spirv.OpUGreaterThan, spirv.OpSGreaterThan, spirv.OpUGreaterThanEqual,
	spirv.OpSGreaterThanEqual, spirv.OpULessThan, spirv.OpSLessThan, spirv.OpULessThanEqual, spirv.OpSLessThanEqual,
	spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic, spirv.OpShiftLeftLogical,
	spirv.OpBitwiseOr, spirv.OpBitwiseXor, spirv.OpBitwiseAnd,
}

// firstIDOperand is the index of in's first operand past its result.
func firstIDOperand(in spirv.Instruction) int {
	n := 0
	if _, ok := in.ResultType(); ok {
		n++
	}
	if _, ok := in.ResultID(); ok {
		n++
	}
	if in.Op == spirv.OpFunctionCall {
		n++ // the function
	}
	return n
}

// opConst replaces one use of a 32-bit integer constant inside a function
// with another value: one more, one less, or another constant of the
// module.
func opConst(m *spirv.Module, r *rand.Rand) (string, bool) {
	v := newView(m)
	type use struct{ inst, op int }
	var uses []use
	for i, in := range m.Insts {
		if !slices.Contains(idOperandOps, in.Op) || v.funcOf(i) == nil {
			continue
		}
		for k := firstIDOperand(in); k < len(in.Operands); k++ {
			if d, ok := v.def[in.Operands[k]]; ok && m.Insts[d].Op == spirv.OpConstant && len(m.Insts[d].Operands) == 3 {
				uses = append(uses, use{i, k})
			}
		}
	}
	u, ok := pick(r, uses)
	if !ok {
		return "", false
	}
	old := m.Insts[v.def[m.Insts[u.inst].Operands[u.op]]]
	t, x := old.Operands[0], old.Operands[2]
	var y uint32
	switch r.IntN(3) {
	case 0:
		y = x + 1
	case 1:
		y = x - 1
	default:
		var others []uint32
		for _, in := range m.Insts {
			if in.Op == spirv.OpConstant && len(in.Operands) == 3 && in.Operands[0] == t && in.Operands[2] != x {
				others = append(others, in.Operands[2])
			}
		}
		if y, ok = pick(r, others); !ok {
			y = x ^ 1
		}
	}
	at := u.inst
	before := len(m.Insts)
	c := constant(m, t, y)
	if len(m.Insts) > before {
		at++
	}
	m.Insts[at].Operands[u.op] = c
	return fmt.Sprintf("inst %d (%s) operand %d: constant %d -> %d", u.inst, m.Insts[at].Op, u.op, x, y), true
}

// switchCases is the indices of an OpSwitch's (literal, target) pairs:
// operands 2, 4, ... (32-bit selectors).
func switchCases(in spirv.Instruction) []int {
	var ks []int
	for k := 2; k+1 < len(in.Operands); k += 2 {
		ks = append(ks, k)
	}
	return ks
}

func opCaseLiteral(m *spirv.Module, r *rand.Rand) (string, bool) {
	i, ok := pick(r, newView(m).sites(spirv.OpSwitch))
	if !ok {
		return "", false
	}
	o := m.Insts[i].Operands
	ks := switchCases(m.Insts[i])
	k, ok := pick(r, ks)
	if !ok {
		return "", false
	}
	if len(ks) > 1 && r.IntN(2) == 0 {
		k2, _ := pick(r, ks)
		if k2 == k || o[k] == o[k2] {
			return "", false
		}
		o[k], o[k2] = o[k2], o[k]
		return fmt.Sprintf("inst %d: case literals %d and %d swapped", i, o[k2], o[k]), true
	}
	var y uint32
	switch r.IntN(3) {
	case 0:
		y = o[k] + 1
	case 1:
		y = o[k] - 1
	default:
		y = uint32(r.IntN(len(ks) + 3))
	}
	for _, k2 := range ks {
		if o[k2] == y {
			return "", false
		}
	}
	x := o[k]
	o[k] = y
	return fmt.Sprintf("inst %d: case literal %d -> %d", i, x, y), true
}

func opSwitchTarget(m *spirv.Module, r *rand.Rand) (string, bool) {
	i, ok := pick(r, newView(m).sites(spirv.OpSwitch))
	if !ok {
		return "", false
	}
	o := m.Insts[i].Operands
	ts := []int{1}
	for _, k := range switchCases(m.Insts[i]) {
		ts = append(ts, k+1)
	}
	a, _ := pick(r, ts)
	b, _ := pick(r, ts)
	if o[a] == o[b] {
		return "", false
	}
	o[a], o[b] = o[b], o[a]
	return fmt.Sprintf("inst %d: targets of operands %d and %d swapped", i, a, b), true
}

func opRetarget(m *spirv.Module, r *rand.Rand) (string, bool) {
	v := newView(m)
	i, ok := pick(r, v.sites(spirv.OpBranch, spirv.OpBranchConditional, spirv.OpSwitch))
	if !ok {
		return "", false
	}
	in := m.Insts[i]
	var ks []int
	switch in.Op {
	case spirv.OpBranch:
		ks = []int{0}
	case spirv.OpBranchConditional:
		ks = []int{1, 2}
	default:
		ks = []int{1}
		for _, k := range switchCases(in) {
			ks = append(ks, k+1)
		}
	}
	k, _ := pick(r, ks)
	l, ok := otherLabel(v.funcOf(i), in.Operands[k], r)
	if !ok {
		return "", false
	}
	old := in.Operands[k]
	in.Operands[k] = l
	return fmt.Sprintf("inst %d (%s) target %d -> %d", i, in.Op, old, l), true
}

func opMergeTarget(m *spirv.Module, r *rand.Rand) (string, bool) {
	v := newView(m)
	i, ok := pick(r, v.sites(spirv.OpSelectionMerge, spirv.OpLoopMerge))
	if !ok {
		return "", false
	}
	in := m.Insts[i]
	k := 0
	if in.Op == spirv.OpLoopMerge && r.IntN(2) == 0 {
		k = 1
	}
	l, ok := otherLabel(v.funcOf(i), in.Operands[k], r)
	if !ok {
		return "", false
	}
	old := in.Operands[k]
	in.Operands[k] = l
	what := "merge"
	if k == 1 {
		what = "continue"
	}
	return fmt.Sprintf("inst %d (%s) %s %d -> %d", i, in.Op, what, old, l), true
}

// cmpMutants are the comparisons each comparison may become.
var cmpMutants = map[spirv.Op][]spirv.Op{
	spirv.OpIEqual:            {spirv.OpINotEqual, spirv.OpULessThan, spirv.OpUGreaterThanEqual},
	spirv.OpINotEqual:         {spirv.OpIEqual, spirv.OpUGreaterThan, spirv.OpULessThan},
	spirv.OpULessThan:         {spirv.OpULessThanEqual, spirv.OpSLessThan, spirv.OpUGreaterThan, spirv.OpINotEqual},
	spirv.OpULessThanEqual:    {spirv.OpULessThan, spirv.OpSLessThanEqual, spirv.OpUGreaterThanEqual},
	spirv.OpUGreaterThan:      {spirv.OpUGreaterThanEqual, spirv.OpSGreaterThan, spirv.OpULessThan, spirv.OpINotEqual},
	spirv.OpUGreaterThanEqual: {spirv.OpUGreaterThan, spirv.OpSGreaterThanEqual, spirv.OpULessThanEqual},
	spirv.OpSLessThan:         {spirv.OpULessThan, spirv.OpSLessThanEqual},
	spirv.OpSLessThanEqual:    {spirv.OpULessThanEqual, spirv.OpSLessThan},
	spirv.OpSGreaterThan:      {spirv.OpUGreaterThan, spirv.OpSGreaterThanEqual},
	spirv.OpSGreaterThanEqual: {spirv.OpUGreaterThanEqual, spirv.OpSGreaterThan},
}

func cmpSites(m *spirv.Module) []int {
	var s []int
	for i, in := range m.Insts {
		if _, ok := cmpMutants[in.Op]; ok {
			s = append(s, i)
		}
	}
	return s
}

func opCmp(m *spirv.Module, r *rand.Rand) (string, bool) {
	i, ok := pick(r, cmpSites(m))
	if !ok {
		return "", false
	}
	old := m.Insts[i].Op
	m.Insts[i].Op, _ = pick(r, cmpMutants[old])
	return fmt.Sprintf("inst %d: %s -> %s", i, old, m.Insts[i].Op), true
}

// opCmpSwap swaps the operands of an ordered comparison (of an equality
// it would change nothing).
func opCmpSwap(m *spirv.Module, r *rand.Rand) (string, bool) {
	s := slices.DeleteFunc(cmpSites(m), func(i int) bool {
		return m.Insts[i].Op == spirv.OpIEqual || m.Insts[i].Op == spirv.OpINotEqual
	})
	i, ok := pick(r, s)
	if !ok {
		return "", false
	}
	o := m.Insts[i].Operands
	if o[2] == o[3] {
		return "", false
	}
	o[2], o[3] = o[3], o[2]
	return fmt.Sprintf("inst %d: %s operands swapped", i, m.Insts[i].Op), true
}

func opSelect(m *spirv.Module, r *rand.Rand) (string, bool) {
	i, ok := pick(r, newView(m).sites(spirv.OpSelect))
	if !ok {
		return "", false
	}
	o := m.Insts[i].Operands
	if o[3] == o[4] {
		return "", false
	}
	o[3], o[4] = o[4], o[3]
	return fmt.Sprintf("inst %d: OpSelect values swapped", i), true
}

// arithMutants are the integer operations each may become.
var arithMutants = map[spirv.Op][]spirv.Op{
	spirv.OpIAdd:                 {spirv.OpISub, spirv.OpBitwiseXor, spirv.OpBitwiseOr},
	spirv.OpISub:                 {spirv.OpIAdd},
	spirv.OpIMul:                 {spirv.OpIAdd, spirv.OpBitwiseXor},
	spirv.OpUDiv:                 {spirv.OpUMod, spirv.OpSDiv},
	spirv.OpUMod:                 {spirv.OpUDiv, spirv.OpSRem},
	spirv.OpSDiv:                 {spirv.OpUDiv},
	spirv.OpSRem:                 {spirv.OpSMod, spirv.OpUMod},
	spirv.OpSMod:                 {spirv.OpSRem},
	spirv.OpBitwiseXor:           {spirv.OpBitwiseOr, spirv.OpBitwiseAnd, spirv.OpIAdd},
	spirv.OpBitwiseOr:            {spirv.OpBitwiseXor, spirv.OpBitwiseAnd},
	spirv.OpBitwiseAnd:           {spirv.OpBitwiseOr, spirv.OpBitwiseXor},
	spirv.OpShiftLeftLogical:     {spirv.OpShiftRightLogical},
	spirv.OpShiftRightLogical:    {spirv.OpShiftLeftLogical, spirv.OpShiftRightArithmetic},
	spirv.OpShiftRightArithmetic: {spirv.OpShiftRightLogical},
}

func opArith(m *spirv.Module, r *rand.Rand) (string, bool) {
	var s []int
	for i, in := range m.Insts {
		if _, ok := arithMutants[in.Op]; ok {
			s = append(s, i)
		}
	}
	i, ok := pick(r, s)
	if !ok {
		return "", false
	}
	old := m.Insts[i].Op
	m.Insts[i].Op, _ = pick(r, arithMutants[old])
	return fmt.Sprintf("inst %d: %s -> %s", i, old, m.Insts[i].Op), true
}

// storeSites are the OpStores inside functions.
func storeSites(v *view) []int {
	var s []int
	for _, i := range v.sites(spirv.OpStore) {
		if v.blockOf(i) != nil {
			s = append(s, i)
		}
	}
	return s
}

func opDropStore(m *spirv.Module, r *rand.Rand) (string, bool) {
	i, ok := pick(r, storeSites(newView(m)))
	if !ok {
		return "", false
	}
	m.Insts = slices.Delete(m.Insts, i, i+1)
	return fmt.Sprintf("inst %d: OpStore dropped", i), true
}

// globalOrEntry says whether id is usable anywhere in function f: a module
// level declaration, or defined in f's first block.
func globalOrEntry(v *view, f *funcView, id uint32) bool {
	d, ok := v.def[id]
	if !ok {
		return false
	}
	df := v.funcOf(d)
	return df == nil || df == f && len(f.blocks) > 0 && d < f.blocks[0].end
}

// bodyStart is the index in block b where new code may go: past the label,
// OpPhis and, in a function's first block, its OpVariables.
func bodyStart(m *spirv.Module, b *blockView) int {
	i := b.start + 1
	for i < b.end && (m.Insts[i].Op == spirv.OpPhi || m.Insts[i].Op == spirv.OpVariable) {
		i++
	}
	return i
}

// codeEnd is where block b's code ends: its merge instruction, else its
// terminator.
func codeEnd(b *blockView) int {
	if b.merge >= 0 {
		return b.merge
	}
	return b.end
}

// opDupStore copies a store: one whose pointer and value are usable
// anywhere in the function to the start of another block, any other one to
// its own block's end.
func opDupStore(m *spirv.Module, r *rand.Rand) (string, bool) {
	v := newView(m)
	i, ok := pick(r, storeSites(v))
	if !ok {
		return "", false
	}
	in := spirv.Instruction{Op: spirv.OpStore, Operands: slices.Clone(m.Insts[i].Operands)}
	f := v.funcOf(i)
	if globalOrEntry(v, f, in.Operands[0]) && globalOrEntry(v, f, in.Operands[1]) {
		b, _ := pick(r, f.blocks)
		at := bodyStart(m, &b)
		insert(m, at, in)
		return fmt.Sprintf("inst %d: OpStore copied to the start of block %d", i, b.label), true
	}
	b := v.blockOf(i)
	at := codeEnd(b)
	if at == i+1 {
		return "", false
	}
	insert(m, at, in)
	return fmt.Sprintf("inst %d: OpStore copied to the end of its block %d", i, b.label), true
}

// opSwapStores swaps two stores of a block where the later one's operands
// are defined before the first.
func opSwapStores(m *spirv.Module, r *rand.Rand) (string, bool) {
	v := newView(m)
	i, ok := pick(r, storeSites(v))
	if !ok {
		return "", false
	}
	b := v.blockOf(i)
	var js []int
	for j := i + 1; j < b.end; j++ {
		if m.Insts[j].Op != spirv.OpStore {
			continue
		}
		if slices.ContainsFunc(m.Insts[j].Operands, func(id uint32) bool { d, ok := v.def[id]; return ok && d > i && d < j }) {
			continue
		}
		js = append(js, j)
	}
	j, ok := pick(r, js)
	if !ok {
		return "", false
	}
	m.Insts[i], m.Insts[j] = m.Insts[j], m.Insts[i]
	return fmt.Sprintf("insts %d and %d: OpStores swapped", i, j), true
}

// sameTypeVars are the variables of pointer type t usable in function f
// other than not.
func sameTypeVars(v *view, f *funcView, t, not uint32) []uint32 {
	var vs []uint32
	for id, d := range v.def {
		in := v.m.Insts[d]
		if id != not && in.Op == spirv.OpVariable && in.Operands[0] == t && globalOrEntry(v, f, id) {
			vs = append(vs, id)
		}
	}
	slices.Sort(vs)
	return vs
}

func opStoreVar(m *spirv.Module, r *rand.Rand) (string, bool) {
	v := newView(m)
	i, ok := pick(r, storeSites(v))
	if !ok {
		return "", false
	}
	p := m.Insts[i].Operands[0]
	w, ok := pick(r, sameTypeVars(v, v.funcOf(i), v.typ[p], p))
	if !ok {
		return "", false
	}
	m.Insts[i].Operands[0] = w
	return fmt.Sprintf("inst %d: OpStore to %d instead of %d", i, w, p), true
}

func opLoadVar(m *spirv.Module, r *rand.Rand) (string, bool) {
	v := newView(m)
	var s []int
	for _, i := range v.sites(spirv.OpLoad) {
		if d, ok := v.def[m.Insts[i].Operands[2]]; ok && m.Insts[d].Op == spirv.OpVariable {
			s = append(s, i)
		}
	}
	i, ok := pick(r, s)
	if !ok {
		return "", false
	}
	p := m.Insts[i].Operands[2]
	w, ok := pick(r, sameTypeVars(v, v.funcOf(i), v.typ[p], p))
	if !ok {
		return "", false
	}
	m.Insts[i].Operands[2] = w
	return fmt.Sprintf("inst %d: OpLoad of %d instead of %d", i, w, p), true
}

// used says whether any instruction uses id as an operand.
func used(m *spirv.Module, id uint32, not int) bool {
	for i, in := range m.Insts {
		if i != not && slices.Contains(in.Operands[min(len(in.Operands), firstIDOperand(in)):], id) {
			return true
		}
	}
	return false
}

func opDropCall(m *spirv.Module, r *rand.Rand) (string, bool) {
	var s []int
	for _, i := range newView(m).sites(spirv.OpFunctionCall) {
		if !used(m, m.Insts[i].Operands[1], i) {
			s = append(s, i)
		}
	}
	i, ok := pick(r, s)
	if !ok {
		return "", false
	}
	m.Insts = slices.Delete(m.Insts, i, i+1)
	return fmt.Sprintf("inst %d: OpFunctionCall dropped", i), true
}

func opDupCall(m *spirv.Module, r *rand.Rand) (string, bool) {
	i, ok := pick(r, newView(m).sites(spirv.OpFunctionCall))
	if !ok {
		return "", false
	}
	in := spirv.Instruction{Op: spirv.OpFunctionCall, Operands: slices.Clone(m.Insts[i].Operands)}
	in.Operands[1] = newID(m)
	insert(m, i+1, in)
	return fmt.Sprintf("inst %d: OpFunctionCall repeated", i), true
}

// opReorder moves a block other than its function's first to another place
// among the function's blocks.
func opReorder(m *spirv.Module, r *rand.Rand) (string, bool) {
	v := newView(m)
	var fs []*funcView
	for k := range v.funcs {
		if len(v.funcs[k].blocks) > 2 {
			fs = append(fs, &v.funcs[k])
		}
	}
	f, ok := pick(r, fs)
	if !ok {
		return "", false
	}
	a := 1 + r.IntN(len(f.blocks)-1)
	to := 1 + r.IntN(len(f.blocks)-1)
	if a == to {
		return "", false
	}
	var blocks [][]spirv.Instruction
	for _, b := range f.blocks {
		blocks = append(blocks, slices.Clone(m.Insts[b.start:b.end+1]))
	}
	moved := blocks[a]
	blocks = slices.Delete(blocks, a, a+1)
	blocks = slices.Insert(blocks, to, moved)
	at := f.blocks[0].start
	for _, b := range blocks {
		at += copy(m.Insts[at:], b)
	}
	return fmt.Sprintf("block %d (of function at %d) moved from place %d to %d", f.blocks[a].label, f.start, a, to), true
}
