// convention.go: the buffer layout of the module convention (emit/CONVENTION.md),
// shared by the emitter, the oracle's interpreter and the driver executor,
// so the contract is written once.

package spirv

// ConventionVersion is the version of emit/CONVENTION.md that this layout
// implements.
const ConventionVersion = 1

// ConventionMinor is the minor version: 1 adds the register-file workload
// (registers.go), opt-in; a module without it follows 1.0.
const ConventionMinor = 1

// Bindings (descriptor set 0).
const (
	BindingDecisions = 0
	BindingTrace     = 1
)

// Decision buffer header: words 0 and 1 hold the per-walk strides; walk i's
// decision slice starts at DecisionHeader + i*DecisionStride and holds the
// count n followed by up to DecisionStride-1 decisions.
const DecisionHeader = 2

// Trace slice slots, relative to walk i's base i*TraceStride.
const (
	TraceCount    = 0 // ids appended so far (keeps counting past capacity)
	TraceConsumed = 1 // decisions read so far (keeps counting past n)
	TraceReturned = 2 // 1 once the entry point returned
	TraceSink     = 3 // the filler's observable result, stored at return
	TraceIDs      = 4 // first id slot
	// TraceOverhead is the slots of a slice that are not ids: the four
	// above plus one overflow slot that absorbs writes past capacity.
	TraceOverhead = 5
)

// Batch lays out the decision and trace buffers for a batch of walks. Each
// walk's decisions are stored as given; trace capacity is the most ids a
// walk can record before overflowing.
type Batch struct {
	DecisionStride uint32
	TraceStride    uint32
	Decisions      []uint32 // the whole decision buffer
	TraceWords     int      // the trace buffer's size in words
	// Registers is the register file's size of the workload (1.1), 0 for
	// none: with it each trace slice ends in the checksum slot, after
	// the overflow slot, and holds TraceRegisterSlots more words.
	Registers int
}

// overhead is the slots of a slice that are not ids.
func (b *Batch) overhead() int {
	if b.Registers > 0 {
		return TraceOverhead + TraceRegisterSlots
	}
	return TraceOverhead
}

// Capacity is the most ids a walk's slice holds.
func (b *Batch) Capacity() uint32 { return b.TraceStride - uint32(b.overhead()) }

// NewBatch builds the buffers for walks (one decision list each) with room
// for capacity trace ids per walk.
func NewBatch(walks [][]uint32, capacity int) *Batch {
	return NewRegisterBatch(walks, capacity, 0)
}

// NewRegisterBatch is NewBatch for modules with a register file of
// registers values (0: none, NewBatch).
func NewRegisterBatch(walks [][]uint32, capacity, registers int) *Batch {
	maxLen := 0
	for _, w := range walks {
		maxLen = max(maxLen, len(w))
	}
	b := &Batch{DecisionStride: uint32(maxLen + 1), Registers: max(0, registers)}
	b.TraceStride = uint32(capacity + b.overhead())
	b.Decisions = make([]uint32, DecisionHeader+len(walks)*int(b.DecisionStride))
	b.Decisions[0], b.Decisions[1] = b.DecisionStride, b.TraceStride
	for i, w := range walks {
		base := DecisionHeader + i*int(b.DecisionStride)
		b.Decisions[base] = uint32(len(w))
		copy(b.Decisions[base+1:], w)
	}
	b.TraceWords = len(walks) * int(b.TraceStride)
	return b
}

// Observed is what one walk's trace slice says.
type Observed struct {
	IDs       []uint32 // the ids recorded, at most capacity
	Count     uint32   // ids appended (more than len(IDs) on overflow)
	Consumed  uint32
	Returned  bool
	Sink      uint32
	Truncated bool   // Count exceeded the capacity
	Checksum  uint32 // the register file's checksum slot (Batch.Registers > 0)
}

// Read extracts walk i's observation from a trace buffer.
func (b *Batch) Read(trace []uint32, i int) Observed {
	base := i * int(b.TraceStride)
	s := trace[base : base+int(b.TraceStride)]
	capacity := uint32(len(s) - b.overhead())
	o := Observed{Count: s[TraceCount], Consumed: s[TraceConsumed], Returned: s[TraceReturned] == 1, Sink: s[TraceSink]}
	if b.Registers > 0 {
		o.Checksum = s[len(s)-1]
	}
	n := min(o.Count, capacity)
	o.Truncated = o.Count > capacity
	o.IDs = append([]uint32(nil), s[TraceIDs:TraceIDs+int(n)]...)
	return o
}
