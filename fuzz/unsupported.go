// unsupported.go: how a campaign records a function the emitter cannot
// encode (emit.UnsupportedError, emit/CONVENTION.md "Limits"): refused,
// with a reason starting "unsupported:", not a finding; any other emitter
// error is the finding emit:malformed-function.

package fuzz

import (
	"errors"

	"github.com/cfgfuzz/cfgfuzz/emit"
)

// emitOutcome is the outcome, signature and detail of an emitter error.
func emitOutcome(err error) (outcome, signature, detail string) {
	var ue *emit.UnsupportedError
	if errors.As(err, &ue) {
		return OutRefused, "", firstLine(ue.Error())
	}
	return OutInvalid, "emit:malformed-function", firstLine(err.Error())
}
