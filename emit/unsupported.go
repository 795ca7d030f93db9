// unsupported.go: UnsupportedError, the typed refusal of a structured
// function the convention cannot lay out: an OpSwitch of more than
// spirv.MaxWords words (32,766 cases with 32-bit literals), whose word
// count would not fit its 16 bits (SPIR-V specification 2.3). The emitter
// refuses such a switch rather than split it (emit/CONVENTION.md, "Limits").

package emit

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// MaxSwitchCases is the most cases (the default not counted) one OpSwitch
// with 32-bit literals may have: 3 + 2*cases words within spirv.MaxWords.
const MaxSwitchCases = (spirv.MaxWords - 3) / 2

// UnsupportedError is a structured function that is valid but that the
// emitter cannot encode: callers report it as the outcome `unsupported`,
// neither a finding nor a pass.
type UnsupportedError struct {
	Op    spirv.Op
	Words int // the instruction's length in words
	// Reason, when set, is what else the emitter cannot encode (the
	// module's size: MaxFillerWords).
	Reason string
}

// MaxFillerWords is the most filler words (the sum of the blocks'
// weights) the emitter lays out: 2^24 words, a 64 MiB module, sixteen
// times what the largest graph of a campaign can ask. A function that
// asks more is refused before anything is allocated.
const MaxFillerWords = 1 << 24

func (e *UnsupportedError) Error() string {
	if e.Reason != "" {
		return "unsupported: " + e.Reason
	}
	return fmt.Sprintf("unsupported: %s of %d words (%d cases) exceeds the %d words an instruction may have; a switch may have at most %d cases",
		e.Op, e.Words, (e.Words-3)/2, spirv.MaxWords, MaxSwitchCases)
}

// fits refuses an instruction of more than spirv.MaxWords words.
func fits(op spirv.Op, operands []uint32) error {
	if n := 1 + len(operands); n > spirv.MaxWords {
		return &UnsupportedError{Op: op, Words: n}
	}
	return nil
}

// fillerFits refuses a function whose blocks' weights add up to more than
// MaxFillerWords.
func fillerFits(f *structurizer.Func) error {
	words := 0
	for _, b := range f.Blocks {
		if words += b.Weight; words > MaxFillerWords {
			return &UnsupportedError{Reason: fmt.Sprintf("the blocks' weights add up to more than the %d filler words a module may carry", MaxFillerWords)}
		}
	}
	return nil
}

// MaxIDBound is the largest id bound a module may declare: SPIR-V's
// universal limit of 4,194,303 ids (specification, "Universal Limits"),
// which SPIRV-Tools' validator enforces.
const MaxIDBound = 0x3FFFFF

// idsFit refuses a module that needs more ids than SPIR-V allows.
func idsFit(b *builder) error {
	if b.bound+1 > MaxIDBound {
		return &UnsupportedError{Reason: fmt.Sprintf("the module needs %d ids, more than the %d SPIR-V allows", b.bound+1, MaxIDBound)}
	}
	return nil
}
