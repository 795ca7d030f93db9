// Package oracletest holds test doubles of the oracle's seams for the
// tests of the packages that run the checks (corpus, fuzz, cmd/cfgfuzz):
// an Executor whose runs wait on the test, for checks held past a check
// limit.
package oracletest

import (
	"github.com/cfgfuzz/cfgfuzz/emit/spirv"
	"github.com/cfgfuzz/cfgfuzz/oracle"
)

// Held is the interpreter, each call waiting until Release is closed: an
// exec check that runs past the check limit.
type Held struct{ Release chan struct{} }

// Name is "held".
func (Held) Name() string { return "held" }

// Execute waits for Release, then runs the module on the interpreter.
func (h Held) Execute(module []byte, batch *spirv.Batch, walks int) ([]spirv.Observed, error) {
	<-h.Release
	return oracle.Interpreter{}.Execute(module, batch, walks)
}
