// convention.go: the buffer layout of the module convention (emit/CONVENTION.md),
// shared by the emitter, the oracle's interpreter and the driver executor,
// so the contract is written once.
package spirv

// ConventionVersion is the version of emit/CONVENTION.md that this layout
// implements.
const ConventionVersion = 1

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
}

// NewBatch builds the buffers for walks (one decision list each) with room
// for capacity trace ids per walk.
func NewBatch(walks [][]uint32, capacity int) *Batch {
	maxLen := 0
	for _, w := range walks {
		maxLen = max(maxLen, len(w))
	}
	b := &Batch{DecisionStride: uint32(maxLen + 1), TraceStride: uint32(capacity + TraceOverhead)}
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
	Truncated bool // Count exceeded the capacity
}

// Read extracts walk i's observation from a trace buffer.
func (b *Batch) Read(trace []uint32, i int) Observed {
	base := i * int(b.TraceStride)
	s := trace[base : base+int(b.TraceStride)]
	capacity := uint32(len(s) - TraceOverhead)
	o := Observed{Count: s[TraceCount], Consumed: s[TraceConsumed], Returned: s[TraceReturned] == 1, Sink: s[TraceSink]}
	n := min(o.Count, capacity)
	o.Truncated = o.Count > capacity
	o.IDs = append([]uint32(nil), s[TraceIDs:TraceIDs+int(n)]...)
	return o
}
