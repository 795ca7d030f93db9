// Package structurizer turns a cfg.Graph into a structured function: blocks
// tagged original, clone or synthetic, each with its terminator, its merge or
// loop declaration and its route-variable writes. The package emit lays that
// form out as a SPIR-V module; cmd/structurize and the protocol carry it as
// JSON (its field names are the documented JSON form).
//
// func.go defines the structured function form shared by every strategy.
package structurizer

import (
	"fmt"
	"slices"
	"sort"

	"github.com/cfgfuzz/cfgfuzz/structurizer/cfg"
)

// Kind tells where a block of a structured function comes from.
type Kind uint8

const (
	// Original is a block of the input graph, placed once.
	Original Kind = iota
	// Clone is a copy of an original block; it reports its original's id.
	Clone
	// Synthetic is a block the structurizer made (header, latch, merge,
	// route dispatch, guard). It appends nothing to the trace and reads no
	// decision.
	Synthetic
)

var kindNames = [...]string{"original", "clone", "synthetic"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown block kind %q (want original, clone or synthetic)", b)
}

// TermKind is the kind of a block's terminator.
type TermKind uint8

const (
	// Return ends the function.
	Return TermKind = iota
	// Branch goes to To[0].
	Branch
	// Choose goes to To[c], where c = cfg.Choice(Arity, decision) for the
	// decision the block read. Only blocks with Arity >= 2 choose.
	Choose
	// Test goes to To[0] when Var == Values[0], else to To[1].
	Test
	// Route goes to To[i+1] when Var == Values[i], else to To[0] (the default).
	Route
	// Unreachable marks a block no execution reaches (a merge whose
	// construct always leaves).
	Unreachable
)

var termNames = [...]string{"return", "branch", "choose", "test", "route", "unreachable"}

func (k TermKind) String() string {
	if int(k) < len(termNames) {
		return termNames[k]
	}
	return fmt.Sprintf("term(%d)", k)
}

