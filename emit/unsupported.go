// unsupported.go: UnsupportedError, the typed refusal of a structured
// function the convention cannot lay out: an OpSwitch of more than
// 16,383 (literal, label) pairs, cases to the default's label left out
// (withoutDefaultCases), SPIR-V's universal limit (specification
// 2.17, which spirv-val enforces; the 65,535 words of one instruction,
// 2.3, would hold twice as many), a module past the filler or id limits.
// The emitter refuses such a switch rather than split it
// (emit/CONVENTION.md, "Limits").

package emit

import (
	"fmt"

	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/structurizer"
)

// MaxSwitchCases is the most cases (the default not counted) one OpSwitch
// may have: SPIR-V's universal limit on its (literal, label) pairs. A
// case whose label is the default's is not written, and not counted.
const MaxSwitchCases = 16383

// UnsupportedError is a structured function that is valid but that the
// emitter cannot encode: callers report it as the outcome `unsupported`,
// neither a finding nor a pass.
type UnsupportedError struct {
	Op    spirv.Op
	Words int // the instruction's length in words
	Cases int // an OpSwitch's cases, past MaxSwitchCases; 0 for the others
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
	switch {
	case e.Reason != "":
		return "unsupported: " + e.Reason
	case e.Cases > 0:
		return fmt.Sprintf("unsupported: %s of %d cases exceeds the %d (literal, label) pairs SPIR-V allows one switch (universal limits)",
			e.Op, e.Cases, MaxSwitchCases)
	}
	return fmt.Sprintf("unsupported: %s of %d words exceeds the %d words an instruction may have", e.Op, e.Words, spirv.MaxWords)
}

// switchFits refuses an OpSwitch (selector, default, then the pairs) of
// more than MaxSwitchCases cases or spirv.MaxWords words.
func switchFits(operands []uint32) error {
	n := 1 + len(operands)
	if cases := (len(operands) - 2) / 2; cases > MaxSwitchCases {
		return &UnsupportedError{Op: spirv.OpSwitch, Words: n, Cases: cases}
	}
	if n > spirv.MaxWords {
		return &UnsupportedError{Op: spirv.OpSwitch, Words: n}
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