// MarshalText writes the terminator kind's name.
func (k TermKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a terminator kind's name.
func (k *TermKind) UnmarshalText(b []byte) error {
	for i, n := range termNames {
		if n == string(b) {
			*k = TermKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown terminator %q", b)
}

// Term is a block's terminator.
type Term struct {
	Kind   TermKind `json:"kind"`
	To     []int    `json:"to,omitempty"`
	Var    int      `json:"var,omitempty"`
	Values []uint32 `json:"values,omitempty"`
	// Order is the order in which a switch lists its cases: indices into
	// To, each of 1..len(To)-1 once, equal targets adjacent. nil means
	// CaseOrder(To). A switch whose cases fall through needs its own order
	// (a case falling into another is listed right before it). A choose
	// may also list index 0: the default target as the case of decision 0,
	// which the default takes anyway; a case can then fall into it.
	Order []int `json:"order,omitempty"`
}

// MergeKind says what a block declares.
type MergeKind uint8

const (
	// NoMerge: the block heads no construct.
	NoMerge MergeKind = iota
	// SelectionMerge: OpSelectionMerge Merge (before a Choose, Test or Route).
	SelectionMerge
	// LoopMerge: OpLoopMerge Merge Continue (before a Branch, a two-way
	// Choose or a Test).
	LoopMerge
)

var mergeNames = [...]string{"none", "selection", "loop"}

func (k MergeKind) String() string {
	if int(k) < len(mergeNames) {
		return mergeNames[k]
	}
	return fmt.Sprintf("merge(%d)", k)
}

// MarshalText writes the merge kind's name.
func (k MergeKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a merge kind's name.
func (k *MergeKind) UnmarshalText(b []byte) error {
	for i, n := range mergeNames {
		if n == string(b) {
			*k = MergeKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown merge kind %q", b)
}

// Merge is a block's structured declaration.
type Merge struct {
	Kind     MergeKind `json:"kind"`
	Merge    int       `json:"merge"`
	Continue int       `json:"continue,omitempty"`
}

// Store writes a route variable. With PerChoice nil it writes Value; else it
// writes PerChoice[c] for the choice c the block's decision made (only in
// blocks that read one). Stores run after the trace append and the decision
// read, in order.
type Store struct {
	Var       int      `json:"var"`
	Value     uint32   `json:"value,omitempty"`
	PerChoice []uint32 `json:"per_choice,omitempty"`
}

// Block is one block of a structured function.
type Block struct {
	Name string `json:"name,omitempty"`
	Kind Kind   `json:"kind"`
	// Orig is the original block id for Original and Clone blocks, -1 for
	// Synthetic ones, whose Orig nothing reads (a protocol answer may
	// write any number there: fuzz/PROTOCOL.md).
	Orig int `json:"orig"`
	// Weight is the original block's weight in words (0 for synthetic).
	Weight int `json:"weight,omitempty"`
	// Arity is the out-degree of the original block when it reads a decision
	// (2 for a conditional, n >= 3 for a switch), else 0.
	Arity  int     `json:"arity,omitempty"`
	Stores []Store `json:"stores,omitempty"`
	Merge  Merge   `json:"merge"`
	Term   Term    `json:"term"`
}

// Var is a route variable (a Function-storage uint32 in SPIR-V), set to Init
// at function entry.
type Var struct {
	Name string `json:"name"`
	Init uint32 `json:"init,omitempty"`
}

// Func is a structured function. Blocks[0] is the entry; the block order is
// the layout order (every block after its dominator).
type Func struct {
	Blocks []Block `json:"blocks"`
	Vars   []Var   `json:"vars,omitempty"`
}

// Succs returns the branch targets of block b's terminator (with duplicates).
func (f *Func) Succs(b int) []int { return f.Blocks[b].Term.To }

// Validate checks that f is well formed as a form (not that it is
// structured): targets in range, terminators consistent with arity and
// variables, originals and clones carrying an id. It is the precondition of
// emit.
func (f *Func) Validate() error {
	if len(f.Blocks) == 0 {
		return fmt.Errorf("structured function has no blocks")
	}
	for b := range f.Blocks {
		if err := f.validateBlock(b); err != nil {
			return err
		}
	}
	return nil
}

// inRange checks that block b's t (its what) names a block.
func (f *Func) inRange(b, t int, what string) error {
	if n := len(f.Blocks); t < 0 || t >= n {
		return fmt.Errorf("block %d: %s %d out of range 0..%d", b, what, t, n-1)
	}
	return nil
}

// validateBlock checks block b: its kind, weight, arity and stores, then
// its terminator and its declaration.
func (f *Func) validateBlock(b int) error {
	blk := &f.Blocks[b]
	if blk.Kind == Synthetic && (blk.Arity != 0 || blk.Weight != 0) {
		return fmt.Errorf("block %d: synthetic block with arity %d or weight %d", b, blk.Arity, blk.Weight)
	}
	if blk.Weight < 0 || blk.Weight > cfg.DefaultLimits.MaxWeight {
		return fmt.Errorf("block %d: weight %d outside 0..%d (the most a graph's block may weigh)", b, blk.Weight, cfg.DefaultLimits.MaxWeight)
	}
	if blk.Kind != Synthetic && blk.Orig < 0 {
		return fmt.Errorf("block %d: %s block without an original id", b, blk.Kind)
	}
	if blk.Arity == 1 || blk.Arity < 0 {
		return fmt.Errorf("block %d: arity %d (0, or 2 and more)", b, blk.Arity)
	}
	for _, s := range blk.Stores {
		if s.Var < 0 || s.Var >= len(f.Vars) {
			return fmt.Errorf("block %d: store to variable %d of %d", b, s.Var, len(f.Vars))
		}
		if s.PerChoice != nil && len(s.PerChoice) != blk.Arity {
			return fmt.Errorf("block %d: per-choice store with %d values for arity %d", b, len(s.PerChoice), blk.Arity)
		}
	}
	if err := f.validateTerm(b, blk); err != nil {
		return err
	}
	return f.validateMerge(b, blk)
}

// validateTerm checks block b's terminator: its targets, their count for
// its kind, a route's values, a switch's order, the variable it tests and
// whether it reads a decision exactly when it should.
func (f *Func) validateTerm(b int, blk *Block) error {
	t := &blk.Term
	for _, to := range t.To {
		if err := f.inRange(b, to, "branch target"); err != nil {
			return err
		}
	}
	if err := termShape(b, blk); err != nil {
		return err
	}
	if t.Order != nil {
		if err := checkOrder(b, blk); err != nil {
			return err
		}
	}
	if (t.Kind == Test || t.Kind == Route) && (t.Var < 0 || t.Var >= len(f.Vars)) {
		return fmt.Errorf("block %d: %s on variable %d of %d", b, t.Kind, t.Var, len(f.Vars))
	}
	// A block that reads a decision uses it: it chooses, stores by
	// choice, or branches to its one target (a conditional or switch
	// whose successors are all one block: any decision goes there).
	if blk.Arity >= 2 && t.Kind != Choose && t.Kind != Branch && !storesChoice(blk) {
		return fmt.Errorf("block %d: reads a decision but neither chooses nor stores by choice", b)
	}
	if blk.Arity == 0 && t.Kind == Choose {
		return fmt.Errorf("block %d: chooses without reading a decision", b)
	}
	return nil
}

// termShape checks the count of block b's targets (and a test's or a
// route's values) for its terminator's kind.
func termShape(b int, blk *Block) error {
	t := &blk.Term
	switch t.Kind {
	case Return, Unreachable:
		if len(t.To) != 0 {
			return fmt.Errorf("block %d: %s with targets", b, t.Kind)
		}
	case Branch:
		if len(t.To) != 1 {
			return fmt.Errorf("block %d: branch with %d targets", b, len(t.To))
		}
	case Choose:
		if blk.Arity < 2 || len(t.To) != blk.Arity {
			return fmt.Errorf("block %d: choose with %d targets for arity %d", b, len(t.To), blk.Arity)
		}
	case Test:
		if len(t.To) != 2 || len(t.Values) != 1 {
			return fmt.Errorf("block %d: test needs 2 targets and 1 value", b)
		}
	case Route:
		if len(t.To) != len(t.Values)+1 || len(t.To) < 1 {
			return fmt.Errorf("block %d: route needs one target more than values", b)
		}
		if v, ok := repeatedValue(t.Values); ok {
			return fmt.Errorf("block %d: route value %d listed twice", b, v)
		}
	default:
		return fmt.Errorf("block %d: unknown terminator %d", b, t.Kind)
	}
	return nil
}

// repeatedValue finds a value listed twice in vals: by scanning the ones
// before it in a short list (a route's usual few), through a set in a
// long one.
func repeatedValue(vals []uint32) (uint32, bool) {
	if len(vals) <= 16 {
		for i, v := range vals {
			if slices.Contains(vals[:i], v) {
				return v, true
			}
		}
		return 0, false
	}
	seen := make(map[uint32]bool, len(vals))
	for _, v := range vals {
		if seen[v] {
			return v, true
		}
		seen[v] = true
	}
	return 0, false
}

// validateMerge checks block b's declaration: the blocks it names and the
// terminator it may precede (R13).
func (f *Func) validateMerge(b int, blk *Block) error {
	m, t := &blk.Merge, &blk.Term
	switch m.Kind {
	case NoMerge:
	case SelectionMerge:
		if err := f.inRange(b, m.Merge, "merge"); err != nil {
			return err
		}
		if t.Kind != Choose && t.Kind != Test && t.Kind != Route {
			return fmt.Errorf("block %d: selection merge before a %s", b, t.Kind)
		}
	case LoopMerge:
		if err := f.inRange(b, m.Merge, "merge"); err != nil {
			return err
		}
		if err := f.inRange(b, m.Continue, "continue target"); err != nil {
			return err
		}
		if t.Kind != Branch && t.Kind != Test && !(t.Kind == Choose && blk.Arity == 2) {
			return fmt.Errorf("block %d: loop merge before a %s", b, t.Kind)
		}
	default:
		return fmt.Errorf("block %d: unknown merge kind %d", b, m.Kind)
	}
	return nil
}

// checkOrder validates a switch's case order (Term.Order).
func checkOrder(b int, blk *Block) error {
	t := blk.Term
	if t.Kind != Route && !(t.Kind == Choose && blk.Arity >= 3) {
		return fmt.Errorf("block %d: case order on a %s that is not a switch", b, t.Kind)
	}
	zero := 0 // 1 when the order lists the default as case 0 (choose only)
	if t.Kind == Choose && slices.Contains(t.Order, 0) {
		zero = 1
	}
	if len(t.Order) != len(t.To)-1+zero {
		return fmt.Errorf("block %d: case order lists %d cases of %d", b, len(t.Order), len(t.To)-1)
	}
	seen := make([]bool, len(t.To))
	done := map[int]bool{} // targets whose run of cases has ended
	for i, k := range t.Order {
		if k < 1-zero || k >= len(t.To) || seen[k] {
			return fmt.Errorf("block %d: case order %v is not a permutation of 1..%d", b, t.Order, len(t.To)-1)
		}
		seen[k] = true
		if done[t.To[k]] {
			return fmt.Errorf("block %d: case order %v separates cases with the same target %d", b, t.Order, t.To[k])
		}
		if i > 0 && t.To[t.Order[i-1]] != t.To[k] {
			done[t.To[t.Order[i-1]]] = true
		}
	}
	return nil
}

func storesChoice(b *Block) bool {
	for _, s := range b.Stores {
		if s.PerChoice != nil {
			return true
		}
	}
	return false
}

// Stats describes one structurization result.
type Stats struct {
	BlocksIn   int      `json:"blocks_in"`  // reachable input blocks
	Dropped    int      `json:"dropped"`    // unreachable input blocks not emitted
	WordsIn    int      `json:"words_in"`   // sum of reachable input weights
	BlocksOut  int      `json:"blocks_out"` // blocks of the structured function
	Synthetic  int      `json:"synthetic"`  // synthetic blocks among them
	Clones     int      `json:"clones"`     // clone blocks among them
	WordsOut   int      `json:"words_out"`  // sum of weights of original and clone blocks
	RouteVars  int      `json:"route_vars"` // route variables
	Fallbacks  int      `json:"fallbacks"`  // segments laid out as a dispatch loop
	Strategy   string   `json:"strategy"`
	PassesUsed []string `json:"passes_used,omitempty"` // passes that changed something
}

// Count fills the counts of f into s (BlocksOut, Synthetic, Clones,
// WordsOut, RouteVars).
func (s *Stats) Count(f *Func) {
	s.BlocksOut = len(f.Blocks)
	s.Synthetic, s.Clones, s.WordsOut = 0, 0, 0
	for i := range f.Blocks {
		s.countBlock(&f.Blocks[i])
	}
	s.RouteVars = len(f.Vars)
}

// countBlock adds block b to the counts Count makes.
func (s *Stats) countBlock(b *Block) {
	switch b.Kind {
	case Synthetic:
		s.Synthetic++
	case Clone:
		s.Clones++
	}
	s.WordsOut += b.Weight
}

// caseOrder returns the indices 1..len(to)-1 of a switch's cases ordered so
// that cases with the same target are adjacent (SPIR-V's rule for duplicate
// targets), keeping first-appearance order otherwise.
func caseOrder(to []int) []int {
	first := map[int]int{}
	idx := make([]int, 0, len(to))
	for i := 1; i < len(to); i++ {
		if _, ok := first[to[i]]; !ok {
			first[to[i]] = i
		}
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool { return first[to[idx[a]]] < first[to[idx[b]]] })
	return idx
}

// CaseOrder is caseOrder for emitters: the order in which to list the cases
// of a switch whose targets are to (to[0] the default).
func CaseOrder(to []int) []int { return caseOrder(to) }
